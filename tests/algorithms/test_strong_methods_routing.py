"""The methods of issue 22 take ``cost_matrix`` through metadata routing: a routed cross-validation fits each
fold's model on that fold's rows of the costs, exactly as a fit by hand does, and scores it with the test
rows' costs."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from sklearn.model_selection import StratifiedKFold, cross_validate

from algorithms import METHODS
from algorithms.metrics import savings_score
from algorithms.scorers import savings_scorer

STRONG_METHODS = ("cslogit", "csboost", "bmr-hgb", "csforest", "csbagging", "cspasting", "cspatches")


def _data(n=300):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] + rng.normal(size=n) > 1.0).astype(int)
    costs = np.column_stack([np.full(n, 2.0), np.abs(X[:, 1]) * 30 + 1, np.full(n, 2.0), np.zeros(n)])
    return X, y, costs


@pytest.mark.parametrize("key", STRONG_METHODS)
def test_a_routed_cross_validation_fits_and_scores_each_fold_with_its_rows_costs(key):
    X, y, costs = _data()
    estimator = METHODS[key]()
    small = {"n_estimators": 5} if "n_estimators" in estimator.get_params() else {}
    seeded = {"random_state": 0} if "random_state" in estimator.get_params() else {}
    estimator.set_params(**small, **seeded)
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    with sklearn.config_context(enable_metadata_routing=True):
        routed = cross_validate(
            estimator.set_fit_request(cost_matrix=True),
            X,
            y,
            params={"cost_matrix": costs},
            scoring=savings_scorer,
            cv=folds,
            return_estimator=True,
        )
    for (train, test), model, score in zip(
        folds.split(X, y), routed["estimator"], routed["test_score"], strict=True
    ):
        by_hand = METHODS[key](**small, **seeded).fit(X[train], y[train], cost_matrix=costs[train])
        np.testing.assert_allclose(model.predict_proba(X[test]), by_hand.predict_proba(X[test]))
        decided = by_hand.predict(X[test], cost_matrix=costs[test])
        assert score == pytest.approx(savings_score(y[test], decided, costs[test]))
