"""Ensembles of cost-sensitive trees (Correa Bahnsen et al. 2015): each variant's draws, the rows' costs
routed to every member, the combiners by hand, one-class draws, parallel fits identical to serial ones."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms import METHODS
from algorithms.ensemble import (
    CostSensitiveBagging,
    CostSensitivePasting,
    CostSensitiveRandomForest,
    CostSensitiveRandomPatches,
    EnsembleMemberTree,
)
from algorithms.ensemble._combiners import out_of_bag_savings
from algorithms.linear import CostSensitiveLogisticRegression
from algorithms.metrics import savings_score


def _data(n_samples=500, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=n_samples) > 1.0).astype(int)
    amounts = rng.lognormal(2.5, 1.0, n_samples)
    costs = np.column_stack([np.full(n_samples, 3.0), amounts, np.full(n_samples, 3.0), np.zeros(n_samples)])
    return X, y, costs


@pytest.mark.parametrize(
    ("key", "cls", "bootstrap", "rows", "features", "split_features"),
    [
        ("csforest", CostSensitiveRandomForest, True, 1.0, 1.0, "sqrt"),
        ("csbagging", CostSensitiveBagging, True, 0.5, 1.0, None),
        ("cspasting", CostSensitivePasting, False, 0.5, 1.0, None),
        ("cspatches", CostSensitiveRandomPatches, False, 0.5, 0.5, None),
    ],
)
def test_each_variant_draws_as_the_paper_says(key, cls, bootstrap, rows, features, split_features):
    assert METHODS[key] is cls
    X, y, costs = _data()
    model = cls(random_state=0).fit(X, y, cost_matrix=costs)
    assert len(model.bagging_.estimators_) == 10
    for member, drawn_rows, drawn_features in zip(
        model.bagging_.estimators_,
        model.bagging_.estimators_samples_,
        model.bagging_.estimators_features_,
        strict=True,
    ):
        assert drawn_rows.size == int(rows * 500)
        assert (np.unique(drawn_rows).size < drawn_rows.size) == bootstrap  # repeats only with replacement
        assert drawn_features.size == int(features * 4)
        assert member.max_features == split_features
        # the member grew on its drawn rows' own costs: the root's cost of labelling all negative / positive
        counts = np.bincount(drawn_rows, minlength=500)
        all_negative = (counts * np.where(y == 1, costs[:, 1], costs[:, 3])).sum()
        all_positive = (counts * np.where(y == 1, costs[:, 2], costs[:, 0])).sum()
        np.testing.assert_allclose(member.tree_.grown_tree_.cost[0], [all_negative, all_positive])


def test_out_of_bag_savings_by_hand():
    votes = np.array([[1, 0], [0, 0], [1, 1], [0, 1]], dtype=float)
    in_bag = np.array([[True, True], [False, True], [False, True], [True, True]])
    y = np.array([1, 0, 1, 0])
    costs = np.tile([1.0, 5.0, 1.0, 0.0], (4, 1))
    # tree 0 out of bag: rows 1-2, right on both: cost 0 + 1 against Cost_l = min(5, 2) = 2 -> 0.5
    # tree 1 saw every row: all rows, cost 5 + 0 + 1 + 1 = 7 against min(10, 4) = 4 -> negative -> 0
    np.testing.assert_allclose(out_of_bag_savings(votes, in_bag, y, costs), [0.5, 0.0])
    assert savings_score(y[1:3], votes[1:3, 0], costs[1:3]) == pytest.approx(0.5)


@pytest.mark.parametrize("combination", ["majority", "weighted"])
def test_voting_is_the_weighted_share_of_positive_votes(combination):
    X, y, costs = _data()
    model = CostSensitiveBagging(combination=combination, random_state=0).fit(X, y, cost_matrix=costs)
    votes = np.column_stack(
        [
            m.predict(X[:, f])
            for m, f in zip(model.bagging_.estimators_, model.bagging_.estimators_features_, strict=True)
        ]
    )
    if combination == "majority":
        np.testing.assert_allclose(model.vote_weights_, np.full(10, 0.1))
    else:
        in_bag = np.zeros((500, 10), dtype=bool)
        for tree, drawn in enumerate(model.bagging_.estimators_samples_):
            in_bag[drawn, tree] = True
        savings = out_of_bag_savings(votes.astype(float), in_bag, y, costs)
        np.testing.assert_allclose(model.vote_weights_, savings / savings.sum())
    share = votes @ model.vote_weights_
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], share)
    np.testing.assert_array_equal(model.predict(X), (share > 0.5).astype(int))
    np.testing.assert_array_equal(model.predict(X, cost_matrix=costs), model.predict(X))  # votes decide
    assert model.stacker_ is None


def test_stacking_is_a_cslogit_on_the_votes_deciding_with_each_rows_costs():
    X, y, costs = _data()
    model = CostSensitivePasting(combination="stacking", random_state=0).fit(X, y, cost_matrix=costs)
    votes = np.column_stack(
        [
            m.predict(X[:, f])
            for m, f in zip(model.bagging_.estimators_, model.bagging_.estimators_features_, strict=True)
        ]
    ).astype(float)
    by_hand = CostSensitiveLogisticRegression(pos_label=1).fit(votes, y, cost_matrix=costs)
    np.testing.assert_allclose(model.stacker_.coef_, by_hand.coef_)
    np.testing.assert_array_equal(
        model.predict(X, cost_matrix=costs), by_hand.predict(votes, cost_matrix=costs)
    )
    np.testing.assert_array_equal(model.predict(X), by_hand.predict(votes))
    assert model.vote_weights_ is None


def test_a_one_class_draw_is_a_leaf_labelled_with_the_cheaper_decision():
    X = np.zeros((3, 1))
    costs = np.array([[1.0, 5.0, 0.0, 0.0], [1.0, 5.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]])
    # all positive: labelling them negative costs 5 + 5 + 1 = 11, positive 0
    member = EnsembleMemberTree().fit(X, np.ones(3, dtype=int), cost_matrix=costs)
    assert member.tree_ is None and member.leaf_label_ == 1
    np.testing.assert_array_equal(member.predict(np.zeros((2, 1))), [1, 1])
    assert EnsembleMemberTree().fit(X, np.zeros(3, dtype=int), cost_matrix=costs).leaf_label_ == 0


def test_parallel_fits_equal_serial_ones_and_the_seed_fixes_the_draws():
    X, y, costs = _data()
    serial = CostSensitiveRandomPatches(random_state=3, n_jobs=1).fit(X, y, cost_matrix=costs)
    parallel = CostSensitiveRandomPatches(random_state=3, n_jobs=2).fit(X, y, cost_matrix=costs)
    np.testing.assert_array_equal(serial.predict_proba(X), parallel.predict_proba(X))
    other = CostSensitiveRandomPatches(random_state=4).fit(X, y, cost_matrix=costs)
    assert not np.array_equal(serial.predict_proba(X), other.predict_proba(X))


def test_costs_change_the_members():
    X, y, costs = _data()
    unit = CostSensitiveBagging(random_state=0).fit(X, y)
    costed = CostSensitiveBagging(random_state=0).fit(X, y, cost_matrix=costs)
    assert costed.predict(X).mean() > unit.predict(X).mean()  # misses cost up to 100 times an alert
