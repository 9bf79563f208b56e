"""Fit time of the cost-sensitive learners against their cost-blind counterparts (issue 22, point 5).

- ``cslogit`` (L2, ``alpha=1e-3``) against scikit-learn's ``LogisticRegression`` (lbfgs) with the same
  penalty, ``C = 1 / (alpha n)`` (scikit-learn penalises ``||w||^2 / 2`` against the summed log-loss), on the
  same standardised features (``StandardScaler`` outside; cslogit standardises again inside, in its time);
- ``csboost`` (its defaults) against ``lightgbm.train`` with LightGBM's built-in ``binary`` objective and
  the very same tree parameters (``algorithms.gradient_boosting.csboost.lightgbm_parameters``).

Data: the training half of ``card-fraud`` (Höppner et al.'s costs, log-amount feature; 142,403 x 30) and
of ``credit-scoring`` (56,457 x 10), ``tasks.fitting.splits.make_split`` holdout, seed 0. Each pair is fitted
``REPEATS`` times, interleaved; the table gives the median seconds and the ratio of the medians, with the
iterations (cslogit / LogisticRegression) or rounds. The aim (issue 22) is a ratio of at most 2.

Run: ``python -m benchmarks strong_fit`` (``--quick``: one repeat on 30,000 rows of card fraud).
"""

from __future__ import annotations

import statistics
import time

from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from algorithms.gradient_boosting import CostSensitiveGradientBoosting
from algorithms.gradient_boosting.csboost import lightgbm_parameters
from algorithms.linear import CostSensitiveLogisticRegression
from benchmarks._problem import load_average, load_note
from benchmarks._report import write_section
from benchmarks._strong import business_split

REPEATS = 3
ALPHA = 1e-3


def _timed(fit):
    started = time.perf_counter()
    outcome = fit()
    return time.perf_counter() - started, outcome


def logistic_pair(X, y, costs):
    """(cslogit seconds, iterations), (LogisticRegression seconds, iterations)."""
    standardised = StandardScaler().fit_transform(X)
    cslogit_seconds, cslogit = _timed(
        lambda: CostSensitiveLogisticRegression(alpha=ALPHA).fit(standardised, y, cost_matrix=costs)
    )
    plain_seconds, plain = _timed(
        lambda: LogisticRegression(C=1.0 / (ALPHA * y.size), max_iter=1000).fit(standardised, y)
    )
    return (cslogit_seconds, cslogit.n_iter_), (plain_seconds, int(plain.n_iter_[0]))


def boosting_pair(X, y, costs):
    """(csboost seconds, rounds), (LightGBM binary seconds, rounds)."""
    import lightgbm

    estimator = CostSensitiveGradientBoosting(random_state=0)
    csboost_seconds, _ = _timed(lambda: estimator.fit(X, y, cost_matrix=costs))
    parameters = {**lightgbm_parameters(estimator, 0), "objective": "binary"}
    plain_seconds, _ = _timed(
        lambda: lightgbm.train(
            parameters,
            lightgbm.Dataset(X, label=y, params={"feature_pre_filter": False, "verbose": -1}),
            num_boost_round=estimator.n_estimators,
        )
    )
    return (csboost_seconds, estimator.n_estimators), (plain_seconds, estimator.n_estimators)


PAIRS = {
    "cslogit / LogisticRegression": logistic_pair,
    "csboost / LightGBM binary": boosting_pair,
}


def main(quick: bool) -> None:
    load_before = load_average()
    datasets = ("card-fraud",) if quick else ("card-fraud", "credit-scoring")
    repeats = 1 if quick else REPEATS
    lines = [
        "| data | pair | cost-sensitive s | cost-blind s | ratio | iterations (cs / blind) |",
        "|---|---|---|---|---|---|",
    ]
    for name in datasets:
        (X, y, costs), _, _ = business_split(name, "holdout", max_rows=60_000 if quick else None)
        for label, pair in PAIRS.items():
            pair(X[:2000], y[:2000], costs[:2000])  # warm-up: imports and first calls
            timings = [pair(X, y, costs) for _ in range(repeats)]
            sensitive = statistics.median(t[0][0] for t in timings)
            blind = statistics.median(t[1][0] for t in timings)
            lines.append(
                f"| {name} ({y.size:,} x {X.shape[1]}) | {label} | {sensitive:.2f} | {blind:.2f} | "
                f"{sensitive / blind:.2f} | {timings[0][0][1]} / {timings[0][1][1]} |"
            )
            print(lines[-1], flush=True)
    body = "\n".join(
        [
            f"{load_note(load_before)} Median of {repeats} interleaved fits, one thread each.",
            "",
            *lines,
        ]
    )
    print(body)
    write_section(
        "strong_fit" + ("_quick" if quick else ""),
        "Cost-sensitive fits against their cost-blind counterparts (cslogit, csboost)",
        body,
        "python -m benchmarks strong_fit" + (" --quick" if quick else ""),
    )
