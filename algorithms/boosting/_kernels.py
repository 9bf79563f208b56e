"""The per-round reductions of the boosting loop, each one compiled pass over the samples.

A numpy ``np.dot`` of two vectors goes through the multithreaded BLAS, which stalls when another process keeps
the other core busy (issue 13: AdaCC1 took 14.1 s instead of 2.5 s). These loops never call BLAS, allocate
nothing, and fuse what a round needs: the weighted error, the confusion mass of the round's learner or of the
partial ensemble (updating the ensemble's margin in the same pass), the cost-weighted sums of the alpha rules
and the class sums that normalise the next distribution. Notation as in :mod:`algorithms.boosting._rules`;
``tests/algorithms/boosting/test_kernels.py`` checks each against its numpy formula.
"""

from __future__ import annotations

from numba import njit

__all__ = ["class_sums", "confusion_mass", "cost_weighted_sums", "ensemble_confusion", "weighted_error"]


@njit(cache=True, nogil=True)
def weighted_error(weights, y, output):
    """The weighted error ``sum_i D(i) (1 - y_i h(x_i)) / 2`` of one weak learner.

    For a discrete learner (``h`` in {-1, +1}) this is the misclassified mass, the denominator of AdaCC Eq. 2;
    for a real-valued output ``2 p - 1`` it is the pseudo-loss of binary AdaBoost.M2 (WOTBoost Algorithm 1,
    line 5).
    """
    total = 0.0
    for i in range(weights.size):
        total += weights[i] * (1.0 - y[i] * output[i])
    return 0.5 * total


@njit(cache=True, nogil=True)
def confusion_mass(y, score, mass):
    """``(TP, FP, TN, FN)``: the ``mass`` of the samples in each cell of the confusion of ``score > 0``.

    ``mass`` is ``D^t`` for weighted counts (RareBoost, balanced error) or ``sample_weight`` for counts.
    """
    return ensemble_confusion(score, score, 0.0, 0.0, y, mass, False, 0.0)


@njit(cache=True, nogil=True)
def ensemble_confusion(cumulative_votes, output, positive_vote, negative_vote, y, mass, store, tie):
    """:func:`confusion_mass` of the margin ``F_{t-1}(x_i) + v_t(h_t(x_i)) h_t(x_i)`` after this round's vote.

    ``v_t`` is ``positive_vote`` where ``h_t(x_i) >= 0`` and ``negative_vote`` elsewhere (AdaCC Eq. 4 and 5).
    A margin counts as a positive prediction only above ``tie`` (>= 0): votes that cancel up to rounding are
    a tie, which counts as negative. With ``store=True`` the new margin is written into
    ``cumulative_votes`` in the same pass.
    """
    true_positive = false_positive = true_negative = false_negative = 0.0
    for i in range(y.size):
        margin = cumulative_votes[i] + (positive_vote if output[i] >= 0 else negative_vote) * output[i]
        if store:
            cumulative_votes[i] = margin
        # branch-free: every cell adds the sample's mass or an exact 0.0
        hit, miss = (mass[i], 0.0) if margin > tie else (0.0, mass[i])
        if y[i] > 0:
            true_positive += hit
            false_negative += miss
        else:
            false_positive += hit
            true_negative += miss
    return true_positive, false_positive, true_negative, false_negative


@njit(cache=True, nogil=True)
def cost_weighted_sums(weights, y, output, costs):
    """The masses of the cost-sensitive alphas (AdaCC Eq. 12 and 18, AdaC3 of Table 3), in one pass.

    Returns ``(sum_i C_i D(i), sum_i C_i D(i) y_i h(x_i), sum_i C_i^2 D(i) y_i h(x_i),
    sum_{i: y_i h(x_i) < 0} C_i D(i))``.
    """
    cost_mass = margin = squared_cost_margin = wrong_mass = 0.0
    for i in range(weights.size):
        mass = costs[i] * weights[i]
        signed = y[i] * output[i]
        cost_mass += mass
        margin += mass * signed
        squared_cost_margin += costs[i] * mass * signed
        wrong_mass += mass if signed < 0 else 0.0
    return cost_mass, margin, squared_cost_margin, wrong_mass


@njit(cache=True, nogil=True)
def class_sums(values, y):
    """``(sum_{i: y_i > 0} v_i, sum_{i: y_i <= 0} v_i)``: the positives' and the negatives' total."""
    positive = negative = 0.0
    for i in range(values.size):
        in_positive, in_negative = (values[i], 0.0) if y[i] > 0 else (0.0, values[i])
        positive += in_positive
        negative += in_negative
    return positive, negative
