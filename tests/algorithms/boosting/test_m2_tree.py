"""Tests of SMOTEBoost's and WOTBoost's weak learner, the presorted depth-3 tree (``_m2_tree.py``).

Oracles: scikit-learn's ``DecisionTreeClassifier`` fitted on the same rows stacked (on data where the
documented differences cannot arise: no two features split a node equally well), the same estimators
fitted with ``estimator=DecisionTreeClassifier(max_depth=3)`` round by round, and trees worked out by hand.

scikit-learn may split a pure node into pure children on a rounding residue (the module docstring); the
comparisons read a node whose rows are all of one class as a leaf (:func:`_structure`), which predicts the
same, and compare the class fractions through the predictions.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier, export_text

from algorithms.boosting import _m2_rules
from algorithms.boosting._m2_tree import PresortedTreeSearch
from algorithms.boosting.m2 import (
    PresortedTreeFitter,
    SMOTEBoost,
    SyntheticMinorityRounds,
    SyntheticRoundSet,
    WOTBoost,
)

M2_CLASSES = [SMOTEBoost, WOTBoost]


def _structure(tree):
    """A fitted tree's splits as nested tuples: ``(feature, threshold, rows, left, right)`` for a split and
    ``("leaf", rows, its class if pure)`` for a leaf, a node whose rows are all of one class read as a leaf.
    The class fractions are compared apart, through the predictions (:func:`_assert_same_tree`)."""
    nodes = tree.tree_

    def node(index):
        fractions = nodes.value[index, 0]
        pure = tuple(int(k) for k in np.flatnonzero(fractions)) if np.count_nonzero(fractions) == 1 else ()
        if nodes.children_left[index] == -1 or pure:
            return ("leaf", int(nodes.n_node_samples[index]), pure)
        return (
            int(nodes.feature[index]),
            float(nodes.threshold[index]),
            int(nodes.n_node_samples[index]),
            node(nodes.children_left[index]),
            node(nodes.children_right[index]),
        )

    return node(0)


def _assert_same_tree(mine, theirs, X):
    """The same splits, and the same class fractions (predictions on the rows ``X``, up to rounding)."""
    assert _structure(mine) == _structure(theirs)
    np.testing.assert_allclose(mine.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-12)


def _sklearn_tree(X, y01, weights, X_extra, y01_extra, weights_extra, max_depth=3, seed=0):
    return DecisionTreeClassifier(max_depth=max_depth, random_state=seed).fit(
        np.vstack([X, X_extra]),
        np.concatenate([y01, y01_extra]),
        sample_weight=np.concatenate([weights, weights_extra]),
    )


def _noisy_problem(seed, n_rows=400, n_extra=300, zero_weight_share=0.1):
    """Fixed rows whose labels follow the first feature with noise (impure nodes of many rows, so no two
    features split a node equally well), extra rows of both labels, float32-representable values."""
    rng = np.random.default_rng(seed)
    n_features = int(rng.integers(1, 6))
    X = rng.random((n_rows, n_features)).astype(np.float32).astype(np.float64)
    y01 = (X[:, 0] + rng.normal(scale=0.3, size=n_rows) > 0.5).astype(np.int64)
    weights = rng.exponential(size=n_rows)
    weights[rng.random(n_rows) < zero_weight_share] = 0.0
    X_extra = rng.random((n_extra, n_features)).astype(np.float32).astype(np.float64)
    y01_extra = (rng.random(n_extra) < 0.7).astype(np.int64)
    return X, y01, weights, X_extra, y01_extra, rng.exponential(size=n_extra)


# --- the same tree as scikit-learn's ---------------------------------------------------------------------
@pytest.mark.parametrize("max_depth", [1, 2, 3])
def test_same_tree_as_sklearn_on_the_stacked_rows(max_depth):
    """The tree of scikit-learn's fit with the same seed; where two features split a small node equally
    well, scikit-learn's seed picks one of them (the documented difference) and another of its seeds gives
    this tree."""
    seed_ties = 0
    for seed in range(40):
        problem = _noisy_problem(seed)
        mine = PresortedTreeSearch(problem[0], max_depth).fit(*problem[1:], random_state=seed)
        rows = np.vstack([problem[0], problem[3]])
        theirs = _sklearn_tree(*problem, max_depth=max_depth, seed=seed)
        if _structure(mine) != _structure(theirs):
            other_seeds = (
                _sklearn_tree(*problem, max_depth=max_depth, seed=other) for other in range(100, 130)
            )
            theirs = next((tree for tree in other_seeds if _structure(tree) == _structure(mine)), theirs)
            seed_ties += 1
        _assert_same_tree(mine, theirs, rows)
    assert seed_ties <= 2


def test_every_node_record_matches_sklearn():
    """Not only the splits: impurity, row count, weight, missing-value side and class fractions, node by
    node in scikit-learn's numbering."""
    problem = _noisy_problem(3, n_rows=2000, n_extra=1500)
    mine = PresortedTreeSearch(problem[0]).fit(*problem[1:], random_state=3).tree_
    theirs = _sklearn_tree(*problem, seed=3).tree_
    assert (mine.node_count, mine.max_depth) == (theirs.node_count, theirs.max_depth)
    for field in ("children_left", "children_right", "feature", "threshold", "n_node_samples"):
        np.testing.assert_array_equal(getattr(mine, field), getattr(theirs, field), err_msg=field)
    np.testing.assert_array_equal(mine.missing_go_to_left, theirs.missing_go_to_left)
    np.testing.assert_allclose(mine.impurity, theirs.impurity, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(mine.weighted_n_node_samples, theirs.weighted_n_node_samples, rtol=1e-12)
    np.testing.assert_allclose(mine.value, theirs.value, rtol=1e-10, atol=1e-13)


def test_many_rows_many_chunks_same_tree_as_sklearn():
    """Segments of thousands of chunks: only the chunks whose bound reaches the best score are scanned."""
    X, y = make_classification(n_samples=30_000, n_features=8, n_informative=4, flip_y=0.1, random_state=4)
    X = X.astype(np.float32).astype(np.float64)
    rng = np.random.default_rng(4)
    weights = rng.exponential(size=y.size)
    fixed, extra = slice(0, 18_000), slice(18_000, None)
    problem = (X[fixed], y[fixed], weights[fixed], X[extra], y[extra], weights[extra])
    mine = PresortedTreeSearch(X[fixed]).fit(*problem[1:], random_state=0)
    _assert_same_tree(mine, _sklearn_tree(*problem), X)


def test_sort_keys_order_negative_zero_tiny_and_huge_values_like_float32():
    """Negative values, -0.0 and 0.0 (one value), subnormal and float32-extreme magnitudes sort as numbers."""
    specials = np.array([-3.4e38, -1e30, -1.5, -1e-40, -0.0, 0.0, 1e-45, 1e-40, 2.5, 1e30, 3.4e38])
    rng = np.random.default_rng(5)
    X = rng.choice(specials, size=(300, 2)) * rng.choice([1.0, 1.0 + 2**-20], size=(300, 2))
    y01 = (rng.random(300) < 0.5).astype(np.int64)
    X_extra, y01_extra = rng.choice(specials, size=(100, 2)), np.ones(100, dtype=np.int64)
    problem = (X, y01, rng.exponential(size=300), X_extra, y01_extra, rng.exponential(size=100))
    mine = PresortedTreeSearch(X).fit(*problem[1:])
    with np.errstate(over="ignore", invalid="ignore"):  # scikit-learn sums X to look for missing values
        _assert_same_tree(mine, _sklearn_tree(*problem), np.vstack([X, X_extra]))


# --- splits worked out by hand ----------------------------------------------------------------------------
# x = 1..6, y = 0 0 1 0 1 1, unit weights; proxy sum_k wL_k^2 / wL + sum_k wR_k^2 / wR, class sums (w_0, w_1).
# Root: 1.5: (1,0) (2,3): 1 + 13/5 = 3.6;  2.5: (2,0) (1,3): 2 + 10/4 = 4.5;  3.5: (2,1) (1,2): 5/3 + 5/3;
#   4.5: (3,1) (0,2): 10/4 + 2 = 4.5;  5.5: (3,2) (0,1): 13/5 + 1 = 3.6.  2.5 and 4.5 tie: the lower wins.
# {1, 2} is pure: a leaf. {3..6} = (1,3): 3.5: (0,1) (1,2): 1 + 5/3;  4.5: (1,1) (0,2): 1 + 2 = 3;
#   5.5: (1,2) (0,1): 5/3 + 1.  Best 4.5. {3, 4} splits at 3.5 into two pure leaves; {5, 6} is pure.
HAND_X = np.arange(1.0, 7.0)[:, None]
HAND_Y = np.array([0, 0, 1, 0, 1, 1])


def test_hand_computed_tree():
    tree = PresortedTreeSearch(HAND_X).fit(HAND_Y, np.ones(6)).tree_
    # depth first, left first: root, {1, 2}, {3..6}, {3, 4}, {3}, {4}, {5, 6}
    np.testing.assert_array_equal(tree.feature, [0, -2, 0, 0, -2, -2, -2])
    np.testing.assert_array_equal(tree.threshold, [2.5, -2, 4.5, 3.5, -2, -2, -2])
    np.testing.assert_array_equal(tree.children_left, [1, -1, 3, 4, -1, -1, -1])
    np.testing.assert_array_equal(tree.children_right, [2, -1, 6, 5, -1, -1, -1])
    np.testing.assert_array_equal(tree.n_node_samples, [6, 2, 4, 2, 1, 1, 2])
    np.testing.assert_array_equal(
        tree.value[:, 0], [[0.5, 0.5], [1, 0], [0.25, 0.75], [0.5, 0.5], [0, 1], [1, 0], [0, 1]]
    )
    np.testing.assert_allclose(tree.impurity, [0.5, 0, 0.375, 0.5, 0, 0, 0])
    # a missing value would go to the side with more rows: 2 vs 4, 2 vs 2, 1 vs 1
    np.testing.assert_array_equal(tree.missing_go_to_left[[0, 2, 3]], [0, 0, 0])
    assert tree.max_depth == 3


def test_hand_computed_extra_rows_and_weights():
    # Fixed x = 0, 1, 2, 3 with y = 0 0 1 0 and weights 1/4; one extra row x = 2.5, y = 1, weight 1/2.
    # Candidates 0.5, 1.5, 2.25, 2.75: 0.25 + 0.8125 / 1.25 = 0.9;  0.5 + 0.625 = 1.125;
    # 0.3125 / 0.75 + 0.3125 / 0.75 = 0.833;  0.8125 / 1.25 + 0.25 = 0.9.  Best 1.5; right leaf (0.25, 0.75).
    search = PresortedTreeSearch(np.array([[0.0], [1.0], [2.0], [3.0]]), max_depth=1)
    tree = search.fit([0, 0, 1, 0], np.full(4, 0.25), np.array([[2.5]]), [1], [0.5])
    assert tree.tree_.threshold[0] == 1.5
    np.testing.assert_allclose(tree.tree_.value[:, 0], [[0.5, 0.5], [1.0, 0.0], [0.25, 0.75]])
    np.testing.assert_array_equal(tree.tree_.n_node_samples, [5, 2, 3])
    np.testing.assert_allclose(tree.predict_proba([[3.0], [0.0]]), [[0.25, 0.75], [1.0, 0.0]])


def test_rows_of_zero_weight_take_no_part():
    # Without the zero-weight row at 1.2 the threshold is the midpoint of 1 and 2, and it is not counted.
    X = np.array([[0.0], [1.0], [1.2], [2.0], [3.0]])
    y01 = np.array([0, 0, 1, 1, 1])
    tree = PresortedTreeSearch(X, max_depth=1).fit(y01, [1.0, 1.0, 0.0, 1.0, 1.0]).tree_
    assert tree.threshold[0] == 1.5
    assert tree.n_node_samples[0] == 4


@pytest.mark.parametrize(
    ("low", "high", "splits"),
    [
        (0.5, 0.5 + 2.0**-24, False),  # 6.0e-8 apart: one value (under 1e-7)
        (1.0, 1.0 + 2.0**-23, False),  # 1.2e-7 apart, yet one value: 1 + 1e-7 rounds to 1 + 2^-23 in float32
        (1.0, 1.0 + 2.0**-22, True),  # 2.4e-7 apart: two values
        (0.1, 0.1 + 1e-12, False),  # distinct in float64, one value in float32
    ],
)
def test_values_closer_than_sklearns_threshold_are_one_value(low, high, splits):
    X = np.array([[low], [low], [high], [high]])
    y01 = np.array([0, 0, 1, 1])
    mine = PresortedTreeSearch(X).fit(y01, np.ones(4))
    theirs = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y01)
    assert mine.tree_.node_count == (3 if splits else 1)
    _assert_same_tree(mine, theirs, X)


def test_a_chain_of_close_values_is_never_split_inside():
    # Each step is under 1e-7, the chain is not: scikit-learn searches the feature but finds no candidate.
    step = np.float32(6e-8)
    values = np.float32(0.5) + step * np.arange(4, dtype=np.float32)
    X = values.astype(np.float64)[:, None]
    y01 = np.array([0, 1, 0, 1])
    mine = PresortedTreeSearch(X).fit(y01, np.ones(4))
    assert mine.tree_.node_count == 1
    _assert_same_tree(mine, DecisionTreeClassifier(max_depth=3).fit(X, y01), X)


def test_leaves_one_class_and_constant_features():
    constant = np.ones((5, 2))
    assert PresortedTreeSearch(constant).fit([0, 1, 0, 1, 1], np.ones(5)).tree_.node_count == 1
    one_class = PresortedTreeSearch(HAND_X).fit(np.ones(6, dtype=np.int64), np.ones(6))
    assert one_class.tree_.node_count == 1
    np.testing.assert_array_equal(one_class.classes_, [1])
    np.testing.assert_array_equal(one_class.predict_proba(HAND_X), np.ones((6, 1)))
    # one class carrying all the weight: a pure root, both classes known
    weighted_away = PresortedTreeSearch(HAND_X).fit(HAND_Y, HAND_Y.astype(float))
    assert weighted_away.tree_.node_count == 1
    np.testing.assert_array_equal(weighted_away.classes_, [0, 1])


@pytest.mark.parametrize("scale", [1e-170, 1e170])
def test_the_scale_of_the_weights_does_not_matter(scale):
    """Weights whose squares underflow or overflow give the tree of unit weights (in their own units)."""
    problem = _noisy_problem(7)
    unit = PresortedTreeSearch(problem[0]).fit(*problem[1:])
    scaled = PresortedTreeSearch(problem[0]).fit(
        problem[1], problem[2] * scale, problem[3], problem[4], problem[5] * scale
    )
    _assert_same_tree(scaled, unit, problem[0])
    np.testing.assert_allclose(scaled.tree_.impurity, unit.tree_.impurity, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(
        scaled.tree_.weighted_n_node_samples, unit.tree_.weighted_n_node_samples * scale, rtol=1e-12
    )


def test_a_tie_between_features_goes_to_the_lower_feature():
    """scikit-learn's seed breaks it (the documented difference); here feature 0, whatever the seed."""
    X = np.column_stack([HAND_X[:, 0], HAND_X[:, 0] * 10.0])  # the same order: every split ties
    chosen = {
        int(PresortedTreeSearch(X).fit(HAND_Y, np.ones(6), random_state=seed).tree_.feature[0])
        for seed in range(20)
    }
    theirs = {
        int(DecisionTreeClassifier(max_depth=3, random_state=seed).fit(X, HAND_Y).tree_.feature[0])
        for seed in range(20)
    }
    assert chosen == {0}
    assert theirs == {0, 1}


# --- the fitted tree is scikit-learn's classifier ---------------------------------------------------------
def test_the_fitted_tree_is_a_usable_sklearn_tree():
    problem = _noisy_problem(6)
    tree = PresortedTreeSearch(problem[0]).fit(*problem[1:], random_state=17)
    assert type(tree) is DecisionTreeClassifier
    assert tree.get_params()["random_state"] == 17 and tree.get_params()["max_depth"] == 3
    assert tree.get_depth() == 3 and tree.n_features_in_ == problem[0].shape[1]
    restored = pickle.loads(pickle.dumps(tree))
    np.testing.assert_array_equal(restored.predict_proba(problem[0]), tree.predict_proba(problem[0]))
    np.testing.assert_array_equal(tree.apply(problem[0]), _sklearn_tree(*problem).apply(problem[0]))
    assert "feature_0 <=" in export_text(tree)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda s: s.fit([0, 2, 1, 0, 1, 1], np.ones(6)),
            r"labels must be 0 or 1; other values at rows \[1\]",
        ),
        (lambda s: s.fit(HAND_Y, [1, 1, -1, 1, 1, 1]), r"finite and non-negative; bad values at rows \[2\]"),
        (lambda s: s.fit(HAND_Y, np.zeros(6)), "the weights sum to zero"),
        (lambda s: s.fit(HAND_Y, np.ones(5)), r"one value per row \(6 fixed \+ 0 extra\)"),
        (lambda s: s.fit(HAND_Y, np.ones(6), np.ones((2, 3)), [1, 1], [1, 1]), "must have 1 columns"),
        (lambda s: s.fit(HAND_Y, np.ones(6), [[np.nan]], [1], [1]), "X_extra must hold finite values"),
        (lambda s: s.fit(HAND_Y, np.ones(6), [[1e39]], [1], [1]), "within float32's range"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call(PresortedTreeSearch(HAND_X))


# --- inside SMOTEBoost and WOTBoost -----------------------------------------------------------------------
def _imbalanced(seed, n_samples=800):
    X, y = make_classification(
        n_samples=n_samples,
        n_features=5,
        n_informative=3,
        n_redundant=0,
        weights=[0.85],
        flip_y=0.1,
        random_state=seed,
    )
    return X.astype(np.float32).astype(np.float64), y


def _recording(cls):
    """``cls`` that keeps a copy of every round's stacked rows in ``rounds_``."""

    class Recording(cls):
        def _round_training_set_builder(self, X, y01):
            build = super()._round_training_set_builder(X, y01)
            self.rounds_ = []

            def round_set(weights, random_state):
                drawn = build(weights, random_state)
                self.rounds_.append([np.copy(part) for part in drawn])
                return drawn

            return round_set

    return Recording


def _same_or_tie(mine, theirs, X):
    """``True`` for the same tree; ``False`` for trees that differ only where a node's best split is a tie
    (two features splitting its rows equally well), which then predict the same on every row ``X``."""
    np.testing.assert_allclose(mine.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-12)
    return _structure(mine) == _structure(theirs)


@pytest.mark.parametrize("cls", M2_CLASSES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_round_of_a_fit_is_sklearns_tree_on_that_rounds_rows(cls, seed):
    """Each round's tree is the one scikit-learn's tree, seeded with the round's sub-seed, learns on the
    round's rows (the fit's rows and that round's synthetic ones), or a tie broken the other way."""
    X, y = _imbalanced(seed)
    model = _recording(cls)(n_estimators=20, random_state=seed).fit(X, y)
    same = 0
    for tree, (X_round, y_round, w_round) in zip(model.estimators_, model.rounds_, strict=True):
        theirs = DecisionTreeClassifier(max_depth=3, random_state=tree.random_state)
        same += _same_or_tie(tree, theirs.fit(X_round, y_round, sample_weight=w_round), X_round)
    assert same >= 15, f"only {same} of 20 rounds without a tie: the comparison is mostly of ties"


@pytest.mark.parametrize("cls", M2_CLASSES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_fit_is_the_fit_with_sklearns_tree(cls, seed):
    """Same trees every round (up to ties that predict the same), so the same votes, weights and ensemble
    as with ``estimator=DecisionTreeClassifier(max_depth=3)``."""
    X, y = _imbalanced(seed)
    presorted = cls(n_estimators=20, random_state=seed).fit(X, y)
    sklearn = cls(DecisionTreeClassifier(max_depth=3), n_estimators=20, random_state=seed).fit(X, y)
    assert len(presorted.estimators_) == len(sklearn.estimators_) == 20
    for mine, theirs in zip(presorted.estimators_, sklearn.estimators_, strict=True):
        _same_or_tie(mine, theirs, X)
        assert mine.random_state == theirs.random_state
    np.testing.assert_allclose(presorted.estimator_weights_, sklearn.estimator_weights_, rtol=1e-10)
    np.testing.assert_allclose(presorted.final_distribution_, sklearn.final_distribution_, rtol=1e-9)
    np.testing.assert_allclose(presorted.decision_function(X), sklearn.decision_function(X), atol=1e-12)


def test_float32_and_fortran_features_and_zero_sample_weights_in_a_fit():
    X, y = _imbalanced(3)
    sample_weight = np.ones(y.size)
    sample_weight[::7] = 0.0  # rows of zero weight in every round (D_1 is multiplied by it)
    for features in (X.astype(np.float32), np.asfortranarray(X)):
        presorted = SMOTEBoost(n_estimators=8, random_state=1).fit(features, y, sample_weight)
        sklearn = SMOTEBoost(DecisionTreeClassifier(max_depth=3), n_estimators=8, random_state=1)
        sklearn.fit(features, y, sample_weight)
        for mine, theirs in zip(presorted.estimators_, sklearn.estimators_, strict=True):
            _same_or_tie(mine, theirs, features)
        np.testing.assert_allclose(presorted.decision_function(X), sklearn.decision_function(X), atol=1e-12)


@pytest.mark.parametrize("cls", M2_CLASSES)
def test_an_explicit_sklearn_tree_is_fitted_by_sklearn(cls):
    """A duplicated column makes every split a tie between two features: the presorted tree always takes
    the first, scikit-learn's tree takes either, as its round's seed says."""
    X, y = _imbalanced(0)
    X = np.column_stack([X[:, 0], X])
    default = cls(n_estimators=15, random_state=0).fit(X, y)
    explicit = cls(DecisionTreeClassifier(max_depth=3), n_estimators=15, random_state=0).fit(X, y)
    used = [
        {int(f) for f in tree.tree_.feature if f >= 0} for tree in default.estimators_ + explicit.estimators_
    ]
    assert not any(1 in features for features in used[:15])
    assert any(1 in features for features in used[15:])
    assert isinstance(cls()._weak_learner_fitter(X), PresortedTreeFitter)
    assert not isinstance(
        cls(DecisionTreeClassifier(max_depth=3))._weak_learner_fitter(X), PresortedTreeFitter
    )


# --- the round set and the fitter -------------------------------------------------------------------------
def _rounds(X, y, n_synthetic):
    return SyntheticMinorityRounds(
        X, y, n_synthetic, 5, _m2_rules.uniform_allotment, _m2_rules.SYNTHETIC_WEIGHTS["mean_positive"]
    )


def test_a_round_set_unpacks_as_the_stacked_rows():
    X, y = _imbalanced(0)
    weights = np.full(y.size, 1.0 / y.size)
    round_set = _rounds(X, y, 40)(weights, np.random.RandomState(0))
    X_round, y_round, w_round = round_set
    np.testing.assert_array_equal(X_round[: y.size], X)
    np.testing.assert_array_equal(X_round[y.size :], round_set.X_synthetic)
    np.testing.assert_array_equal(y_round, np.concatenate([y, np.ones(40, dtype=y.dtype)]))
    np.testing.assert_array_equal(w_round, np.concatenate([weights, round_set.synthetic_weights]))
    assert round_set.X is X and round_set.weights is weights
    without = _rounds(X, y, 0)(weights, np.random.RandomState(0))
    stacked = tuple(without)
    assert stacked[0] is X and stacked[1] is y and stacked[2] is weights  # nothing copied


def test_the_fitter_fits_round_sets_of_its_own_rows_only():
    X, y = _imbalanced(0)
    fitter = PresortedTreeFitter(X, 3)
    round_set = _rounds(X, y, 40)(np.full(y.size, 1.0 / y.size), np.random.RandomState(0))
    (tree,) = fitter([round_set], [123])
    assert tree.random_state == 123 and tree.tree_.n_node_samples[0] == y.size + 40
    with pytest.raises(TypeError, match="SyntheticRoundSet rounds of the X it was made for; got tuple"):
        fitter([tuple(round_set)], [0])
    with pytest.raises(TypeError, match="got SyntheticRoundSet"):
        fitter([SyntheticRoundSet(X.copy(), y, round_set.weights, X.copy(), y, y[:0] * 1.0)], [0])
