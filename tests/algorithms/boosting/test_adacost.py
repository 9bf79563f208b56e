"""AdaCost's two formulations (issue 8 point 3): the AdaCC authors' code and Fan et al. with scaled costs."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_classification

from algorithms.boosting.adaboost import AdaBoost
from algorithms.boosting.adacost import FAN_COST_SCALE, AdaCost

TOLERANCE = {"rtol": 0, "atol": 1e-12}
X_TOY = np.column_stack([np.arange(10.0), [3.0, 1.0, 4.0, 0.0, 5.0, 2.0, 6.0, 7.0, 9.0, 8.0]])
Y_TOY = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])
Y_SIGNED = np.where(Y_TOY == 1, 1.0, -1.0)


def signed_output(learner):
    return np.where(learner.predict(X_TOY) == 1, 1.0, -1.0)


def test_adacc_code_two_rounds_by_hand():
    """alpha = ln((1 - e) / e) from the plain error; misclassified samples times exp(alpha (1 + C) / 2)."""
    costs = np.where(Y_TOY == 1, 1.0, 0.4)
    one = AdaCost(n_estimators=1, negative_cost=0.4).fit(X_TOY, Y_TOY)
    two = AdaCost(n_estimators=2, negative_cost=0.4).fit(X_TOY, Y_TOY)
    h1, h2 = signed_output(two.estimators_[0]), signed_output(two.estimators_[1])
    d1 = costs / costs.sum()
    wrong1 = h1 != Y_SIGNED
    error1 = d1[wrong1].sum()
    alpha1 = np.log((1 - error1) / error1)
    d2 = d1 * np.where(wrong1, np.exp(alpha1 * 0.5 * (1 + costs)), 1.0)
    d2 /= d2.sum()
    wrong2 = h2 != Y_SIGNED
    error2 = d2[wrong2].sum()
    alpha2 = np.log((1 - error2) / error2)
    d3 = d2 * np.where(wrong2, np.exp(alpha2 * 0.5 * (1 + costs)), 1.0)
    d3 /= d3.sum()
    assert_allclose(one.final_distribution_, d2, **TOLERANCE)
    assert_allclose(two.final_distribution_, d3, **TOLERANCE)
    assert_allclose(two.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    margin = alpha1 * h1 + alpha2 * h2
    assert_allclose(two.decision_function(X_TOY), margin / (alpha1 + alpha2), **TOLERANCE)


def test_adacc_code_with_equal_costs_is_adaboost():
    """beta = 1 for every mistake: the SAMME update, whose alpha is twice AdaBoost's 1/2 ln((1 - e) / e)."""
    X, y = make_classification(n_samples=300, n_features=6, weights=[0.8], flip_y=0.05, random_state=3)
    adaboost = AdaBoost(n_estimators=20).fit(X, y)
    model = AdaCost(n_estimators=20).fit(X, y)
    assert_allclose(model.estimator_weights_, 2 * adaboost.estimator_weights_, rtol=1e-10, atol=0)
    assert_allclose(model.decision_function(X), adaboost.decision_function(X), rtol=0, atol=1e-10)
    assert_array_equal(model.predict(X), adaboost.predict(X))


@pytest.mark.parametrize("formulation", ["adacc-code", "fan"])
def test_scaling_every_cost_leaves_the_model_unchanged(formulation):
    X, y = make_classification(n_samples=300, n_features=6, weights=[0.85], flip_y=0.03, random_state=5)
    small = AdaCost(n_estimators=15, positive_cost=1.0, negative_cost=0.3, formulation=formulation).fit(X, y)
    large = AdaCost(n_estimators=15, positive_cost=9.0, negative_cost=2.7, formulation=formulation).fit(X, y)
    assert_allclose(small.estimator_weights_, large.estimator_weights_, rtol=1e-10, atol=0)
    assert_array_equal(small.predict(X), large.predict(X))


def test_fan_scales_the_costs_into_its_working_range():
    """With C+ = 1 as given, a correct positive has beta = 0 and the toy's first round has r <= 0; scaled to
    FAN_COST_SCALE, r > 0 and AdaCost keeps its learners (the collapse of issue 8, point 3)."""
    model = AdaCost(n_estimators=5, positive_cost=1.0, negative_cost=0.2, formulation="fan").fit(X_TOY, Y_TOY)
    h1 = signed_output(model.estimators_[0])
    costs = np.where(Y_TOY == 1, 1.0, 0.2)
    d1 = costs / costs.sum()
    wrong = h1 != Y_SIGNED

    def r(scaled):
        beta = np.where(wrong, 0.5 * (1 + scaled), 0.5 * (1 - scaled))
        return (d1 * Y_SIGNED * h1 * beta).sum()

    assert r(costs) <= 0 < r(FAN_COST_SCALE * costs)
    assert len(model.estimators_) > 1
    assert set(model.predict(X_TOY)) == {0, 1}


@pytest.mark.parametrize("formulation", ["adacc-code", "fan"])
@pytest.mark.parametrize("negative_cost", [0.1, 0.5, 1.0])
def test_the_adacc_grid_keeps_learners_on_an_imbalanced_set(formulation, negative_cost):
    X, y = make_classification(
        n_samples=600, n_features=6, n_informative=3, weights=[0.93], class_sep=0.8, random_state=2
    )
    model = AdaCost(n_estimators=30, negative_cost=negative_cost, formulation=formulation).fit(X, y)
    assert model.stop_reason_ == "n_estimators"
    assert set(model.predict(X)) == {0, 1}


def test_unknown_formulation_is_named():
    with pytest.raises(ValueError, match="'formulation' parameter of AdaCost must be a str among"):
        AdaCost(formulation="paper").fit(X_TOY, Y_TOY)
