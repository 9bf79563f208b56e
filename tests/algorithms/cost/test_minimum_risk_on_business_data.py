"""The minimum-risk decision of every method that decides by costs, on the three business datasets, against a
frozen reference written here from the equations (issue 20, point 2: the decisions stay identical).

The references rebuild each method's model the way it was built before the decision was shared (the same
sub-seeds, folds and calibration) and decide by the formulas each method used then:

- Bayes minimum risk (CSDT Section 2.3): positive iff ``C_TP p + C_FP (1 - p) < C_TN (1 - p) + C_FN p`` with
  the isotonic-calibrated ``p``, the training rows' weighted mean costs when no costs are given;
- AdaMEC with the rows' costs: positive iff ``expit(2 F(x)) > t_i = r-_i / (r+_i + r-_i)`` on the margin
  ``F`` of plain AdaBoost (AdaMEC trains without costs), regrets clipped at 0;
- AdaMEC-Cal, CGAda-Cal: positive iff the Platt-calibrated ``p > C- r-_i / (C+ r+_i + C- r-_i)``, or
  ``p > c(-) / (c(+) + c(-))`` with the class costs when no costs are given.

Rows: every positive of a subsample plus negatives up to ``ROWS`` rows (card fraud: all 492 frauds), split
50/50 stratified; the cost model is fitted on the training half (``tasks.cost_models.derive_split_costs``).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit
from sklearn import config_context
from sklearn.calibration import CalibratedClassifierCV
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.utils import check_random_state

from algorithms._validation import draw_seed
from algorithms.boosting import AdaBoost, AdaMEC, AdaMECCalibrated, CGAda, CGAdaCalibrated
from algorithms.cost import (
    BayesMinimumRiskDecisionTree,
    BayesMinimumRiskLogisticRegression,
    BayesMinimumRiskRandomForest,
)

DATASETS = ("credit-scoring", "direct-marketing", "card-fraud")
ROWS = 3000
ROUNDS = 30
SEED = 3


@pytest.fixture(scope="module", params=DATASETS)
def business(request):
    """(X_train, y_train, costs_train, X_test, y_test, costs_test) of one business dataset."""
    from tasks.cost_models import derive_split_costs
    from tasks.datasets import load_dataset

    dataset = load_dataset(request.param)
    features = dataset.features.reset_index(drop=True)
    target = np.asarray(dataset.target).astype(int)
    rng = np.random.default_rng(0)
    positives = np.flatnonzero(target == 1)
    positives = rng.choice(positives, min(positives.size, ROWS // 6), replace=False)
    negatives = rng.choice(np.flatnonzero(target == 0), ROWS - positives.size, replace=False)
    rows = np.sort(np.concatenate([positives, negatives]))
    train, test = train_test_split(rows, test_size=0.5, stratify=target[rows], random_state=0)
    costs = derive_split_costs(request.param, features.iloc[train], target[train], features.iloc[test])
    return (
        features.iloc[train].to_numpy(dtype=float),
        target[train],
        costs.train.values,
        features.iloc[test].to_numpy(dtype=float),
        target[test],
        costs.evaluated.values,
    )


def _clipped_regrets(costs):
    """``(r+, r-) = (max(C_FN - C_TP, 0), max(C_FP - C_TN, 0))`` per row."""
    return np.maximum(costs[:, 1] - costs[:, 2], 0.0), np.maximum(costs[:, 0] - costs[:, 3], 0.0)


def _clipped_thresholds(costs, positive_cost=1.0, negative_cost=1.0):
    regret_positive, regret_negative = _clipped_regrets(costs)
    regret_positive, regret_negative = positive_cost * regret_positive, negative_cost * regret_negative
    total = regret_positive + regret_negative
    return np.divide(regret_negative, total, out=np.full(total.shape, np.inf), where=total > 0)


def _risk_decision(probability, costs):
    c_fp, c_fn, c_tp, c_tn = costs.T
    return (
        c_tp * probability + c_fp * (1 - probability) < c_tn * (1 - probability) + c_fn * probability
    ).astype(int)


# ------------------------------------------------------------------------------------ Bayes minimum risk
BMR_METHODS = [BayesMinimumRiskLogisticRegression, BayesMinimumRiskDecisionTree, BayesMinimumRiskRandomForest]


@pytest.mark.parametrize("method", BMR_METHODS, ids=lambda cls: cls.__name__)
def test_bayes_minimum_risk_decisions_are_the_reference(business, method):
    X_train, y_train, costs_train, X_test, _, costs_test = business
    model = method(random_state=SEED).fit(X_train, y_train, cost_matrix=costs_train)

    rng = check_random_state(SEED)
    folds = StratifiedKFold(3, shuffle=True, random_state=draw_seed(rng))
    estimator_seed = draw_seed(rng)
    with config_context(enable_metadata_routing=True):
        estimator = method()._default_estimator()
        if "random_state" in estimator.get_params(deep=False):
            estimator.set_params(random_state=estimator_seed)
        reference = CalibratedClassifierCV(estimator, method="isotonic", cv=folds).fit(X_train, y_train)
    probability = reference.predict_proba(X_test)[:, 1]
    np.testing.assert_array_equal(model.predict_proba(X_test)[:, 1], probability)
    np.testing.assert_array_equal(
        model.predict(X_test, cost_matrix=costs_test), _risk_decision(probability, costs_test)
    )
    class_level = np.broadcast_to(costs_train.mean(axis=0), costs_test.shape)
    np.testing.assert_array_equal(model.predict(X_test), _risk_decision(probability, class_level))


# ------------------------------------------------------------------------------------------------ AdaMEC
def test_adamec_row_decisions_are_the_reference(business):
    X_train, y_train, costs_train, X_test, _, costs_test = business
    for negative_cost in (1.0, 0.4):
        model = AdaMEC(n_estimators=ROUNDS, random_state=SEED, negative_cost=negative_cost)
        model.fit(X_train, y_train, cost_matrix=costs_train)
        adaboost = AdaBoost(n_estimators=ROUNDS, random_state=SEED).fit(X_train, y_train)
        thresholds = _clipped_thresholds(costs_test, 1.0, negative_cost)
        staged = model.staged_predict(X_test, cost_matrix=costs_test)
        for stage, (margin_stage, decision) in enumerate(
            zip(_margins(adaboost, X_test), staged, strict=True)
        ):
            expected = (expit(2.0 * margin_stage) - thresholds > 0).astype(int)
            np.testing.assert_array_equal(decision, expected, err_msg=f"round {stage + 1}")
        np.testing.assert_array_equal(model.predict(X_test, cost_matrix=costs_test), expected)


def _margins(adaboost, X):
    margin = np.zeros(X.shape[0])
    for alpha, learner in zip(adaboost.estimator_weights_, adaboost.estimators_, strict=True):
        margin = margin + alpha * np.where(learner.predict(X) == 1, 1.0, -1.0)
        yield margin


# ------------------------------------------------------------------------------- calibrated boosting
@pytest.mark.parametrize("method", [AdaMECCalibrated, CGAdaCalibrated], ids=lambda cls: cls.__name__)
def test_calibrated_boosting_decisions_are_the_reference(business, method):
    X_train, y_train, costs_train, X_test, _, costs_test = business
    negative_cost = 0.6
    model = method(n_estimators=ROUNDS, random_state=SEED, negative_cost=negative_cost)
    model.fit(X_train, y_train, cost_matrix=costs_train)

    rng = check_random_state(SEED)
    uses_costs = method is CGAdaCalibrated
    ensemble = (CGAda if uses_costs else AdaBoost)(
        n_estimators=ROUNDS, random_state=draw_seed(rng), pos_label=1
    )
    if uses_costs:
        ensemble.set_params(negative_cost=negative_cost)
    folds = StratifiedKFold(3, shuffle=True, random_state=draw_seed(rng))
    reference = CalibratedClassifierCV(ensemble, method="sigmoid", cv=folds, ensemble=False)
    reference.fit(X_train, y_train, **({"cost_matrix": costs_train} if uses_costs else {}))
    probability = reference.predict_proba(X_test)[:, 1]
    np.testing.assert_array_equal(model.predict_proba(X_test)[:, 1], probability)
    expected = (probability - _clipped_thresholds(costs_test, 1.0, negative_cost) > 0).astype(int)
    np.testing.assert_array_equal(model.predict(X_test, cost_matrix=costs_test), expected)
    # without the rows' costs: the class mean regrets, scaled by C+ and C-
    regrets = np.where(y_train == 1, *_clipped_regrets(costs_train))
    class_positive = 1.0 * regrets[y_train == 1].mean()
    class_negative = negative_cost * regrets[y_train == 0].mean()
    threshold = class_negative / (class_positive + class_negative)
    np.testing.assert_array_equal(model.predict(X_test), (probability - threshold > 0).astype(int))
