"""Höppner et al.'s (EJOR 2022) protocol on ULB card fraud, every strong method side by side (issue 22, 6a).

Data: ``card-fraud`` (284,807 transactions, 492 frauds), costs ``C_FP = C_TP = 10`` (the administrative
cost of an alert), ``C_FN = Amount``, ``C_TN = 0``, features ``Time, V1..V28`` and ``log(1 + Amount)`` in
place of the amount (:func:`benchmarks._strong.card_fraud_problem`). Protocol: 5 x 2 stratified
cross-validation (``RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=0)``): every method is
fitted on one half and scored on the other, ten times. Each method and its decisions:
:mod:`benchmarks._contenders` (those of :data:`CONTENDERS_HERE`). The table gives the mean test
savings (CSDT Eq. 4) over the ten folds, their standard deviation, and the published figures next to
them.

Run: ``python -m benchmarks hoppner`` (about an hour on two cores; ``--quick``: one 2-fold repeat on 40,000
rows, a few methods). The table is rewritten after every fold, with the folds done, in
``docs/results/strongest-methods.md``; finished folds are kept in ``$CSLEARN_BENCH_STATE`` (default: the
temporary directory) so that a rerun after an interruption goes on from there.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
import traceback
from pathlib import Path

from sklearn.model_selection import RepeatedStratifiedKFold

from benchmarks._contenders import CONTENDERS, savings_by_decision
from benchmarks._report import write_section
from benchmarks._strong import card_fraud_problem, load_uptime

REPORT = Path(__file__).resolve().parents[1] / "docs" / "results" / "strongest-methods.md"
HEADER = (
    "# The strongest example-dependent methods against the published figures\n"
    "\n"
    "Sections written by `python -m benchmarks hoppner` (protocol a) and `python -m benchmarks costcla`\n"
    "(protocol b); their docstrings give the protocols. Commentary below the sections.\n"
)
#: Höppner et al. (2022), ULB card fraud, 5 x 2 CV: savings.
PUBLISHED = {"cslogit": 0.716, "csboost": 0.684, "logistic regression": 0.648, "xgboost": 0.679}
QUICK_CONTENDERS = ("cslogit", "csboost", "logistic regression", "bmr-lr", "csdt")
#: Every contender but BMR-DT (its isotonic calibration of a deep tree took 90 s a fold for 0.60) and CGAda /
#: CSB2 (AdaMEC stands for the fixed-cost boosters, about 40 s a fold each), to keep the ten folds within
#: the hour; they run in protocols (b) and (c).
CONTENDERS_HERE = tuple(name for name in CONTENDERS if name not in ("bmr-dt", "cgada", "csb2"))


def _state_file(quick: bool) -> Path:
    folder = Path(os.environ.get("CSLEARN_BENCH_STATE") or tempfile.gettempdir())
    return folder / f"cslearn-hoppner{'-quick' if quick else ''}.json"


def run_fold(fold, train_rows, test_rows, X, y, costs, names):
    results = {}
    train, test = (
        (X[train_rows], y[train_rows], costs[train_rows]),
        (X[test_rows], y[test_rows], costs[test_rows]),
    )
    for name in names:
        started = time.perf_counter()
        try:
            decisions = CONTENDERS[name](train, test)
        except Exception as error:  # a method that cannot fit is a result too
            traceback.print_exc()
            results[name] = {"error": f"{type(error).__name__}: {error}".splitlines()[0]}
            continue
        scored = savings_by_decision(test[1], test[2], decisions)
        scored["seconds"] = time.perf_counter() - started
        results[name] = scored
        print(f"  fold {fold} {name}: {scored}", flush=True)
    return results


def _summary(values):
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.3f}"
    return f"{statistics.mean(values):.3f} ± {statistics.stdev(values):.3f}"


def table(folds, names) -> str:
    lines = [
        "| method | savings, rows' thresholds | savings, p > 0.5 | fit + predict s | published |",
        "|---|---|---|---|---|",
    ]
    for name in names:
        outcomes = [fold[name] for fold in folds.values() if name in fold]
        rows = [o["rows"] for o in outcomes if "rows" in o]
        half = [o["0.5"] for o in outcomes if "0.5" in o]
        seconds = [o["seconds"] for o in outcomes if "seconds" in o]
        errors = sorted({o["error"] for o in outcomes if "error" in o})
        published = PUBLISHED.get(name.removesuffix(" (tuned)"), "")
        cell = _summary(rows) if not errors else f"error: {errors[0]}"
        lines.append(
            f"| {name} | {cell} | {_summary(half)} | {statistics.median(seconds) if seconds else 0:.1f} | "
            f"{published} |"
        )
    chosen = [
        f"- fold {fold}: {name} {outcome['chosen']}"
        for fold, results in folds.items()
        for name, outcome in results.items()
        if "chosen" in outcome
    ]
    return "\n".join(
        [
            *lines,
            "",
            f"Published (Höppner et al. 2022, 5 x 2 CV): cslogit {PUBLISHED['cslogit']}, csboost "
            f"{PUBLISHED['csboost']}, logistic regression {PUBLISHED['logistic regression']}, xgboost "
            f"{PUBLISHED['xgboost']}.",
            *(
                [
                    "",
                    "Hyper-parameters the tuned rows chose (inner 2-fold CV on the training half):",
                    "",
                    *chosen,
                ]
                if chosen
                else []
            ),
        ]
    )


def protocol_problem(quick: bool):
    """Protocol (a)'s data, costs and folds, ``(X, y, costs, splitter)``; ``quick``: 40,000 rows, 1 repeat."""
    X, y, costs = card_fraud_problem()
    if quick:
        from benchmarks._strong import _subset

        rows = _subset(y, 40_000, 0)
        X, y, costs = X[rows], y[rows], costs[rows]
    return X, y, costs, RepeatedStratifiedKFold(n_splits=2, n_repeats=1 if quick else 5, random_state=0)


def main(quick: bool) -> None:
    X, y, costs, splitter = protocol_problem(quick)
    names = QUICK_CONTENDERS if quick else CONTENDERS_HERE
    state = _state_file(quick)
    folds = json.loads(state.read_text()) if state.exists() else {}
    load = load_uptime()
    for fold, (train_rows, test_rows) in enumerate(splitter.split(X, y)):
        if str(fold) in folds and set(names) <= set(folds[str(fold)]):
            continue
        folds[str(fold)] = run_fold(fold, train_rows, test_rows, X, y, costs, names)
        state.write_text(json.dumps(folds))
        body = (
            f"{len(folds)} of {splitter.get_n_splits()} folds done; load average at the start "
            f"{load}, now {load_uptime()}. Rows: {y.size:,} ({int(y.sum())} frauds).\n\n"
            + table(folds, names)
        )
        write_section(
            "hoppner" + ("_quick" if quick else ""),
            "(a) Höppner et al.'s protocol: ULB card fraud, 5 x 2 CV" + (" (quick)" if quick else ""),
            body,
            "python -m benchmarks hoppner" + (" --quick" if quick else ""),
            report=REPORT,
            header=HEADER,
        )
    print(table(folds, names))
