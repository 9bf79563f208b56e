"""RareBoost (Joshi, Kumar and Agarwal 2001) as summarised in the AdaCC paper, Table 3 (spec section 3)."""

from __future__ import annotations

from algorithms.boosting._base import BaseBoostingClassifier, BoostingRules
from algorithms.boosting._fixed_cost_rules import (
    rareboost_alpha_rule,
    rareboost_stop_rule,
    rareboost_update_rule,
    rareboost_vote_rule,
)

__all__ = ["RAREBOOST_RULES", "RareBoost"]

#: RareBoost: separate weights for positive and negative predictions in the update and in the vote.
RAREBOOST_RULES = BoostingRules(
    alpha=rareboost_alpha_rule,
    update=rareboost_update_rule,
    vote=rareboost_vote_rule,
    stop_after=rareboost_stop_rule,
)


class RareBoost(BaseBoostingClassifier):
    """RareBoost: one learner weight per predicted side (AdaCC paper, Table 3).

    ``D^1(i) = 1/n``. Each round, from the counts ``TP_t, FP_t, TN_t, FN_t`` of ``h_t`` weighted by ``D^t``:
    ``alpha+_t = 1/2 ln(TP_t / FP_t)`` and ``alpha-_t = 1/2 ln(TN_t / FN_t)``. A sample ``h_t`` predicts
    positive is reweighted with ``alpha+_t``, one it predicts negative with ``alpha-_t``:
    ``D^{t+1}(i) = D^t(i) exp(-alpha^{+,-}_t y_i h_t(x_i)) / Z_t``. The decision is
    ``H(x) = sign(sum_{t: h_t(x) >= 0} alpha+_t h_t(x) + sum_{t: h_t(x) < 0} alpha-_t h_t(x))``.

    RareBoost requires ``TP_t > FP_t`` and ``TN_t > FN_t``; it stops, and does not crash, when a round
    violates either (spec section 3). Such a round's learner is kept with the violated side's weight set to 0
    (it votes, and reweighs, only where it is reliable) and boosting stops after it (``stop_reason_`` then
    says ``"RareBoost condition violated (TP <= FP or TN <= FN)"``). Keeping it is what lets RareBoost fit at
    all on imbalanced data whose first stump predicts the majority class on both sides (``TP = FP = 0``). A
    learner that violates both conditions is no better than chance: it is discarded (``"non-positive
    alpha"``), and if it is the first, ``fit`` raises. A side without errors gets the large finite weight of
    an error floored at ``1e-10``. RareBoost uses no costs: ``cost_matrix`` is validated and ignored.

    Parameters
    ----------
    estimator : object, default=None
        Weak learner (any classifier accepting ``sample_weight``); ``None`` is the fast decision stump.
    n_estimators : int, default=50
        Maximum number of rounds ``T``.
    random_state : int, RandomState instance or None, default=None
        Seed of the one random generator of ``fit``.
    pos_label : label or None, default=None
        Positive class; ``None`` takes the minority class.

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

    def _boosting_rules(self) -> BoostingRules:
        return RAREBOOST_RULES
