"""Boosting benchmark (issue 2 point 7, issue 13 points 0 and 1): every boosting family per round, quiet and
loaded, and 200 rounds against scikit-learn.

Problem: the 45,000 x 50 problem of ``benchmarks/_problem.py`` (float64).

**Families per round.** Every method of ``algorithms.boosting.BOOSTING_METHODS`` (default weak learner: the
presorted stump; SMOTEBoost and WOTBoost: a depth-3 scikit-learn tree on the original plus synthetic rows;
the calibrated variants: ``calibration_folds`` + 1 stump ensembles) is fitted on a quiet machine and with a
second process spinning on the other core (started and stopped around each loaded fit), alternately,
``REPEATS`` times. Fit seconds are divided by the rounds fitted (for the calibrated variants, by the rounds
of all their ensembles). The whole sweep runs twice in fresh processes: with OpenBLAS free to start a thread
per CPU (the default) and with ``OPENBLAS_NUM_THREADS=1``, to show what the per-round reductions that still
go through BLAS cost when the other core is busy. Each quiet fit is also split into what the weak learner
costs (its fit; the presort, once per fit, counted apart), what its predictions cost (the loop asks the
learner for its output on the training rows every round) and the rest: the family's own rules (weights,
alpha, costs, votes, the trace; M2's synthetic rows; the calibration's folds and sigmoid). The parts are
timed by wrapping those methods for the benchmark.

**200 rounds against scikit-learn** (issue 2's targets): ``AdaBoostClassifier(DecisionTreeClassifier(
max_depth=1))`` against cslearn's AdaBoost, AdaCC1 and AdaCC2, with the peak memory of one more fit of each
cslearn model under ``tracemalloc`` as a multiple of ``X.nbytes``.

Run: ``python -m benchmarks boosting`` (``--quick``: fewer rounds and repeats).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

import numpy as np
from sklearn.ensemble import AdaBoostClassifier
from sklearn.tree import DecisionTreeClassifier

from algorithms.boosting import BOOSTING_METHODS
from algorithms.boosting._stump import DecisionStump, PresortedStumpSearch
from benchmarks._problem import PROBLEM, busy_process, load_average, load_note, make_problem
from benchmarks._report import write_section

REPO = Path(__file__).resolve().parents[1]
#: (rounds for stump families, rounds for SMOTEBoost/WOTBoost, repeats) of the family sweep.
FULL_SWEEP, QUICK_SWEEP = (50, 6, 2), (20, 2, 1)
#: (rounds, repeats) of the comparison with scikit-learn.
FULL_REFERENCE, QUICK_REFERENCE = (200, 3), (50, 1)
SYNTHETIC_FAMILIES = ("smoteboost", "wotboost")
BLAS_SETTINGS = {"OpenBLAS default threads": None, "OPENBLAS_NUM_THREADS=1": "1"}
WEAK_LEARNER_FIT, WEAK_LEARNER_OUTPUT, PRESORT = "weak learner fit", "weak learner output", "presort"
TIMED_METHODS = [
    (PresortedStumpSearch, "__init__", PRESORT),
    (PresortedStumpSearch, "fit", WEAK_LEARNER_FIT),
    (DecisionStump, "fit", WEAK_LEARNER_FIT),
    (DecisionTreeClassifier, "fit", WEAK_LEARNER_FIT),
    (DecisionStump, "predict", WEAK_LEARNER_OUTPUT),
    (DecisionStump, "predict_proba", WEAK_LEARNER_OUTPUT),
    (DecisionTreeClassifier, "predict", WEAK_LEARNER_OUTPUT),
    (DecisionTreeClassifier, "predict_proba", WEAK_LEARNER_OUTPUT),
]


class Stopwatch:
    """Seconds spent in some methods, by category; a call made inside a timed call counts once."""

    def __init__(self):
        self.seconds = defaultdict(float)
        self._depth = 0
        for owner, name, category in TIMED_METHODS:
            setattr(owner, name, self._timed(getattr(owner, name), category))

    def _timed(self, method, category):
        def timed(*args, **kwargs):
            if self._depth:
                return method(*args, **kwargs)
            self._depth += 1
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.seconds[category] += time.perf_counter() - start
                self._depth -= 1

        return timed

    def reset(self):
        self.seconds.clear()


def _rounds_fitted(model):
    """Rounds of every ensemble the model fitted (the calibrated variants fit one per fold and a final one,
    and keep only the final one: its rounds stand for each fold's)."""
    if hasattr(model, "calibrated_classifier_"):
        return len(model.ensemble_.estimators_) * (model.calibration_folds + 1)
    return len(model.estimators_)


def sweep(rounds, synthetic_rounds, repeats):
    """Fit every family quiet and loaded, alternately; per-round milliseconds and the quiet fits' parts."""
    from threadpoolctl import threadpool_info

    X, y = make_problem()
    stopwatch = Stopwatch()
    results = {}
    for key, method in BOOSTING_METHODS.items():
        n_estimators = synthetic_rounds if key in SYNTHETIC_FAMILIES else rounds
        method(n_estimators=2, random_state=0).fit(X[:2000], y[:2000])  # caches loaded, code paths warm
        runs = {"quiet": [], "loaded": []}
        parts = defaultdict(list)
        for _ in range(repeats):
            for condition in runs:
                stopwatch.reset()
                model = method(n_estimators=n_estimators, random_state=0)
                if condition == "loaded":
                    with busy_process():
                        start = time.perf_counter()
                        model.fit(X, y)
                        elapsed = time.perf_counter() - start
                else:
                    start = time.perf_counter()
                    model.fit(X, y)
                    elapsed = time.perf_counter() - start
                n_rounds = _rounds_fitted(model)
                runs[condition].append(1e3 * elapsed / n_rounds)
                if condition == "quiet":
                    for category, seconds in stopwatch.seconds.items():
                        parts[category].append(1e3 * seconds / n_rounds)
                    parts["total"].append(1e3 * elapsed / n_rounds)
        results[key] = {
            "rounds": n_rounds,
            "quiet": statistics.median(runs["quiet"]),
            "loaded": statistics.median(runs["loaded"]),
            "parts": {category: statistics.median(values) for category, values in parts.items()},
        }
        quiet, loaded = results[key]["quiet"], results[key]["loaded"]
        print(f"  {key}: {quiet:.2f} quiet / {loaded:.2f} loaded ms per round", file=sys.stderr, flush=True)
    blas_threads = [pool["num_threads"] for pool in threadpool_info() if pool["internal_api"] == "openblas"]
    return {"families": results, "blas_threads": blas_threads}


def run_sweep(blas_threads, rounds, synthetic_rounds, repeats):
    """The family sweep in a fresh process, ``OPENBLAS_NUM_THREADS`` set to ``blas_threads`` (or unset)."""
    environment = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    if blas_threads is not None:
        environment["OPENBLAS_NUM_THREADS"] = blas_threads
    environment["PYTHONPATH"] = str(REPO)
    command = [sys.executable, "-m", "benchmarks.bench_boosting", "--sweep"]
    command += [str(rounds), str(synthetic_rounds), str(repeats)]
    result = subprocess.run(command, cwd=REPO, env=environment, stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------------- 200 rounds vs sklearn
def peak_memory_of(function):
    """Run ``function()`` under tracemalloc; return the peak of newly traced bytes."""
    tracemalloc.start()
    try:
        function()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak


def compare_with_sklearn(rounds, repeats):
    """Fit scikit-learn's AdaBoost and cslearn's AdaBoost/AdaCC1/AdaCC2 ``repeats`` times, interleaved."""
    X, y = make_problem()
    models = {
        "scikit-learn AdaBoostClassifier (depth-1 trees)": lambda: AdaBoostClassifier(
            DecisionTreeClassifier(max_depth=1), n_estimators=rounds, random_state=0
        )
    }
    for key in ("adaboost", "adacc1", "adacc2"):
        models[f"cslearn {key}"] = lambda key=key: BOOSTING_METHODS[key](n_estimators=rounds, random_state=0)
    seconds = {name: [] for name in models}
    fitted = {}
    for repeat in range(repeats):
        for name, make in models.items():
            model = make()
            start = time.perf_counter()
            model.fit(X, y)
            seconds[name].append(time.perf_counter() - start)
            fitted[name] = model
            print(f"  repeat {repeat + 1}/{repeats} {name}: {seconds[name][-1]:.2f} s", flush=True)
    reference = next(iter(models))
    reference_median = statistics.median(seconds[reference])
    reference_predictions = fitted[reference].predict(X)
    rows = []
    for name, make in models.items():
        median = statistics.median(seconds[name])
        # tracemalloc does not see the C mallocs of scikit-learn's tree builder: no peak for the reference.
        peak = None if name == reference else peak_memory_of(lambda make=make: make().fit(X, y))
        rows.append(
            {
                "model": name,
                "rounds": len(fitted[name].estimators_),
                "median_s": median,
                "speedup": reference_median / median,
                "peak_x": None if peak is None else peak / X.nbytes,
                "agreement": float(np.mean(fitted[name].predict(X) == reference_predictions)),
            }
        )
    return rows, X.nbytes


# ------------------------------------------------------------------------------------------------ report
def render_families(sweeps, sweep_settings, load_before):
    rounds, synthetic_rounds, repeats = sweep_settings
    default, single = (sweeps[label] for label in BLAS_SETTINGS)
    lines = [
        f"Problem: {PROBLEM}, float64. {rounds} rounds ({synthetic_rounds} for SMOTEBoost and WOTBoost, "
        f"whose depth-3 trees cost more), {repeats} quiet and {repeats} loaded fits per method, alternating. "
        f"Loaded: a second process spinning on the other core. BLAS threads seen by numpy: "
        f"{default['blas_threads']} by default, {single['blas_threads']} with `OPENBLAS_NUM_THREADS=1`. "
        f"{load_note(load_before)}",
        "",
        "| method | rounds | ms per round, quiet | loaded | loaded / quiet | quiet, BLAS 1 thread "
        "| loaded, BLAS 1 thread | loaded / quiet, BLAS 1 thread | weak learner fit | its output "
        "| own rules and loop |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for key, row in default["families"].items():
        one = single["families"][key]
        parts = row["parts"]
        rules = parts["total"] - parts.get(WEAK_LEARNER_FIT, 0.0) - parts.get(WEAK_LEARNER_OUTPUT, 0.0)
        rules -= parts.get(PRESORT, 0.0)
        lines.append(
            f"| {key} | {row['rounds']} | {row['quiet']:.2f} | {row['loaded']:.2f} | "
            f"{row['loaded'] / row['quiet']:.2f} | "
            f"{one['quiet']:.2f} | {one['loaded']:.2f} | {one['loaded'] / one['quiet']:.2f} | "
            f"{parts.get(WEAK_LEARNER_FIT, 0.0):.2f} | {parts.get(WEAK_LEARNER_OUTPUT, 0.0):.2f} | "
            f"{rules:.2f} |"
        )
    lines += [
        "",
        "Target (issue 13, point 0): loaded / quiet no more than the lost core, i.e. at most 2. The last "
        "three columns split a quiet round (default BLAS threads): the weak learner's fit (the presorted "
        "stump, or the depth-3 tree of SMOTEBoost and WOTBoost), its output on the training rows (the "
        "learner's `predict` / `predict_proba`, including scikit-learn's input checks), and the rest: the "
        "method's own rules (weights, alpha, costs, votes, the trace; M2's synthetic rows; the calibrated "
        "variants' folds and sigmoid). The presort (once per fit) is in the total, not in the parts.",
    ]
    return "\n".join(lines)


def render_comparison(rows, nbytes, rounds, repeats):
    lines = [
        f"{rounds} rounds, {repeats} interleaved fits each; `X.nbytes` = {nbytes / 1e6:.1f} MB.",
        "",
        "| model | rounds | fit s (median) | speed-up vs scikit-learn (median) | peak memory / X.nbytes "
        "| training predictions equal to scikit-learn's |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        peak = "n/a" if row["peak_x"] is None else f"{row['peak_x']:.2f}"
        lines.append(
            f"| {row['model']} | {row['rounds']} | {row['median_s']:.2f} | {row['speedup']:.1f}x | {peak} | "
            f"{row['agreement']:.4f} |"
        )
    lines += [
        "",
        "Targets (issue 2): AdaBoost and AdaCC1 at least 5x faster than scikit-learn; peak memory at most 3x "
        "`X.nbytes` (tracemalloc: Python and numpy allocations; scikit-learn's tree builder allocates with C "
        "malloc, which it does not see). Last column: share of training rows on which the model predicts the "
        "label scikit-learn's AdaBoost predicts.",
    ]
    return "\n".join(lines)


def main(quick: bool = False) -> None:
    load_before = load_average()
    sweep_settings = QUICK_SWEEP if quick else FULL_SWEEP
    sweeps = {}
    for label, blas_threads in BLAS_SETTINGS.items():
        print(f"family sweep, {label}", flush=True)
        sweeps[label] = run_sweep(blas_threads, *sweep_settings)
    reference_rounds, reference_repeats = QUICK_REFERENCE if quick else FULL_REFERENCE
    print(f"{reference_rounds} rounds against scikit-learn", flush=True)
    rows, nbytes = compare_with_sklearn(reference_rounds, reference_repeats)
    body = (
        render_families(sweeps, sweep_settings, load_before)
        + f"\n\n### {reference_rounds} rounds against scikit-learn\n\n"
        + render_comparison(rows, nbytes, reference_rounds, reference_repeats)
    )
    print(body)
    command = f"python -m benchmarks{' --quick' if quick else ''} boosting"
    path = write_section("boosting", "Boosting families per round, quiet and loaded", body, command)
    print(f"written to {path}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--sweep"]:
        print(json.dumps(sweep(*(int(value) for value in sys.argv[2:5]))))
    else:
        main(quick="--quick" in sys.argv[1:])
