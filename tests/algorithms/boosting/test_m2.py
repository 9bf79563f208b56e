"""SMOTEBoost and WOTBoost on the shared loop: M2 rounds by hand, the round's synthetic set, the weights.

The hand computations use the fitted weak learners' own ``predict_proba`` on the original samples and the
WOTBoost paper's formulas (Algorithm 1, lines 5-8, with the standard Freund-Schapire exponent) in plain
numpy, independently of :mod:`algorithms.boosting._m2_rules`.
"""

from __future__ import annotations

import numpy as np
import pytest
from imblearn.pipeline import make_pipeline
from sklearn.datasets import make_classification
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score, train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from algorithms import metrics
from algorithms.boosting import _m2_rules
from algorithms.boosting._base import BaseBoostingClassifier
from algorithms.boosting.m2 import WEAK_LEARNER_MAX_DEPTH, M2BoostingClassifier, SMOTEBoost, WOTBoost

M2_CLASSES = [SMOTEBoost, WOTBoost]
TOLERANCE = 1e-12


@pytest.fixture(scope="module")
def imbalanced():
    X, y = make_classification(
        n_samples=300,
        n_features=4,
        n_informative=3,
        n_redundant=0,
        weights=[0.88],
        flip_y=0.02,
        random_state=11,
    )
    return X, y


def _brute_force_neighbours(X, k):
    distances = np.linalg.norm(X[:, None, :] - X[None, :, :], axis=-1)
    np.fill_diagonal(distances, np.inf)
    return np.argsort(distances, axis=1)[:, :k]


def _segment_step(x_new, x_start, x_end):
    """``lambda`` if ``x_new = x_start + lambda (x_end - x_start)`` with ``lambda`` in [0, 1], else None."""
    direction = x_end - x_start
    step = float(np.dot(x_new - x_start, direction) / np.dot(direction, direction))
    on_line = np.allclose(x_new, x_start + step * direction, rtol=0, atol=1e-10)
    return step if on_line and -1e-12 <= step <= 1 + 1e-12 else None


def _segments_holding(x_new, X_minority, neighbours):
    """Every (parent, neighbour) whose segment holds ``x_new`` (Algorithm 2, line 5)."""
    return {
        (parent, int(neighbour))
        for parent, row in enumerate(neighbours)
        for neighbour in row
        if _segment_step(x_new, X_minority[parent], X_minority[neighbour]) is not None
    }


# --------------------------------------------------------------------------------------- the round by hand
@pytest.mark.parametrize("cls", M2_CLASSES)
def test_two_m2_rounds_by_hand(cls, imbalanced):
    X, y = imbalanced
    model = cls(n_estimators=2, random_state=0).fit(X, y)
    assert len(model.estimators_) == 2
    signed = np.where(y == 1, 1.0, -1.0)
    weights = np.full(y.size, 1.0 / y.size)
    for round_index, learner in enumerate(model.estimators_):
        p_positive = learner.predict_proba(X)[:, list(learner.classes_).index(1)]
        h_true = np.where(signed > 0, p_positive, 1.0 - p_positive)  # h_t(x_i, y_i)
        h_wrong = 1.0 - h_true  # h_t(x_i, ybar_i)
        pseudo_loss = 0.5 * np.sum(weights * (1.0 - h_true + h_wrong))  # line 5
        beta = pseudo_loss / (1.0 - pseudo_loss)  # line 6
        assert model.estimator_errors_[round_index] == pytest.approx(pseudo_loss, abs=TOLERANCE)
        assert model.estimator_weights_[round_index] == pytest.approx(np.log(1.0 / beta), abs=1e-10)
        updated = weights * beta ** (0.5 * (1.0 + h_true - h_wrong))  # line 7, standard sign
        weights = updated / updated.sum()  # line 8
    np.testing.assert_allclose(model.final_distribution_, weights, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("cls", M2_CLASSES)
def test_final_hypothesis_is_the_argmax_of_log_inverse_beta_votes(cls, imbalanced):
    X, y = imbalanced
    model = cls(n_estimators=8, random_state=1).fit(X, y)
    votes = np.log(1.0 / (model.estimator_errors_ / (1.0 - model.estimator_errors_)))
    probabilities = [tree.predict_proba(X) for tree in model.estimators_]  # columns: classes 0, 1
    support = sum(v * p for v, p in zip(votes, probabilities, strict=True))  # sum_t ln(1/beta_t) h_t(x, y)
    np.testing.assert_array_equal(model.predict(X), model.classes_[np.argmax(support, axis=1)])
    np.testing.assert_allclose(
        model.decision_function(X), (support[:, 1] - support[:, 0]) / votes.sum(), atol=TOLERANCE
    )


@pytest.mark.parametrize("cls", M2_CLASSES)
def test_the_update_moves_weight_onto_the_misclassified_samples(cls, imbalanced):
    X, y = imbalanced
    model = cls(n_estimators=1, random_state=2).fit(X, y)
    tree = model.estimators_[0]
    p_true = tree.predict_proba(X)[np.arange(y.size), y]  # p_1(y_i | x_i); classes are 0, 1
    growth = model.final_distribution_ * y.size  # D_2(i) / D_1(i)
    wrong = p_true < 0.5
    assert wrong.any() and (~wrong).any()
    assert np.all(growth[wrong] > 1.0)
    assert model.final_distribution_[wrong].sum() > wrong.mean()
    # D_2 / D_1 is a decreasing function of p(y_i | x_i): beta^{p}
    order = np.argsort(p_true, kind="stable")
    assert np.all(np.diff(growth[order]) <= 1e-15)


# -------------------------------------------------------------------------------- the round's training set
def test_smoteboost_round_set_is_originals_plus_segment_points_with_split_weights(imbalanced):
    X, y = imbalanced
    minority = np.flatnonzero(y == 1)
    n_min = minority.size
    n_synthetic = 3 * n_min + 2
    weights = np.random.RandomState(4).dirichlet(np.ones(y.size))
    model = SMOTEBoost(n_synthetic=n_synthetic, k_neighbors=5, synthetic_weight="split")
    X_round, y_round, w_round = model._round_training_set_builder(X, y)(weights, np.random.RandomState(0))

    assert X_round.shape == (y.size + n_synthetic, X.shape[1])
    np.testing.assert_array_equal(X_round[: y.size], X)
    np.testing.assert_array_equal(y_round[: y.size], y)
    np.testing.assert_array_equal(w_round[: y.size], weights)
    assert np.all(y_round[y.size :] == 1)

    # the weights are distinct, so a child's weight D(i) / g_i (g_i in {3, 4}) names its parent i
    synthetic_weights = w_round[y.size :]
    minority_weights = weights[minority]
    parents, children_of_parent = [], []
    for weight in synthetic_weights:
        matches = [
            (i, g)
            for i in range(n_min)
            for g in (3, 4)
            if np.isclose(weight * g, minority_weights[i], rtol=1e-12)
        ]
        assert len(matches) == 1
        parents.append(matches[0][0])
        children_of_parent.append(matches[0][1])
    parents = np.array(parents)
    children = np.bincount(parents, minlength=n_min)
    # uniform allotment: 3 or 4 children each, exactly two samples get the extra one, as their weights say
    np.testing.assert_array_equal(children[parents], children_of_parent)
    assert set(children) == {3, 4}
    assert np.count_nonzero(children == 4) == 2
    assert synthetic_weights.sum() == pytest.approx(minority_weights.sum(), abs=1e-12)
    # each child lies on the segment from its parent to one of the parent's 5 nearest minority neighbours
    X_minority = X[minority]
    neighbours = _brute_force_neighbours(X_minority, 5)
    for x_new, parent in zip(X_round[y.size :], parents, strict=True):
        assert any(
            _segment_step(x_new, X_minority[parent], X_minority[j]) is not None for j in neighbours[parent]
        )


def test_wotboost_allots_children_in_proportion_to_the_weights(imbalanced):
    X, y = imbalanced
    minority = np.flatnonzero(y == 1)
    X_minority = X[minority]
    neighbours = _brute_force_neighbours(X_minority, 5)
    # two minority samples outside each other's neighbourhoods, so every segment has one of them as its end
    heavy, light = next(
        (a, b)
        for a in range(minority.size)
        for b in range(a + 1, minority.size)
        if b not in neighbours[a] and a not in neighbours[b] and not set(neighbours[a]) & set(neighbours[b])
    )
    weights = np.full(y.size, 1e-3)
    weights[minority] = 0.0
    weights[minority[heavy]], weights[minority[light]] = 0.3, 0.1
    weights /= weights.sum()
    model = WOTBoost(n_synthetic=40, synthetic_weight="split")
    X_round, _, w_round = model._round_training_set_builder(X, y)(weights, np.random.RandomState(0))
    parents = []
    for x_new in X_round[y.size :]:
        ends = {end for segment in _segments_holding(x_new, X_minority, neighbours) for end in segment}
        assert len(ends & {heavy, light}) == 1
        parents.append((ends & {heavy, light}).pop())
    # g_i = N D(i) / sum_minority D: 40 * 3/4 and 40 * 1/4; nobody else gets a child
    parents = np.array(parents)
    assert np.count_nonzero(parents == heavy) == 30 and np.count_nonzero(parents == light) == 10
    # a child weighs D(parent) / g_parent: here 0.3 / 30 = 0.1 / 10 (in units of the normalised weights)
    np.testing.assert_allclose(w_round[y.size :], weights[minority[heavy]] / 30, rtol=1e-12)


@pytest.mark.parametrize("cls", M2_CLASSES)
def test_synthetic_samples_train_the_learner_but_never_enter_the_weights(cls, imbalanced):
    X, y = imbalanced
    n_positive = int(y.sum())
    balancing = y.size - 2 * n_positive  # default N = majority count - minority count
    model = cls(n_estimators=3, random_state=0).fit(X, y)
    assert model.final_distribution_.shape == (y.size,)
    assert model.final_distribution_.sum() == pytest.approx(1.0)
    first_tree = model.estimators_[0]
    assert first_tree.tree_.n_node_samples[0] == y.size + balancing
    # D_1 is uniform and each child weighs the mean positive weight 1/n: synthetic mass = N / n
    assert first_tree.tree_.weighted_n_node_samples[0] == pytest.approx(1.0 + balancing / y.size)
    assert first_tree.get_depth() <= WEAK_LEARNER_MAX_DEPTH
    assert cls(n_synthetic=7, n_estimators=1, random_state=0).fit(X, y).estimators_[0].tree_.n_node_samples[
        0
    ] == (y.size + 7)


def test_without_synthetic_samples_the_learner_sees_the_originals(imbalanced):
    X, y = imbalanced
    model = SMOTEBoost(n_synthetic=0, n_estimators=2, random_state=0).fit(X, y)
    assert model.estimators_[0].tree_.n_node_samples[0] == y.size
    # a positive class that is the majority gets no synthetic samples by default (N = max(0, #neg - #pos))
    majority_positive = SMOTEBoost(n_estimators=1, pos_label=0, random_state=0).fit(X, y)
    assert majority_positive.estimators_[0].tree_.n_node_samples[0] == y.size


def test_a_single_minority_sample_is_copied():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.5], [0.2, 0.8]])
    y = np.array([0, 0, 0, 0, 1, 0])
    X_round, y_round, w_round = SMOTEBoost()._round_training_set_builder(X, y)(
        np.full(6, 1 / 6), np.random.RandomState(0)
    )
    np.testing.assert_array_equal(X_round[6:], np.repeat([[0.5, 0.5]], 4, axis=0))
    np.testing.assert_allclose(w_round[6:], 1 / 6)  # the mean positive weight


# ------------------------------------------------------------------------------------ seeds and behaviour
@pytest.mark.parametrize("cls", M2_CLASSES)
def test_a_seed_reproduces_the_model_and_another_seed_changes_it(cls, imbalanced):
    X, y = imbalanced
    first = cls(n_estimators=5, random_state=3).fit(X, y)
    again = cls(n_estimators=5, random_state=3).fit(X, y)
    other = cls(n_estimators=5, random_state=4).fit(X, y)
    np.testing.assert_array_equal(first.decision_function(X), again.decision_function(X))
    np.testing.assert_array_equal(first.final_distribution_, again.final_distribution_)
    assert not np.array_equal(first.estimator_errors_, other.estimator_errors_)
    # the learners get distinct sub-seeds from the one generator
    seeds = [tree.random_state for tree in first.estimators_]
    assert len(set(seeds)) == len(seeds)


def test_smoteboost_and_wotboost_differ_after_the_first_round(imbalanced):
    X, y = imbalanced
    smote, wot = SMOTEBoost(n_estimators=3, random_state=0), WOTBoost(n_estimators=3, random_state=0)
    smote.fit(X, y)
    wot.fit(X, y)
    # D_1 is uniform, so the first allotments are equally split in both; later rounds follow D_t in WOTBoost
    assert not np.array_equal(smote.final_distribution_, wot.final_distribution_)


def test_oversampling_rounds_find_more_minority_samples_than_plain_m2():
    X, y = make_classification(
        n_samples=600, n_features=6, n_informative=4, weights=[0.92], flip_y=0.02, random_state=6
    )
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    plain = SMOTEBoost(n_synthetic=0, n_estimators=20, random_state=0).fit(X_train, y_train)
    recall_plain = metrics.tpr(y_test, plain.predict(X_test))
    for cls in M2_CLASSES:
        model = cls(n_estimators=20, random_state=0).fit(X_train, y_train)
        assert metrics.tpr(y_test, model.predict(X_test)) > recall_plain  # measured: 0.54 vs 0.39


# -------------------------------------------------------------------------------- contract and errors
def test_variants_bind_rules_and_never_override_fit():
    for cls in M2_CLASSES:
        assert issubclass(cls, M2BoostingClassifier)
        assert cls.fit is BaseBoostingClassifier.fit
        model = cls()
        assert model.get_params()["k_neighbors"] == 5 and model.get_params()["n_synthetic"] is None


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"estimator": LinearRegression()}, "'estimator' parameter .* must be an object implementing"),
        ({"n_synthetic": -1}, "'n_synthetic' parameter .* must be .* range \\[0, inf\\)"),
        ({"k_neighbors": 0}, "'k_neighbors' parameter .* must be .* range \\[1, inf\\)"),
    ],
)
def test_invalid_parameters_are_named(params, message, imbalanced):
    X, y = imbalanced
    with pytest.raises(ValueError, match=message):
        SMOTEBoost(**params).fit(X, y)


@pytest.mark.parametrize("cls", M2_CLASSES)
def test_cost_matrix_is_validated_and_ignored(cls, imbalanced):
    X, y = imbalanced
    costs = np.tile([1.0, 5.0, 0.0, 0.0], (y.size, 1))
    with_costs = cls(n_estimators=3, random_state=0).fit(X, y, cost_matrix=costs)
    without = cls(n_estimators=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(with_costs.decision_function(X), without.decision_function(X))
    with pytest.raises(ValueError, match="cost_matrix"):
        cls(n_estimators=3).fit(X, y, cost_matrix=costs[:, :3])


@pytest.mark.parametrize("cls", M2_CLASSES)
def test_any_probabilistic_learner_and_string_labels(cls, imbalanced):
    X, y = imbalanced
    labels = np.where(y == 1, "fraud", "ok")
    model = cls(DecisionTreeClassifier(max_depth=1), n_estimators=4, random_state=0).fit(X, labels)
    assert model.pos_label_ == "fraud"
    assert set(model.predict(X)) <= {"fraud", "ok"}
    assert all(tree.get_depth() == 1 for tree in model.estimators_)


@pytest.mark.parametrize("cls", M2_CLASSES)
def test_inside_an_imblearn_pipeline_and_cross_validation(cls, imbalanced):
    X, y = imbalanced
    pipeline = make_pipeline(StandardScaler(), cls(n_estimators=5, random_state=0))
    scores = cross_val_score(
        pipeline, X, y, cv=StratifiedKFold(3, shuffle=True, random_state=0), scoring="roc_auc"
    )
    assert scores.shape == (3,)
    assert np.all(scores > 0.6)


@pytest.mark.parametrize("cls", M2_CLASSES)
def test_minority_neighbours_are_searched_once_per_fit(cls, imbalanced, monkeypatch):
    X, y = imbalanced
    searched = []
    real_search = _m2_rules.minority_neighbours

    def counting_search(X_minority, k_neighbors):
        searched.append(X_minority.shape)
        return real_search(X_minority, k_neighbors)

    monkeypatch.setattr(_m2_rules, "minority_neighbours", counting_search)
    model = cls(n_estimators=6, random_state=0).fit(X, y)
    assert len(model.estimators_) == 6
    assert searched == [(int(y.sum()), X.shape[1])]


@pytest.mark.parametrize("cls", M2_CLASSES)
@pytest.mark.parametrize(
    ("synthetic_weight", "expected_child_weight"),
    [
        ("uniform", lambda weights, minority: 1.0 / weights.size),
        ("mean_positive", lambda weights, minority: weights[minority].mean()),
        ("balance", lambda weights, minority: None),
    ],
)
def test_synthetic_weight_options_give_the_stated_child_weights(
    cls, synthetic_weight, expected_child_weight, imbalanced
):
    X, y = imbalanced
    minority = np.flatnonzero(y == 1)
    weights = np.random.RandomState(4).dirichlet(np.ones(y.size))
    model = cls(synthetic_weight=synthetic_weight)
    _, y_round, w_round = model._round_training_set_builder(X, y)(weights, np.random.RandomState(0))
    children = w_round[y.size :]
    assert children.size == y.size - 2 * minority.size  # N balances the counts
    if synthetic_weight == "balance":
        # both classes weigh the same in the weak learner's fit
        assert w_round[y_round == 1].sum() == pytest.approx(w_round[y_round == 0].sum(), abs=1e-12)
        np.testing.assert_allclose(children, children[0], rtol=0, atol=1e-15)
    else:
        np.testing.assert_allclose(children, expected_child_weight(weights, minority), rtol=1e-12, atol=0)


def test_mean_positive_weight_balances_the_first_round_and_split_does_not(imbalanced):
    """With N balancing the counts, "mean_positive" gives the positives half the weight in round 1 (D^1 is
    uniform); "split" leaves them about 2 W+ / (1 + W+)."""
    X, y = imbalanced
    uniform = np.full(y.size, 1.0 / y.size)
    share = {}
    for option in ("mean_positive", "split"):
        _, y_round, w_round = SMOTEBoost(synthetic_weight=option)._round_training_set_builder(X, y)(
            uniform, np.random.RandomState(0)
        )
        share[option] = w_round[y_round == 1].sum() / w_round.sum()
    positive_mass = np.mean(y == 1)
    assert share["mean_positive"] == pytest.approx(0.5, abs=1e-12)
    assert share["split"] == pytest.approx(2 * positive_mass / (1 + positive_mass), abs=1e-12)


def test_default_synthetic_weight_is_the_measured_choice():
    assert SMOTEBoost().synthetic_weight == WOTBoost().synthetic_weight == "mean_positive"
