"""Example-dependent costs in every boosting method (issue 8 point 1): test savings on the three business
datasets, next to the cost-sensitive tree and Bayes minimum risk.

Data: ``tasks.datasets.load_dataset`` of ``credit-scoring``, ``direct-marketing`` and ``card-fraud``, every
row. Costs: each dataset's registered cost model with its default (paper) parameters, fitted on the training
rows only (``tasks.cost_models.fit_cost_model``).

Protocols (``tasks.fitting.splits.make_split``, repeat 0, seed 0): ``holdout`` (stratified 50/50: every
method fits on the training half; CSDT holds 30 % of it out for its cost pruning) and ``tvt`` (the CSDT
paper's stratified train / validation / test, 40/30/30: every method fits on the training 40 %, CSDT prunes on
the validation 30 %). Each method is fit as ``compare`` fits it
(``tasks.fitting.cost_selection.fit_with_cost_selection``): with ``fit(X, y, cost_matrix=...)``, a fixed-cost
method choosing C- by savings first (on the training rows under ``holdout``, on the validation rows under
``tvt``; ``tasks.fitting.cost_selection.regret_scale_grid``). All are scored on the test rows by savings (CSDT
Eq. 4) and F1; methods whose ``predict`` takes the rows' costs (AdaMEC, AdaMEC-Cal, CGAda-Cal, BMR) get the
test rows' ``cost_matrix``.

Methods: every boosting method of ``algorithms.boosting.BOOSTING_METHODS`` with ``n_estimators=ROUNDS``
stumps (SMOTEBoost and WOTBoost: their depth-3 tree); ``"csdt"`` (cost tree, cost pruning) and ``"bmr-lr"``
(calibrated logistic regression with the Bayes minimum risk decision). A fit that raises is shown as
``error`` with its message below the table.

Run: ``python -m benchmarks example_costs`` (``--quick``: 20 rounds, direct-marketing only). Results go to
``docs/results/example-dependent-costs.md``.
"""

from __future__ import annotations

import time
import traceback
import warnings
from pathlib import Path

import numpy as np

from algorithms import METHODS
from algorithms.boosting import BOOSTING_METHODS
from algorithms.exceptions import CostMatrixIgnoredWarning
from algorithms.metrics import f1, savings_score
from benchmarks._report import write_section

REPORT = Path(__file__).resolve().parents[1] / "docs" / "results" / "example-dependent-costs.md"
HEADER = (
    "# Example-dependent costs in the boosting methods: savings on the business datasets\n"
    "\n"
    "Written by `python -m benchmarks example_costs` (`benchmarks/bench_example_costs.py`; its docstring\n"
    "gives the protocol). How each method uses a cost matrix: `docs/example-dependent-costs.md`.\n"
)
DATASETS = ("credit-scoring", "direct-marketing", "card-fraud")
PROTOCOLS = ("holdout", "tvt")
ROUNDS, QUICK_ROUNDS = 100, 20
REFERENCE_METHODS = ("csdt", "bmr-lr")


def load_business(name: str):
    """Features (DataFrame), 0/1 target and row count of a business dataset, every row."""
    from tasks.datasets import load_dataset

    dataset = load_dataset(name)
    target = np.asarray(dataset.target).astype(int)
    return dataset.features.reset_index(drop=True), target, target.size


def split_problem(name: str, features, target, protocol: str):
    """Arrays and cost matrices of one split; the cost model is fitted on the training rows only."""
    from tasks.cost_models import fit_cost_model
    from tasks.fitting.splits import make_split

    split = make_split(target, protocol, repeat=0, seed=0)
    cost_model = fit_cost_model(name, features.iloc[split.train], target[split.train])

    def part(rows):
        return (
            features.iloc[rows].to_numpy(dtype=float),
            target[rows],
            cost_model.cost_matrix(features.iloc[rows]),
        )

    return part(split.train), part(split.validation) if split.validation.size else None, part(split.test)


def build(key: str, rounds: int):
    estimator = METHODS[key]()
    params = {"random_state": 0} if "random_state" in estimator.get_params() else {}
    if "n_estimators" in estimator.get_params() and key in BOOSTING_METHODS:
        params["n_estimators"] = rounds
    return estimator.set_params(**params)


def fit_and_score(key: str, rounds: int, train, validation, test):
    """Fit one method as ``compare`` does and score it on the test rows: (savings, F1, share flagged, s)."""
    from tasks.fitting.cost_selection import fit_with_cost_selection
    from tasks.fitting.evaluate import predict_labels

    (X_train, y_train, c_train), (X_test, y_test, c_test) = train, test
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CostMatrixIgnoredWarning)
        fitted = fit_with_cost_selection(
            build(key, rounds),
            X_train,
            y_train,
            cost_matrix=c_train,
            validation=validation,
            fit_params={"validation": validation} if key == "csdt" and validation is not None else None,
        )
    seconds = time.perf_counter() - started
    predicted = predict_labels(fitted.model, X_test, c_test)
    return (
        savings_score(y_test, predicted, c_test),
        f1(y_test, predicted),
        float(np.mean(predicted == 1)),
        seconds,
    )


def run(datasets, rounds, keys=None):
    """Every (dataset, protocol, method) result, and the error messages of fits that raised."""
    results, errors, sizes = {}, {}, {}
    keys = keys or [*BOOSTING_METHODS, *REFERENCE_METHODS]
    for name in datasets:
        features, target, full_rows = load_business(name)
        sizes[name] = (full_rows, target.size, int(target.sum()))
        for protocol in PROTOCOLS:
            train, validation, test = split_problem(name, features, target, protocol)
            for key in keys:
                try:
                    results[name, protocol, key] = fit_and_score(key, rounds, train, validation, test)
                except Exception as error:  # a method that cannot fit these costs is a result too
                    results[name, protocol, key] = None
                    errors[name, protocol, key] = f"{type(error).__name__}: {error}".splitlines()[0]
                    traceback.print_exc()
                outcome = results[name, protocol, key]
                shown = "error" if outcome is None else f"savings {outcome[0]:.3f} ({outcome[3]:.1f} s)"
                print(f"  {name} {protocol} {key}: {shown}", flush=True)
    return results, errors, sizes


def table(results, errors, sizes, datasets, keys=None) -> str:
    keys = keys or [*BOOSTING_METHODS, *REFERENCE_METHODS]
    columns = [(name, protocol) for name in datasets for protocol in PROTOCOLS]
    header = "| method | " + " | ".join(f"{name} {protocol}" for name, protocol in columns) + " |"
    lines = [header, "|" + "---|" * (len(columns) + 1)]
    for key in keys:
        cells = []
        for name, protocol in columns:
            outcome = results.get((name, protocol, key))
            if (name, protocol, key) not in results:
                cells.append("–")  # not run in this table
            elif outcome is None:
                cells.append("error")
            else:
                cells.append(f"{outcome[0]:.3f} (F1 {outcome[1]:.2f}, {outcome[2]:.1%} pos)")
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    best = []
    for name, protocol in columns:
        boosting = [
            (outcome[0], key)
            for key in BOOSTING_METHODS
            if (outcome := results.get((name, protocol, key))) is not None
        ]
        if not boosting:
            continue
        value, key = max(boosting)
        tree = results.get((name, protocol, "csdt"))
        if (name, protocol, "csdt") not in results:
            tree_text = "in another table"
        else:
            tree_text = "error" if tree is None else f"{tree[0]:.3f}"
        best.append(f"- {name} {protocol}: best boosting {key} {value:.3f}; CSDT {tree_text}")
    size_lines = [
        f"- {name}: {rows:,} rows used of {full:,} ({positives:,} positives)"
        for name, (full, rows, positives) in sizes.items()
    ]
    error_lines = [
        f"- {name} {protocol} {key}: {message}" for (name, protocol, key), message in errors.items()
    ]
    return "\n".join(
        [
            "Test savings (CSDT Eq. 4; 1 = no cost, 0 = the cheaper trivial classifier, negative = worse), "
            "test F1 and the share of test rows predicted positive.",
            "",
            *lines,
            "",
            "Best boosting method against the cost-sensitive tree:",
            "",
            *best,
            "",
            "Data:",
            "",
            *size_lines,
            *(["", "Fits that raised:", "", *error_lines] if error_lines else []),
        ]
    )


def main(quick: bool) -> None:
    datasets = ("direct-marketing",) if quick else DATASETS
    rounds = QUICK_ROUNDS if quick else ROUNDS
    results, errors, sizes = run(datasets, rounds)
    body = table(results, errors, sizes, datasets)
    print(body)
    write_section(
        "example_costs" + ("_quick" if quick else ""),
        f"Savings with example-dependent costs, {rounds} rounds",
        body,
        "python -m benchmarks example_costs" + (" --quick" if quick else ""),
        report=REPORT,
        header=HEADER,
    )
