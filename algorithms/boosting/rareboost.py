"""RareBoost (Joshi, Kumar and Agarwal 2001) as summarised in the AdaCC paper, Table 3 (docs/algorithms.md
§3)."""

from __future__ import annotations

import numpy as np

from algorithms.boosting import _kernels
from algorithms.boosting._base import BOOSTING_PARAMETERS_DOC, BaseBoostingClassifier, BoostingRules
from algorithms.boosting._rules import ERROR_FLOOR

__all__ = [
    "RAREBOOST_RULES",
    "RareBoost",
    "rareboost_alpha",
    "rareboost_update",
]


def _side_weight(right, wrong):
    """``1/2 ln(right / wrong)``, 0 unless ``right > wrong``; ``wrong`` floored at ``ERROR_FLOOR``."""
    if right <= wrong:
        return 0.0
    return 0.5 * float(np.log(right / max(wrong, ERROR_FLOOR)))


def rareboost_alpha(weights, y, output):
    """RareBoost's two learner weights, computed once per round (AdaCC Table 3, Joshi et al. 2001).

    ``alpha+_t = 1/2 ln(TP_t / FP_t)`` for samples ``h_t`` predicts positive and ``alpha-_t = 1/2 ln(TN_t /
    FN_t)`` for those it predicts negative, from counts weighted by ``D^t``. RareBoost requires ``TP > FP``
    and ``TN > FN``; when either fails (including an empty side, e.g. ``TP = FP = 0`` when ``h_t`` predicts
    no positive) the matching weight is 0: that side neither votes nor reweighs, and boosting goes on with the
    other side (the AdaCC authors' code keeps boosting there too). ``FP`` and ``FN`` are floored at
    :data:`~algorithms.boosting._rules.ERROR_FLOOR`, so an error-free side gets a large finite weight.

    Returns
    -------
    dict
        ``alpha = max(alpha+_t, alpha-_t)``, positive when at least one side of ``h_t`` is reliable (a learner
        with ``TP <= FP`` *and* ``TN <= FN`` is discarded), and ``side_alphas = (alpha+_t, alpha-_t)`` for the
        update and the vote of the round.
    """
    true_positive, false_positive, true_negative, false_negative = _kernels.confusion_mass(y, output, weights)
    side_alphas = _side_weight(true_positive, false_positive), _side_weight(true_negative, false_negative)
    return {"alpha": max(side_alphas), "side_alphas": side_alphas}


def rareboost_update(weights, y, output, side_alphas):
    """RareBoost's update ``D^t(i) exp(-alpha^{+,-}_t y_i h_t(x_i))`` before normalisation (AdaCC Table 3).

    ``alpha+_t`` reweighs the samples ``h_t`` predicts positive, ``alpha-_t`` those it predicts negative.
    """
    alpha_positive, alpha_negative = side_alphas
    return weights * np.exp(-np.where(output >= 0, alpha_positive, alpha_negative) * y * output)


def rareboost_vote(side_alphas):
    """RareBoost's vote ``(alpha+_t, alpha-_t)`` (AdaCC Table 3).

    ``H(x) = sign(sum_{t: h_t >= 0} a+_t h_t(x) + sum_{t: h_t < 0} a-_t h_t(x))``.
    """
    return side_alphas


#: RareBoost: separate weights for positive and negative predictions in the update and in the vote; the
#: loop's default stop after a learner without weighted errors.
RAREBOOST_RULES = BoostingRules(alpha=rareboost_alpha, update=rareboost_update, vote=rareboost_vote)


class RareBoost(BaseBoostingClassifier):
    __doc__ = (
        """RareBoost: one learner weight per predicted side (AdaCC paper, Table 3).

    ``D^1(i) = 1/n``. Each round, from the counts ``TP_t, FP_t, TN_t, FN_t`` of ``h_t`` weighted by ``D^t``:
    ``alpha+_t = 1/2 ln(TP_t / FP_t)`` and ``alpha-_t = 1/2 ln(TN_t / FN_t)``. A sample ``h_t`` predicts
    positive is reweighted with ``alpha+_t``, one it predicts negative with ``alpha-_t``:
    ``D^{t+1}(i) = D^t(i) exp(-alpha^{+,-}_t y_i h_t(x_i)) / Z_t``. The decision is
    ``H(x) = sign(sum_{t: h_t(x) >= 0} alpha+_t h_t(x) + sum_{t: h_t(x) < 0} alpha-_t h_t(x))``.

    RareBoost requires ``TP_t > FP_t`` and ``TN_t > FN_t``. A round that violates one of them keeps its
    learner with the violated side's weight set to 0 (it votes, and reweighs, only where it is reliable) and
    boosting goes on. On imbalanced data the first stump often predicts the majority class on both sides
    (``TP = FP = 0``): stopping there, as an earlier version did, left a one-learner model that predicts
    every sample negative (6 of 12 seeds of a 5 % minority ``make_classification`` set); going on, the
    ``alpha-`` update raises the missed positives' weight until a stump predicts some positives. The AdaCC
    authors' code also boosts on there (it gives the empty side the weight ``1/2 ln(n)``, which no training
    sample uses; 0 is the reading here, so the vote of an empty side never decides). A learner that violates
    both conditions is no better than chance: it is discarded and boosting stops (``"non-positive alpha"``);
    if it is the first, ``fit`` raises. A side without errors gets the large finite weight of an error
    floored at ``1e-10``. RareBoost uses no costs: ``cost_matrix`` is validated and ignored.
"""
        + BOOSTING_PARAMETERS_DOC
        + """
    Attributes
    ----------
    vote_weights_ : ndarray of shape (n_rounds, 2)
        ``(alpha+_t, alpha-_t)`` of every kept learner.
    estimator_weights_ : ndarray of shape (n_rounds,)
        ``max(alpha+_t, alpha-_t)`` (also ``trace_["alpha"]``).
    estimators_, estimator_errors_, classes_, pos_label_, n_features_in_, trace_, stop_reason_
        See :class:`~algorithms.boosting._base.BaseBoostingClassifier`. :meth:`decision_function` divides the
        vote by ``sum_t max(alpha+_t, alpha-_t)``.
"""
    )

    def _boosting_rules(self) -> BoostingRules:
        return RAREBOOST_RULES
