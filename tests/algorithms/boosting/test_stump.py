"""Tests of the fast weighted decision stump (``algorithms/boosting/_stump.py``).

Oracles: scikit-learn's ``DecisionTreeClassifier(max_depth=1)`` for ``"gini"`` and ``"entropy"``, a
brute-force search over every threshold for ``"error"``, and splits worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from algorithms.boosting._stump import CRITERIA, DecisionStump, PresortedStumpSearch


def _tie_free_problem(seed, *, zero_weight_share=0.2, discrete=False):
    """Random weighted data whose best split is not shared by two features (so the tie-break cannot matter).

    ``y`` follows one random feature plus noise, so the best split sits inside that feature; the other
    features are noise. Values are float32-representable, as scikit-learn's tree casts ``X`` to float32.
    """
    rng = np.random.default_rng(seed)
    n_samples, n_features = int(rng.integers(40, 200)), int(rng.integers(1, 7))
    if discrete:
        X = rng.integers(0, 12, size=(n_samples, n_features)).astype(np.float64)
    else:
        X = rng.random((n_samples, n_features)).astype(np.float32).astype(np.float64)
    signal = X[:, rng.integers(n_features)] / X.max()
    y = (signal + rng.normal(scale=0.3, size=n_samples) > 0.5).astype(int)
    weights = rng.exponential(size=n_samples)
    weights[rng.random(n_samples) < zero_weight_share] = 0.0
    return X, y, weights


def _sklearn_stump(X, y, weights, criterion, seed=0):
    tree = DecisionTreeClassifier(max_depth=1, criterion=criterion, random_state=seed)
    return tree.fit(X, y, sample_weight=weights).tree_


def _weighted_error(X, y, weights, feature, threshold):
    """Weighted misclassification of the two leaves' majority labels (the "error" criterion)."""
    left = X[:, feature] <= threshold
    return sum(min(weights[side & (y == 0)].sum(), weights[side & (y == 1)].sum()) for side in (left, ~left))


def _brute_force_errors(X, y, weights):
    """Every admissible (feature, threshold) and its weighted error, scanning thresholds one by one."""
    candidates = []
    for feature in range(X.shape[1]):
        values = np.unique(X[weights > 0, feature])
        for below, above in zip(values[:-1], values[1:], strict=True):
            threshold = below / 2 + above / 2
            candidates.append((feature, threshold, _weighted_error(X, y, weights, feature, threshold)))
    return candidates


# --- agreement with scikit-learn's depth-1 tree -----------------------------------------------------------


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("discrete", [False, True], ids=["continuous", "repeated-values"])
def test_same_split_and_leaves_as_sklearn_depth_one_tree(criterion, discrete):
    compared = 0
    for seed in range(120):
        X, y, weights = _tie_free_problem(seed, discrete=discrete)
        stump = DecisionStump(criterion=criterion).fit(X, y, sample_weight=weights)
        tree = _sklearn_stump(X, y, weights, criterion, seed)
        assert tree.node_count == 3, f"seed {seed}: scikit-learn did not split"
        assert stump.feature_ == tree.feature[0], f"seed {seed}"
        assert stump.threshold_ == tree.threshold[0], f"seed {seed}"
        np.testing.assert_allclose(stump.value_, tree.value[1:3, 0, :], rtol=1e-12, atol=1e-14)
        compared += 1
    assert compared == 120


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_same_split_as_sklearn_without_weights(criterion):
    for seed in range(20):
        X, y, _ = _tie_free_problem(seed)
        stump = DecisionStump(criterion=criterion).fit(X, y)
        tree = DecisionTreeClassifier(max_depth=1, criterion=criterion, random_state=seed).fit(X, y).tree_
        assert (stump.feature_, stump.threshold_) == (tree.feature[0], tree.threshold[0])
        np.testing.assert_allclose(stump.value_, tree.value[1:3, 0, :], rtol=1e-12, atol=1e-14)


# --- splits worked out by hand ----------------------------------------------------------------------------

# X = 1, 2, 3, 4 with y = 0, 0, 1, 0 and unit weights. Candidates 1.5, 2.5, 3.5 split the labels into
# {0 | 0 1 0}, {0 0 | 1 0}, {0 0 1 | 0}. Scores at 1.5, 2.5, 3.5:
#   gini     sum_k w_Lk^2 / w_L + sum_k w_Rk^2 / w_R:   1 + 5/3 = 2.667,   4/2 + 2/2 = 3.0,   5/3 + 1 = 2.667
#   entropy  sum_k w_k ln w_k - w ln w, both leaves:    2 ln 2 - 3 ln 3 = -1.910,   -2 ln 2 = -1.386,   -1.910
#   error    minority weight, both leaves:              0 + 1,   0 + 1,   1 + 0   (a tie: the first wins)
HAND_X = np.array([[1.0], [2.0], [3.0], [4.0]])
HAND_Y = np.array([0, 0, 1, 0])


@pytest.mark.parametrize(
    ("criterion", "threshold", "value"),
    [
        ("gini", 2.5, [[1.0, 0.0], [0.5, 0.5]]),
        ("entropy", 2.5, [[1.0, 0.0], [0.5, 0.5]]),
        ("error", 1.5, [[1.0, 0.0], [2 / 3, 1 / 3]]),
    ],
)
def test_hand_computed_split(criterion, threshold, value):
    stump = DecisionStump(criterion=criterion).fit(HAND_X, HAND_Y)
    assert stump.feature_ == 0
    assert stump.threshold_ == threshold
    np.testing.assert_allclose(stump.value_, value, rtol=1e-15)


def test_weights_move_the_hand_computed_split():
    # Weights 1, 1, 4, 1: the positive now dominates {3, 4}. gini at 1.5: 1 + (2^2 + 4^2)/6 = 4.333;
    # at 2.5: 4/2 + (1 + 16)/5 = 5.4; at 3.5: (4 + 16)/6 + 1 = 4.333.
    stump = DecisionStump().fit(HAND_X, HAND_Y, sample_weight=[1.0, 1.0, 4.0, 1.0])
    assert stump.threshold_ == 2.5
    np.testing.assert_allclose(stump.value_, [[1.0, 0.0], [0.2, 0.8]], rtol=1e-15)
    np.testing.assert_array_equal(stump.predict(HAND_X), [0, 0, 1, 1])


def test_zero_weight_sample_neither_sets_the_threshold_nor_fills_a_leaf():
    # The sample at x = 2 has weight 0: scikit-learn drops it, so the split lies between x = 1 and x = 3.
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    stump = DecisionStump().fit(X, [0, 0, 1, 1], sample_weight=[1.0, 1.0, 0.0, 1.0])
    assert stump.threshold_ == 2.0
    # A leaf holding only zero-weight samples is not allowed: the pure split {x = 0} | rest is impossible.
    stump = DecisionStump(criterion="error").fit(X, [1, 0, 1, 0], sample_weight=[0.0, 1.0, 1.0, 1.0])
    assert stump.threshold_ in (1.5, 2.5)
    assert np.all(stump.value_.sum(axis=1) == pytest.approx(1.0))


def test_threshold_between_adjacent_floats_keeps_the_upper_value_right():
    low = 1.0
    high = np.nextafter(low, 2.0)
    stump = DecisionStump().fit([[low], [high]], [0, 1])
    np.testing.assert_array_equal(stump.predict([[low], [high]]), [0, 1])


def test_exact_tie_between_features_goes_to_the_lowest_index():
    X, y, weights = _tie_free_problem(3, zero_weight_share=0.0)
    duplicated = np.hstack([X, X])  # every split of feature j is tied with feature j + m
    stump = DecisionStump().fit(duplicated, y, sample_weight=weights)
    assert stump.feature_ < X.shape[1]


# --- the "error" criterion against a brute-force search -----------------------------------------------------


def test_error_criterion_matches_brute_force_search():
    for seed in range(60):
        X, y, weights = _tie_free_problem(seed)
        X = X[:60]
        y, weights = y[:60], weights[:60]
        if weights[y == 0].sum() == 0 or weights[y == 1].sum() == 0:
            continue
        stump = DecisionStump(criterion="error").fit(X, y, sample_weight=weights)
        candidates = _brute_force_errors(X, y, weights)
        best_error = min(error for _, _, error in candidates)
        stump_error = _weighted_error(X, y, weights, stump.feature_, stump.threshold_)
        assert stump_error == pytest.approx(best_error, rel=1e-12, abs=1e-12), f"seed {seed}"
        first_best = next(c for c in candidates if c[2] <= best_error + 1e-12)
        assert (stump.feature_, stump.threshold_) == first_best[:2], f"seed {seed}: lowest index should win"
        # The leaves' majority labels make exactly the stump's weighted error.
        mistakes = stump.predict(X) != y
        assert weights[mistakes].sum() == pytest.approx(best_error, rel=1e-12, abs=1e-12)


# --- degenerate inputs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_constant_feature_is_never_split(criterion):
    rng = np.random.default_rng(0)
    informative = rng.random(50)
    X = np.column_stack([np.full(50, 7.0), informative])
    y = (informative > 0.4).astype(int)
    stump = DecisionStump(criterion=criterion).fit(X, y)
    assert stump.feature_ == 1
    assert X[y == 0, 1].max() < stump.threshold_ < X[y == 1, 1].min()


def test_all_features_constant_gives_a_constant_stump_of_the_class_fractions():
    X = np.ones((5, 3))
    stump = DecisionStump().fit(X, ["no", "yes", "no", "no", "yes"], sample_weight=[1, 1, 1, 1, 4])
    assert stump.threshold_ == np.inf
    np.testing.assert_allclose(stump.value_, [[3 / 8, 5 / 8], [3 / 8, 5 / 8]])
    np.testing.assert_array_equal(stump.predict([[0.0, 0.0, 0.0], [9.0, 9.0, 9.0]]), ["yes", "yes"])


def test_one_class_gives_a_constant_stump():
    X = np.arange(8.0).reshape(4, 2)
    stump = DecisionStump().fit(X, ["a"] * 4)
    np.testing.assert_array_equal(stump.classes_, ["a"])
    np.testing.assert_array_equal(stump.predict(X), ["a"] * 4)
    np.testing.assert_array_equal(stump.predict_proba(X), np.ones((4, 1)))


def test_search_with_one_weighted_class_is_constant_but_keeps_both_classes():
    X = np.arange(6.0).reshape(6, 1)
    y01 = np.array([0, 1, 0, 1, 0, 0])
    stump = PresortedStumpSearch(X, "gini").fit(y01, np.array([1.0, 0.0, 2.0, 0.0, 1.0, 1.0]))
    np.testing.assert_array_equal(stump.classes_, [0, 1])
    assert stump.threshold_ == np.inf
    np.testing.assert_array_equal(stump.value_, [[1.0, 0.0], [1.0, 0.0]])
    np.testing.assert_array_equal(stump.predict(X), np.zeros(6))


# --- predictions --------------------------------------------------------------------------------------------


def test_predict_and_predict_proba_follow_value():
    X, y, weights = _tie_free_problem(11)
    labels = np.array(["negative", "positive"])[y]
    stump = DecisionStump().fit(X, labels, sample_weight=weights)
    left = X[:, stump.feature_] <= stump.threshold_
    proba = stump.predict_proba(X)
    np.testing.assert_array_equal(proba[left], np.broadcast_to(stump.value_[0], (left.sum(), 2)))
    np.testing.assert_array_equal(proba[~left], np.broadcast_to(stump.value_[1], ((~left).sum(), 2)))
    np.testing.assert_array_equal(stump.predict(X), stump.classes_[proba.argmax(axis=1)])
    np.testing.assert_array_equal(stump.apply(X), np.where(left, 0, 1))
    # The same leaves scikit-learn's tree predicts on data it never saw.
    test = np.random.default_rng(99).random((300, X.shape[1])).astype(np.float32).astype(np.float64)
    tree = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, labels, sample_weight=weights)
    np.testing.assert_allclose(stump.predict_proba(test), tree.predict_proba(test), rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(stump.predict(test), tree.predict(test))


# --- the presorted search reused across rounds --------------------------------------------------------------


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_presorted_search_gives_the_same_stump_as_fit_round_after_round(criterion):
    X, y, _ = _tie_free_problem(5, zero_weight_share=0.0)
    labels = np.where(y == 1, 1, -1)  # DecisionStump maps -1 -> 0, +1 -> 1
    search = PresortedStumpSearch(X, criterion)
    rng = np.random.default_rng(0)
    for _ in range(5):  # new weights each call, as boosting does; no state may leak between calls
        weights = rng.exponential(size=y.size)
        weights[rng.random(y.size) < 0.1] = 0.0
        from_search = search.fit(y, weights)
        from_fit = DecisionStump(criterion=criterion).fit(X, labels, sample_weight=weights)
        np.testing.assert_array_equal(from_search.classes_, [0, 1])
        assert from_search.n_features_in_ == X.shape[1]
        assert (from_search.feature_, from_search.threshold_) == (from_fit.feature_, from_fit.threshold_)
        np.testing.assert_array_equal(from_search.value_, from_fit.value_)
        np.testing.assert_array_equal(from_search.predict(X), (from_fit.predict(X) == 1).astype(int))


def test_presorted_search_does_not_modify_its_inputs():
    X, y, weights = _tie_free_problem(8)
    X_before, y_before, weights_before = X.copy(), y.copy(), weights.copy()
    PresortedStumpSearch(X, "entropy").fit(y, weights)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)
    np.testing.assert_array_equal(weights, weights_before)


# --- bad input ----------------------------------------------------------------------------------------------


def test_nan_or_inf_features_are_rejected():
    X = np.arange(8.0).reshape(4, 2)
    X[2, 1] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        DecisionStump().fit(X, [0, 1, 0, 1])
    X[2, 1] = np.inf
    with pytest.raises(ValueError, match="Input X contains infinity"):
        PresortedStumpSearch(X, "gini")
    fitted = DecisionStump().fit(np.arange(8.0).reshape(4, 2), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="Input X contains infinity"):
        fitted.predict(X)


def test_wrong_shapes_are_rejected():
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        DecisionStump().fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(3,\), expected \(4,\)"):
        DecisionStump().fit(X, [0, 1, 0, 1], sample_weight=[1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="Expected 2D array"):
        DecisionStump().fit(np.arange(4.0), [0, 1, 0, 1])
    fitted = DecisionStump().fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="X has 3 features, but DecisionStump is expecting 2 features"):
        fitted.predict(np.ones((2, 3)))
    search = PresortedStumpSearch(X, "gini")
    with pytest.raises(ValueError, match=r"must have shape \(4,\).*got y01 \(3,\) and weights \(4,\)"):
        search.fit(np.array([0, 1, 0]), np.ones(4))


def test_bad_labels_weights_and_criterion_are_rejected():
    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        DecisionStump().fit(X, [0, 1, 2, 0, 1, 2])
    with pytest.raises(ValueError, match="Unknown label type"):
        DecisionStump().fit(X, [0.5, 1.5, 0.2, 0.1, 0.3, 0.9])
    with pytest.raises(
        ValueError, match=r"sample_weight must be finite and non-negative; 1 bad value\(s\) at rows \[2\]"
    ):
        DecisionStump().fit(X, [0, 1, 0, 1, 0, 1], sample_weight=[1, 1, -1, 1, 1, 1])
    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero number"):
        DecisionStump().fit(X, [0, 1, 0, 1, 0, 1], sample_weight=np.zeros(6))
    with pytest.raises(ValueError, match="'criterion' parameter of DecisionStump must be a str among"):
        DecisionStump(criterion="gain").fit(X, [0, 1, 0, 1, 0, 1])
    with pytest.raises(
        ValueError, match=r"criterion must be one of \['entropy', 'error', 'gini'\]; got 'gain'"
    ):
        PresortedStumpSearch(X, "gain")
    search = PresortedStumpSearch(X, "error")
    with pytest.raises(ValueError, match=r"y01 must hold only 0 and 1; other values at rows \[2, 5\]"):
        search.fit(np.array([0, 1, 2, 0, 1, -1]), np.ones(6))
    with pytest.raises(
        ValueError, match=r"weights must be finite and non-negative; 2 bad value\(s\) at rows \[1, 4\]"
    ):
        search.fit(np.array([0, 1, 0, 1, 0, 1]), np.array([1.0, -1.0, 1.0, 1.0, np.nan, 1.0]))
    with pytest.raises(ValueError, match="weights sums to zero"):
        search.fit(np.array([0, 1, 0, 1, 0, 1]), np.zeros(6))


# --- the scikit-learn estimator contract --------------------------------------------------------------------


@parametrize_with_checks(
    [DecisionStump(), DecisionStump(criterion="entropy"), DecisionStump(criterion="error")]
)
def test_sklearn_estimator_contract(estimator, check):
    check(estimator)


@pytest.mark.parametrize("criterion", ["gini", "entropy", "error"])
def test_split_whose_remaining_weight_rounds_to_zero_is_skipped(criterion):
    """Weights of 1e-17 beside 1.0 vanish from the totals, so the right side of the last candidate holds
    exactly 0.0 weight although it has positively weighted samples; it must be skipped, not divided by."""
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([0, 1, 0])
    weights = np.array([1.0, 1e-17, 1e-17])

    stump = PresortedStumpSearch(X, criterion).fit(y, weights)

    assert stump.feature_ == 0
    assert stump.threshold_ == 0.5
