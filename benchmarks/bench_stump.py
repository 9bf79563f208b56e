"""Stump round benchmark (issue 13, points 0 and 1): the default weak learner against the least-work scan.

Problem: the 45,000 x 50 problem of ``benchmarks/_problem.py``, with the weights AdaBoost trains its 1st,
20th and 100th stump on (how much of the search the bounds skip depends on the round).

Rows of the first table: one ``PresortedStumpSearch.fit`` call (validation, the search, the leaves: a whole
stump round of the boosting loop) per criterion, input dtype and thread count, and its ratio to the
**least-work scan** timed in the same loop: one compiled pass per feature over the presorted rows that gathers
each row's signed weight and keeps the two class sums (``least_work_scan`` below), i.e. the memory traffic and
additions any exact search needs. Calls are interleaved (least-work scan, then every search, for each weight
set, ``REPEATS`` times), so load swings hit every row alike; ratios are of medians.

The second table splits one gini round into its parts and shows what the bounds save: a plain scan that scores
every candidate (the same kernels, no bounds; the previous stump's design) per criterion.

The coded-features table measures the features of few values (one-hot columns, counts) on the two largest
AdaCC datasets, adult and bank (their first 80 % of rows, a training fold's size): a gini round of the default
search, which codes them (``algorithms/boosting/_stump_codes.py``), against the same search with every
feature sorted (the design before), each with the least work of its own design: the sorted scan over every
feature, or one addition per stored row of the coded features plus the sorted scan of the others.

The third table shows how the threads behave when the machine is shared: ms per gini round with one thread,
with two threads always, with the default (a helper thread only when a CPU is idle as the pass starts), and
with numba's ``parallel=True`` loop over features (the alternative that was measured and rejected), alone,
next to a process busy on the other core, and with two fits at once (two threads of one process: the compare
flow's default runner; two processes: a process pool or two workers).
Each scenario runs in fresh worker processes (``python -m benchmarks.bench_stump --worker ...``).

Run: ``python -m benchmarks stump`` (``--quick``: fewer repeats and rounds).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

from algorithms.boosting import _stump
from algorithms.boosting._stump import CRITERIA, PresortedStumpSearch
from benchmarks._problem import PROBLEM, boosting_weights, busy_process, load_average, load_note, make_problem
from benchmarks._report import write_section

ROUNDS = (1, 20, 100)  # AdaBoost rounds whose weights the stump is timed on
REPEATS, QUICK_REPEATS = 15, 5
WORKER_ROUNDS, QUICK_WORKER_ROUNDS = 300, 120
REPO = Path(__file__).resolve().parents[1]
THREAD_MODES = {  # label -> worker mode
    "1 thread": "serial",
    "2 threads always": "two",
    "default: a helper when a CPU is idle": "default",
    "numba parallel=True (prange over features)": "prange",
}
WORKER_THREADS = {"serial": 1, "two": 2, "default": None, "prange": 2}
SCENARIOS = {
    "alone": (1, 1, False),  # (processes, fits per process, busy process)
    "a process busy on the other core": (1, 1, True),
    "two fits at once, two threads of one process": (1, 2, False),
    "two fits at once, two processes": (2, 1, False),
}


@njit(cache=True, nogil=True)
def least_work_scan(sorted_order, signed_weights):
    """The least work of an exact round: per feature, gather each presorted row's weight and sum by class."""
    n_samples, n_features = sorted_order.shape
    checksum = 0.0
    for feature in range(n_features):
        negative = positive = 0.0
        for position in range(n_samples):
            weight = signed_weights[sorted_order[position, feature]]
            positive += max(weight, 0.0)
            negative += max(-weight, 0.0)
        checksum += negative + positive
    return checksum


@njit(cache=True, nogil=True)
def plain_scan(arrays, totals, criterion):
    """Score every candidate of every feature (no bounds): the search's exact scan over all chunks.

    ``arrays`` as :func:`algorithms.boosting._stump._best_split` takes them.
    """
    n_features, n_chunks = arrays[0].shape[1], arrays[3].shape[2] - 1
    best = (-np.inf, -1, -1)
    for feature in range(n_features):
        for chunk in range(n_chunks):
            best = _stump._scan_chunk(arrays, totals, criterion, feature, chunk, best)
    return best


@njit(cache=True, parallel=True)
def _summarise_in_prange(sorted_order, signed_weights, totals, criterion, sums_and_bounds, candidates):
    n_features = sorted_order.shape[1]
    for pair in prange((n_features + 1) // 2):
        first, stop = 2 * pair, min(2 * pair + 2, n_features)
        _stump._summarise_features(
            sorted_order, signed_weights, totals, criterion, sums_and_bounds, candidates, first, stop
        )


@njit(cache=True, nogil=True)
def least_work_coded(row_starts, entry_codes, y01, weights, class_sums):
    """The least work of the coded features' round: one addition per stored row, into its code's class."""
    for row in range(y01.shape[0]):
        for entry in range(row_starts[row], row_starts[row + 1]):
            class_sums[entry_codes[entry], y01[row]] += weights[row]
    return class_sums[0, 0]


def time_coded(repeats):
    """ms per gini round (float64, one thread, round-20 weights) with and without coded features."""
    return {name: _time_coded_dataset(name, repeats) for name in ("adult", "bank")}


def _time_coded_dataset(name, repeats):
    from benchmarks._evidence import load_arrays

    X, y, _ = load_arrays(name)
    rows = int(0.8 * y.size)
    X, y = np.asfortranarray(X[:rows]), y[:rows].astype(np.int64)
    weights = boosting_weights(X, y, 20)
    coded = PresortedStumpSearch(X, "gini", n_threads=1)
    worth_coding = _stump.is_worth_coding
    _stump.is_worth_coding = lambda *_: False
    try:
        every_sorted = PresortedStumpSearch(X, "gini", n_threads=1)
    finally:
        _stump.is_worth_coding = worth_coding
    signed = _signed(y, weights)
    codes = coded._coded
    class_sums = np.zeros((max(codes.n_codes, 1), 2))

    def least_coded():
        least_work_coded(codes.row_starts, codes.entry_codes, y, weights, class_sums)
        least_work_scan(coded.sorted_order, signed)

    calls = {
        "coded": lambda: coded.fit(y, weights),
        "every feature sorted": lambda: every_sorted.fit(y, weights),
        "least work, coded": least_coded,
        "least work, every feature sorted": lambda: least_work_scan(every_sorted.sorted_order, signed),
    }
    timings = {label: [] for label in calls}
    for repeat in range(repeats + 1):  # the first pass loads numba's cache and is not counted
        for label, call in calls.items():
            elapsed = _wall_and_cpu(call)[1]
            if repeat:
                timings[label].append(elapsed)
    stump_coded, stump_sorted = coded.fit(y, weights), every_sorted.fit(y, weights)
    return {
        "shape": X.shape,
        "coded_features": codes.n_features,
        "stored_per_row": codes.entry_codes.size / y.size,
        "same_stump": (stump_coded.feature_, stump_coded.threshold_)
        == (stump_sorted.feature_, stump_sorted.threshold_),
        **{label: statistics.median(values) for label, values in timings.items()},
    }


def _seconds(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _wall_and_cpu(call):
    """Wall seconds and CPU seconds of the calling thread (the latter ignores time the thread waits for a
    CPU, so it stays comparable on a loaded machine; it misses the helper thread's work)."""
    wall, cpu = time.perf_counter(), time.thread_time()
    call()
    return time.perf_counter() - wall, time.thread_time() - cpu


def _signed(y, weights):
    return np.where(y == 1, weights, -weights)


def time_rounds(repeats):
    """Wall and thread-CPU seconds of every search variant and of the least-work scan, interleaved.

    Returns ``least[t]`` and ``seconds[key][t]``: lists of ``(wall, cpu)`` per repeat for the weights of
    round ``t``, the same repeat at the same index.
    """
    X, y = make_problem()
    weight_sets = {t: boosting_weights(X, y, t) for t in ROUNDS}
    searches = {}
    for dtype in (np.float64, np.float32):
        features = X.astype(dtype)
        for criterion in CRITERIA:
            for threads in (1, None):
                searches[(criterion, np.dtype(dtype).name, threads)] = PresortedStumpSearch(
                    features, criterion, n_threads=threads
                )
    order = searches[("gini", "float64", 1)].sorted_order
    least = {t: [] for t in ROUNDS}
    seconds = {key: {t: [] for t in ROUNDS} for key in searches}
    for repeat in range(repeats + 1):  # the first pass loads numba's cache and is not counted
        for t, weights in weight_sets.items():
            signed = _signed(y, weights)
            timing = _wall_and_cpu(lambda signed=signed: least_work_scan(order, signed))
            if repeat:
                least[t].append(timing)
            for key, search in searches.items():
                timing = _wall_and_cpu(lambda search=search, weights=weights: search.fit(y, weights))
                if repeat:
                    seconds[key][t].append(timing)
    return X, y, weight_sets, least, seconds


def time_parts(X, y, weight_sets, repeats):
    """One gini round (float64, one thread) split into its parts, and the plain scan of every criterion."""
    weights = weight_sets[20]
    search = PresortedStumpSearch(X, "gini", n_threads=1)
    search.fit(y, weights)  # fills the signed weights
    totals = (weights[y == 0].sum(), weights[y == 1].sum())
    order, signed = search.sorted_order, search._signed_weights
    sums, bounds, candidates = search._boundary_sums, search._group_bounds, search._candidate_chunks
    arrays = (order, search.rises, signed, sums, search.sorted_features, candidates)
    n_features = order.shape[1]

    def summarise(criterion):
        _stump._summarise_features(
            order, signed, totals, CRITERIA[criterion], (sums, bounds), candidates, 0, n_features
        )

    def best_split(criterion):
        _stump._best_split(arrays, bounds, totals, CRITERIA[criterion], (-np.inf, -1, -1))

    def plain(criterion):
        summarise(criterion)
        plain_scan(arrays, totals, CRITERIA[criterion])

    parts = {
        "least-work scan": lambda: least_work_scan(order, signed),
        "whole round (`PresortedStumpSearch.fit`)": lambda: search.fit(y, weights),
        "boundary sums + group bounds (the pass over the rows)": lambda: summarise("gini"),
        "bounded search and exact rescans": lambda: best_split("gini"),
    }
    for criterion in CRITERIA:
        parts[f"plain scan, every candidate scored, {criterion}"] = lambda c=criterion: plain(c)
    timings = {name: [] for name in parts}
    for repeat in range(repeats + 1):
        for name, call in parts.items():
            if name == "bounded search and exact rescans":
                summarise("gini")  # its input: this round's boundary sums and gini group bounds
            elapsed = _seconds(call)
            if repeat:
                timings[name].append(elapsed)
    medians = {name: statistics.median(values) for name, values in timings.items()}
    medians["rest of the round (checks, signed weights, leaves)"] = (
        medians["whole round (`PresortedStumpSearch.fit`)"]
        - medians["boundary sums + group bounds (the pass over the rows)"]
        - medians["bounded search and exact rescans"]
    )
    return medians


# --------------------------------------------------------------------------------------- thread scenarios
def _use_prange():
    """Make every search run its pass over the rows as one numba ``parallel=True`` loop (benchmark only)."""

    def run_blocks(work, n_blocks, n_threads):
        search = work.func.__self__  # work = partial(search._summarise_block, totals=..., signed=..., ...)
        _summarise_in_prange(
            search.sorted_order,
            work.keywords["signed"],
            work.keywords["totals"],
            search._criterion_code,
            (search._boundary_sums, search._group_bounds),
            work.keywords["candidate_chunks"],
        )

    _stump.run_blocks = run_blocks


def worker(mode, fits, rounds, start_at):
    """Run ``fits`` concurrent loops of ``rounds`` gini rounds (threads of this process); print seconds."""
    X, y = make_problem()
    weights = boosting_weights(X, y, 20)
    searches = [PresortedStumpSearch(X, "gini", n_threads=WORKER_THREADS[mode]) for _ in range(fits)]
    if mode == "prange":
        _use_prange()
    searches[0].fit(y, weights)  # loads numba's cache (and starts numba's threads for prange)
    per_round = [[] for _ in searches]

    def loop(index):
        for _ in range(rounds):
            per_round[index].append(_seconds(lambda: searches[index].fit(y, weights)))

    time.sleep(max(start_at - time.time(), 0.0))
    threads = [threading.Thread(target=loop, args=(index,)) for index in range(fits)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps([value for values in per_round for value in values]))


def run_scenario(mode, processes, fits, busy, rounds):
    """Start the scenario's worker processes together; return every round's seconds (or the failure)."""
    start_at = time.time() + 6.0  # imports, problem and presort happen before the common start
    command = [sys.executable, "-m", "benchmarks.bench_stump", "--worker", mode, str(fits), str(rounds)]
    command.append(str(start_at))
    environment = {**os.environ, "PYTHONPATH": str(REPO)}

    def launch():
        pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        return [subprocess.Popen(command, cwd=REPO, env=environment, **pipes) for _ in range(processes)]

    if busy:
        with busy_process():
            workers = launch()
            outputs = [worker.communicate() for worker in workers]
    else:
        workers = launch()
        outputs = [worker.communicate() for worker in workers]
    seconds = []
    for worker_process, (stdout, stderr) in zip(workers, outputs, strict=True):
        if worker_process.returncode != 0:
            last_line = stderr.decode().strip().splitlines()[-1:] or [f"exit {worker_process.returncode}"]
            return f"failed: {last_line[0]}"
        seconds += json.loads(stdout.decode().strip().splitlines()[-1])
    return seconds


def time_scenarios(rounds):
    results = {}
    for scenario, (processes, fits, busy) in SCENARIOS.items():
        for label, mode in THREAD_MODES.items():
            print(f"  {scenario}: {label}", flush=True)
            results[(scenario, label)] = run_scenario(mode, processes, fits, busy, rounds)
    return results


# ------------------------------------------------------------------------------------------------ report
def _paired_ratio(timings, reference, which):
    """Median over repeats and rounds of ``timing / reference timing`` of the same repeat (0 wall, 1 CPU)."""
    return statistics.median(
        timing[which] / base[which]
        for t in ROUNDS
        for timing, base in zip(timings[t], reference[t], strict=True)
    )


def _median_ms(timings, which):
    return 1e3 * statistics.median(timing[which] for values in timings.values() for timing in values)


def render_coded(coded):
    lines = [
        "Features of few values, coded (CPU ms per gini round, float64, one thread, round-20 weights of "
        "AdaBoost; medians):",
        "",
        "| dataset (training rows x features) | coded features | stored rows per row | coded: ms | "
        "x its least work | every feature sorted: ms | x its least work | sorted / coded | same stump |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, result in coded.items():
        rows, features = result["shape"]
        lines.append(
            f"| {name} ({rows:,} x {features}) | {result['coded_features']} | "
            f"{result['stored_per_row']:.1f} | {1e3 * result['coded']:.2f} | "
            f"{result['coded'] / result['least work, coded']:.2f} | "
            f"{1e3 * result['every feature sorted']:.2f} | "
            f"{result['every feature sorted'] / result['least work, every feature sorted']:.2f} | "
            f"{result['every feature sorted'] / result['coded']:.2f} | "
            f"{'yes' if result['same_stump'] else 'no'} |"
        )
    return "\n".join(lines)


def render(least, seconds, parts, scenarios, load_before, repeats, rounds):
    lines = [
        f"Problem: {PROBLEM}, as float64 and as float32; the weights of AdaBoost's rounds "
        f"{', '.join(map(str, ROUNDS))}; {repeats} interleaved repeats per weight set. "
        f"{load_note(load_before)}",
        "",
        "Least-work scan (one pass per feature over the presorted rows: gather, two running class sums; one "
        f"thread): **{_median_ms(least, 0):.2f} ms** per round (median over the rounds; "
        f"{_median_ms(least, 1):.2f} ms of CPU).",
        "",
        "| criterion | input | threads | ms per round (median) | x least-work | x least-work, slowest round "
        "| x least-work, CPU time (1 thread) | entropy / gini |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for (criterion, dtype, threads), timings in seconds.items():
        slowest = max(
            statistics.median(timing[0] / base[0] for timing, base in zip(timings[t], least[t], strict=True))
            for t in ROUNDS
        )
        gini = seconds[("gini", dtype, threads)]
        cpu_ratio = f"{_paired_ratio(timings, least, 1):.2f}" if threads == 1 else "n/a"
        lines.append(
            f"| {criterion} | {dtype} | {threads or 'default'} | {_median_ms(timings, 0):.2f} | "
            f"{_paired_ratio(timings, least, 0):.2f} | {slowest:.2f} | {cpu_ratio} | "
            f"{_median_ms(timings, 0) / _median_ms(gini, 0):.2f} |"
        )
    lines += [
        "",
        "Targets (issue 13): a round within 2x the least-work scan for every criterion and dtype; entropy "
        "within 1.5x of gini. A whole round includes the input checks, the signed weights, the search and "
        "the leaves' class sums. Ratios are medians of per-repeat ratios (each call against the least-work "
        "scan of the same repeat); the CPU-time ratio counts only the time the thread ran, so it holds on a "
        "loaded machine.",
        "",
        "One gini round (float64, one thread, round-20 weights) in parts, and the plain scan that scores "
        "every candidate (the previous design) for comparison:",
        "",
        "| part | ms (median) | x least-work |",
        "|---|---:|---:|",
    ]
    for name, value in parts.items():
        lines.append(f"| {name} | {1e3 * value:.2f} | {value / parts['least-work scan']:.2f} |")
    lines += [
        "",
        f"Threads when the machine is shared: ms per gini round (float64, round-20 weights), {rounds} rounds "
        "per fit, every fit in a fresh worker process; median and mean over all rounds of all fits (the mean "
        "shows stalls). numba's threading layer here: "
        f"`{_threading_layer()}`.",
        "",
        "| scenario | " + " | ".join(f"{label}: median / mean" for label in THREAD_MODES) + " |",
        "|---|" + "---:|" * len(THREAD_MODES),
    ]
    for scenario in SCENARIOS:
        cells = []
        for label in THREAD_MODES:
            result = scenarios[(scenario, label)]
            if isinstance(result, str):
                cells.append(result)
            else:
                cells.append(f"{1e3 * statistics.median(result):.2f} / {1e3 * statistics.fmean(result):.2f}")
        lines.append(f"| {scenario} | " + " | ".join(cells) + " |")
    lines += [
        "",
        'The default follows the rule "never oversubscribe": it takes a helper thread only when a CPU is '
        "idle as the pass starts (Linux counts the runnable threads in `/proc/loadavg`), because beside a "
        "busy process or another fit a second thread competes for a CPU and a helper descheduled in the "
        'middle of its block holds the round up. "alone" on a quiet machine shows what the helper gains; '
        "the other rows show what a second thread costs when no CPU is free. Blocks of features are "
        "claimed one at a time, so a helper scheduled late takes fewer of them, and a forked child starts "
        "its own helper. numba's `parallel=True` splits the features in advance and waits for every "
        "thread, and of its threading layers on Linux, GNU OpenMP is not fork-safe (a process pool "
        "forking after a fit can hang) and workqueue is not thread-safe (two fits in two threads abort "
        "the process).",
    ]
    return "\n".join(lines)


def _threading_layer():
    code = (
        "from benchmarks.bench_stump import _summarise_in_prange\n"
        "import numpy as np, numba\n"
        "_summarise_in_prange(np.zeros((4, 2), np.int32, order='F'), np.zeros(4), (1.0, 1.0), 0, "
        "(np.zeros((2, 2, 2)), np.zeros((2, 1))), np.zeros((2, 2), np.int64))\n"
        "print(numba.threading_layer())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, env={**os.environ}
    )
    return result.stdout.strip() or f"unknown ({result.stderr.strip().splitlines()[-1:]})"


def main(quick: bool = False) -> None:
    load_before = load_average()
    repeats = QUICK_REPEATS if quick else REPEATS
    rounds = QUICK_WORKER_ROUNDS if quick else WORKER_ROUNDS
    print("timing stump rounds against the least-work scan", flush=True)
    X, y, weight_sets, least, seconds = time_rounds(repeats)
    print("timing the parts of a round", flush=True)
    parts = time_parts(X, y, weight_sets, repeats)
    print("timing the coded features", flush=True)
    coded = time_coded(repeats)
    print("timing the thread scenarios", flush=True)
    scenarios = time_scenarios(rounds)
    body = render(least, seconds, parts, scenarios, load_before, repeats, rounds)
    body += "\n\n" + render_coded(coded)
    print(body)
    command = f"python -m benchmarks{' --quick' if quick else ''} stump"
    print(f"written to {write_section('stump', 'Stump round vs the least-work scan', body, command)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
    else:
        main(quick="--quick" in sys.argv[1:])
