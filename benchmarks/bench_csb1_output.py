"""CSB1's weak output decided by evidence (issue 8 point 1): discrete ``h = +-1`` (AdaCC Table 3 as printed)
against confidence-rated ``h = 2 p - 1`` (Ting 2000's real-valued predictions).

**AdaCC datasets** (every one reachable offline, ``benchmarks._evidence.adacc_offline_datasets``: 12):
stratified ``FOLDS``-fold CV (repeat 0, seed 0, ``tasks.fitting.splits.make_split``), ``T = ROUNDS`` stumps,
C- chosen on the training fold by F1 from the paper's grid {0.1, ..., 1.0} with C+ = 1
(``tasks.fitting.cost_selection.fit_with_cost_selection``, mode ``"train"``: the AdaCC paper's protocol);
score: test balanced accuracy (Table 8's measure).

**Business datasets** (``credit-scoring``, ``direct-marketing``, ``card-fraud``, every row): the stratified
50/50 ``holdout`` and the CSDT paper's ``tvt`` split (repeat 0, seed 0), each dataset's cost model fit on the
training rows, ``fit(X, y, cost_matrix=...)`` with C- chosen by savings
(``tasks.fitting.cost_selection.regret_scale_grid``; on the validation rows under ``tvt``); score: test
savings (CSDT Eq. 4) and the share of rows flagged.

Run: ``python -m benchmarks csb1_output`` (``--quick``: 3 datasets, 2 folds, 30 rounds, direct marketing
only). Results go to ``docs/results/csb1-weak-output.md``.
"""

from __future__ import annotations

import time

import numpy as np

from algorithms.boosting import CSB1
from algorithms.metrics import balanced_accuracy, savings_score
from benchmarks._evidence import adacc_offline_datasets, load_arrays, markdown_table, write_result

ROUNDS, FOLDS = 100, 5
QUICK = {"rounds": 30, "folds": 2, "datasets": 3}
OUTPUTS = ("confidence", "discrete")
BUSINESS = ("credit-scoring", "direct-marketing", "card-fraud")


def _fit(output, rounds, X, y, cost_matrix=None, validation=None):
    from tasks.fitting.cost_selection import fit_with_cost_selection

    estimator = CSB1(n_estimators=rounds, random_state=0, weak_output=output)
    return fit_with_cost_selection(estimator, X, y, cost_matrix=cost_matrix, validation=validation)


def adacc_scores(name, rounds, folds):
    """Mean test balanced accuracy of each weak output over the CV folds, C- chosen by training F1."""
    from tasks.fitting.splits import make_split

    X, y, _ = load_arrays(name)
    scores = {output: [] for output in OUTPUTS}
    for fold in range(folds):
        split = make_split(y, "cv", repeat=0, fold=fold, n_folds=folds, seed=0)
        for output in OUTPUTS:
            model = _fit(output, rounds, X[split.train], y[split.train]).model
            scores[output].append(balanced_accuracy(y[split.test], model.predict(X[split.test])))
    return {output: float(np.mean(values)) for output, values in scores.items()}


def business_scores(name, rounds, protocol):
    """Test savings, share flagged and the chosen C- of each weak output on one business split."""
    from benchmarks.bench_example_costs import load_business, split_problem
    from tasks.fitting.evaluate import predict_labels

    features, target, _ = load_business(name)
    (X, y, costs), validation, (X_test, y_test, costs_test) = split_problem(name, features, target, protocol)
    results = {}
    for output in OUTPUTS:
        fitted = _fit(output, rounds, X, y, costs, validation)
        predicted = predict_labels(fitted.model, X_test, costs_test)
        results[output] = (
            savings_score(y_test, predicted, costs_test),
            float(np.mean(predicted == 1)),
            fitted.negative_cost,
        )
    return results


def main(quick: bool) -> None:
    rounds, folds = (QUICK["rounds"], QUICK["folds"]) if quick else (ROUNDS, FOLDS)
    datasets = adacc_offline_datasets()[: QUICK["datasets"]] if quick else adacc_offline_datasets()
    adacc = {}
    for name in datasets:
        started = time.perf_counter()
        adacc[name] = adacc_scores(name, rounds, folds)
        print(f"  {name} ({time.perf_counter() - started:.0f} s): {adacc[name]}", flush=True)
    rows = [[name, *(f"{scores[o]:.3f}" for o in OUTPUTS)] for name, scores in adacc.items()]
    means = {o: float(np.mean([scores[o] for scores in adacc.values()])) for o in OUTPUTS}
    wins = sum(scores["confidence"] > scores["discrete"] for scores in adacc.values())
    losses = sum(scores["confidence"] < scores["discrete"] for scores in adacc.values())
    rows.append(["**mean**", *(f"**{means[o]:.3f}**" for o in OUTPUTS)])

    business = {}
    for name in ("direct-marketing",) if quick else BUSINESS:
        for protocol in ("holdout", "tvt"):
            business[name, protocol] = business_scores(name, rounds, protocol)
            print(f"  {name} {protocol}: {business[name, protocol]}", flush=True)
    business_rows = []
    for (name, protocol), result in business.items():
        cells = [f"{saved:.3f} ({flagged:.0%} flagged, C- {c:.2f})" for saved, flagged, c in result.values()]
        business_rows.append([f"{name} {protocol}", *cells])
    body = "\n".join(
        [
            'Protocol: `benchmarks/bench_csb1_output.py` (docstring). Default: `weak_output="confidence"`.',
            "",
            f"## AdaCC datasets: test balanced accuracy ({folds}-fold CV, T = {rounds}, C- by training F1)",
            "",
            markdown_table(["dataset", *OUTPUTS], rows),
            "",
            f"confidence better on {wins}, worse on {losses} of {len(adacc)} datasets; mean "
            f"{means['confidence']:.3f} against {means['discrete']:.3f}.",
            "",
            f"## Business datasets: test savings (every row, T = {rounds}, cost matrix, C- by savings)",
            "",
            markdown_table(["dataset, split", *OUTPUTS], business_rows),
        ]
    )
    print(body)
    path = write_result(
        "csb1-weak-output.md" if not quick else "csb1-weak-output-quick.md",
        "CSB1's weak output: discrete or confidence-rated",
        body,
        "python -m benchmarks csb1_output" + (" --quick" if quick else ""),
    )
    print(f"written to {path}")
