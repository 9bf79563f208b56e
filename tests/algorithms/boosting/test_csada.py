"""Cost-Sensitive AdaBoost, "Algorithm 2" (docs/algorithms.md §4): two rounds by hand, the cost conditions,
the ``cost_matrix`` mapping, step 5's resampling and the weights the weak learner is fitted with
(class-balanced ``D^t`` by default, or ``D^t`` as printed)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from algorithms.boosting.csada import CostSensitiveAdaBoost

TOLERANCE = {"rtol": 0, "atol": 1e-12}
X_TOY = np.column_stack([np.arange(10.0), [3.0, 1.0, 4.0, 0.0, 5.0, 2.0, 6.0, 7.0, 9.0, 8.0]])
Y_TOY = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])
Y_SIGNED = np.where(Y_TOY == 1, 1.0, -1.0)
C10, C01, C11, C00 = 1.0, 0.5, 0.2, 0.3  # false negative, false positive, true positive, true negative


def signed_output(learner, X=X_TOY):
    return np.where(learner.predict(X) == 1, 1.0, -1.0)


def hand_round(d, h):
    """One round of Algorithm 2 written out: balanced error, alpha, beta from the confusion counts, update."""
    positive, wrong = Y_SIGNED > 0, h != Y_SIGNED
    error_positive = d[positive & wrong].sum() / d[positive].sum()
    error_negative = d[~positive & wrong].sum() / d[~positive].sum()
    epsilon = (error_positive + error_negative) / 2
    alpha = 0.5 * np.log((1 - epsilon) / epsilon)
    tp = np.sum(positive & (h > 0))
    fp = np.sum(~positive & (h > 0))
    tn = np.sum(~positive & (h < 0))
    fn = np.sum(positive & (h < 0))
    beta = np.select(
        [positive & wrong, ~positive & wrong, positive & ~wrong, ~positive & ~wrong],
        [tp / (tp + fp) * C10, tn / (tn + fn) * C01, tp / (tp + fp) * C11, tn / (tn + fn) * C00],
    )
    updated = d * np.exp(-alpha * beta * Y_SIGNED * h)
    return alpha, updated / updated.sum()


def model(**params):
    return CostSensitiveAdaBoost(
        positive_cost=C10, negative_cost=C01, true_positive_cost=C11, true_negative_cost=C00, **params
    )


def balanced_by_hand(d, y=Y_TOY):
    """``d`` rescaled so each class carries mass 1/2 (what ``weak_learner_weights="balanced"`` fits on)."""
    positive = y == 1
    return np.where(positive, d / (2 * d[positive].sum()), d / (2 * d[~positive].sum()))


@pytest.mark.parametrize("weak_learner_weights", ["balanced", "distribution"])
def test_two_rounds_by_hand(weak_learner_weights):
    one = model(n_estimators=1, weak_learner_weights=weak_learner_weights).fit(X_TOY, Y_TOY)
    two = model(n_estimators=2, weak_learner_weights=weak_learner_weights).fit(X_TOY, Y_TOY)
    h1, h2 = signed_output(two.estimators_[0]), signed_output(two.estimators_[1])
    assert not np.array_equal(h1, h2)

    alpha1, d2 = hand_round(np.full(10, 0.1), h1)
    alpha2, d3 = hand_round(d2, h2)
    assert_allclose(one.final_distribution_, d2, **TOLERANCE)
    assert_allclose(two.final_distribution_, d3, **TOLERANCE)
    assert_allclose(two.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    margin = alpha1 * h1 + alpha2 * h2
    assert_allclose(two.decision_function(X_TOY), margin / (alpha1 + alpha2), **TOLERANCE)
    assert_array_equal(two.predict(X_TOY), np.where(margin > 0, 1, 0))


def test_first_round_numbers_written_out():
    # D^1 as printed: h_1 = +1 on samples 0 and 1 (both positive): TP = 2, FP = 0, TN = 6, FN = 2 (3 and 6)
    first = model(n_estimators=1, weak_learner_weights="distribution").fit(X_TOY, Y_TOY)
    assert_array_equal(signed_output(first.estimators_[0]), [1, 1, -1, -1, -1, -1, -1, -1, -1, -1])
    epsilon = (2 / 4 + 0 / 6) / 2  # balanced error 1/4
    alpha = 0.5 * np.log((1 - epsilon) / epsilon)  # 1/2 ln 3
    precision, negative_predictive_value = 2 / 2, 6 / 8
    true_positive = np.exp(-alpha * precision * C11)
    true_negative = np.exp(-alpha * negative_predictive_value * C00)
    false_negative = np.exp(+alpha * precision * C10)
    raw = np.array([true_positive] * 2 + [true_negative, false_negative] + [true_negative] * 2)
    raw = np.concatenate([raw, [false_negative], [true_negative] * 3])
    assert_allclose(first.estimator_weights_, [0.5 * np.log(3)], **TOLERANCE)
    assert_allclose(first.final_distribution_, raw / raw.sum(), **TOLERANCE)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"positive_cost": 0.3, "true_negative_cost": 0.3},
            r"c10 > c00, i.e. positive_cost > true_negative_cost",
        ),
        (
            {"negative_cost": 0.2, "true_positive_cost": 0.5},
            r"c01 > c11, i.e. negative_cost > true_positive_cost",
        ),
    ],
)
def test_cost_conditions_are_validated(params, message):
    with pytest.raises(ValueError, match=message):
        CostSensitiveAdaBoost(**params).fit(X_TOY, Y_TOY)


def regret_matrix(regret_positive=4.0, regret_negative=2.0):
    """A matrix constant per class whose correct decisions cost something too (C_TP = 0.8, C_TN = 1.2)."""
    positive = Y_TOY[:, None] == 1
    return np.where(
        positive, [[0.0, regret_positive + 0.8, 0.8, 0.0]], [[regret_negative + 1.2, 0.0, 0.0, 1.2]]
    )


def test_cost_matrix_is_read_on_regrets_and_recovers_the_class_costs():
    # regrets 4 (positives) and 2 (negatives): c10 = 1, c01 = 0.5, and c11 = c00 = 0 once C_TP, C_TN are
    # subtracted
    with_matrix = CostSensitiveAdaBoost(n_estimators=3).fit(X_TOY, Y_TOY, cost_matrix=regret_matrix())
    with_classes = CostSensitiveAdaBoost(n_estimators=3, positive_cost=1.0, negative_cost=0.5).fit(
        X_TOY, Y_TOY
    )
    assert_allclose(with_matrix.estimator_weights_, with_classes.estimator_weights_, **TOLERANCE)
    assert_allclose(with_matrix.final_distribution_, with_classes.final_distribution_, **TOLERANCE)


def test_contact_costs_paid_either_way_are_accepted():
    """Bank marketing's shape (issue 8): C_FP = C_TP = the contact cost, which the literal c01 > c11
    refused."""
    matrix = np.tile([1.0, 6.0, 1.0, 0.0], (Y_TOY.size, 1))
    model = CostSensitiveAdaBoost(n_estimators=3).fit(X_TOY, Y_TOY, cost_matrix=matrix)
    assert (model.trace_["positive_cost"][0] > 0) and (model.trace_["negative_cost"][0] > 0)


def test_a_row_without_regret_gets_zero_weight_and_never_fails_the_fit():
    matrix = regret_matrix()
    matrix[3, 1] = matrix[3, 2]  # positive row 3: C_FN = C_TP, no regret
    fitted = CostSensitiveAdaBoost(n_estimators=3).fit(X_TOY, Y_TOY, cost_matrix=matrix)
    assert fitted.final_distribution_[3] == 0.0
    assert np.all(fitted.final_distribution_[np.arange(10) != 3] > 0)


def test_a_class_without_any_regret_is_named():
    matrix = regret_matrix()
    matrix[Y_TOY == 0, 0] = matrix[Y_TOY == 0, 3]  # every negative: C_FP = C_TN
    with pytest.raises(
        ValueError, match=r"c01 > c11 \(read on regrets.* every one of the negatives has zero"
    ):
        CostSensitiveAdaBoost().fit(X_TOY, Y_TOY, cost_matrix=matrix)


def test_a_first_stump_that_predicts_one_class_raises_a_clear_error():
    # D^1 as printed, positives at 2 and 7: the Gini stump predicts negative everywhere, balanced error 1/2
    X = np.arange(10.0).reshape(-1, 1)
    y = np.zeros(10, dtype=int)
    y[[2, 7]] = 1
    with pytest.raises(ValueError, match="no learner could be kept"):
        CostSensitiveAdaBoost(weak_learner_weights="distribution").fit(X, y)


def test_class_balanced_fitting_weights_give_a_learner_where_the_printed_ones_give_none():
    # same data rebalanced: positives weigh 1/4 each, negatives 1/16. Gini of x <= 1.5: left leaf 2/16 of pure
    # negatives, right leaf 1/2 positive vs 6/16 negative; it catches both positives and raises 6 of 8 false
    # alarms: balanced error (0 + 6/8) / 2 = 3/8, alpha = 1/2 ln(5/3)
    X = np.arange(10.0).reshape(-1, 1)
    y = np.zeros(10, dtype=int)
    y[[2, 7]] = 1
    balanced = balanced_by_hand(np.full(10, 0.1), y)
    assert_allclose(balanced, np.where(y == 1, 1 / 4, 1 / 16), **TOLERANCE)
    fitted = CostSensitiveAdaBoost(n_estimators=1).fit(X, y)
    oracle = DecisionTreeClassifier(max_depth=1).fit(X, y, sample_weight=balanced)
    assert fitted.estimators_[0].threshold_ == pytest.approx(oracle.tree_.threshold[0])
    assert_array_equal(fitted.estimators_[0].predict(X), oracle.predict(X))
    h = np.where(oracle.predict(X) == 1, 1.0, -1.0)
    signed = np.where(y == 1, 1.0, -1.0)
    epsilon = (np.mean(h[y == 1] != 1.0) + np.mean(h[y == 0] != -1.0)) / 2  # uniform D^1 within a class
    assert fitted.estimators_[0].threshold_ == 1.5 and epsilon == 3 / 8
    assert_allclose(fitted.estimator_weights_, [0.5 * np.log((1 - epsilon) / epsilon)], **TOLERANCE)
    assert (h * signed < 0).sum() < 10  # not the one-class stump


def weighted_child_gini(stump, weights, X=X_TOY, y=Y_TOY):
    """``sum_child w_child * gini_child`` of a fitted stump's split, computed by hand (tie-invariant)."""
    left = X[:, stump.feature_] <= stump.threshold_
    total = 0.0
    for side in (left, ~left):
        w = weights[side]
        shares = np.array([w[y[side] == label].sum() for label in (0, 1)]) / w.sum()
        total += w.sum() * (1.0 - np.sum(shares**2))
    return total


def best_weighted_child_gini(weights, X=X_TOY, y=Y_TOY):
    """The same quantity for scikit-learn's best depth-1 split on ``weights``."""
    tree = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y, sample_weight=weights).tree_
    return float(np.sum(tree.impurity[1:] * tree.weighted_n_node_samples[1:]))


def test_balanced_fitting_weights_train_each_round_on_the_hand_balanced_distribution():
    """Round 1 on the balanced D^1, round 2 on the hand-computed D^2 (Algorithm 2) rebalanced by hand.

    The toy problem has equally good splits on two features, so each stump is compared with scikit-learn's
    by the quantity a tie leaves unchanged: the weighted Gini impurity of its children.
    """
    two = model(n_estimators=2).fit(X_TOY, Y_TOY)
    d1 = np.full(10, 0.1)
    balanced_d1 = balanced_by_hand(d1)
    assert weighted_child_gini(two.estimators_[0], balanced_d1) == pytest.approx(
        best_weighted_child_gini(balanced_d1), abs=1e-12
    )
    _, d2 = hand_round(d1, signed_output(two.estimators_[0]))
    balanced_d2 = balanced_by_hand(d2)
    assert weighted_child_gini(two.estimators_[1], balanced_d2) == pytest.approx(
        best_weighted_child_gini(balanced_d2), abs=1e-12
    )
    # the printed D^t trains a stump that is worse on the balanced D^1, so the option matters
    literal = model(n_estimators=1, weak_learner_weights="distribution").fit(X_TOY, Y_TOY)
    literal_gini = weighted_child_gini(literal.estimators_[0], balanced_d1)
    assert literal_gini > best_weighted_child_gini(balanced_d1) + 1e-9


def test_unknown_weak_learner_weights_are_rejected():
    with pytest.raises(ValueError, match="weak_learner_weights"):
        CostSensitiveAdaBoost(weak_learner_weights="uniform").fit(X_TOY, Y_TOY)


def test_resampling_by_the_distribution_is_seeded_and_updates_every_sample():
    X, y = make_classification(120, 4, weights=[0.8], random_state=0)
    resampled = CostSensitiveAdaBoost(n_estimators=10, resample=True, random_state=3).fit(X, y)
    again = clone(resampled).fit(X, y)
    weighted = CostSensitiveAdaBoost(n_estimators=10).fit(X, y)
    assert_allclose(resampled.estimator_weights_, again.estimator_weights_, **TOLERANCE)
    assert resampled.final_distribution_.shape == (120,)
    # (with seed 3 the bootstrap draws happen to give the weighted fit's first three stumps; round 4 differs)
    assert not np.allclose(resampled.estimator_weights_, weighted.estimator_weights_)
    other_seed = CostSensitiveAdaBoost(n_estimators=10, resample=True, random_state=4).fit(X, y)
    assert not np.allclose(resampled.estimator_weights_[:3], other_seed.estimator_weights_[:3])
