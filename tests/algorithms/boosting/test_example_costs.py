"""Example-dependent costs in the boosting methods (issue 8 point 1): the regret derivation by hand, rounds by
hand, AdaCC's cost mass, AdaMEC's per-row decision, the ignored-matrix warning, and the collapse cases."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import expit
from sklearn.model_selection import train_test_split

from algorithms.boosting import (
    BOOSTING_METHODS,
    CSB1,
    AdaC2,
    AdaCC1,
    AdaMEC,
    AdaMECCalibrated,
    CGAda,
)
from algorithms.boosting._rules import (
    example_costs_from_matrix,
    example_row_weights,
    regrets_from_matrix,
)
from algorithms.exceptions import CostMatrixIgnoredWarning
from algorithms.metrics import savings_score
from tasks.fitting.estimators import fit_estimator

TOLERANCE = {"rtol": 1e-12, "atol": 1e-15}

# Five rows: two positives, three negatives; columns [C_FP, C_FN, C_TP, C_TN].
Y_SMALL = np.array([1.0, 1.0, -1.0, -1.0, -1.0])
MATRIX_SMALL = np.array(
    [
        [1.0, 11.0, 1.0, 0.0],  # positive, regret C_FN - C_TP = 10
        [1.0, 3.0, 1.0, 0.0],  # positive, regret 2
        [1.0, 0.0, 1.0, 0.0],  # negative, regret C_FP - C_TN = 1
        [3.0, 0.0, 0.0, 1.0],  # negative, regret 2
        [2.0, 0.0, 0.0, 2.5],  # negative, regret -0.5, clipped to 0
    ]
)


def test_regrets_class_costs_and_row_weights_by_hand():
    assert_array_equal(regrets_from_matrix(Y_SMALL, MATRIX_SMALL), [10.0, 2.0, 1.0, 2.0, 0.0])
    # class mean regrets R+ = 6, R- = 1: c(+) = 1, c(-) = 1/6
    assert_allclose(
        example_costs_from_matrix(Y_SMALL, MATRIX_SMALL), [1, 1, 1 / 6, 1 / 6, 1 / 6], **TOLERANCE
    )
    assert_allclose(example_row_weights(Y_SMALL, MATRIX_SMALL), [10 / 6, 2 / 6, 1.0, 2.0, 0.0], **TOLERANCE)


def test_a_matrix_constant_per_class_gives_the_class_costs_and_unit_row_weights():
    matrix = np.where(Y_SMALL[:, None] > 0, [[0.0, 9.0, 1.0, 0.0]], [[3.0, 0.0, 0.0, 1.0]])
    assert_allclose(example_costs_from_matrix(Y_SMALL, matrix), [1, 1, 0.25, 0.25, 0.25], **TOLERANCE)
    assert_array_equal(example_row_weights(Y_SMALL, matrix), np.ones(5))


def test_class_costs_scale_their_class_regret_in_the_costs_and_the_row_thresholds():
    """With a cost matrix C+- multiply R+- (and each row's r+-, tests/algorithms/cost/test_minimum_risk.py):
    here R+ = 6, R- = 1, so C- = 3 gives c(-) = 3 / 6."""
    assert_allclose(
        example_costs_from_matrix(Y_SMALL, MATRIX_SMALL, 1.0, 3.0), [1, 1, 0.5, 0.5, 0.5], **TOLERANCE
    )
    assert_allclose(
        example_costs_from_matrix(Y_SMALL, MATRIX_SMALL, 1.0, 12.0), [0.5, 0.5, 1, 1, 1], **TOLERANCE
    )


def test_a_scaled_class_cost_on_a_constant_matrix_is_the_class_cost_fit():
    """CGAda on a matrix constant per class (R+ = 5, R- = 1) with C- = 2 is CGAda with C+ = 1, C- = 0.4."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] + rng.normal(size=300) > 1.2).astype(int)
    matrix = np.tile([1.0, 5.0, 0.0, 0.0], (300, 1))
    with_matrix = CGAda(n_estimators=5, negative_cost=2.0).fit(X, y, cost_matrix=matrix)
    with_classes = CGAda(n_estimators=5, negative_cost=0.4).fit(X, y)
    assert_allclose(with_matrix.estimator_weights_, with_classes.estimator_weights_, **TOLERANCE)
    assert_array_equal(with_matrix.predict(X), with_classes.predict(X))


@pytest.fixture(scope="module")
def marketing_like():
    """A small bank-marketing-shaped problem: 12 % positives, C_FP = C_TP = 1 (the contact), C_TN = 0 and a
    heavy-tailed C_FN = max(balance-driven interest, 1), so many positives have no regret at all."""
    rng = np.random.default_rng(3)
    n = 1600
    X = rng.normal(size=(n, 5))
    y = (X[:, 0] + 0.7 * X[:, 1] + rng.normal(scale=1.2, size=n) > 1.9).astype(int)
    balance = np.exp(rng.normal(6.5, 1.3, size=n)) * (1 + 0.5 * (X[:, 2] > 0))
    c_fn = np.maximum(balance * 0.25 * 0.0246, 1.0)
    matrix = np.column_stack([np.ones(n), c_fn, np.ones(n), np.zeros(n)])
    return train_test_split(X, y, matrix, test_size=0.5, stratify=y, random_state=0)


def _minimum_risk_labels(probability, costs):
    """1 where ``(C_FN - C_TP) p > (C_FP - C_TN) (1 - p)``: predicting positive has the smaller risk."""
    return (
        (costs[:, 1] - costs[:, 2]) * probability > (costs[:, 0] - costs[:, 3]) * (1 - probability)
    ).astype(int)


def _signed(learner, X):
    return np.where(learner.predict(X) == 1, 1.0, -1.0)


def test_cgada_rounds_by_hand_with_a_cost_matrix(marketing_like):
    X, _, y01, _, matrix, _ = marketing_like
    y = np.where(y01 == 1, 1.0, -1.0)
    model = CGAda(n_estimators=3).fit(X, y01, cost_matrix=matrix)
    # D^1 proportional to c(y_i) w_i, i.e. to r_i / max(R+, R-): the class costs times the row weights
    d = example_costs_from_matrix(y, matrix) * example_row_weights(y, matrix)
    d = d / d.sum()
    for learner, alpha in zip(model.estimators_, model.estimator_weights_, strict=True):
        h = _signed(learner, X)
        error = d[h != y].sum()
        assert alpha == pytest.approx(0.5 * np.log((1 - error) / error), rel=1e-10)
        d = d * np.exp(-alpha * y * h)
        d = d / d.sum()
    assert_allclose(model.final_distribution_, d, rtol=1e-9, atol=1e-15)
    assert np.all(model.final_distribution_[regrets_from_matrix(y, matrix) == 0] == 0)


def test_adac2_multiplies_by_the_cost_to_the_power_one_over_t_with_a_cost_matrix(marketing_like):
    X, _, y01, _, matrix, _ = marketing_like
    y = np.where(y01 == 1, 1.0, -1.0)
    rounds = 4
    model = AdaC2(n_estimators=rounds).fit(X, y01, cost_matrix=matrix)
    costs = example_costs_from_matrix(y, matrix)
    d = costs * example_row_weights(y, matrix)
    d = d / d.sum()
    for learner, alpha in zip(model.estimators_, model.estimator_weights_, strict=True):
        h = _signed(learner, X)
        correct, wrong = (costs * d)[h == y].sum(), (costs * d)[h != y].sum()
        assert alpha == pytest.approx(0.5 * np.log(correct / wrong), rel=1e-10)  # Eq. 18 with C_i
        d = (
            d * costs ** (1 / rounds) * np.exp(-alpha * y * h)
        )  # Table 3's C_i outside the exponent: C_i^(1/T)
        d = d / d.sum()
    assert len(model.estimators_) >= 2
    assert_allclose(model.final_distribution_, d, rtol=1e-9, atol=1e-15)


def test_csb1_keeps_table_3_with_class_costs():
    X = np.column_stack([np.arange(10.0), [3.0, 1.0, 4.0, 0.0, 5.0, 2.0, 6.0, 7.0, 9.0, 8.0]])
    y01 = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])
    y = np.where(y01 == 1, 1.0, -1.0)
    model = CSB1(n_estimators=2, negative_cost=0.5, weak_output="discrete").fit(X, y01)
    costs = np.where(y > 0, 1.0, 0.5)
    d = costs / costs.sum()
    for learner in model.estimators_:
        d = d * costs * np.exp(-y * _signed(learner, X))  # C_i, not C_i^(1/T): no cost matrix
        d = d / d.sum()
    assert_allclose(model.final_distribution_, d, **TOLERANCE)


def test_adacc_cost_mass_weights_the_initial_distribution_and_the_rates_of_eq_5(marketing_like):
    X, _, y01, _, matrix, _ = marketing_like
    y = np.where(y01 == 1, 1.0, -1.0)
    model = AdaCC1(n_estimators=1).fit(X, y01, cost_matrix=matrix)
    w = example_row_weights(y, matrix)
    d = w / w.sum()
    h = _signed(model.estimators_[0], X)
    error = d[h != y].sum()
    alpha = np.log((1 - error) / error)  # the published code's alpha
    assert model.estimator_weights_[0] == pytest.approx(alpha, rel=1e-10)
    # Eq. 5 with every row counted by its weight w_i; after one round H_{1:1} = h_1
    fnr = w[(y > 0) & (h < 0)].sum() / w[y > 0].sum()
    fpr = w[(y < 0) & (h > 0)].sum() / w[y < 0].sum()
    positive_cost, negative_cost = (1 + fnr, 1.0) if fnr >= fpr else (1.0, 1 + fpr)
    assert (model.trace_["positive_cost"][0], model.trace_["negative_cost"][0]) == pytest.approx(
        (positive_cost, negative_cost), rel=1e-10
    )
    cost = np.where(y > 0, positive_cost, negative_cost)
    updated = d * np.exp(cost * alpha * (h != y))
    assert_allclose(model.final_distribution_, updated / updated.sum(), rtol=1e-9, atol=1e-15)


def test_adamec_decides_each_row_by_its_own_costs(marketing_like):
    X_train, X_test, y_train, _, costs_train, costs_test = marketing_like
    model = AdaMEC(n_estimators=20).fit(X_train, y_train, cost_matrix=costs_train)
    margin = sum(
        alpha * _signed(learner, X_test)
        for alpha, learner in zip(model.estimator_weights_, model.estimators_, strict=True)
    )
    expected = _minimum_risk_labels(expit(2 * margin), costs_test)
    assert_array_equal(model.predict(X_test, cost_matrix=costs_test), expected)
    *_, last = model.staged_predict(X_test, cost_matrix=costs_test)
    assert_array_equal(last, expected)
    # without the rows' costs: Table 3's cost-weighted vote
    assert_array_equal(model.predict(X_test), model._label_of(model.decision_function(X_test)))


def test_calibrated_variants_decide_each_row_by_its_own_costs(marketing_like):
    X_train, X_test, y_train, _, costs_train, costs_test = marketing_like
    model = AdaMECCalibrated(n_estimators=10, random_state=0).fit(X_train, y_train, cost_matrix=costs_train)
    probability = model.predict_proba(X_test)[:, 1]
    expected = _minimum_risk_labels(probability, costs_test)
    assert_array_equal(model.predict(X_test, cost_matrix=costs_test), expected)


@pytest.mark.parametrize("key", ["adaboost", "rareboost", "smoteboost", "wotboost"])
def test_methods_that_ignore_the_cost_matrix_warn_once(marketing_like, key):
    X, _, y, _, matrix, _ = marketing_like
    with pytest.warns(CostMatrixIgnoredWarning, match="does not use cost_matrix") as caught:
        with_costs = BOOSTING_METHODS[key](n_estimators=3, random_state=0).fit(X, y, cost_matrix=matrix)
    assert len([w for w in caught if w.category is CostMatrixIgnoredWarning]) == 1
    without = BOOSTING_METHODS[key](n_estimators=3, random_state=0).fit(X, y)
    assert_array_equal(with_costs.decision_function(X), without.decision_function(X))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CostMatrixIgnoredWarning)
        fit_estimator(BOOSTING_METHODS[key](n_estimators=3, random_state=0), X, y, matrix)  # the flows' path


USING_KEYS = sorted(set(BOOSTING_METHODS) - {"adaboost", "rareboost", "smoteboost", "wotboost"})


@pytest.mark.parametrize("key", USING_KEYS)
def test_methods_that_use_the_cost_matrix_do_not_warn(marketing_like, key):
    X, _, y, _, matrix, _ = marketing_like
    with warnings.catch_warnings():
        warnings.simplefilter("error", CostMatrixIgnoredWarning)
        try:
            BOOSTING_METHODS[key](n_estimators=3, random_state=0).fit(X, y, cost_matrix=matrix)
        except ValueError:  # a rule that keeps no learner (AdaCost) is another matter
            pass


FIXED_COST_KEYS = [
    "cgada",
    "cgada-cal",
    "adamec",
    "adamec-cal",
    "csb1",
    "csb2",
    "adac1",
    "adac2",
    "adac3",
    "cs-adaboost",
]


@pytest.mark.parametrize("key", FIXED_COST_KEYS)
def test_fixed_cost_methods_do_not_collapse_on_marketing_shaped_costs(marketing_like, key):
    """Issue 8's collapse: AdaMEC, CSB1/2 and AdaC2/3 predicted every row positive (savings 0) and
    CS-AdaBoost refused C_FP = C_TP. Each must predict both classes and save money on the test half."""
    X_train, X_test, y_train, y_test, costs_train, costs_test = marketing_like
    model = BOOSTING_METHODS[key](n_estimators=50, random_state=0).fit(
        X_train, y_train, cost_matrix=costs_train
    )
    if "cost_matrix" in model.predict.__code__.co_varnames:
        predicted = model.predict(X_test, cost_matrix=costs_test)
    else:
        predicted = model.predict(X_test)
    assert set(np.unique(predicted)) == {0, 1}
    assert savings_score(y_test, predicted, costs_test) > 0.0
