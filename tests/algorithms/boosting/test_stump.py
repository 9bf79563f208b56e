"""Tests of the fast weighted decision stump (``algorithms/boosting/_stump.py``).

Oracles: scikit-learn's ``DecisionTreeClassifier(max_depth=1)`` for ``"gini"`` and ``"entropy"``, a
brute-force search over every threshold for ``"error"``, a plain numpy scan that scores every candidate (for
the pruned search), and splits worked out by hand.
"""

from __future__ import annotations

import multiprocessing
import os

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from algorithms.boosting import BOOSTING_METHODS, _stump_threads
from algorithms.boosting._stump import CHUNK, CRITERIA, GROUP, DecisionStump, PresortedStumpSearch


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


def test_coded_feature_whose_most_frequent_value_has_no_weight_splits_between_weighted_values():
    """A feature of few values is coded, and its most frequent value's rows are never read: whether that
    value carries weight comes from counting the round's zero-weight rows. Here it carries none, so the only
    split lies between the weighted values 1 and 9 (threshold 5), not between 1 and the unweighted 5."""
    X = np.array([[1.0]] * 2 + [[5.0]] * 10 + [[9.0]] * 2)
    y = np.array([0, 0] + [1, 0] * 5 + [1, 1])
    weights = np.array([1.0, 1.0] + [0.0] * 10 + [1.0, 1.0])
    search = PresortedStumpSearch(X)
    assert search.sorted_features.size == 0  # coded
    stump = search.fit(y, weights)
    assert (stump.feature_, stump.threshold_) == (0, 5.0)
    np.testing.assert_array_equal(stump.value_, [[1.0, 0.0], [0.0, 1.0]])
    weights[2] = 1e-300  # one row of the most frequent value carries weight: it becomes a candidate
    stump = search.fit(y, weights)
    assert stump.threshold_ in (3.0, 7.0)


def test_coded_and_sorted_features_tie_to_the_lowest_index():
    """A one-hot column (coded) and the same split on a continuous column (sorted) score alike: the lower
    column wins whichever way it is searched."""
    rng = np.random.default_rng(0)
    continuous = rng.normal(size=400)
    one_hot = (continuous > 0.3).astype(float)
    y = (continuous > 0.3).astype(int)
    for X, sorted_column in (
        (np.column_stack([one_hot, continuous]), 1),
        (np.column_stack([continuous, one_hot]), 0),
    ):
        search = PresortedStumpSearch(X)
        assert search.sorted_features.tolist() == [sorted_column]
        assert search.fit(y, np.ones(400)).feature_ == 0


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


# --- the pruned search against a plain scan of every candidate ---------------------------------------------


def _log_share(part, whole):
    """``part ln(part / whole)``, 0 where ``part`` is 0 (a class's term of ``-w * entropy``)."""
    return np.where(part > 0, part * np.log(part / whole), 0.0)


def _plain_scan(search, y, weights, criterion):
    """Every candidate split with its score, computed in numpy as a plain scan computes it.

    For a feature the search keeps sorted it follows the search's own sorted order without the zero-weight
    rows, so the running class sums (``cumsum`` adds in the same order) and hence the gini and error scores
    are the search's bit for bit; a coded feature (few distinct values) is scanned in its own stable order,
    whose sums may differ from the search's in the last bits. Returns a list of ``(score, feature,
    threshold)`` in scan order (feature, then position).
    """
    total_neg, total_pos = weights[y == 0].sum(), weights[y == 1].sum()
    candidates = []
    for feature in range(search.X.shape[1]):
        if feature in search.sorted_features:
            order = search.sorted_order[:, np.searchsorted(search.sorted_features, feature)]
        else:
            order = np.argsort(search.X[:, feature].astype(np.float64), kind="stable")
        order = order[weights[order] > 0]
        values = search.X[order, feature].astype(np.float64)
        positive = y[order] == 1
        left_pos = np.cumsum(np.where(positive, weights[order], 0.0))[:-1]
        left_neg = np.cumsum(np.where(positive, 0.0, weights[order]))[:-1]
        right_neg = np.maximum(total_neg - left_neg, 0.0)
        right_pos = np.maximum(total_pos - left_pos, 0.0)
        left, right = left_neg + left_pos, right_neg + right_pos
        with np.errstate(divide="ignore", invalid="ignore"):
            if criterion == "gini":
                score = (left_neg * left_neg + left_pos * left_pos) / left + (
                    right_neg * right_neg + right_pos * right_pos
                ) / right
            elif criterion == "entropy":
                score = _log_share(left_neg, left) + _log_share(left_pos, left) + _log_share(right_neg, right)
                score = score + _log_share(right_pos, right)
            else:
                score = -(np.minimum(left_neg, left_pos) + np.minimum(right_neg, right_pos))
        score = np.where((left > 0) & (right > 0), score, -np.inf)
        for k in np.flatnonzero(values[1:] > values[:-1]):
            threshold = values[k] / 2 + values[k + 1] / 2
            candidates.append((score[k], feature, values[k] if threshold >= values[k + 1] else threshold))
    return candidates


def _search_problem(seed):
    """Random weighted data of up to a few thousand rows (several groups of chunks), ties and zero weights.

    Weights come from a few rounds of boosting (concentrated on hard rows, as the search meets them) or from
    skewed random draws; features are continuous, float32, few distinct values or binary.
    """
    rng = np.random.default_rng(seed)
    n_samples = int(rng.choice([3, 40, CHUNK * GROUP - 1, CHUNK * GROUP * 3 + 17, 5000]))
    n_features = int(rng.integers(1, 6))
    X, y = make_classification(
        n_samples=max(n_samples, 10),
        n_features=n_features + 2,
        n_informative=2,
        n_redundant=0,
        weights=[rng.uniform(0.5, 0.95)],
        random_state=seed,
    )
    X, y = X[:n_samples, :n_features], y[:n_samples]
    kind = seed % 5
    if kind == 1:
        X = X.astype(np.float32)
    elif kind == 2:
        X = np.round(X * 2)  # about 10 distinct values
    elif kind == 3:
        X = (X > 0).astype(np.float64)
    elif kind == 4:  # mostly one value, as in one-hot columns and counts: the search codes these
        X = np.where(rng.random(X.shape) < rng.uniform(0.6, 0.95), 0.0, np.round(X * 2))
    if seed % 3 == 0 and n_samples > 10 and np.unique(y).size == 2:
        weights = BOOSTING_METHODS["adaboost"](n_estimators=int(rng.integers(1, 30))).fit(X, y)
        weights = weights.final_distribution_
    else:
        weights = rng.exponential(size=n_samples) ** rng.uniform(0.5, 5.0)
    weights[rng.random(n_samples) < rng.choice([0.0, 0.3, 0.9])] = 0.0
    return X, y, weights


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_pruned_search_chooses_the_split_a_plain_scan_chooses(criterion):
    """The search skips chunks by a bound on the score and codes features of few values: it must still
    pick the plain scan's split.

    gini and error over sorted features only: the first candidate of the highest score, exactly (same sums,
    same arithmetic). entropy (numpy's log may differ from the kernel's in the last bit) and problems with
    coded features (the same class sums added in another order): the chosen split must score within 1e-12 of
    the best candidate.
    """
    searched = coded = 0
    for seed in range(60):
        X, y, weights = _search_problem(seed)
        if weights[y == 0].sum() == 0 or weights[y == 1].sum() == 0:
            continue
        search = PresortedStumpSearch(X, criterion)
        stump = search.fit(y, weights)
        candidates = _plain_scan(search, y, weights, criterion)
        best = max((score for score, _, _ in candidates), default=-np.inf)
        if best == -np.inf:
            assert stump.threshold_ == np.inf, f"seed {seed}: no candidate, so the stump must be constant"
            continue
        searched += 1
        coded += search.sorted_features.size < X.shape[1]
        if criterion == "entropy" or search.sorted_features.size < X.shape[1]:
            near_best = {(f, t) for score, f, t in candidates if score >= best - 1e-12 * abs(best)}
            assert (stump.feature_, stump.threshold_) in near_best, f"seed {seed}"
        else:
            first_best = next((f, t) for score, f, t in candidates if score == best)
            assert (stump.feature_, stump.threshold_) == first_best, f"seed {seed}"
        left = X[:, stump.feature_].astype(np.float64) <= stump.threshold_
        sums = np.array([[weights[side & (y == k)].sum() for k in (0, 1)] for side in (left, ~left)])
        np.testing.assert_allclose(stump.value_, sums / sums.sum(axis=1, keepdims=True), rtol=1e-12)
    assert searched >= 40
    assert coded >= 10


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_several_weight_vectors_at_once_give_each_vector_its_own_stump(criterion):
    """``fit_many`` sums the coded features of every vector in one pass: each stump must be the one ``fit``
    returns for its vector alone, bit for bit (the cost grid relies on it)."""
    checked = 0
    for seed in range(40):
        X, y, _ = _search_problem(seed)
        if np.unique(y).size < 2:
            continue
        rng = np.random.default_rng(seed)
        vectors = [rng.exponential(size=y.size) ** rng.uniform(0.5, 3.0) for _ in range(4)]
        vectors[1][rng.random(y.size) < 0.3] = 0.0  # zero weights in one vector only
        search = PresortedStumpSearch(X, criterion)
        together = search.fit_many(y, vectors)
        for vector, stump in zip(vectors, together, strict=True):
            alone = search.fit(y, vector)
            assert (stump.feature_, stump.threshold_) == (alone.feature_, alone.threshold_), f"seed {seed}"
            np.testing.assert_array_equal(stump.value_, alone.value_)
        checked += search.sorted_features.size < X.shape[1]
    assert checked >= 5  # problems with coded features among them


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_two_threads_find_the_same_stump_as_one(criterion):
    X, y = make_classification(n_samples=6000, n_features=60, weights=[0.9], random_state=1)  # > 2^18 cells
    weights = BOOSTING_METHODS["adaboost"](n_estimators=10).fit(X, y).final_distribution_
    one = PresortedStumpSearch(X, criterion, n_threads=1)
    searches = [PresortedStumpSearch(X, criterion, n_threads=threads) for threads in (2, None)]
    assert [search.n_threads for search in (one, *searches)] == [1, 2, None]
    for search in searches:
        np.testing.assert_array_equal(one.sorted_order, search.sorted_order)
        np.testing.assert_array_equal(one.rises, search.rises)
        for round_weights in (weights, np.ones_like(weights)):
            a, b = one.fit(y, round_weights), search.fit(y, round_weights)
            assert (a.feature_, a.threshold_) == (b.feature_, b.threshold_)
            np.testing.assert_array_equal(a.value_, b.value_)


def test_default_threads_take_a_helper_only_for_an_idle_cpu():
    assert _stump_threads.helper_count(1) == 0
    assert _stump_threads.helper_count(3) == 2  # an explicit count is taken as asked
    assert (
        0 <= _stump_threads.idle_cpus() < (os.cpu_count() or 1)
    )  # this thread is running, so one CPU is busy
    assert _stump_threads.helper_count(None) in (
        0,
        1,
    )  # at most default_n_threads() - 1, and only if a CPU is idle


def _fit_in_child(X, y, queue):
    stump = PresortedStumpSearch(X, "gini", n_threads=2).fit(y, np.ones(y.size))
    queue.put((stump.feature_, stump.threshold_))


def test_a_forked_child_searches_with_its_own_helper_thread():
    """A child forked after the parent's helper thread started (a process pool, Dask) gets its own helper;
    the parent's pool object, copied without its thread, would leave the child waiting for ever."""
    X, y = make_classification(n_samples=6000, n_features=60, random_state=2)
    parent = PresortedStumpSearch(X, "gini", n_threads=2).fit(y, np.ones(y.size))
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_fit_in_child, args=(X, y, queue))
    child.start()
    child.join(timeout=120)
    assert child.exitcode == 0, "the forked child did not finish its search"
    assert queue.get(timeout=5) == (parent.feature_, parent.threshold_)


def test_bad_thread_count_is_rejected():
    with pytest.raises(ValueError, match="n_threads must be at least 1; got 0"):
        PresortedStumpSearch(np.ones((3, 1)), "gini", n_threads=0)


# --- float32 input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_float32_features_give_the_stump_of_the_same_values_in_float64(criterion):
    for seed in range(20):
        X, y, weights = _tie_free_problem(seed, discrete=seed % 2 == 1)
        X32 = X.astype(np.float32)  # the problems' values are float32-representable
        search = PresortedStumpSearch(X32, criterion)
        assert search.X.dtype == np.float32, "float32 input must not be copied to float64"
        from_32 = search.fit(y, weights)
        from_64 = PresortedStumpSearch(X, criterion).fit(y, weights)
        same_split = (from_32.feature_, from_32.threshold_) == (from_64.feature_, from_64.threshold_)
        assert same_split, f"seed {seed}"
        np.testing.assert_array_equal(from_32.value_, from_64.value_)
        fitted_32 = DecisionStump(criterion=criterion).fit(X32, y, sample_weight=weights)
        assert fitted_32.threshold_ == from_64.threshold_
        # Predictions compare the float32 column with the float64 threshold in float64.
        np.testing.assert_array_equal(fitted_32.predict_proba(X32), fitted_32.predict_proba(X))


def test_float32_threshold_between_adjacent_float32_values_splits_them():
    low = np.float32(1.0)
    high = np.nextafter(low, np.float32(2.0))
    X = np.array([[low], [high]], dtype=np.float32)
    stump = DecisionStump().fit(X, [0, 1])
    # The midpoint is not a float32: compared in float32 it would round to one of the two values.
    assert float(low) < stump.threshold_ < float(high)
    np.testing.assert_array_equal(stump.predict(X), [0, 1])


# Every boosting method whose default weak learner is the presorted stump, plus the calibrated variants
# (which fit stump ensembles on folds). SMOTEBoost and WOTBoost are left out: their synthetic rows are
# interpolated in the input's precision and their default weak learner is a depth-3 scikit-learn tree.
STUMP_BOOSTING = sorted(set(BOOSTING_METHODS) - {"smoteboost", "wotboost"})


@pytest.mark.parametrize("method", STUMP_BOOSTING)
def test_boosting_on_float32_features_predicts_as_on_float64(method):
    X, y = make_classification(n_samples=400, n_features=6, weights=[0.8], random_state=7)
    X32 = X.astype(np.float32)
    X64 = X32.astype(np.float64)
    from_32 = BOOSTING_METHODS[method](n_estimators=12, random_state=0).fit(X32, y)
    from_64 = BOOSTING_METHODS[method](n_estimators=12, random_state=0).fit(X64, y)
    np.testing.assert_array_equal(from_32.decision_function(X32), from_64.decision_function(X64))
    np.testing.assert_array_equal(from_32.predict_proba(X64), from_64.predict_proba(X64))


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
