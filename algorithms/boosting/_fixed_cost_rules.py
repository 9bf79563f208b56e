"""Rules of the fixed-cost boosting competitors (AdaCC paper, Table 3) and of Cost-Sensitive AdaBoost.

Two layers, like :mod:`algorithms.boosting._rules`:

* pure array functions that cite their equation (``adacost_cost_factors``, ``adac3_alpha``, ...), in the
  notation of :mod:`algorithms.boosting._rules` (``y`` signed labels, ``output`` the weak learner's
  ``h_t(x_i)`` in {-1, +1}, ``weights`` the distribution ``D^t``, ``costs`` the per-sample costs ``C_i``);
* *bound rules*: the same maths with the signatures of :class:`~algorithms.boosting._base.BoostingRules`
  (``(state, costs)`` for alphas, ``(state, costs, alpha)`` for updates, ``(state, alpha)`` for votes), which
  the estimator modules (``adacost.py``, ``adac.py``, ``csb.py``, ``cgada.py``, ``adamec.py``,
  ``rareboost.py``, ``csada.py``) put together into :class:`~algorithms.boosting._base.BoostingRules`.

Sources: Table 3 of Iosifidis et al., "AdaCC: cumulative cost-sensitive boosting for imbalanced
classification" (``../shared/papers/adacc-cumulative-cost-boosting.txt``) for AdaCost, AdaC1-3, CSB1/2,
CGAda, AdaMEC and RareBoost; Fan et al. (1999) for AdaCost's ``beta`` (spec section 3); "Algorithm 2" of
``../shared/papers/cost-sensitive-adaboost-algorithm2.txt`` for Cost-Sensitive AdaBoost (spec section 4).
"""

from __future__ import annotations

import numpy as np

from algorithms.boosting import _rules
from algorithms.boosting._base import BOOSTING_PARAMETERS_DOC, RoundCosts, RoundState

__all__ = [
    "adac3_alpha",
    "adac3_update",
    "adacost_cost_factors",
    "balanced_error",
    "class_predictive_values",
    "confusion_cost_factors",
    "confusion_mass",
    "cost_weighted_vote",
    "csb1_update",
    "rareboost_alphas",
    "rareboost_update",
]


# ----------------------------------------------------------------------------------------------- AdaCost
def adacost_cost_factors(y, output, costs):
    """AdaCost's cost-adjustment ``beta_i`` (Fan et al. 1999, the "beta2" of Ting 2000; spec section 3).

    ``beta_i = 1/2 (1 + C_i)`` when ``h_t`` misclassifies sample ``i`` and ``1/2 (1 - C_i)`` when it is right,
    for costs ``C_i`` in [0, 1]. AdaCost then uses ``beta_i`` where AdaC1 uses ``C_i``:
    ``r = sum_i D^t(i) y_i h_t(x_i) beta_i``, ``alpha_t = 1/2 ln((1 + r) / (1 - r))`` and
    ``D^{t+1}(i) = D^t(i) exp(-alpha_t y_i h_t(x_i) beta_i) / Z_t``.
    """
    wrong = _rules.misclassified(y, output)
    return np.where(wrong, 0.5 * (1.0 + costs), 0.5 * (1.0 - costs))


# ------------------------------------------------------------------------------------------------- AdaC3
def adac3_alpha(weights, y, output, costs):
    """AdaC3's learner weight (AdaCC Table 3, Sun et al. 2007).

    ``alpha_t = 1/2 ln((S + m) / (S - m))`` with ``S = sum_i C_i D^t(i)`` and
    ``m = sum_{i: y_i = h_t(x_i)} C_i^2 D^t(i) - sum_{i: y_i != h_t(x_i)} C_i^2 D^t(i)
    = sum_i C_i^2 D^t(i) y_i h_t(x_i)``.

    Returns 0 when ``m <= 0`` (the learner does not help; the loop discards it and stops); ``S - m`` is
    floored at ``2 * ERROR_FLOOR * S`` so a learner without errors gets a large finite weight.
    """
    cost_mass = float(np.dot(weights, costs))
    margin = float(np.dot(weights * costs * costs, y * output))
    if margin <= 0.0:
        return 0.0
    return 0.5 * float(
        np.log((cost_mass + margin) / max(cost_mass - margin, 2.0 * _rules.ERROR_FLOOR * cost_mass))
    )


def adac3_update(weights, y, output, alpha, costs):
    """AdaC3's update ``D^t(i) C_i exp(-C_i alpha_t y_i h_t(x_i))`` before normalisation (AdaCC Table 3)."""
    return weights * costs * np.exp(-costs * alpha * y * output)


# -------------------------------------------------------------------------------------------------- CSB1
def csb1_update(weights, y, output, alpha, costs):
    """CSB1's update ``D^t(i) C_i exp(-y_i h_t(x_i))`` before normalisation (AdaCC Table 3, Ting 2000).

    Unlike every other variant the exponent carries no ``alpha_t``; ``alpha_t`` (AdaBoost's, Eq. 2) only
    weighs the learner's vote.
    """
    return weights * costs * np.exp(-y * output)


# ------------------------------------------------------------------------------------------------ AdaMEC
def cost_weighted_vote(alpha, positive_cost, negative_cost):
    """AdaMEC's vote weights ``(c(+) alpha_t, c(-) alpha_t)`` (AdaCC Table 3, Nikolaou and Brown 2015).

    With them the ensemble decides ``sign(sum_{y in {+1,-1}} c(y) sum_{t: h_t(x) = y} alpha_t h_t(x))``:
    positive exactly when ``sum_{t: h_t = +1} alpha_t / sum_t alpha_t > c(-) / (c(+) + c(-))``.
    """
    return float(positive_cost * alpha), float(negative_cost * alpha)


# --------------------------------------------------------------------------------------------- RareBoost
def confusion_mass(y, output, mass):
    """Weighted confusion counts ``(TP, FP, TN, FN)`` of ``h_t`` (predicted positive when ``h_t > 0``).

    ``mass`` weighs each sample: ``D^t`` for RareBoost's weighted counts, ``sample_weight`` (ones by default)
    for the plain counts of Cost-Sensitive AdaBoost.
    """
    positive = (y > 0).astype(float)  # float indicators: numpy's float-by-bool dot product is slow
    predicted_positive = (output > 0).astype(float)
    positive_mass = float(np.dot(mass, positive))
    predicted_mass = float(np.dot(mass, predicted_positive))
    true_positive = float(np.dot(mass, positive * predicted_positive))
    false_positive = predicted_mass - true_positive
    false_negative = positive_mass - true_positive
    true_negative = float(mass.sum()) - positive_mass - false_positive
    return true_positive, false_positive, true_negative, false_negative


def rareboost_alphas(weights, y, output):
    """RareBoost's two learner weights (AdaCC Table 3, Joshi et al. 2001).

    ``alpha+_t = 1/2 ln(TP_t / FP_t)`` for samples ``h_t`` predicts positive and ``alpha-_t = 1/2 ln(TN_t /
    FN_t)`` for those it predicts negative, from counts weighted by ``D^t``. RareBoost requires ``TP > FP``
    and ``TN > FN``; when either fails (including an empty side, e.g. ``TN = FN = 0``) the matching weight is
    returned as 0 (that side then neither votes nor reweighs) and the loop stops (spec section 3). ``FP`` and
    ``FN`` are floored at :data:`~algorithms.boosting._rules.ERROR_FLOOR`, so an error-free side gets a large
    finite weight.

    Returns
    -------
    alpha_positive, alpha_negative : float
    """
    true_positive, false_positive, true_negative, false_negative = confusion_mass(y, output, weights)

    def side_weight(right, wrong):
        if right <= wrong:
            return 0.0
        return 0.5 * float(np.log(right / max(wrong, _rules.ERROR_FLOOR)))

    return side_weight(true_positive, false_positive), side_weight(true_negative, false_negative)


def rareboost_update(weights, y, output, alpha_positive, alpha_negative):
    """RareBoost's update ``D^t(i) exp(-alpha^{+,-}_t y_i h_t(x_i))`` before normalisation (AdaCC Table 3).

    ``alpha+_t`` reweighs the samples ``h_t`` predicts positive, ``alpha-_t`` those it predicts negative.
    """
    side_alpha = np.where(output >= 0, alpha_positive, alpha_negative)
    return weights * np.exp(-side_alpha * y * output)


# ------------------------------------------------------------------------------ Cost-Sensitive AdaBoost
def balanced_error(weights, y, output):
    """Algorithm 2's error ``epsilon_t = (epsilon_p + epsilon_n) / 2`` (step 6; spec section 4).

    ``epsilon_p`` and ``epsilon_n`` are class-conditional: the weight ``D^t`` of the misclassified positives
    (negatives) divided by the weight of all positives (negatives). A class without weight has error 0.
    """
    wrong = _rules.misclassified(y, output)
    positive = y > 0
    rates = []
    for members in (positive, ~positive):
        class_weight = float(weights[members].sum())
        rates.append(float(weights[members & wrong].sum()) / class_weight if class_weight > 0 else 0.0)
    return 0.5 * (rates[0] + rates[1])


def class_predictive_values(true_positive, false_positive, true_negative, false_negative):
    """``(TP / (TP + FP), TN / (TN + FN))``: precision and negative predictive value of ``h_t`` (Algorithm 2).

    A ratio with an empty denominator (``h_t`` predicts no sample of that side) is taken as 1: without
    predictions on a side there is no wrong one. (Such a one-class ``h_t`` has balanced error 1/2, so
    Algorithm 2 never keeps it; the convention only keeps the function total.)
    """

    def ratio(right, wrong):
        return right / (right + wrong) if right + wrong > 0 else 1.0

    return ratio(true_positive, false_positive), ratio(true_negative, false_negative)


def confusion_cost_factors(y, output, outcome_costs, counts):
    """Algorithm 2's ``beta_i`` (step 8; spec section 4).

    ``beta_i = TP/(TP+FP) c10`` for a false negative, ``TN/(TN+FN) c01`` for a false positive,
    ``TP/(TP+FP) c11`` for a true positive and ``TN/(TN+FN) c00`` for a true negative.

    Parameters
    ----------
    y, output : ndarray of shape (n_samples,)
        Signed labels and ``h_t(x_i)`` in {-1, +1}.
    outcome_costs : ndarray of shape (n_samples, 2)
        Per sample, its cost when misclassified (``c10`` for a positive, ``c01`` for a negative) and when
        classified correctly (``c11`` for a positive, ``c00`` for a negative).
    counts : tuple of float
        ``(TP, FP, TN, FN)`` of ``h_t`` on the training set (:func:`confusion_mass`).
    """
    precision, negative_predictive_value = class_predictive_values(*counts)
    wrong = _rules.misclassified(y, output)
    factor = np.where(y > 0, precision, negative_predictive_value)
    return factor * np.where(wrong, outcome_costs[:, 0], outcome_costs[:, 1])


# ------------------------------------------------------------------------------------------ bound rules
def _class_means(values, y):
    """Mean of ``values`` over the positives and over the negatives (0 for a class without samples)."""
    positive = y > 0

    def mean(selected):
        return float(selected.mean()) if selected.size else 0.0

    return mean(values[positive]), mean(values[~positive])


def adacost_round_costs(state: RoundState) -> RoundCosts:
    """AdaCost's round costs: ``beta_i`` per sample; the trace records ``beta`` of a misclassified sample."""
    per_sample = adacost_cost_factors(state.y, state.output, state.fixed_costs)
    positive, negative = _class_means(state.fixed_costs, state.y)
    return RoundCosts(per_sample, 0.5 * (1.0 + positive), 0.5 * (1.0 + negative))


def adacost_alpha_rule(state: RoundState, costs: RoundCosts) -> float:
    """``alpha_t = 1/2 ln((1 + r) / (1 - r))``, ``r = sum_i D^t(i) y_i h_t(x_i) beta_i`` (Fan et al. 1999).

    The formula of AdaC1 with ``beta_i`` in place of ``C_i``
    (:func:`algorithms.boosting._rules.cost_in_exponent_alpha`);
    ``r <= 0`` gives 0, which discards the learner and stops.
    """
    return _rules.cost_in_exponent_alpha(state.weights, state.y, state.output, costs.per_sample)


def cost_in_exponent_update_rule(state: RoundState, costs: RoundCosts, alpha: float) -> np.ndarray:
    """``D^t(i) exp(-C_i alpha_t y_i h_t(x_i))`` with the round's per-sample costs (AdaC1; AdaCost and
    Algorithm 2 with ``beta_i`` as the cost)."""
    return _rules.cost_in_exponent_update(state.weights, state.y, state.output, alpha, costs.per_sample)


def adac1_alpha_rule(state: RoundState, costs: RoundCosts) -> float:
    """AdaC1's learner weight (AdaCC Table 3; the formula of AdaCC1's Eq. 12).

    ``alpha_t = 1/2 ln((1 + sum_correct C D - sum_wrong C D) / (1 - sum_correct C D + sum_wrong C D))``.
    """
    return _rules.cost_in_exponent_alpha(state.weights, state.y, state.output, costs.per_sample)


def adac2_alpha_rule(state: RoundState, costs: RoundCosts) -> float:
    """AdaC2's ``alpha_t = 1/2 ln(sum_correct C D / sum_wrong C D)`` (AdaCC Table 3)."""
    return _rules.cost_outside_exponent_alpha(state.weights, state.y, state.output, costs.per_sample)


def cost_outside_exponent_update_rule(state: RoundState, costs: RoundCosts, alpha: float) -> np.ndarray:
    """``D^t(i) C_i exp(-alpha_t y_i h_t(x_i))`` (AdaC2 and CSB2, AdaCC Table 3)."""
    return _rules.cost_outside_exponent_update(state.weights, state.y, state.output, alpha, costs.per_sample)


def adac3_alpha_rule(state: RoundState, costs: RoundCosts) -> float:
    """AdaC3's learner weight (:func:`adac3_alpha`)."""
    return adac3_alpha(state.weights, state.y, state.output, costs.per_sample)


def adac3_update_rule(state: RoundState, costs: RoundCosts, alpha: float) -> np.ndarray:
    """AdaC3's update (:func:`adac3_update`)."""
    return adac3_update(state.weights, state.y, state.output, alpha, costs.per_sample)


def csb1_update_rule(state: RoundState, costs: RoundCosts, alpha: float) -> np.ndarray:
    """CSB1's update (:func:`csb1_update`)."""
    return csb1_update(state.weights, state.y, state.output, alpha, costs.per_sample)


def adamec_vote_rule(state: RoundState, alpha: float) -> tuple[float, float]:
    """AdaMEC's vote ``(c(+) alpha_t, c(-) alpha_t)`` (:func:`cost_weighted_vote`).

    ``c(+)`` and ``c(-)`` are the class costs; with a ``cost_matrix`` they are the class means of the
    normalised per-sample costs, since a new sample's own costs are unknown when it is classified.
    """
    return cost_weighted_vote(alpha, *_class_means(state.fixed_costs, state.y))


def rareboost_alpha_rule(state: RoundState, costs: RoundCosts) -> float:
    """``max(alpha+_t, alpha-_t)``: positive when at least one side of ``h_t`` is reliable.

    A learner with ``TP <= FP`` *and* ``TN <= FN`` (no better than chance) is discarded; one that fails only
    one condition is kept with that side's weight 0 and boosting stops after it (:func:`rareboost_stop_rule`).
    """
    return max(rareboost_alphas(state.weights, state.y, state.output))


#: ``stop_reason_`` of a RareBoost fit that stopped after a round violating ``TP > FP`` or ``TN > FN``.
RAREBOOST_CONDITION_VIOLATED = "RareBoost condition violated (TP <= FP or TN <= FN)"


def rareboost_stop_rule(state: RoundState) -> bool | str:
    """Stop after a learner without weighted errors or one that violates ``TP > FP`` or ``TN > FN``."""
    if state.weighted_error <= 0.0:
        return "perfect learner"
    if min(rareboost_alphas(state.weights, state.y, state.output)) <= 0.0:
        return RAREBOOST_CONDITION_VIOLATED
    return False


def rareboost_update_rule(state: RoundState, costs: RoundCosts, alpha: float) -> np.ndarray:
    """RareBoost's update with ``alpha+`` / ``alpha-`` by predicted side (:func:`rareboost_update`)."""
    return rareboost_update(
        state.weights, state.y, state.output, *rareboost_alphas(state.weights, state.y, state.output)
    )


def rareboost_vote_rule(state: RoundState, alpha: float) -> tuple[float, float]:
    """RareBoost's vote ``(alpha+_t, alpha-_t)`` (AdaCC Table 3).

    ``H(x) = sign(sum_{t: h_t >= 0} a+_t h_t(x) + sum_{t: h_t < 0} a-_t h_t(x))``.
    """
    return rareboost_alphas(state.weights, state.y, state.output)


def confusion_round_costs(state: RoundState) -> RoundCosts:
    """Algorithm 2's ``beta_i`` from the confusion counts of ``h_t`` (counted with ``sample_weight``).

    The trace records the ``beta`` of a misclassified positive (``TP/(TP+FP)`` times the class mean of
    ``c10``) and of a misclassified negative (``TN/(TN+FN)`` times the class mean of ``c01``).
    """
    counts = confusion_mass(state.y, state.output, state.class_mass)
    per_sample = confusion_cost_factors(state.y, state.output, state.fixed_costs, counts)
    precision, negative_predictive_value = class_predictive_values(*counts)
    positive, negative = _class_means(state.fixed_costs[:, 0], state.y)
    return RoundCosts(per_sample, precision * positive, negative_predictive_value * negative)


def balanced_error_alpha_rule(state: RoundState, costs: RoundCosts) -> float:
    """Algorithm 2's ``alpha_t = 1/2 ln((1 - epsilon_t) / epsilon_t)`` with the balanced error (step 7)."""
    return _rules.adaboost_alpha(balanced_error(state.weights, state.y, state.output))


#: Parameters and attributes shared by the docstrings of the fixed-cost estimators.
FIXED_COST_PARAMETERS_DOC = BOOSTING_PARAMETERS_DOC + """    positive_cost : float, default=1.0 (AdaCost: 0.1)
        ``C+``, the cost of misclassifying a positive (a false negative).
    negative_cost : float, default=1.0 (AdaCost: 0.1)
        ``C-``, the cost of misclassifying a negative (a false positive). The AdaCC paper fixes ``C+ = 1`` and
        selects ``C-`` in {0.1, ..., 1.0} by F1 (Section 5.2).

    Attributes
    ----------
    estimators_, estimator_weights_, estimator_errors_, vote_weights_, classes_, pos_label_, n_features_in_, \
trace_, stop_reason_
        See :class:`~algorithms.boosting._base.BaseBoostingClassifier`.

    Notes
    -----
    Per-sample costs: ``C_i = C+`` for positives and ``C-`` for negatives, used as given. With
    ``fit(..., cost_matrix=M)`` they are ``C_FN,i`` for positives and ``C_FP,i`` for negatives, normalised so
    the largest is 1 (spec section 3), and the class costs are ignored.
"""
