"""cslogit (Correa Bahnsen et al. 2014; Höppner et al. 2022): the objective by hand, its gradient against
finite differences, the solver's optimum, cost-scale invariance, the penalty path, the L1 split, the
minimum-risk decision and metadata routing."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from scipy.optimize import check_grad
from scipy.special import expit
from sklearn.model_selection import GridSearchCV

from algorithms import METHODS
from algorithms._expected_cost import normalised_regrets
from algorithms.linear import CostSensitiveLogisticRegression, expected_cost_objective
from algorithms.metrics import expected_cost_loss
from algorithms.scorers import savings_scorer


def _data(n_samples=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, 3)) * [1.0, 10.0, 0.1] + [0.0, 50.0, 1.0]
    y = (X[:, 0] + 0.1 * (X[:, 1] - 50) + rng.normal(size=n_samples) > 1.0).astype(int)
    amounts = rng.lognormal(3.0, 1.0, n_samples)
    costs = np.column_stack([np.full(n_samples, 5.0), amounts, np.full(n_samples, 5.0), np.zeros(n_samples)])
    return X, y, costs


def test_the_objective_is_the_average_expected_cost_over_the_mean_regret_by_hand():
    # two rows, one feature: a positive (C_FN = 9, C_TP = 1) and a negative (C_FP = 2, C_TN = 0)
    features = np.array([[1.0], [-1.0]])
    y01 = np.array([1, 0])
    costs = np.array([[2.0, 9.0, 1.0, 0.0], [2.0, 9.0, 1.0, 0.0]])
    slopes, constants = normalised_regrets(y01, costs, np.ones(2))
    # regrets r = b - a: positive 1 - 9 = -8, negative 2 - 0 = 2; mean |r| sums to 10
    np.testing.assert_allclose(slopes, [-0.8, 0.2])
    np.testing.assert_allclose(constants, [0.9, 0.0])
    b, w, alpha = 0.5, 2.0, 0.1
    p1, p2 = expit(w + b), expit(-w + b)
    expected_cost = (p1 * 1 + (1 - p1) * 9) + (p2 * 2 + (1 - p2) * 0)
    by_hand = expected_cost / 10 + alpha * w**2 / 2
    value, _ = expected_cost_objective(np.array([b, w]), features, slopes, constants, alpha, 0.0)
    assert value == pytest.approx(by_hand)
    assert expected_cost == pytest.approx(expected_cost_loss(y01, np.array([p1, p2]), costs))
    # the split form w = w+ - w- with the L1 term
    value_split, _ = expected_cost_objective(np.array([b, w, 0.0]), features, slopes, constants, alpha, 0.5)
    assert value_split == pytest.approx(expected_cost / 10 + 0.05 * w**2 / 2 + 0.05 * abs(w))


@pytest.mark.parametrize("l1_ratio", [0.0, 0.3, 1.0])
def test_the_analytic_gradient_matches_finite_differences(l1_ratio):
    X, y, costs = _data(60)
    features = (X - X.mean(axis=0)) / X.std(axis=0)
    slopes, constants = normalised_regrets(y, costs, np.ones(60))
    size = 1 + (2 if l1_ratio > 0 else 1) * 3
    rng = np.random.default_rng(1)
    for _ in range(5):
        point = rng.normal(size=size) if l1_ratio == 0 else np.abs(rng.normal(size=size))
        error = check_grad(
            lambda v: expected_cost_objective(v, features, slopes, constants, 0.05, l1_ratio)[0],
            lambda v: expected_cost_objective(v, features, slopes, constants, 0.05, l1_ratio)[1],
            point,
        )
        assert error < 1e-6


def test_the_fit_is_a_stationary_point_of_the_objective():
    X, y, costs = _data()
    model = CostSensitiveLogisticRegression(alpha=0.01, tol=1e-9).fit(X, y, cost_matrix=costs)
    mean, scale = X.mean(axis=0), X.std(axis=0)
    w_scaled = model.coef_[0] * scale
    b_scaled = model.intercept_[0] + w_scaled @ (mean / scale)
    slopes, constants = normalised_regrets(y, costs, np.ones(len(y)))
    value, gradient = expected_cost_objective(
        np.concatenate([[b_scaled], w_scaled]), (X - mean) / scale, slopes, constants, 0.01, 0.0
    )
    assert value == pytest.approx(model.objective_)
    assert np.abs(gradient).max() < 1e-6
    # the mapping back to the original units: same logits
    np.testing.assert_allclose(
        model.decision_function(X), (X - mean) / scale @ w_scaled + b_scaled, rtol=1e-10, atol=1e-10
    )


def test_scaling_every_cost_leaves_the_fit_unchanged():
    X, y, costs = _data()
    reference = CostSensitiveLogisticRegression().fit(X, y, cost_matrix=costs)
    scaled = CostSensitiveLogisticRegression().fit(X, y, cost_matrix=costs * 37.0)
    np.testing.assert_allclose(scaled.coef_, reference.coef_, rtol=1e-6)
    np.testing.assert_array_equal(
        scaled.predict(X, cost_matrix=costs * 37.0), reference.predict(X, cost_matrix=costs)
    )


def test_costs_change_the_fit_towards_the_expensive_rows():
    """Making missed positives dearer moves the probabilities up: more rows flagged at the same threshold."""
    X, y, costs = _data()
    cheap = CostSensitiveLogisticRegression().fit(X, y, cost_matrix=costs)
    dear = costs.copy()
    dear[:, 1] *= 10
    expensive = CostSensitiveLogisticRegression().fit(X, y, cost_matrix=dear)
    assert expensive.predict_proba(X)[:, 1].mean() > cheap.predict_proba(X)[:, 1].mean()


def test_the_penalty_path_shrinks_the_weights_and_l1_zeroes_them():
    X, y, costs = _data()
    norms = [
        np.abs(
            CostSensitiveLogisticRegression(alpha=a).fit(X, y, cost_matrix=costs).coef_ * X.std(axis=0)
        ).sum()
        for a in (1e-4, 1e-2, 1e-1, 1.0)
    ]
    assert norms == sorted(norms, reverse=True)
    lasso = CostSensitiveLogisticRegression(alpha=0.02, l1_ratio=1.0).fit(X, y, cost_matrix=costs)
    assert np.count_nonzero(lasso.coef_) < 3  # the useless third feature is dropped exactly
    assert lasso.coef_[0, 2] == 0.0
    everything = CostSensitiveLogisticRegression(alpha=10.0, l1_ratio=1.0).fit(X, y, cost_matrix=costs)
    assert np.count_nonzero(everything.coef_) == 0


def test_predict_is_the_minimum_risk_decision_with_each_rows_costs():
    X, y, costs = _data()
    model = CostSensitiveLogisticRegression().fit(X, y, cost_matrix=costs)
    p = model.predict_proba(X)[:, 1]
    c_fp, c_fn, c_tp, c_tn = costs.T
    risk_positive = c_tp * p + c_fp * (1 - p)
    risk_negative = c_tn * (1 - p) + c_fn * p
    np.testing.assert_array_equal(
        model.predict(X, cost_matrix=costs), (risk_positive < risk_negative).astype(int)
    )
    # without costs: the training costs' weighted means, one threshold for every row
    mean_costs = costs.mean(axis=0)
    threshold = (mean_costs[0] - mean_costs[3]) / (
        mean_costs[1] - mean_costs[3] - mean_costs[2] + mean_costs[0]
    )
    assert model.threshold_ == pytest.approx(threshold)
    np.testing.assert_array_equal(model.predict(X), (p > threshold).astype(int))


def test_unit_costs_without_a_cost_matrix_minimise_expected_errors():
    X, y, _ = _data()
    model = CostSensitiveLogisticRegression().fit(X, y)
    assert model.threshold_ == pytest.approx(0.5)
    assert (model.predict(X) == y).mean() > 0.8
    np.testing.assert_array_equal(model.predict(X), (model.decision_function(X) > 0).astype(int))


def test_rows_that_cost_the_same_either_way_are_refused():
    X, y, _ = _data(20)
    flat = np.tile([1.0, 1.0, 1.0, 1.0], (20, 1))
    with pytest.raises(ValueError, match="every row costs the same whichever class is predicted"):
        CostSensitiveLogisticRegression().fit(X, y, cost_matrix=flat)


def test_it_is_registered_and_routed_through_a_search():
    assert METHODS["cslogit"] is CostSensitiveLogisticRegression
    X, y, costs = _data()
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            CostSensitiveLogisticRegression().set_fit_request(cost_matrix=True),
            {"alpha": [1e-3, 1e-1]},
            scoring=savings_scorer,
            cv=3,
        ).fit(X, y, cost_matrix=costs)
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()


def test_the_half_decision_ignores_the_rows_costs_at_predict_time():
    X, y, costs = _data()
    model = CostSensitiveLogisticRegression(decision="half").fit(X, y, cost_matrix=costs)
    p = model.predict_proba(X)[:, 1]
    np.testing.assert_array_equal(model.predict(X, cost_matrix=costs), (p > 0.5).astype(int))
    np.testing.assert_array_equal(model.predict(X), (p > 0.5).astype(int))
    np.testing.assert_array_equal(model.decision_thresholds(X, costs), np.full(len(y), 0.5))
    with pytest.raises(ValueError, match="cost_matrix has 3 rows but the data has 400 samples"):
        model.predict(X, cost_matrix=costs[:3])
