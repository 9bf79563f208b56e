"""The methods the published-protocol benchmarks compare (issue 22, point 6), each a fit-and-decide recipe.

A contender is ``run(train, test) -> {decision: predicted labels}`` with ``train`` and ``test`` triples
``(X, y, cost_matrix)``. Every method decides with the test rows' own costs when its ``predict`` takes them
(``tasks.fitting.evaluate.predict_labels``: the minimum-risk thresholds of CSDT Section 2.3); a probabilistic
model is also shown deciding at ``p > 1/2`` (decision ``"0.5"``), the decision of the papers that train with
costs. Cost-blind probability models (logistic regression, LightGBM's ``binary`` objective) are decided at
the per-row minimum-risk thresholds on their uncalibrated probability (``"rows"``) and at 1/2.

Tuned rows choose hyper-parameters on the training rows only: ``GridSearchCV`` with two stratified inner
folds, scored by savings with each inner fold's costs routed (``algorithms.scorers.savings_scorer``).
"""

from __future__ import annotations

import warnings

import numpy as np
import sklearn
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from algorithms import METHODS
from algorithms.cost import bayes_minimum_risk_thresholds
from algorithms.exceptions import CostMatrixIgnoredWarning
from algorithms.scorers import savings_scorer

#: Grids of the tuned rows (chosen by inner 2-fold CV on the training rows).
TUNING_GRIDS = {
    "cslogit": {"alpha": [1e-4, 1e-3, 1e-2]},
    "csboost": {"learning_rate": [0.1, 0.3], "num_leaves": [15, 31]},
}


def _registered(key, **params):
    def run(train, test):
        from tasks.fitting.cost_selection import fit_with_cost_selection
        from tasks.fitting.evaluate import predict_labels

        (X, y, costs), (X_test, _y_test, costs_test) = train, test
        estimator = METHODS[key]()
        accepted = estimator.get_params(deep=False)
        estimator.set_params(**{"random_state": 0} if "random_state" in accepted else {}, **params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CostMatrixIgnoredWarning)
            model = fit_with_cost_selection(estimator, X, y, cost_matrix=costs).model
        decisions = {"rows": predict_labels(model, X_test, costs_test)}
        if key in ("cslogit", "csboost"):
            decisions["0.5"] = (model.predict_proba(X_test)[:, 1] > 0.5).astype(int)
        return decisions

    return run


def _tuned(key):
    def run(train, test):
        (X, y, costs), (X_test, _y_test, costs_test) = train, test
        with sklearn.config_context(enable_metadata_routing=True):
            search = GridSearchCV(
                METHODS[key]().set_fit_request(cost_matrix=True),
                TUNING_GRIDS[key],
                scoring=savings_scorer,
                cv=StratifiedKFold(2, shuffle=True, random_state=0),
            ).fit(X, y, cost_matrix=costs)
        model = search.best_estimator_
        return {
            "rows": model.predict(X_test, cost_matrix=costs_test),
            "0.5": (model.predict_proba(X_test)[:, 1] > 0.5).astype(int),
            "chosen": search.best_params_,
        }

    return run


def _decided_probability(fit_probability):
    def run(train, test):
        (X, y, _costs), (X_test, _y_test, costs_test) = train, test
        probability = fit_probability(X, y)(X_test)
        return {
            "rows": (probability > bayes_minimum_risk_thresholds(costs_test)).astype(int),
            "0.5": (probability > 0.5).astype(int),
        }

    return run


def _logistic_regression(X, y):
    from sklearn.linear_model import LogisticRegression

    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X, y)
    return lambda X_test: model.predict_proba(X_test)[:, 1]


def _lightgbm_binary(X, y):
    import lightgbm

    model = lightgbm.LGBMClassifier(n_estimators=100, n_jobs=1, random_state=0, verbose=-1).fit(X, y)
    return lambda X_test: model.predict_proba(X_test)[:, 1]


#: Name shown -> recipe. The registered keys are fitted as ``compare`` fits them.
CONTENDERS = {
    "cslogit": _registered("cslogit"),
    "cslogit (tuned)": _tuned("cslogit"),
    "csboost": _registered("csboost"),
    "csboost (tuned)": _tuned("csboost"),
    "logistic regression": _decided_probability(_logistic_regression),
    "LightGBM (binary)": _decided_probability(_lightgbm_binary),
    "bmr-lr": _registered("bmr-lr"),
    "bmr-hgb": _registered("bmr-hgb"),
    "bmr-dt": _registered("bmr-dt"),
    "csdt": _registered("csdt"),
    "csforest": _registered("csforest", n_jobs=2),
    "csbagging": _registered("csbagging", n_jobs=2),
    "cspasting": _registered("cspasting", n_jobs=2),
    "cspatches": _registered("cspatches", n_jobs=2),
    "adamec": _registered("adamec"),
    "cgada": _registered("cgada"),
    "csb2": _registered("csb2"),
}


def savings_by_decision(y_test, costs_test, decisions):
    """``{decision: savings}`` (CSDT Eq. 4) of a contender's outputs; other entries pass through."""
    from algorithms.metrics import savings_score

    return {
        name: savings_score(y_test, np.asarray(labels), costs_test) if name in ("rows", "0.5") else labels
        for name, labels in decisions.items()
    }
