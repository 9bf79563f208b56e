"""Do two fits run at once on 2 cores? Threads against the worker-process pool (issue 13, point 3).

1. **Fits at once**: the same four AdaBoost fits (20,000 x 20, numba stump rounds) one after the other, on
   two threads (``ThreadPoolExecutor(2)``, what Prefect's ``ThreadPoolTaskRunner`` does) and on two worker
   processes (``tasks.fitting.fit_pool.FitPool(2)``, what ``FitProcessTaskRunner`` does; workers started
   and warmed before the clock starts). A speed-up near 1 on threads means the GIL (or BLAS oversubscription)
   serialises the fits; near 2 means both cores work.
2. **A small comparison**: :data:`benchmarks._flows.SMALL_COMPARE` run by the ``compare`` flow's cell subflow
   on ``ThreadPoolTaskRunner(1)``, ``ThreadPoolTaskRunner(2)`` and ``FitProcessTaskRunner(2)`` (the local
   default), interleaved, against Prefect's temporary server and a sqlite MLflow store; wall time of the flow
   (the process pool's start-up and imports included).
"""

from __future__ import annotations

import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from benchmarks._flows import SMALL_COMPARE_TEXT, bench_home, prefect_api, time_compare
from benchmarks._problem import load_average, load_note
from benchmarks._report import write_section

N_FITS = 4


def fit_once(rounds: int) -> float:
    """Fit AdaBoost with ``rounds`` stump rounds on a fixed 20,000 x 20 problem; seconds of the fit."""
    from sklearn.datasets import make_classification

    from algorithms.boosting import AdaBoost

    X, y = make_classification(n_samples=20_000, n_features=20, weights=[0.9], random_state=0)
    started = time.perf_counter()
    AdaBoost(n_estimators=rounds, random_state=0).fit(X, y)
    return time.perf_counter() - started


def _fits_at_once(rounds: int, repeats: int) -> dict[str, list[float]]:
    import algorithms.boosting
    from tasks.fitting.fit_pool import FitPool

    walls: dict[str, list[float]] = {"one at a time": [], "2 threads": [], "2 worker processes": []}
    pool = FitPool(2, warm_module=algorithms.boosting.__name__)
    threads = ThreadPoolExecutor(2)
    try:
        warm_up = [pool.submit(fit_once, 5) for _ in range(4)]  # both workers: imports, numba cache
        [future.result() for future in warm_up]
        fit_once(5)
        for _ in range(repeats):
            started = time.perf_counter()
            for _ in range(N_FITS):
                fit_once(rounds)
            walls["one at a time"].append(time.perf_counter() - started)
            started = time.perf_counter()
            list(threads.map(fit_once, [rounds] * N_FITS))
            walls["2 threads"].append(time.perf_counter() - started)
            started = time.perf_counter()
            [future.result() for future in [pool.submit(fit_once, rounds) for _ in range(N_FITS)]]
            walls["2 worker processes"].append(time.perf_counter() - started)
    finally:
        threads.shutdown()
        pool.close()
    return walls


def _small_compare(repeats: int) -> dict[str, list[float]]:
    from prefect.task_runners import ThreadPoolTaskRunner

    from flows.runners import FitProcessTaskRunner

    runners = {
        "ThreadPoolTaskRunner(1)": lambda: ThreadPoolTaskRunner(max_workers=1),
        "ThreadPoolTaskRunner(2)": lambda: ThreadPoolTaskRunner(max_workers=2),
        "FitProcessTaskRunner(2) (default)": lambda: FitProcessTaskRunner(max_workers=2),
    }
    walls: dict[str, list[float]] = {name: [] for name in runners}
    with bench_home(), prefect_api():
        time_compare(runners["ThreadPoolTaskRunner(2)"](), "warm-up")  # datasets cached, imports done
        for _ in range(repeats):
            for index, (name, make) in enumerate(runners.items()):
                walls[name].append(time_compare(make(), f"r{index}"))
    return walls


def _table(walls: dict[str, list[float]], reference: str) -> str:
    base = statistics.median(walls[reference])
    lines = ["| how | wall s (median) | runs | speed-up over the first row |", "|---|---:|---:|---:|"]
    for name, values in walls.items():
        median = statistics.median(values)
        lines.append(f"| {name} | {median:.2f} | {len(values)} | {base / median:.2f}x |")
    return "\n".join(lines)


def main(quick: bool = False) -> None:
    load_before = load_average()
    rounds, repeats = (30, 1) if quick else (100, 3)
    fits = _fits_at_once(rounds, repeats)
    compare = _small_compare(1 if quick else 2)
    load_after = os.getloadavg()[0]
    first = _table(fits, "one at a time")
    second = _table(compare, "ThreadPoolTaskRunner(1)")
    body = (
        f"{load_note(load_before)} Load average at the end: {load_after:.2f}.\n\n"
        f"**Fits at once**: {N_FITS} AdaBoost fits of {rounds} rounds on 20,000 x 20, {repeats} interleaved "
        "runs.\n\n"
        f"{first}\n\n"
        f"**A small comparison** ({SMALL_COMPARE_TEXT}), the cell subflow on each runner, interleaved.\n\n"
        f"{second}\n"
    )
    print(body)
    write_section("runners", "Local task runners: threads against worker processes", body,
                  "python -m benchmarks runners")  # fmt: skip
