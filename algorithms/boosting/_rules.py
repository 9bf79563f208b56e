"""Pure rule functions of the boosting loop: weighted error, alpha, costs, weight updates and votes.

Every function works on whole numpy arrays (no per-sample Python loops) and cites the equation it
implements. Notation follows the AdaCC paper (Iosifidis et al.,
``../shared/papers/adacc-cumulative-cost-boosting.txt``): ``y`` holds the signed labels (+1 for the positive
class, -1 for the negative one), ``output`` the weak learner's ``h_t(x_i)`` in [-1, 1] (exactly +-1 for a
discrete learner), ``weights`` the distribution ``D^t`` (sums to 1) and ``costs`` the per-sample costs
``C^t_i``.

The estimators in :mod:`algorithms.boosting` bind these functions; the boosting loop itself lives in
:mod:`algorithms.boosting._base`.
"""

from __future__ import annotations

import numpy as np

#: Smallest weighted error (or misclassified mass) used in an alpha formula. A weak learner without weighted
#: errors gets the finite alpha of this error (spec section 1) instead of an infinite one.
ERROR_FLOOR = 1e-10


# ----------------------------------------------------------------------------------------- round statistics
def misclassified(y, output):
    """Boolean mask of the samples the weak learner gets wrong, ``I_i = 1[h_t(x_i) != y_i]`` (AdaCC Eq. 6)."""
    return y * output < 0


def weighted_error(weights, y, output):
    """Weighted error ``sum_i D^t(i) (1 - y_i h_t(x_i)) / 2`` of one weak learner.

    For a discrete learner (``h_t`` in {-1, +1}) this is the misclassified mass, the denominator of AdaCC
    Eq. 2; for a real-valued output ``2 p - 1`` it is the pseudo-loss of binary AdaBoost.M2 (Freund and
    Schapire 1997).
    """
    return float(np.dot(weights, (1.0 - y * output) / 2.0))


def class_error_rates(votes, y, class_mass):
    """False negative and false positive rates of the sign of a vote vector (AdaCC Eq. 5).

    Parameters
    ----------
    votes : ndarray of shape (n_samples,)
        Ensemble margin ``sum_j alpha_j h_j(x_i)`` of the partial ensemble (or ``h_t(x_i)`` alone for the
        non-cumulative AdaN-CC ablations). A sample counts as predicted positive when its vote is > 0.
    y : ndarray of shape (n_samples,)
        Signed labels.
    class_mass : ndarray of shape (n_samples,)
        How much each sample counts, e.g. all ones for the paper's ``|D+|`` and ``|D-|`` counts, or the
        caller's ``sample_weight`` (frequency weights).

    Returns
    -------
    false_negative_rate, false_positive_rate : float
        ``FNR_{1:t}`` and ``FPR_{1:t}``; a class with no mass has rate 0.
    """
    # float indicators: numpy's dot product of floats with booleans is ~100x slower than with floats
    positive = (y > 0).astype(float)
    predicted_positive = (votes > 0).astype(float)
    positive_mass = float(np.dot(class_mass, positive))
    negative_mass = float(class_mass.sum()) - positive_mass
    true_positive = float(np.dot(class_mass, positive * predicted_positive))
    missed_positive = positive_mass - true_positive
    false_alarm = float(np.dot(class_mass, predicted_positive)) - true_positive
    fnr = missed_positive / positive_mass if positive_mass > 0 else 0.0
    fpr = false_alarm / negative_mass if negative_mass > 0 else 0.0
    return float(fnr), float(fpr)


# --------------------------------------------------------------------------------------------------- alphas
def adaboost_alpha(error):
    """Discrete AdaBoost's learner weight ``alpha_t = 1/2 ln((1 - e) / e)`` (AdaCC Eq. 2).

    ``e`` is floored at :data:`ERROR_FLOOR`, so a perfect learner gets a large finite weight. A result
    <= 0 (``e >= 1/2``) tells the loop to discard the learner and stop.
    """
    error = max(error, ERROR_FLOOR)
    return 0.5 * float(np.log((1.0 - error) / error))


def log_odds_alpha(error):
    """The authors' published AdaCC code's learner weight ``alpha_t = ln((1 - e) / e)`` (no factor 1/2).

    This is the SAMME weight for two classes (Zhu et al. 2009); spec section 2, ``formulation="reference"``.
    ``e`` is floored at :data:`ERROR_FLOOR`; a result <= 0 (``e >= 1/2``) stops the loop.
    """
    return 2.0 * adaboost_alpha(error)


def cost_in_exponent_alpha(weights, y, output, costs):
    """AdaCC1's (and AdaC1's) learner weight, AdaCC Eq. 12.

    ``alpha_t = 1/2 ln((1 + r) / (1 - r))`` with
    ``r = sum_{i: y_i = h_t(x_i)} C_i D^t(i) - sum_{i: y_i != h_t(x_i)} C_i D^t(i)``, i.e.
    ``r = sum_i C_i D^t(i) y_i h_t(x_i)``.

    Returns 0 when Eq. 13 (``r > 0``) is violated, which stops the loop; ``1 - r`` is floored at
    ``2 * ERROR_FLOOR`` so a learner without errors gets a finite weight.
    """
    margin = float(np.dot(weights * costs, y * output))
    if margin <= 0.0:
        return 0.0
    return 0.5 * float(np.log((1.0 + margin) / max(1.0 - margin, 2.0 * ERROR_FLOOR)))


def cost_outside_exponent_alpha(weights, y, output, costs):
    """AdaCC2's (and AdaC2's) learner weight, AdaCC Eq. 18.

    ``alpha_t = 1/2 ln(sum_{i: y_i = h_t(x_i)} C_i D^t(i) / sum_{i: y_i != h_t(x_i)} C_i D^t(i))``.

    Returns 0 when Eq. 13 is violated (the correct mass does not exceed the misclassified mass), which stops
    the loop; the misclassified mass is floored at :data:`ERROR_FLOOR`.
    """
    cost_mass = weights * costs
    wrong_mass = float(np.dot(cost_mass, misclassified(y, output).astype(float)))
    correct_mass = float(cost_mass.sum()) - wrong_mass
    if correct_mass <= wrong_mass:
        return 0.0
    return 0.5 * float(np.log(correct_mass / max(wrong_mass, ERROR_FLOOR)))


# ---------------------------------------------------------------------------------------------------- costs
def cumulative_costs_as_printed(y, output, false_negative_rate, false_positive_rate):
    """Per-sample cumulative costs ``C^t_i`` exactly as AdaCC Eq. 6 prints them.

    ``C_i = 1 + FNR`` for a misclassified positive when ``FNR > FPR``; ``C_i = 1 + FPR`` for a misclassified
    negative when ``FNR < FPR``; 1 otherwise (so a tie ``FNR == FPR`` gives every sample cost 1).
    """
    wrong = misclassified(y, output)
    positive = y > 0
    costs = np.ones_like(output, dtype=float)
    if false_negative_rate > false_positive_rate:
        costs[wrong & positive] = 1.0 + false_negative_rate
    elif false_positive_rate > false_negative_rate:
        costs[wrong & ~positive] = 1.0 + false_positive_rate
    return costs


def class_costs_as_published(false_negative_rate, false_positive_rate):
    """Class costs of the authors' published AdaCC code (spec section 2, ``formulation="reference"``).

    ``c+ = 1 + FNR`` and ``c- = 1 + FPR``, then the smaller of the two is reset to 1; a tie keeps the cost on
    the positive class. Returns ``(c+, c-)``: the cost of a missed positive and of a missed negative.
    """
    if false_negative_rate >= false_positive_rate:
        return 1.0 + false_negative_rate, 1.0
    return 1.0, 1.0 + false_positive_rate


def costs_by_class(y, positive_cost, negative_cost):
    """Per-sample costs from class costs: ``C_i = C+`` for positives, ``C-`` for negatives (AdaCC Table 3)."""
    return np.where(y > 0, float(positive_cost), float(negative_cost))


def example_costs_from_matrix(y, cost_matrix):
    """Per-sample misclassification costs from an example-dependent cost matrix (spec section 3).

    ``C_i = C_FN,i`` for positives and ``C_FP,i`` for negatives (columns ``[C_FP, C_FN, C_TP, C_TN]``),
    normalised so the largest cost is 1. Raises ``ValueError`` when every relevant cost is zero.
    """
    costs = np.where(y > 0, cost_matrix[:, 1], cost_matrix[:, 0]).astype(float)
    largest = costs.max(initial=0.0)
    if largest <= 0:
        raise ValueError(
            "cost_matrix gives every sample a zero misclassification cost (C_FN for positives, C_FP for "
            "negatives); at least one must be positive"
        )
    return costs / largest


# ------------------------------------------------------------------------------------------- weight updates
def exponential_update(weights, y, output, alpha, costs):
    """AdaBoost's update ``D^t(i) exp(-alpha_t y_i h_t(x_i))``, unnormalised (AdaCC Eq. 1); ignores costs."""
    return weights * np.exp(-alpha * y * output)


def cost_in_exponent_update(weights, y, output, alpha, costs):
    """AdaCC1's (and AdaC1's) update ``D^t(i) exp(-C_i alpha_t y_i h_t(x_i))``, unnormalised (Eq. 7)."""
    return weights * np.exp(-costs * alpha * y * output)


def cost_outside_exponent_update(weights, y, output, alpha, costs):
    """AdaCC2's (and AdaC2's) update ``D^t(i) C_i exp(-alpha_t y_i h_t(x_i))``, unnormalised (Eq. 14)."""
    return weights * costs * np.exp(-alpha * y * output)


def misclassified_cost_in_exponent_update(weights, y, output, alpha, costs):
    """The published AdaCC1 update: ``D^t(i) exp(C_i alpha_t)`` for misclassified samples, others unchanged.

    Spec section 2 (``formulation="reference"``); with ``alpha_t = ln((1 - e) / e)`` and unit costs it is the
    SAMME update, which normalises to the same distribution as AdaCC Eq. 1.
    """
    return weights * np.exp(costs * alpha * misclassified(y, output))


def misclassified_cost_outside_exponent_update(weights, y, output, alpha, costs):
    """The published AdaCC2 update: ``D^t(i) C_i exp(alpha_t)`` for misclassified samples, others unchanged.

    Spec section 2 (``formulation="reference"``).
    """
    wrong = misclassified(y, output)
    return weights * np.where(wrong, costs * np.exp(alpha), 1.0)


def normalise(weights):
    """Divide by the sum so the weights form a distribution (the ``Z_t`` of AdaCC Eq. 3, 8 and 15).

    Returns ``None`` when the sum is not a finite positive number (the loop then stops).
    """
    total = float(weights.sum())
    if not np.isfinite(total) or total <= 0:
        return None
    return weights / total


# ---------------------------------------------------------------------------------------------------- votes
def symmetric_vote(alpha):
    """Vote weights ``(alpha_t, alpha_t)`` of ``H(x) = sign(sum_t alpha_t h_t(x))`` (AdaCC Eq. 4).

    Every vote rule returns the pair (weight when ``h_t(x) >= 0``, weight when ``h_t(x) < 0``), so RareBoost
    (``alpha+``, ``alpha-``) and AdaMEC (``c(+) alpha_t``, ``c(-) alpha_t``) are vote rules too.
    """
    return float(alpha), float(alpha)


def weighted_votes(output, vote_weights):
    """One round's contribution ``v_t(h_t(x)) h_t(x)`` to the ensemble margin.

    ``vote_weights`` is the round's pair (weight when ``h_t(x) >= 0``, weight when ``h_t(x) < 0``).
    """
    positive_weight, negative_weight = vote_weights
    return np.where(output >= 0, positive_weight, negative_weight) * output
