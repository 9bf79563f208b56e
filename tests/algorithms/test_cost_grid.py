"""The cost grid (algorithms.cost_grid): every candidate of every fixed-cost method is the model its own fit
gives (issue 24 points 1-2), with class costs and with example-dependent cost matrices; AdaMEC's and
AdaMEC-Cal's ensembles are trained once for the whole grid."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone

from algorithms import METHODS
from algorithms.boosting import CSB1, AdaBoost, AdaMEC, AdaMECCalibrated, CostSensitiveAdaBoost
from algorithms.boosting._stump import DecisionStump, PresortedStumpSearch
from algorithms.cost_grid import fit_negative_cost_grid

FIXED_COST_KEYS = sorted(key for key, cls in METHODS.items() if "negative_cost" in cls().get_params())
CLASS_COST_GRID = (0.1, 0.3, 0.6, 1.0)
REGRET_GRID = (1.0, 1.9, 3.6, 6.9)  # C- scaling the negatives' regret up to about the regrets' ratio
ROUNDS = 15


@pytest.fixture(scope="module")
def problem():
    """An imbalanced problem with example-dependent costs: C_FN heavy-tailed, C_FP = C_TP = 1, C_TN = 0.

    Two of its features are sorted (continuous), one has ties, and two are mostly one value (a flag and a
    count), which the stump search codes and sums for all the candidates of a grid in one pass.
    """
    rng = np.random.default_rng(11)
    n = 360
    X = rng.normal(size=(n, 7))
    X[:, 4] = np.round(X[:, 4])  # ties in one feature
    X[:, 5] = rng.random(n) < 0.2  # a flag
    X[:, 6] = np.where(rng.random(n) < 0.75, 0.0, rng.integers(1, 5, size=n))  # a count, mostly 0
    signal = X[:, 0] + 0.8 * X[:, 1] + 0.9 * X[:, 5] + 0.3 * X[:, 6]
    y = (signal + rng.normal(scale=1.1, size=n) > 1.9).astype(int)
    c_fn = np.maximum(np.exp(rng.normal(2.0, 1.0, size=n)), 1.0)
    costs = np.column_stack([np.ones(n), c_fn, np.ones(n), np.zeros(n)])
    return X, y, costs


def _build(key):
    estimator = METHODS[key]()
    params = estimator.get_params()
    overrides = {
        name: value for name, value in (("n_estimators", ROUNDS), ("random_state", 0)) if name in params
    }
    return estimator.set_params(**overrides)


def _own_fit(estimator, cost, X, y, costs):
    try:
        model = clone(estimator).set_params(negative_cost=cost)
        return model.fit(X, y, **({} if costs is None else {"cost_matrix": costs}))
    except ValueError as error:
        return error


def assert_same_model(model, own, X, costs):
    """Exactly the same fitted model: ensemble, votes, trace, stumps and every prediction."""
    if hasattr(own, "estimators_"):
        assert model.stop_reason_ == own.stop_reason_
        assert_array_equal(model.estimator_weights_, own.estimator_weights_)
        assert_array_equal(model.vote_weights_, own.vote_weights_)
        assert_array_equal(model.final_distribution_, own.final_distribution_)
        assert model.trace_.keys() == own.trace_.keys()
        for key in own.trace_:
            assert_array_equal(model.trace_[key], own.trace_[key], err_msg=key)
        assert len(model.estimators_) == len(own.estimators_)
        for mine, theirs in zip(model.estimators_, own.estimators_, strict=True):
            if isinstance(theirs, DecisionStump):
                assert (mine.feature_, mine.threshold_) == (theirs.feature_, theirs.threshold_)
                assert_array_equal(mine.value_, theirs.value_)
        for mine, theirs in zip(model.staged_predict(X), own.staged_predict(X), strict=True):
            assert_array_equal(mine, theirs)
        if "cost_matrix" in own.staged_predict.__code__.co_varnames and costs is not None:
            staged = zip(model.staged_predict(X, costs), own.staged_predict(X, costs), strict=True)
            for mine, theirs in staged:
                assert_array_equal(mine, theirs)
    assert_array_equal(model.predict(X), own.predict(X))
    if hasattr(own, "predict_proba"):
        assert_array_equal(model.predict_proba(X), own.predict_proba(X))
    if hasattr(own, "decision_function"):
        assert_array_equal(model.decision_function(X), own.decision_function(X))
    if "cost_matrix" in own.predict.__code__.co_varnames and costs is not None:
        assert_array_equal(model.predict(X, cost_matrix=costs), own.predict(X, cost_matrix=costs))
    if hasattr(own, "threshold_"):
        assert model.threshold_ == own.threshold_
        assert_array_equal(model.class_costs_, own.class_costs_)


@pytest.mark.parametrize("with_matrix", [False, True], ids=["class-costs", "cost-matrix"])
@pytest.mark.parametrize("key", FIXED_COST_KEYS)
def test_every_candidate_of_the_grid_is_its_own_fit(problem, key, with_matrix):
    X, y, costs = problem
    costs = costs if with_matrix else None
    grid = REGRET_GRID if with_matrix else CLASS_COST_GRID
    estimator = _build(key)
    fits = fit_negative_cost_grid(estimator, X, y, grid, cost_matrix=costs)
    assert [fit.negative_cost for fit in fits] == list(grid)
    n_models = 0
    for fit in fits:
        own = _own_fit(estimator, fit.negative_cost, X, y, costs)
        if isinstance(own, ValueError):
            assert fit.model is None and str(fit.error) == str(own)
            continue
        assert fit.error is None and fit.model.negative_cost == fit.negative_cost
        assert_same_model(fit.model, own, X, costs)
        n_models += 1
    assert n_models >= 2  # the comparison compared models, not only errors


def test_the_grid_matters_and_one_candidate_is_a_plain_fit(problem):
    X, y, costs = problem
    fits = fit_negative_cost_grid(CSB1(n_estimators=ROUNDS), X, y, CLASS_COST_GRID)
    assert len({tuple(fit.model.predict(X)) for fit in fits}) > 1
    (single,) = fit_negative_cost_grid(CSB1(n_estimators=ROUNDS), X, y, [0.3], cost_matrix=costs)
    assert_same_model(single.model, _own_fit(CSB1(n_estimators=ROUNDS), 0.3, X, y, costs), X, costs)


def test_resampling_and_other_weak_learners_fall_back_inside_the_one_loop(problem):
    from sklearn.tree import DecisionTreeClassifier

    X, y, costs = problem
    for estimator in (
        CostSensitiveAdaBoost(n_estimators=8, resample=True, random_state=3),
        CSB1(DecisionTreeClassifier(max_depth=2), n_estimators=8, random_state=3),
    ):
        for fit in fit_negative_cost_grid(estimator, X, y, CLASS_COST_GRID, cost_matrix=costs):
            assert_same_model(fit.model, _own_fit(estimator, fit.negative_cost, X, y, costs), X, costs)


def test_adamec_trains_one_ensemble_for_the_whole_grid(problem, monkeypatch):
    """AdaMEC's weights never depend on C-: each round is one search, the candidates only re-decide."""
    X, y, costs = problem
    searches = []
    fit_many = PresortedStumpSearch.fit_many

    def counting(self, y01, weight_vectors):
        searches.extend(weight_vectors)
        return fit_many(self, y01, weight_vectors)

    monkeypatch.setattr(PresortedStumpSearch, "fit_many", counting)
    fits = fit_negative_cost_grid(AdaMEC(n_estimators=ROUNDS), X, y, REGRET_GRID, cost_matrix=costs)
    assert len(searches) == len(fits[0].model.estimators_)  # one search a round for the 4 candidates
    decisions = [fit.model.predict(X, cost_matrix=costs) for fit in fits]
    assert len({tuple(decision) for decision in decisions}) > 1  # the candidates decide differently


def test_adamec_calibrated_calibrates_once_for_the_whole_grid(problem, monkeypatch):
    X, y, costs = problem
    fitted = []
    adaboost_fit = AdaBoost.fit

    def counting(self, *args, **kwargs):
        fitted.append(self)
        return adaboost_fit(self, *args, **kwargs)

    monkeypatch.setattr(AdaBoost, "fit", counting)
    estimator = AdaMECCalibrated(n_estimators=ROUNDS, random_state=0)
    fits = fit_negative_cost_grid(estimator, X, y, REGRET_GRID, cost_matrix=costs)
    assert len(fitted) == estimator.calibration_folds + 1  # the fold ensembles and the refit, once
    fitted.clear()
    for fit in fits:
        assert_same_model(fit.model, _own_fit(estimator, fit.negative_cost, X, y, costs), X, costs)


def test_the_grid_refuses_estimators_without_class_costs(problem):
    X, y, _ = problem
    with pytest.raises(ValueError, match="AdaBoost has no negative_cost parameter"):
        fit_negative_cost_grid(AdaBoost(), X, y, CLASS_COST_GRID)
    with pytest.raises(ValueError, match="at least one candidate"):
        fit_negative_cost_grid(AdaMEC(), X, y, ())
