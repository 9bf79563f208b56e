"""Two boosting rounds of every fixed-cost competitor, computed by hand (AdaCC Table 3; docs/algorithms.md
§3).

Each test fits the estimator for one and for two rounds on a ten-sample toy problem, reads the weak learners'
outputs ``h_1``, ``h_2`` from the fitted stumps, and recomputes ``D^1``, ``alpha_1``, ``D^2``, ``alpha_2`` and
``D^3`` with the table's formulas written out in numpy, independently of the rule functions. ``D^2`` is the
one-round model's ``final_distribution_``, ``D^3`` the two-round model's (a T-round model is the prefix of a
longer one).
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.base import clone

from algorithms.boosting.adac import AdaC1, AdaC2, AdaC3
from algorithms.boosting.adacost import AdaCost
from algorithms.boosting.adamec import AdaMEC
from algorithms.boosting.cgada import CGAda
from algorithms.boosting.csb import CSB1, CSB2
from algorithms.boosting.rareboost import RareBoost

TOLERANCE = {"rtol": 0, "atol": 1e-12}

X_TOY = np.column_stack([np.arange(10.0), [3.0, 1.0, 4.0, 0.0, 5.0, 2.0, 6.0, 7.0, 9.0, 8.0]])
Y_TOY = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])  # 1 = positive (the minority, 4 of 10)
Y_SIGNED = np.where(Y_TOY == 1, 1.0, -1.0)
POSITIVE_COST, NEGATIVE_COST = 1.0, 0.4
COSTS = np.where(Y_TOY == 1, POSITIVE_COST, NEGATIVE_COST)


def signed_output(learner, X=X_TOY):
    """``h_t(x)`` in {-1, +1} of a fitted stump (trained on 0/1 labels, 1 = positive)."""
    return np.where(learner.predict(X) == 1, 1.0, -1.0)


def two_rounds(model, X=X_TOY, y=Y_TOY):
    """Fit one- and two-round copies; return ``(D^2, D^3, h_1, h_2, two_round_model)``."""
    one = clone(model).set_params(n_estimators=1).fit(X, y)
    two = clone(model).set_params(n_estimators=2).fit(X, y)
    assert two.stop_reason_ == "n_estimators" and len(two.estimators_) == 2
    h1, h2 = signed_output(two.estimators_[0], X), signed_output(two.estimators_[1], X)
    assert_allclose(signed_output(one.estimators_[0], X), h1)
    assert not np.array_equal(h1, h2), "the toy must give two different stumps"
    return one.final_distribution_, two.final_distribution_, h1, h2, two


def normalised(weights):
    return weights / weights.sum()


def assert_plain_vote(model, h1, h2, alpha1, alpha2):
    """``H(x) = sign(sum_t alpha_t h_t(x))`` and the normalised score of docs/algorithms.md §1."""
    margin = alpha1 * h1 + alpha2 * h2
    assert_allclose(model.decision_function(X_TOY), margin / (alpha1 + alpha2), **TOLERANCE)
    assert_allclose(model.predict(X_TOY), np.where(margin > 0, 1, 0))


def test_cgada_two_rounds_by_hand():
    d2, d3, h1, h2, model = two_rounds(CGAda(positive_cost=POSITIVE_COST, negative_cost=NEGATIVE_COST))
    d1 = COSTS / COSTS.sum()  # 4 positives of cost 1, 6 negatives of cost 0.4: sum 6.4
    assert_allclose(d1[[0, 2]], [1 / 6.4, 0.4 / 6.4], **TOLERANCE)
    wrong1 = h1 != Y_SIGNED
    alpha1 = 0.5 * np.log(d1[~wrong1].sum() / d1[wrong1].sum())
    expected_d2 = normalised(d1 * np.exp(-alpha1 * Y_SIGNED * h1))
    wrong2 = h2 != Y_SIGNED
    alpha2 = 0.5 * np.log(expected_d2[~wrong2].sum() / expected_d2[wrong2].sum())
    expected_d3 = normalised(expected_d2 * np.exp(-alpha2 * Y_SIGNED * h2))

    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    assert_plain_vote(model, h1, h2, alpha1, alpha2)


def test_adamec_two_rounds_by_hand_with_its_cost_weighted_vote():
    d2, d3, h1, h2, model = two_rounds(AdaMEC(positive_cost=POSITIVE_COST, negative_cost=NEGATIVE_COST))
    d1 = np.full(10, 0.1)
    wrong1 = h1 != Y_SIGNED
    alpha1 = 0.5 * np.log(d1[~wrong1].sum() / d1[wrong1].sum())
    expected_d2 = normalised(d1 * np.exp(-alpha1 * Y_SIGNED * h1))
    wrong2 = h2 != Y_SIGNED
    alpha2 = 0.5 * np.log(expected_d2[~wrong2].sum() / expected_d2[wrong2].sum())
    expected_d3 = normalised(expected_d2 * np.exp(-alpha2 * Y_SIGNED * h2))
    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.estimator_weights_, [alpha1, alpha2], **TOLERANCE)

    # sign(sum_y c(y) sum_{t: h_t = y} alpha_t h_t(x)): positive votes weigh C+ alpha, negative ones C- alpha
    positive_votes = alpha1 * (h1 > 0) + alpha2 * (h2 > 0)
    negative_votes = alpha1 * (h1 < 0) + alpha2 * (h2 < 0)
    cost_weighted = POSITIVE_COST * positive_votes - NEGATIVE_COST * negative_votes
    assert_allclose(model.vote_weights_, [[alpha1, 0.4 * alpha1], [alpha2, 0.4 * alpha2]], **TOLERANCE)
    assert_allclose(model.decision_function(X_TOY), cost_weighted / (alpha1 + alpha2), **TOLERANCE)
    assert_allclose(model.predict(X_TOY), np.where(cost_weighted > 0, 1, 0))
    # the same rule read as a threshold on the positive share of the vote: share > C- / (C+ + C-)
    share = positive_votes / (alpha1 + alpha2)
    assert_allclose(model.predict(X_TOY), np.where(share > 0.4 / 1.4, 1, 0))


def test_csb1_two_rounds_by_hand_update_without_alpha():
    d2, d3, h1, h2, model = two_rounds(
        CSB1(positive_cost=POSITIVE_COST, negative_cost=NEGATIVE_COST, weak_output="discrete")
    )
    d1 = COSTS / COSTS.sum()
    wrong1 = h1 != Y_SIGNED
    alpha1 = 0.5 * np.log(d1[~wrong1].sum() / d1[wrong1].sum())
    expected_d2 = normalised(d1 * COSTS * np.exp(-Y_SIGNED * h1))  # no alpha in CSB1's exponent
    wrong2 = h2 != Y_SIGNED
    alpha2 = 0.5 * np.log(expected_d2[~wrong2].sum() / expected_d2[wrong2].sum())
    expected_d3 = normalised(expected_d2 * COSTS * np.exp(-Y_SIGNED * h2))
    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    assert_plain_vote(model, h1, h2, alpha1, alpha2)


def _leaf_confidence(stump, weights):
    """``2 p - 1`` of each sample's leaf, ``p`` the leaf's ``weights`` share of positives, by hand."""
    left = X_TOY[:, stump.feature_] <= stump.threshold_
    output = np.empty(10)
    for leaf in (left, ~left):
        output[leaf] = 2 * weights[leaf & (Y_TOY == 1)].sum() / weights[leaf].sum() - 1
    return output


def test_csb1_confidence_rated_two_rounds_by_hand():
    """``h = 2 p - 1`` of the stump's weighted leaf, ``alpha = 1/2 ln((1 + r) / (1 - r))`` with
    ``r = sum D y h`` (Schapire and Singer 1999), update ``D C exp(-y h)`` (no alpha), vote ``alpha h``."""
    model = CSB1(positive_cost=POSITIVE_COST, negative_cost=NEGATIVE_COST, n_estimators=2).fit(X_TOY, Y_TOY)
    assert model.get_params()["weak_output"] == "confidence" and len(model.estimators_) == 2
    d, margin, alphas = COSTS / COSTS.sum(), np.zeros(10), []
    for stump in model.estimators_:
        h = _leaf_confidence(stump, d)
        assert len(np.unique(h)) == 2 and np.any(np.abs(h) < 1)  # two leaves, at least one impure
        r = np.sum(d * Y_SIGNED * h)
        alphas.append(0.5 * np.log((1 + r) / (1 - r)))
        margin += alphas[-1] * h
        d = normalised(d * COSTS * np.exp(-Y_SIGNED * h))
    assert_allclose(model.estimator_weights_, alphas, **TOLERANCE)
    assert_allclose(model.final_distribution_, d, **TOLERANCE)
    assert_allclose(model.decision_function(X_TOY), margin / sum(alphas), **TOLERANCE)
    assert_allclose(model.predict(X_TOY), np.where(margin > 0, 1, 0))


def test_csb2_two_rounds_by_hand():
    d2, d3, h1, h2, model = two_rounds(CSB2(positive_cost=POSITIVE_COST, negative_cost=NEGATIVE_COST))
    d1 = COSTS / COSTS.sum()
    wrong1 = h1 != Y_SIGNED
    alpha1 = 0.5 * np.log(d1[~wrong1].sum() / d1[wrong1].sum())
    expected_d2 = normalised(d1 * COSTS * np.exp(-alpha1 * Y_SIGNED * h1))
    wrong2 = h2 != Y_SIGNED
    alpha2 = 0.5 * np.log(expected_d2[~wrong2].sum() / expected_d2[wrong2].sum())
    expected_d3 = normalised(expected_d2 * COSTS * np.exp(-alpha2 * Y_SIGNED * h2))
    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    assert_plain_vote(model, h1, h2, alpha1, alpha2)


def test_adac1_two_rounds_by_hand():
    d2, d3, h1, h2, model = two_rounds(AdaC1(positive_cost=POSITIVE_COST, negative_cost=NEGATIVE_COST))
    d1 = COSTS / COSTS.sum()
    wrong1 = h1 != Y_SIGNED
    right_mass, wrong_mass = (COSTS * d1)[~wrong1].sum(), (COSTS * d1)[wrong1].sum()
    alpha1 = 0.5 * np.log((1 + right_mass - wrong_mass) / (1 - right_mass + wrong_mass))
    expected_d2 = normalised(d1 * np.exp(-COSTS * alpha1 * Y_SIGNED * h1))
    wrong2 = h2 != Y_SIGNED
    right_mass, wrong_mass = (COSTS * expected_d2)[~wrong2].sum(), (COSTS * expected_d2)[wrong2].sum()
    alpha2 = 0.5 * np.log((1 + right_mass - wrong_mass) / (1 - right_mass + wrong_mass))
    expected_d3 = normalised(expected_d2 * np.exp(-COSTS * alpha2 * Y_SIGNED * h2))
    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    assert_plain_vote(model, h1, h2, alpha1, alpha2)


def test_adac2_two_rounds_by_hand():
    d2, d3, h1, h2, model = two_rounds(AdaC2(positive_cost=POSITIVE_COST, negative_cost=NEGATIVE_COST))
    d1 = COSTS / COSTS.sum()
    wrong1 = h1 != Y_SIGNED
    alpha1 = 0.5 * np.log((COSTS * d1)[~wrong1].sum() / (COSTS * d1)[wrong1].sum())
    expected_d2 = normalised(d1 * COSTS * np.exp(-alpha1 * Y_SIGNED * h1))
    wrong2 = h2 != Y_SIGNED
    alpha2 = 0.5 * np.log((COSTS * expected_d2)[~wrong2].sum() / (COSTS * expected_d2)[wrong2].sum())
    expected_d3 = normalised(expected_d2 * COSTS * np.exp(-alpha2 * Y_SIGNED * h2))
    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    assert_plain_vote(model, h1, h2, alpha1, alpha2)


def test_adac3_two_rounds_by_hand():
    d2, d3, h1, h2, model = two_rounds(AdaC3(positive_cost=POSITIVE_COST, negative_cost=NEGATIVE_COST))
    d1 = COSTS / COSTS.sum()

    def adac3_alpha(d, h):
        wrong = h != Y_SIGNED
        total = (COSTS * d).sum()
        right_sq, wrong_sq = (COSTS**2 * d)[~wrong].sum(), (COSTS**2 * d)[wrong].sum()
        return 0.5 * np.log((total + right_sq - wrong_sq) / (total - right_sq + wrong_sq))

    alpha1 = adac3_alpha(d1, h1)
    expected_d2 = normalised(d1 * COSTS * np.exp(-COSTS * alpha1 * Y_SIGNED * h1))
    alpha2 = adac3_alpha(expected_d2, h2)
    expected_d3 = normalised(expected_d2 * COSTS * np.exp(-COSTS * alpha2 * Y_SIGNED * h2))
    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    assert_plain_vote(model, h1, h2, alpha1, alpha2)


def test_adacost_two_rounds_by_hand_with_fan_beta():
    positive_cost, negative_cost = 0.5, 0.3
    costs = np.where(Y_TOY == 1, 0.1, 0.1 * 0.3 / 0.5)  # scaled to max FAN_COST_SCALE = 0.1
    d2, d3, h1, h2, model = two_rounds(
        AdaCost(positive_cost=positive_cost, negative_cost=negative_cost, formulation="fan")
    )
    d1 = costs / costs.sum()

    def beta(h):  # 1/2 (1 + C) when misclassified, 1/2 (1 - C) when correct
        return np.where(h != Y_SIGNED, 0.5 * (1 + costs), 0.5 * (1 - costs))

    r1 = (d1 * Y_SIGNED * h1 * beta(h1)).sum()
    alpha1 = 0.5 * np.log((1 + r1) / (1 - r1))
    expected_d2 = normalised(d1 * np.exp(-alpha1 * Y_SIGNED * h1 * beta(h1)))
    r2 = (expected_d2 * Y_SIGNED * h2 * beta(h2)).sum()
    alpha2 = 0.5 * np.log((1 + r2) / (1 - r2))
    expected_d3 = normalised(expected_d2 * np.exp(-alpha2 * Y_SIGNED * h2 * beta(h2)))
    assert r1 > 0 and r2 > 0
    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.estimator_weights_, [alpha1, alpha2], **TOLERANCE)
    assert_plain_vote(model, h1, h2, alpha1, alpha2)


def test_rareboost_two_rounds_by_hand_with_per_side_alphas():
    X = np.arange(10.0).reshape(-1, 1)
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0, 0, 1])
    y_signed = np.where(y == 1, 1.0, -1.0)
    d2, d3, h1, h2, model = two_rounds(RareBoost(), X, y)

    def side_alphas(d, h):  # weighted counts; an error-free side uses the floor 1e-10 for its error
        tp, fp = d[(y_signed > 0) & (h > 0)].sum(), d[(y_signed < 0) & (h > 0)].sum()
        tn, fn = d[(y_signed < 0) & (h < 0)].sum(), d[(y_signed > 0) & (h < 0)].sum()
        return 0.5 * np.log(tp / max(fp, 1e-10)), 0.5 * np.log(tn / max(fn, 1e-10))

    d1 = np.full(10, 0.1)
    plus1, minus1 = side_alphas(d1, h1)
    expected_d2 = normalised(d1 * np.exp(-np.where(h1 > 0, plus1, minus1) * y_signed * h1))
    plus2, minus2 = side_alphas(expected_d2, h2)
    expected_d3 = normalised(expected_d2 * np.exp(-np.where(h2 > 0, plus2, minus2) * y_signed * h2))
    assert min(plus1, minus1, plus2, minus2) > 0
    assert_allclose(d2, expected_d2, **TOLERANCE)
    assert_allclose(d3, expected_d3, **TOLERANCE)
    assert_allclose(model.vote_weights_, [[plus1, minus1], [plus2, minus2]], **TOLERANCE)
    vote = np.where(h1 > 0, plus1, minus1) * h1 + np.where(h2 > 0, plus2, minus2) * h2
    assert_allclose(model.decision_function(X), vote / (max(plus1, minus1) + max(plus2, minus2)), **TOLERANCE)
    assert_allclose(model.predict(X), np.where(vote > 0, 1, 0))


def test_rareboost_boosts_on_when_the_first_stump_predicts_only_negatives():
    # positives at 2 and 7 only: every split leaves a negative majority on both sides, so TP = FP = 0
    X = np.arange(10.0).reshape(-1, 1)
    y = np.zeros(10, dtype=int)
    y[[2, 7]] = 1
    model = RareBoost(n_estimators=10).fit(X, y)
    alpha_positive, alpha_negative = model.vote_weights_[0]
    assert alpha_positive == 0.0  # the empty positive side neither votes nor reweighs
    assert_allclose(alpha_negative, 0.5 * np.log(0.8 / 0.2), **TOLERANCE)  # TN = 8/10, FN = 2/10
    assert model.stop_reason_ == "n_estimators" and len(model.estimators_) == 10
    assert_allclose(model.predict(X), y)  # the later rounds isolate both positives


def test_rareboost_raises_a_clear_error_when_the_first_learner_fails_both_conditions():
    # a weak learner that predicts the opposite of the truth: TP = TN = 0 on every side
    from sklearn.dummy import DummyClassifier

    X = np.arange(6.0).reshape(-1, 1)
    y = np.array([1, 1, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="no learner could be kept"):
        RareBoost(DummyClassifier(strategy="constant", constant=1)).fit(X, y)


@pytest.mark.parametrize("seed", range(12))
def test_rareboost_predicts_both_classes_on_a_five_percent_minority(seed):
    """Issue 8 point 3: stopping at the first TP = FP = 0 round left 6 of these 12 seeds all negative."""
    from sklearn.datasets import make_classification

    X, y = make_classification(
        n_samples=600,
        n_features=6,
        n_informative=3,
        weights=[0.95],
        class_sep=0.8,
        flip_y=0.01,
        random_state=seed,
    )
    model = RareBoost(n_estimators=50).fit(X, y)
    assert set(model.predict(X)) == {0, 1}
