"""Which gradient-boosting library csboost runs on (issue 22, point 2): LightGBM against XGBoost, by evidence.

For each library: installed size (the files its distribution installed), import time (a fresh interpreter
importing only it, median of ``IMPORT_REPEATS``, the two alternating), and on two business datasets the fit
time and test savings of the same trees with (i) the library's built-in binary log-loss and (ii) csboost's
expected-cost objective (:func:`algorithms.gradient_boosting._objective.expected_cost_gradients`, curvature
``"bound"``), both deciding by each test row's minimum-risk threshold on ``sigmoid(raw score)``.

Same trees for both: ``ROUNDS`` rounds, learning rate 0.1, at most 32 leaves of depth at most 5 (LightGBM:
``num_leaves=32, max_depth=5``; XGBoost: ``max_depth=5``), 255 / 256 histogram bins, one thread, the
boosting started at the logit of the positive rate for the custom objective (as csboost); everything
else at each library's defaults (LightGBM ``min_child_samples=20``, XGBoost ``min_child_weight=1``,
``reg_lambda=1``). XGBoost is the ``xgboost-cpu`` wheel (the ``xgboost`` wheel is the same library with
CUDA kernels).

Data: ``card-fraud`` (Höppner et al.'s costs, log-amount feature) and ``credit-scoring`` (CSDT Table 4
costs fitted on the training rows), one stratified 50/50 split (``tasks.fitting.splits.make_split``, holdout,
seed 0).

Run: ``python -m benchmarks gbm_library`` (``--quick``: 20 rounds, card fraud on 60,000 rows). A library
that is not installed is reported as such (``pip install lightgbm xgboost-cpu`` installs both). Results go
to ``docs/results/gbm-library.md``.
"""

from __future__ import annotations

import importlib.metadata
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import expit

from algorithms.cost import bayes_minimum_risk_thresholds
from algorithms.gradient_boosting._objective import expected_cost_gradients
from algorithms.metrics import savings_score
from benchmarks._report import write_section
from benchmarks._strong import business_split, load_uptime

REPORT = Path(__file__).resolve().parents[1] / "docs" / "results" / "gbm-library.md"
HEADER = (
    "# csboost's gradient-boosting library: LightGBM or XGBoost\n"
    "\n"
    "Written by `python -m benchmarks gbm_library` (`benchmarks/bench_gbm_library.py`; its docstring gives\n"
    "the protocol).\n"
)
LIBRARIES = {"lightgbm": ("lightgbm", "lightgbm"), "xgboost": ("xgboost", "xgboost-cpu")}
ROUNDS, QUICK_ROUNDS = 100, 20
IMPORT_REPEATS = 5


def installed_megabytes(distribution: str) -> float | None:
    try:
        files = importlib.metadata.distribution(distribution).files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    return sum(f.locate().stat().st_size for f in files if f.locate().is_file()) / 1e6


def import_seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    return float(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    )


def _start(y01):
    """The logit of the positive rate, where csboost starts (``init_score_``)."""
    rate = float(np.mean(y01))
    return np.full(y01.shape[0], np.log(rate / (1 - rate)))


def _slopes(y01, costs):
    from algorithms._expected_cost import normalised_regrets

    slopes, _ = normalised_regrets(y01, costs, np.ones(y01.shape[0]))
    return slopes * y01.shape[0]


def fit_lightgbm(X, y, costs, rounds, custom):
    import lightgbm

    parameters = {
        "learning_rate": 0.1,
        "num_leaves": 32,
        "max_depth": 5,
        "max_bin": 255,
        "num_threads": 1,
        "verbose": -1,
        "force_row_wise": True,
    }
    if custom:
        slopes = _slopes(y, costs)
        parameters["objective"] = lambda raw, _data: expected_cost_gradients(raw, slopes)
        data = lightgbm.Dataset(X, label=y, init_score=_start(y))
    else:
        parameters["objective"] = "binary"
        data = lightgbm.Dataset(X, label=y)
    booster = lightgbm.train(parameters, data, num_boost_round=rounds)
    start = _start(y)[0] if custom else 0.0
    return lambda X_test: start + booster.predict(X_test, raw_score=True)


def fit_xgboost(X, y, costs, rounds, custom):
    import xgboost

    parameters = {"eta": 0.1, "max_depth": 5, "max_bin": 256, "nthread": 1, "tree_method": "hist"}
    if custom:
        slopes = _slopes(y, costs)
        data = xgboost.DMatrix(X, label=y, base_margin=_start(y))

        def objective(raw, _data):
            return expected_cost_gradients(raw, slopes)

        booster = xgboost.train(parameters, data, num_boost_round=rounds, obj=objective)
    else:
        data = xgboost.DMatrix(X, label=y)
        booster = xgboost.train({**parameters, "objective": "binary:logistic"}, data, num_boost_round=rounds)
    if custom:
        return lambda X_test: booster.predict(
            xgboost.DMatrix(X_test, base_margin=np.full(X_test.shape[0], _start(y)[0])), output_margin=True
        )
    return lambda X_test: booster.predict(xgboost.DMatrix(X_test), output_margin=True)


FITS = {"lightgbm": fit_lightgbm, "xgboost": fit_xgboost}


def fit_and_score(library, problem, rounds, custom):
    (X_train, y_train, c_train), (X_test, y_test, c_test) = problem
    started = time.perf_counter()
    raw_scores = FITS[library](X_train, y_train, c_train, rounds, custom)
    seconds = time.perf_counter() - started
    proba = expit(raw_scores(X_test))
    predicted = (proba > bayes_minimum_risk_thresholds(c_test)).astype(int)
    return seconds, savings_score(y_test, predicted, c_test)


def main(quick: bool) -> None:
    rounds = QUICK_ROUNDS if quick else ROUNDS
    load = load_uptime()
    available = {}
    for library, (module, distribution) in LIBRARIES.items():
        try:
            importlib.import_module(module)
            available[library] = distribution
        except ImportError:
            print(f"{library} is not installed; skipped", flush=True)
    imports = {library: [] for library in available}
    for _ in range(IMPORT_REPEATS):
        for library in available:
            imports[library].append(import_seconds(LIBRARIES[library][0]))
    lines = [
        "| library | version | installed MB | import s (median) |",
        "|---|---|---|---|",
    ]
    for library, distribution in available.items():
        version = importlib.metadata.version(distribution)
        lines.append(
            f"| {distribution} | {version} | {installed_megabytes(distribution):.1f} | "
            f"{statistics.median(imports[library]):.3f} |"
        )
    datasets = ("card-fraud",) if quick else ("card-fraud", "credit-scoring")
    fit_lines = [
        "| dataset | library | built-in fit s | built-in savings | csboost fit s | csboost savings |"
        " csboost / built-in time |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in datasets:
        train, _validation, test = business_split(name, "holdout", max_rows=60_000 if quick else None)
        for library in available:
            builtin_seconds, builtin_savings = fit_and_score(library, (train, test), rounds, custom=False)
            custom_seconds, custom_savings = fit_and_score(library, (train, test), rounds, custom=True)
            fit_lines.append(
                f"| {name} | {library} | {builtin_seconds:.2f} | {builtin_savings:.3f} | "
                f"{custom_seconds:.2f} | {custom_savings:.3f} | {custom_seconds / builtin_seconds:.2f} |"
            )
            print(fit_lines[-1], flush=True)
    body = "\n".join(
        [
            f"Load average before the run: {load}. {rounds} rounds.",
            "",
            *lines,
            "",
            *fit_lines,
        ]
    )
    print(body)
    write_section(
        "gbm_library" + ("_quick" if quick else ""),
        f"LightGBM against XGBoost, {rounds} rounds",
        body,
        "python -m benchmarks gbm_library" + (" --quick" if quick else ""),
        report=REPORT,
        header=HEADER,
    )
