"""csboost (Höppner et al. 2022): the objective's derivatives, one boosting round by hand, cost-scale
invariance, the decision with each row's costs, and LightGBM imported only when a model is fitted."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy.special import expit, logit

from algorithms import METHODS
from algorithms._expected_cost import normalised_regrets
from algorithms.gradient_boosting import CostSensitiveGradientBoosting
from algorithms.gradient_boosting._objective import expected_cost_gradients


def _data(n_samples=600, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=n_samples) > 1.2).astype(int)
    amounts = rng.lognormal(3.0, 1.0, n_samples)
    costs = np.column_stack([np.full(n_samples, 5.0), amounts, np.full(n_samples, 5.0), np.zeros(n_samples)])
    return X, y, costs


def test_gradient_and_curvatures_against_finite_differences():
    rng = np.random.default_rng(0)
    raw = rng.normal(scale=3.0, size=200)
    slopes = rng.normal(size=200)
    step = 1e-5
    value = lambda z: slopes * expit(z)  # noqa: E731 - the per-row loss s_i sigma(z_i)
    numeric_gradient = (value(raw + step) - value(raw - step)) / (2 * step)
    numeric_second = (value(raw + step) - 2 * value(raw) + value(raw - step)) / step**2
    for hessian in ("bound", "absolute"):
        gradient, curvature = expected_cost_gradients(raw, slopes, hessian)
        np.testing.assert_allclose(gradient, numeric_gradient, rtol=1e-6, atol=1e-9)
        assert (curvature > 0).all()
        assert (curvature >= np.abs(numeric_second) - 1e-4).all() if hessian == "bound" else True
    # "absolute" is |h| where that is above its floor; "bound" is |s| p (1 - p)
    _, absolute = expected_cost_gradients(raw, slopes, "absolute")
    away = np.abs(numeric_second) > 1e-3
    np.testing.assert_allclose(absolute[away], np.abs(numeric_second[away]), rtol=1e-3)
    _, bound = expected_cost_gradients(raw, slopes, "bound")
    np.testing.assert_allclose(bound, np.abs(slopes) * expit(raw) * expit(-raw))
    # the Hessian itself changes sign: the reason for the positive curvature
    assert (numeric_second < -1e-3).any() and (numeric_second > 1e-3).any()


def test_one_round_is_the_newton_step_on_the_curvature_by_hand():
    """One stump on one binary feature: each leaf moves by ``-lr sum g / sum h`` from the start."""
    rng = np.random.default_rng(3)
    n = 200
    X = rng.integers(0, 2, size=(n, 1)).astype(float)
    y = (rng.random(n) < np.where(X[:, 0] == 1, 0.6, 0.1)).astype(int)
    costs = np.column_stack([np.full(n, 1.0), rng.uniform(2, 30, n), np.zeros(n), np.zeros(n)])
    model = CostSensitiveGradientBoosting(
        n_estimators=1, num_leaves=2, min_child_samples=1, learning_rate=0.7
    ).fit(X, y, cost_matrix=costs)
    start = logit(y.mean())
    assert model.init_score_ == pytest.approx(start)
    slopes, _ = normalised_regrets(y, costs, np.ones(n))
    gradient, curvature = expected_cost_gradients(np.full(n, start), slopes * n, "bound")
    for value in (0.0, 1.0):
        rows = X[:, 0] == value
        expected = start - 0.7 * gradient[rows].sum() / curvature[rows].sum()
        np.testing.assert_allclose(model.decision_function(X[rows]), expected, rtol=1e-6)


def test_scaling_every_cost_leaves_the_fit_unchanged():
    X, y, costs = _data()
    reference = CostSensitiveGradientBoosting(n_estimators=20, random_state=0).fit(X, y, cost_matrix=costs)
    scaled = CostSensitiveGradientBoosting(n_estimators=20, random_state=0).fit(X, y, cost_matrix=costs * 1e3)
    np.testing.assert_allclose(scaled.predict_proba(X), reference.predict_proba(X), rtol=1e-6, atol=1e-9)


def test_dearer_misses_raise_the_probabilities_and_the_decision_uses_each_rows_costs():
    X, y, costs = _data()
    model = CostSensitiveGradientBoosting(n_estimators=30, random_state=0).fit(X, y, cost_matrix=costs)
    dear = costs.copy()
    dear[:, 1] *= 20
    dearer = CostSensitiveGradientBoosting(n_estimators=30, random_state=0).fit(X, y, cost_matrix=dear)
    assert dearer.predict_proba(X)[:, 1].mean() > model.predict_proba(X)[:, 1].mean()
    p = model.predict_proba(X)[:, 1]
    c_fp, c_fn, c_tp, c_tn = costs.T
    np.testing.assert_array_equal(
        model.predict(X, cost_matrix=costs),
        (c_tp * p + c_fp * (1 - p) < c_tn * (1 - p) + c_fn * p).astype(int),
    )


def test_the_text_model_alone_predicts_and_the_library_loads_only_to_fit_or_predict():
    assert METHODS["csboost"] is CostSensitiveGradientBoosting
    code = (
        "import sys, algorithms; algorithms.METHODS; "
        "from algorithms.gradient_boosting import CostSensitiveGradientBoosting; "
        "assert 'lightgbm' not in sys.modules, 'imported with the registry'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    X, y, costs = _data(200)
    model = CostSensitiveGradientBoosting(n_estimators=5).fit(X, y, cost_matrix=costs)
    assert isinstance(model.booster_text_, str) and model.booster_text_.startswith("tree")
