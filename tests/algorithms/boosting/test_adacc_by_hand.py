"""Two rounds of AdaCC1 / AdaCC2 (both formulations) worked out by hand and matched to 1e-12.

The expected numbers are computed here independently of :mod:`algorithms.boosting._rules`: plain Python
arithmetic over the samples, following AdaCC paper Eq. 5-8, 12-18 (``formulation="paper"``) and
docs/algorithms.md §2 (``formulation="reference"``, the authors' published code) step by step.

Toy problem: ten points ``x = 1..10`` on one feature, positives (the minority, 3 of 10) at ``x = 3, 8, 9``.
With uniform weights the best Gini stump is ``x > 7.5 -> positive``: it misses the positive ``x = 3`` and
raises a false alarm on ``x = 10``, so ``e_1 = 2/10``, ``FNR = 1/3 > FPR = 1/7`` and only the missed positive
gets a cost ``4/3``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from algorithms.boosting import AdaCC1, AdaCC2, AdaNCC1, AdaNCC2

X = np.arange(1.0, 11.0).reshape(-1, 1)
Y = np.array([0, 0, 1, 0, 0, 0, 0, 1, 1, 0])
SIGNED = [1.0 if label == 1 else -1.0 for label in Y]
N = len(SIGNED)
TOLERANCE = 1e-12


def _rates(votes):
    """Eq. 5: FNR and FPR of sign(votes); a vote of 0 counts as a negative prediction."""
    positives = [i for i in range(N) if SIGNED[i] > 0]
    negatives = [i for i in range(N) if SIGNED[i] < 0]
    fnr = sum(1 for i in positives if votes[i] <= 0) / len(positives)
    fpr = sum(1 for i in negatives if votes[i] > 0) / len(negatives)
    return fnr, fpr


def _costs_as_printed(h, fnr, fpr):
    """Eq. 6: 1 + FNR for a missed positive if FNR > FPR, 1 + FPR for a false alarm if FPR > FNR, else 1."""
    costs = [1.0] * N
    for i in range(N):
        if SIGNED[i] * h[i] < 0 and SIGNED[i] > 0 and fnr > fpr:
            costs[i] = 1 + fnr
        if SIGNED[i] * h[i] < 0 and SIGNED[i] < 0 and fnr < fpr:
            costs[i] = 1 + fpr
    return costs


def _round_by_hand(variant, formulation, weights, h, votes, cumulative=True):
    """One round from D^t, the learner's outputs h and the previous rounds' votes; returns the numbers.

    ``cumulative=False`` is AdaN-CC: the rates of Eq. 5 come from ``h_t`` alone (AdaCC Section 5.2).
    """
    wrong = [SIGNED[i] * h[i] < 0 for i in range(N)]
    error = sum(weights[i] for i in range(N) if wrong[i])
    if formulation == "reference":
        alpha = math.log((1 - error) / error)
        new_votes = [votes[i] + alpha * h[i] for i in range(N)]
        fnr, fpr = _rates(new_votes if cumulative else h)
        c_pos, c_neg = (1 + fnr, 1.0) if fnr >= fpr else (1.0, 1 + fpr)
        costs = [c_pos if SIGNED[i] > 0 else c_neg for i in range(N)]
        if variant == 1:
            updated = [weights[i] * (math.exp(costs[i] * alpha) if wrong[i] else 1.0) for i in range(N)]
        else:
            updated = [weights[i] * (costs[i] * math.exp(alpha) if wrong[i] else 1.0) for i in range(N)]
    else:
        alpha0 = 0.5 * math.log((1 - error) / error)
        fnr, fpr = _rates([votes[i] + alpha0 * h[i] for i in range(N)] if cumulative else h)
        costs = _costs_as_printed(h, fnr, fpr)
        c_pos, c_neg = (1 + fnr if fnr > fpr else 1.0), (1 + fpr if fpr > fnr else 1.0)
        correct_mass = sum(costs[i] * weights[i] for i in range(N) if not wrong[i])
        wrong_mass = sum(costs[i] * weights[i] for i in range(N) if wrong[i])
        if variant == 1:  # Eq. 12, then Eq. 7
            alpha = 0.5 * math.log((1 + correct_mass - wrong_mass) / (1 - correct_mass + wrong_mass))
            updated = [weights[i] * math.exp(-costs[i] * alpha * SIGNED[i] * h[i]) for i in range(N)]
        else:  # Eq. 18, then Eq. 14
            alpha = 0.5 * math.log(correct_mass / wrong_mass)
            updated = [weights[i] * costs[i] * math.exp(-alpha * SIGNED[i] * h[i]) for i in range(N)]
        new_votes = [votes[i] + alpha * h[i] for i in range(N)]
    total = sum(updated)  # Z_t (Eq. 8 / 15)
    return {
        "error": error,
        "alpha": alpha,
        "positive_cost": c_pos,
        "negative_cost": c_neg,
        "weights": [w / total for w in updated],
        "votes": new_votes,
    }


def _outputs(model, round_index):
    return [1.0 if p == 1 else -1.0 for p in model.estimators_[round_index].predict(X)]


VARIANTS = [(AdaCC1, 1), (AdaCC2, 2)]
FORMULATIONS = ["reference", "paper"]


@pytest.mark.parametrize(("estimator_class", "variant"), VARIANTS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_first_round_closed_form(estimator_class, variant, formulation):
    """Round 1 in closed form: e = 1/5, FNR = 1/3 > FPR = 1/7, the missed positive costs 4/3."""
    model = estimator_class(n_estimators=1, formulation=formulation).fit(X, Y)
    stump = model.estimators_[0]
    assert (stump.feature_, stump.threshold_) == (0, 7.5)
    assert model.estimator_errors_[0] == pytest.approx(0.2, abs=TOLERANCE)
    assert model.trace_["positive_cost"][0] == pytest.approx(4 / 3, abs=TOLERANCE)
    assert model.trace_["negative_cost"][0] == 1.0
    # missed positive x=3 (index 2) and false alarm x=10 (index 9); the other eight samples are correct
    if formulation == "reference":
        alpha = math.log(4.0)  # ln(0.8 / 0.2)
        grown = {2: 0.1 * 4.0 ** (4 / 3) if variant == 1 else 0.1 * (4 / 3) * 4.0, 9: 0.1 * 4.0}
        unchanged = 0.1
    elif variant == 1:
        alpha = 0.5 * math.log(47 / 13)  # r = 0.8 - (4/3 * 0.1 + 0.1) = 17/30, (1 + r) / (1 - r) = 47/13
        grown = {2: 0.1 * math.exp(4 / 3 * alpha), 9: 0.1 * math.exp(alpha)}
        unchanged = 0.1 * math.exp(-alpha)
    else:
        alpha = 0.5 * math.log(24 / 7)  # 0.8 / (4/3 * 0.1 + 0.1)
        grown = {2: 0.1 * (4 / 3) * math.exp(alpha), 9: 0.1 * math.exp(alpha)}
        unchanged = 0.1 * math.exp(-alpha)
    assert model.estimator_weights_[0] == pytest.approx(alpha, abs=TOLERANCE)
    expected = np.full(N, unchanged)
    for index, value in grown.items():
        expected[index] = value
    np.testing.assert_allclose(model.final_distribution_, expected / expected.sum(), rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize(("estimator_class", "variant"), VARIANTS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
@pytest.mark.parametrize(
    "weak_learner",
    [None, GaussianNB(), DecisionTreeClassifier(max_depth=2)],
    ids=["stump", "gaussian-naive-bayes", "depth-2-tree"],
)
def test_two_rounds_by_hand(estimator_class, variant, formulation, weak_learner):
    """Costs, alphas and weights of two rounds equal the hand computation to 1e-12 (stump and non-stump)."""
    one_round = estimator_class(weak_learner, n_estimators=1, formulation=formulation).fit(X, Y)
    model = estimator_class(weak_learner, n_estimators=2, formulation=formulation).fit(X, Y)
    assert len(model.estimators_) == 2

    weights, votes = [1.0 / N] * N, [0.0] * N
    rounds = []
    for round_index in range(2):
        numbers = _round_by_hand(variant, formulation, weights, _outputs(model, round_index), votes)
        rounds.append(numbers)
        weights, votes = numbers["weights"], numbers["votes"]

    for key, attribute in (("alpha", model.estimator_weights_), ("error", model.estimator_errors_)):
        np.testing.assert_allclose(attribute, [r[key] for r in rounds], rtol=0, atol=TOLERANCE)
    for key in ("positive_cost", "negative_cost"):
        np.testing.assert_allclose(model.trace_[key], [r[key] for r in rounds], rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(one_round.final_distribution_, rounds[0]["weights"], rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(model.final_distribution_, rounds[1]["weights"], rtol=0, atol=TOLERANCE)
    positive_share = [sum(w for w, s in zip(r["weights"], SIGNED, strict=True) if s > 0) for r in rounds]
    np.testing.assert_allclose(model.trace_["positive_weight_share"], positive_share, rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(model.decision_function(X), np.array(votes) / sum(r["alpha"] for r in rounds))


@pytest.mark.parametrize(("estimator_class", "variant"), VARIANTS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_second_learner_is_trained_on_the_hand_computed_distribution(estimator_class, variant, formulation):
    """scikit-learn's depth-1 tree fitted on the hand-computed D^2 makes the second stump's split."""
    model = estimator_class(n_estimators=2, formulation=formulation).fit(X, Y)
    first = _round_by_hand(variant, formulation, [1.0 / N] * N, _outputs(model, 0), [0.0] * N)
    oracle = DecisionTreeClassifier(max_depth=1).fit(X, Y, sample_weight=first["weights"])
    assert model.estimators_[1].threshold_ == pytest.approx(oracle.tree_.threshold[0])
    np.testing.assert_array_equal(model.estimators_[1].predict(X), oracle.predict(X))
    # and it is the hand-derived stump x <= 3.5 -> positive
    assert _outputs(model, 1) == [1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0]


def test_paper_formulation_stops_when_eq13_fails():
    """AdaCC1 as printed with a logistic-regression learner: round 2 violates Eq. 13, so it is discarded.

    The one learner left predicts one class on every training sample, so ``fit`` refuses the model.
    """
    learner = LogisticRegression(C=0.5)
    refusal = r"stopped after 1 of 5 rounds \(stop reason: non-positive alpha\), .* predict class 0 for every"
    with pytest.raises(ValueError, match=refusal):
        AdaCC1(learner, n_estimators=5, formulation="paper").fit(X, Y)
    model = AdaCC1(learner, n_estimators=1, formulation="paper").fit(X, Y)
    assert len(set(model.predict(X))) == 1
    # redo round 2 by hand: the learner fitted on D^2 and the cost-weighted masses of Eq. 13
    first = _round_by_hand(1, "paper", [1.0 / N] * N, _outputs(model, 0), [0.0] * N)
    second_learner = LogisticRegression(C=0.5).fit(X, Y, sample_weight=first["weights"])
    h = [1.0 if p == 1 else -1.0 for p in second_learner.predict(X)]
    error = sum(w for w, s, o in zip(first["weights"], SIGNED, h, strict=True) if s * o < 0)
    alpha0 = 0.5 * math.log((1 - error) / error)
    fnr, fpr = _rates([first["votes"][i] + alpha0 * h[i] for i in range(N)])
    costs = _costs_as_printed(h, fnr, fpr)
    margin = sum(c * w * s * o for c, w, s, o in zip(costs, first["weights"], SIGNED, h, strict=True))
    assert margin <= 0  # Eq. 13 fails: sum_correct C D <= sum_wrong C D


@pytest.mark.parametrize(("estimator_class", "variant"), [(AdaNCC1, 1), (AdaNCC2, 2)])
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_non_cumulative_ablations_by_hand(estimator_class, variant, formulation):
    """AdaN-CC1/2: the same two rounds with FNR/FPR of the round's weak learner alone."""
    model = estimator_class(n_estimators=2, formulation=formulation).fit(X, Y)
    weights, votes, rounds = [1.0 / N] * N, [0.0] * N, []
    for round_index in range(len(model.estimators_)):
        h = _outputs(model, round_index)
        numbers = _round_by_hand(variant, formulation, weights, h, votes, cumulative=False)
        rounds.append(numbers)
        weights, votes = numbers["weights"], numbers["votes"]
    assert len(rounds) == 2
    # h_2 = (x <= 3.5) alone misses 2 of 3 positives, flags 2 of 7 negatives: cost 1 + 2/3 (AdaCC: 1 + 1/3)
    assert model.trace_["positive_cost"][1] == pytest.approx(5 / 3, abs=TOLERANCE)
    np.testing.assert_allclose(model.estimator_weights_, [r["alpha"] for r in rounds], rtol=0, atol=TOLERANCE)
    for key in ("positive_cost", "negative_cost"):
        np.testing.assert_allclose(model.trace_[key], [r[key] for r in rounds], rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(model.final_distribution_, rounds[1]["weights"], rtol=0, atol=TOLERANCE)


def test_mirror_image_constant_learners_are_a_tie_not_a_rounding_residue():
    """AdaCC1: a first stump that predicts one class and its mirror image in round 2 cancel: a tie (negative).

    One constant feature and 10 % positives: the stump cannot split, so it predicts the weighted majority,
    ``h_1 = -1`` with ``e_1 = 0.1``; the published AdaCC1 update (``c+ = 2``) moves the positives' share to
    exactly ``1 - e_1``, so ``h_2 = +1`` with ``e_2 = e_1`` and ``alpha_2 = alpha_1``. ``H_{1:2} = 0`` for
    every sample: FNR = 1, FPR = 0, so ``c+ = 2`` and the misclassified negatives get the plain SAMME step,
    which balances the classes at 1/2 (by hand: negatives ``e (1 - e) / e = 1 - e``, positives ``1 - e``).
    When the rounding residue of ``alpha_2 - alpha_1`` decided the sign instead, the negatives got
    ``c- = 2``, the shares flipped between 0.9 and 0.1 forever and AdaCC1 predicted every row positive
    (issue 13's 45,000 x 50 benchmark: balanced accuracy 0.50 instead of 0.78).
    """
    x = np.zeros((200, 1))
    y = (np.arange(200) % 10 == 5).astype(int)
    model = AdaCC1(n_estimators=3).fit(x, y)
    assert list(model.estimators_[0].predict(x)) == [0] * 200
    assert list(model.estimators_[1].predict(x)) == [1] * 200
    np.testing.assert_allclose(model.estimator_errors_[:2], [0.1, 0.1], rtol=1e-12)
    np.testing.assert_allclose(model.trace_["positive_cost"][:2], [2.0, 2.0], rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(model.trace_["negative_cost"][:2], [1.0, 1.0], rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(model.trace_["positive_weight_share"][:2], [0.9, 0.5], rtol=0, atol=1e-12)
    assert model.trace_["train_tpr"][1] == 0.0  # the tie H_{1:2} = 0 predicts negative
    assert list(model.staged_predict(x))[1].tolist() == [0] * 200


def test_a_tie_predicts_the_negative_class_when_the_positive_class_is_the_first_label():
    """The mirror-image tie above with the labels swapped (positive = ``classes_[0]``): still negative."""
    x = np.zeros((200, 1))
    y = 1 - (np.arange(200) % 10 == 5).astype(int)
    model = AdaCC1(n_estimators=3).fit(x, y)
    assert model.pos_label_ == 0
    assert model.trace_["train_tpr"][1] == 0.0
    assert list(model.staged_predict(x))[1].tolist() == [1] * 200
