"""Savings and cost scorers in a real GridSearchCV, cost_matrix routed to the estimator and the scorer."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from algorithms import METHODS
from algorithms.cost import BayesMinimumRiskClassifier
from algorithms.metrics import cost_loss, savings_score
from algorithms.scorers import COST_SCORERS, neg_cost_scorer, savings_scorer


def _cost_data(n: int = 300):
    """Fraud-like: an alert costs 2 (C_FP = C_TP), a miss its amount (C_FN), C_TN = 0 (CSDT Table 6)."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + rng.normal(size=n) > 1.0).astype(int)
    amount = np.abs(X[:, 1]) * 40 + 1
    return X, y, np.column_stack([np.full(n, 2.0), amount, np.full(n, 2.0), np.zeros(n)])


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


FOLDS = StratifiedKFold(3, shuffle=True, random_state=0)


def _fold_scores_by_hand(estimator, X, y, costs, metric, *, predict_with_costs=False):
    """Refit on each training fold with its costs; the metric on the test fold's rows and costs."""
    scores = []
    for train, test in FOLDS.split(X, y):
        model = clone(estimator).fit(X[train], y[train], cost_matrix=costs[train])
        kwargs = {"cost_matrix": costs[test]} if predict_with_costs else {}
        scores.append(metric(y[test], model.predict(X[test], **kwargs), costs[test]))
    return scores


@pytest.mark.parametrize("method", ["csdt", "bmr-lr"])
def test_grid_search_routes_cost_matrix_to_fit_and_scorer_and_each_fold_scores_its_own_rows(method, routing):
    X, y, costs = _cost_data()
    estimator = METHODS[method](random_state=0).set_fit_request(cost_matrix=True)
    grid = {"max_depth": [2, 4]} if method == "csdt" else {"method": ["isotonic", "sigmoid"]}
    search = GridSearchCV(estimator, grid, scoring=savings_scorer, cv=FOLDS).fit(X, y, cost_matrix=costs)
    for index, params in enumerate(search.cv_results_["params"]):
        expected = _fold_scores_by_hand(
            clone(estimator).set_params(**params),
            X,
            y,
            costs,
            savings_score,
            predict_with_costs=method == "bmr-lr",  # Bayes minimum risk decides with the fold's costs
        )
        observed = [search.cv_results_[f"split{fold}_test_score"][index] for fold in range(3)]
        np.testing.assert_allclose(observed, expected, rtol=1e-12)
    if method != "csdt":
        return
    # The fit received the costs: the cost-sensitive tree fit without them scores the folds differently.
    without_costs = [
        savings_score(
            y[test],
            clone(estimator).set_params(**search.best_params_).fit(X[train], y[train]).predict(X[test]),
            costs[test],
        )
        for train, test in FOLDS.split(X, y)
    ]
    best = search.cv_results_["params"].index(search.best_params_)
    with_costs = [search.cv_results_[f"split{fold}_test_score"][best] for fold in range(3)]
    assert not np.allclose(with_costs, without_costs)


def test_multimetric_search_reports_savings_and_minus_the_cost(routing):
    X, y, costs = _cost_data()
    estimator = METHODS["csdt"](random_state=0).set_fit_request(cost_matrix=True)
    search = GridSearchCV(
        estimator, {"max_depth": [2, 3]}, scoring=COST_SCORERS, refit="savings", cv=FOLDS
    ).fit(X, y, cost_matrix=costs)
    expected_cost = _fold_scores_by_hand(estimator.set_params(max_depth=2), X, y, costs, cost_loss)
    observed = [search.cv_results_[f"split{fold}_test_neg_cost"][0] for fold in range(3)]
    np.testing.assert_allclose(observed, -np.asarray(expected_cost), rtol=1e-12)
    assert search.best_params_["max_depth"] in (2, 3) and hasattr(search, "best_estimator_")


def test_a_pipeline_step_that_requests_costs_for_predict_is_scored_on_its_cost_decisions(routing):
    X, y, costs = _cost_data()
    classifier = BayesMinimumRiskClassifier(random_state=0).set_fit_request(cost_matrix=True)
    pipeline = make_pipeline(StandardScaler(), classifier.set_predict_request(cost_matrix=True))
    scores = cross_validate(pipeline, X, y, scoring=savings_scorer, cv=FOLDS, params={"cost_matrix": costs})
    expected = []
    for train, test in FOLDS.split(X, y):
        fitted = clone(pipeline).fit(X[train], y[train], cost_matrix=costs[train])
        expected.append(savings_score(y[test], fitted.predict(X[test], cost_matrix=costs[test]), costs[test]))
    np.testing.assert_allclose(scores["test_score"], expected, rtol=1e-12)


def test_a_scorer_without_costs_says_how_to_route_them():
    X, y, costs = _cost_data(60)
    model = METHODS["csdt"](random_state=0).fit(X, y, cost_matrix=costs)
    with pytest.raises(ValueError, match=r"CostScorer\(savings_score\) needs the rows' cost_matrix: enable"):
        savings_scorer(model, X, y)
    assert neg_cost_scorer(model, X, y, cost_matrix=costs) == -cost_loss(y, model.predict(X), costs)
    with pytest.raises(ValueError, match=r"cost_matrix has 59 rows but the data has 60 samples"):
        savings_scorer(model, X, y, cost_matrix=costs[:-1])
    assert repr(neg_cost_scorer) == "CostScorer(neg cost_loss)"


def test_tuned_threshold_search_scores_every_threshold_with_the_rows_costs(routing):
    """``TunedThresholdClassifierCV`` with ``savings_scorer``: the chosen threshold is the one of largest
    savings among the candidates, each candidate's savings computed by hand on the same rows and costs."""
    from sklearn.frozen import FrozenEstimator
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import TunedThresholdClassifierCV

    X, y, costs = _cost_data(400)
    model = LogisticRegression().fit(X, y)
    candidates = np.linspace(0.01, 0.9, 40)
    tuned = TunedThresholdClassifierCV(
        FrozenEstimator(model), scoring=savings_scorer, thresholds=candidates, cv="prefit", refit=False
    ).fit(X, y, cost_matrix=costs)
    probability = model.predict_proba(X)[:, 1]
    by_hand = [savings_score(y, (probability >= t).astype(int), costs) for t in candidates]
    assert tuned.best_score_ == pytest.approx(max(by_hand))
    assert tuned.best_threshold_ == pytest.approx(candidates[int(np.argmax(by_hand))])
    # the cost-blind 1/2 is worse here: a miss costs up to 20 times an alert
    assert max(by_hand) > savings_score(y, model.predict(X), costs)
    np.testing.assert_array_equal(tuned.predict(X), (probability >= tuned.best_threshold_).astype(int))


def test_tuned_threshold_search_cross_validates_with_each_folds_costs(routing):
    """End to end with folds: ``neg_cost_scorer`` receives each fold's rows of the cost matrix (a matrix of
    the wrong length would fail), and the tuned model costs less on the data than the 1/2 threshold."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import TunedThresholdClassifierCV

    X, y, costs = _cost_data(600)
    tuned = TunedThresholdClassifierCV(LogisticRegression(), scoring=neg_cost_scorer, cv=FOLDS).fit(
        X, y, cost_matrix=costs
    )
    assert 0.0 < tuned.best_threshold_ < 0.5
    plain = LogisticRegression().fit(X, y)
    assert cost_loss(y, tuned.predict(X), costs) < cost_loss(y, plain.predict(X), costs)
    assert tuned.best_score_ < 0  # minus a cost


def test_the_scorer_exposes_what_scikit_learns_curve_scorer_reads():
    from sklearn.metrics._scorer import _CurveScorer

    curve = _CurveScorer.from_scorer(savings_scorer, "predict_proba", 5)
    assert curve._score_func is savings_score
    assert curve._sign == 1 and curve._kwargs == {"pos_label": 1}
    assert curve.get_metadata_routing().score.requests == {"cost_matrix": True}
    assert _CurveScorer.from_scorer(neg_cost_scorer, "predict_proba", 5)._sign == -1
