"""Pure rule functions that several boosting methods share: costs, alphas, weight updates, votes.

Every function works on whole arrays (no per-sample Python loops; the reductions are the compiled passes of
:mod:`algorithms.boosting._kernels`, never BLAS) and cites the equation it implements. Notation follows the
AdaCC paper (Iosifidis et al. 2023): ``y`` holds the
signed labels (+1 for the positive class, -1 for the negative one), ``output`` the weak learner's
``h_t(x_i)`` in [-1, 1] (exactly +-1 for a discrete learner), ``weights`` the distribution ``D^t`` (sums to
1) and ``costs`` the round's per-sample costs ``C^t_i``. A parameter's name is the round quantity the loop
passes to it (the table in :mod:`algorithms.boosting._base`), so these functions are bound as rules directly.

A method's own rules live in its module (``adacc.py``, ``adac.py``, ``rareboost.py``, ...).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from algorithms.boosting import _kernels
from algorithms.cost.minimum_risk import outcome_regrets

#: Smallest weighted error (or misclassified mass) used in an alpha formula. A weak learner without weighted
#: errors gets the finite alpha of this error (docs/algorithms.md §1) instead of an infinite one.
ERROR_FLOOR = 1e-10

#: Relative size below which an ensemble margin is a tie: ``|F(x)| <= TIE_TOLERANCE * sum_t |v_t|`` counts
#: as a zero vote. Votes that cancel in exact arithmetic (a constant learner followed by its mirror image,
#: e.g. AdaCC's published update after a first stump that predicts one class) leave a rounding residue of
#: either sign; without this rule that residue decided the rates of Eq. 5 and flipped the costs every round.
TIE_TOLERANCE = 1e-9


class RoundCosts(NamedTuple):
    """The costs a round uses: per sample, plus one value per class for the trace.

    ``positive`` and ``negative`` are what a misclassified positive / negative costs this round (for
    example-dependent costs, the class mean).
    """

    per_sample: np.ndarray
    positive: float
    negative: float


# ------------------------------------------------------------------------------------------ per-fit costs
def costs_by_class(y, positive_cost, negative_cost):
    """Per-sample costs from class costs: ``C_i = C+`` for positives, ``C-`` for negatives (AdaCC Table 3)."""
    return np.where(y > 0, float(positive_cost), float(negative_cost))


def regrets_from_matrix(y, cost_matrix):
    """Per-sample regret of an error: ``r_i = C_FN,i - C_TP,i`` (positives), ``C_FP,i - C_TN,i`` (negatives).

    Columns ``[C_FP, C_FN, C_TP, C_TN]``. The regret is what misclassifying the sample costs *more* than
    classifying it right (Elkan 2001: only these differences change a decision), clipped at 0 so a row whose
    error is no dearer than its correct decision simply has no regret. The two regrets of a row are
    :func:`algorithms.cost.minimum_risk.outcome_regrets`, which the minimum-risk decision reads.
    """
    regret_positive, regret_negative = outcome_regrets(cost_matrix)
    return np.maximum(np.where(y > 0, regret_positive, regret_negative), 0.0)


def class_mean_regrets(y, cost_matrix):
    """``(R+, R-)``, the mean regret (:func:`regrets_from_matrix`) of the positives and of the negatives.

    Raises ``ValueError`` when every row has zero regret (no decision costs anything).
    """
    means = class_means(regrets_from_matrix(y, cost_matrix), y)
    if max(means) <= 0:
        raise ValueError(
            "cost_matrix gives every sample a zero regret (C_FN - C_TP for positives, C_FP - C_TN for "
            "negatives): no error costs more than the correct decision, so there is nothing to learn"
        )
    return means


def example_costs_from_matrix(y, cost_matrix, positive_cost=1.0, negative_cost=1.0):
    """The class costs ``C_i = c(y_i)`` the fixed-cost rules use with an example-dependent cost matrix.

    ``c(+-) = C+- R+- / max(C+ R+, C- R-)`` where ``R+-`` is the class's mean regret
    (:func:`class_mean_regrets`) and ``C+-`` the estimator's class costs, which with a cost matrix *scale*
    their class's regret (the defaults ``C+ = C- = 1`` use the regrets as they are;
    ``tasks.fitting.cost_selection`` selects ``C-`` on the training rows by savings, as the AdaCC paper
    selects it by F1 without a matrix). When the matrix is constant per class and ``C+- = 1`` this is ``C+ /
    C-`` of the class-cost case scaled to max 1 (with ``C_TP = C_TN = 0``: ``C+ = C_FN``, ``C- = C_FP``). The
    spread *within* a class goes to the initial distribution instead (:func:`example_row_weights`), so no rule
    multiplies by a heavy-tailed per-row cost round after round (issue 8: with ``C_FN / max C_FN`` almost
    every cost was near 0 and the compounding rules collapsed to one class).
    """
    regret_positive, regret_negative = class_mean_regrets(y, cost_matrix)
    positive, negative = positive_cost * regret_positive, negative_cost * regret_negative
    largest = max(positive, negative)
    return costs_by_class(y, positive / largest, negative / largest)


def example_row_weights(y, cost_matrix):
    """Row weights ``w_i = r_i / R_{y_i}``: each row's regret over its class's mean regret (mean 1 per class).

    They multiply the initial distribution ``D^1`` (the base class's ``_row_weights`` hook), like a
    ``sample_weight``: a row that costs twice its class's average to get wrong starts with twice the weight, a
    row without regret with none. A class whose rows all have zero regret gets weight 0.
    """
    regrets = regrets_from_matrix(y, cost_matrix)
    regret_positive, regret_negative = class_mean_regrets(y, cost_matrix)
    mean = np.where(y > 0, regret_positive, regret_negative)
    return np.divide(regrets, mean, out=np.zeros_like(regrets), where=mean > 0)


def per_round_cost_factors(fixed_costs, rounds):
    """``C_i^(1/T)``: the multiplicative cost factor of one round when ``C_i`` would compound over ``T``.

    AdaC2, AdaC3, CSB1 and CSB2 multiply ``D^t(i)`` by ``C_i`` every round (AdaCC Table 3), so after ``t``
    rounds a class of cost ``c`` has lost a factor ``c^t`` against a class of cost 1; with the example-cost
    class costs of :func:`example_costs_from_matrix` (e.g. ``c(-) = 0.2``) the negatives vanish within a few
    rounds and the ensemble predicts every row positive (issue 8). With a ``cost_matrix`` these methods
    multiply by ``C_i^(1/T)`` instead, so ``T`` rounds compound to ``C_i`` once: a documented deviation;
    with class costs they follow Table 3.
    """
    return np.power(fixed_costs, 1.0 / rounds)


def derive_fixed_costs(y, positive_cost, negative_cost, cost_matrix=None):
    """The per-sample costs ``C_i`` of the fixed-cost methods and their calibrated variants.

    The one place they are derived: :func:`example_costs_from_matrix` (the class mean regrets scaled by
    ``C+-``) with a ``cost_matrix``, else :func:`costs_by_class` from ``C+`` and ``C-``.
    """
    if cost_matrix is not None:
        return example_costs_from_matrix(y, cost_matrix, positive_cost, negative_cost)
    return costs_by_class(y, positive_cost, negative_cost)


def uniform_initial_weights(y):
    """``D^1(i) = 1/n`` before normalisation (AdaCC Algorithm 1, line 1)."""
    return np.ones_like(y, dtype=float)


def cost_proportional_initial_weights(fixed_costs):
    """``D^1(i) = C_i / sum_j C_j`` before normalisation (AdaCC Table 3: CGAda, CSB1/2, AdaCost, AdaC1-3)."""
    return np.asarray(fixed_costs, dtype=float)


def discrete_output(learner, X):
    """``h_t(x) = +1`` where the learner (trained on 0/1 labels, 1 = positive) predicts 1, else -1."""
    return np.where(learner.predict(X) == 1, 1.0, -1.0)


# ----------------------------------------------------------------------------------------- round statistics
def tie_margin(vote_scale):
    """The largest margin still counted as a tie when the ensemble's vote magnitudes sum to ``vote_scale``."""
    return TIE_TOLERANCE * float(vote_scale)


def misclassified(y, output):
    """Boolean mask of the samples the weak learner gets wrong, ``I_i = 1[h_t(x_i) != y_i]`` (AdaCC Eq. 6)."""
    return y * output < 0


def error_rates(true_positive, false_positive, true_negative, false_negative):
    """``(FNR, FPR) = (FN / (TP + FN), FP / (FP + TN))`` (AdaCC Eq. 5); a class with no mass has rate 0."""
    positive, negative = true_positive + false_negative, false_positive + true_negative
    return (
        float(false_negative / positive) if positive > 0 else 0.0,
        float(false_positive / negative) if negative > 0 else 0.0,
    )


def class_means(values, y):
    """Mean of ``values`` over the positives and over the negatives (0 for a class without samples)."""
    positive = y > 0

    def mean(selected):
        return float(selected.mean()) if selected.size else 0.0

    return mean(values[positive]), mean(values[~positive])


# ---------------------------------------------------------------------------------------------- round costs
def unit_costs(y):
    """Cost 1 for every sample (AdaBoost)."""
    return RoundCosts(np.ones_like(y), 1.0, 1.0)


def fixed_round_costs(fixed_costs, fixed_class_costs):
    """The fit's fixed per-sample costs ``C_i`` every round (AdaCC Table 3: CSB, AdaCost, AdaC1-3).

    The trace's class values are ``fixed_class_costs``, the class means of ``C_i`` (computed once per fit).
    """
    return RoundCosts(fixed_costs, *fixed_class_costs)


# --------------------------------------------------------------------------------------------------- alphas
def adaboost_alpha(weighted_error):
    """Discrete AdaBoost's learner weight ``alpha_t = 1/2 ln((1 - e) / e)`` (AdaCC Eq. 2).

    ``e`` is floored at :data:`ERROR_FLOOR`, so a perfect learner gets a large finite weight. A result
    <= 0 (``e >= 1/2``) tells the loop to discard the learner and stop.
    """
    error = max(weighted_error, ERROR_FLOOR)
    return 0.5 * float(np.log((1.0 - error) / error))


def cost_in_exponent_alpha(weights, y, output, costs):
    """AdaCC1's (and AdaC1's, and AdaCost's with ``beta_i`` as the cost) learner weight, AdaCC Eq. 12.

    ``alpha_t = 1/2 ln((1 + r) / (1 - r))`` with
    ``r = sum_{i: y_i = h_t(x_i)} C_i D^t(i) - sum_{i: y_i != h_t(x_i)} C_i D^t(i)``, i.e.
    ``r = sum_i C_i D^t(i) y_i h_t(x_i)``.

    Returns 0 when Eq. 13 (``r > 0``) is violated, which stops the loop; ``1 - r`` is floored at
    ``2 * ERROR_FLOOR`` so a learner without errors gets a finite weight.
    """
    _, margin, _, _ = _kernels.cost_weighted_sums(weights, y, output, costs)
    if margin <= 0.0:
        return 0.0
    return 0.5 * float(np.log((1.0 + margin) / max(1.0 - margin, 2.0 * ERROR_FLOOR)))


def cost_outside_exponent_alpha(weights, y, output, costs):
    """AdaCC2's (and AdaC2's) learner weight, AdaCC Eq. 18.

    ``alpha_t = 1/2 ln(sum_{i: y_i = h_t(x_i)} C_i D^t(i) / sum_{i: y_i != h_t(x_i)} C_i D^t(i))``.

    Returns 0 when Eq. 13 is violated (the correct mass does not exceed the misclassified mass), which stops
    the loop; the misclassified mass is floored at :data:`ERROR_FLOOR`.
    """
    cost_mass, _, _, wrong_mass = _kernels.cost_weighted_sums(weights, y, output, costs)
    correct_mass = cost_mass - wrong_mass
    if correct_mass <= wrong_mass:
        return 0.0
    return 0.5 * float(np.log(correct_mass / max(wrong_mass, ERROR_FLOOR)))


# ------------------------------------------------------------------------------------------- weight updates
def exponential_update(weights, y, output, alpha):
    """AdaBoost's update ``D^t(i) exp(-alpha_t y_i h_t(x_i))``, unnormalised (AdaCC Eq. 1)."""
    return weights * np.exp(-alpha * y * output)


def cost_in_exponent_update(weights, y, output, alpha, costs):
    """AdaCC1's (and AdaC1's) update ``D^t(i) exp(-C_i alpha_t y_i h_t(x_i))``, unnormalised (Eq. 7)."""
    return weights * np.exp(-costs * alpha * y * output)


def cost_outside_exponent_update(weights, y, output, alpha, costs):
    """AdaCC2's (and AdaC2's) update ``D^t(i) C_i exp(-alpha_t y_i h_t(x_i))``, unnormalised (Eq. 14)."""
    return weights * costs * np.exp(-alpha * y * output)


def cost_factor_outside_exponent_update(weights, y, output, alpha, cost_factors):
    """AdaC2's and CSB2's update ``D^t(i) C_i exp(-alpha_t y_i h_t(x_i))`` (AdaCC Table 3), unnormalised.

    ``cost_factors`` is ``C_i`` with class costs and ``C_i^(1/T)`` with a ``cost_matrix``
    (:func:`per_round_cost_factors`).
    """
    return weights * cost_factors * np.exp(-alpha * y * output)


def normalise(weights, y):
    """Divide by the sum ``Z_t`` so the weights form a distribution (AdaCC Eq. 3, 8 and 15).

    Returns
    -------
    distribution : ndarray of shape (n_samples,) or None
        ``None`` when the sum is not a finite positive number (the loop then stops).
    positive_share : float
        The positives' share of the distribution (NaN with ``None``).
    """
    total = float(weights.sum())
    if not np.isfinite(total) or total <= 0:
        return None, np.nan
    distribution = weights / total
    return distribution, _kernels.class_sums(distribution, y)[0]


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


def stop_after_perfect_learner(weighted_error):
    """Stop once a learner has zero weighted error (docs/algorithms.md §1): the loop has nothing left to
    boost."""
    return weighted_error <= 0.0
