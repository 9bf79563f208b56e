"""Dask for real: the small comparison on a loopback Dask cluster and on the local runner (issue 13.4).

A ``dask scheduler`` and two one-thread ``dask worker`` processes are started on 127.0.0.1 (as the test
``tests/flows/test_dask_cluster.py`` does); :data:`benchmarks._flows.SMALL_COMPARE` is run by the compare
flow's cell subflow on ``DaskTaskRunner`` (that cluster) and on the local default
``FitProcessTaskRunner(2)``, interleaved, against Prefect's temporary server. The workers load each cell's
dataset from the shared cache folder by name (nothing is scattered) and write the cell store the client
names. On one 2-core machine Dask cannot beat the local pool (same cores, more hops): the figure to read is
its overhead, i.e. what a second machine's cores must make up for.
"""

from __future__ import annotations

import os
import statistics

from benchmarks._flows import SMALL_COMPARE_TEXT, bench_home, dask_cluster, prefect_api, time_compare
from benchmarks._problem import load_average, load_note
from benchmarks._report import write_section


def main(quick: bool = False) -> None:
    from prefect_dask import DaskTaskRunner

    from flows.runners import FitProcessTaskRunner

    load_before = load_average()
    repeats = 1 if quick else 3
    walls: dict[str, list[float]] = {"local FitProcessTaskRunner(2)": [], "Dask, 2 workers x 1 thread": []}
    with bench_home(), prefect_api():
        with dask_cluster(2) as address:
            time_compare(DaskTaskRunner(address=address), "warm-dask")  # worker imports, datasets
            time_compare(FitProcessTaskRunner(2), "warm-local")
            for index in range(repeats):
                walls["local FitProcessTaskRunner(2)"].append(
                    time_compare(FitProcessTaskRunner(2), f"local-{index}")
                )
                walls["Dask, 2 workers x 1 thread"].append(
                    time_compare(DaskTaskRunner(address=address), f"dask-{index}")
                )
    load_after = os.getloadavg()[0]
    local = statistics.median(walls["local FitProcessTaskRunner(2)"])
    lines = ["| runner | wall s (median) | runs | speed-up over local |", "|---|---:|---:|---:|"]
    for name, values in walls.items():
        median = statistics.median(values)
        lines.append(f"| {name} | {median:.2f} | {len(values)} | {local / median:.2f}x |")
    body = (
        f"{load_note(load_before)} Load average at the end: {load_after:.2f}.\n\n"
        f"{SMALL_COMPARE_TEXT}; the cell subflow on each runner, interleaved, after one untimed warm-up run "
        "of each (the Dask workers' imports and dataset loads). Scheduler and workers are real processes "
        "on 127.0.0.1 of this 2-core machine, so Dask has no more cores than the local pool: a speed-up "
        "below 1 is its overhead (scheduling, result transfer, Prefect's task states through the client), "
        "not a verdict on a real cluster, where each added machine brings its own cores.\n\n"
        + "\n".join(lines)
        + "\n"
    )
    print(body)
    title = "Dask: a loopback cluster against the local runner"
    write_section("dask", title, body, "python -m benchmarks dask")
