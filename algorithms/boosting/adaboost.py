"""Discrete AdaBoost (Freund and Schapire 1997; AdaCC paper Eq. 1-4, Algorithm 1) on the shared loop."""

from __future__ import annotations

from algorithms.boosting._base import BOOSTING_PARAMETERS_DOC, BaseBoostingClassifier, BoostingRules

__all__ = ["AdaBoost"]


class AdaBoost(BaseBoostingClassifier):
    __doc__ = (
        """Discrete AdaBoost for two classes (AdaCC paper, Algorithm 1).

    ``D^1(i) = 1/n`` (times ``sample_weight``); each round fits the weak learner on ``D^t``, sets
    ``alpha_t = 1/2 ln((1 - e_t) / e_t)`` from its weighted error (Eq. 2), updates
    ``D^{t+1}(i) = D^t(i) exp(-alpha_t y_i h_t(x_i)) / Z_t`` (Eq. 1, 3) and predicts
    ``H(x) = sign(sum_t alpha_t h_t(x))`` (Eq. 4). It stops early after a learner with zero weighted error
    (kept with a large finite alpha) or before one with error >= 1/2 (discarded).

    The learner weights are half of scikit-learn's SAMME weights ``ln((1 - e) / e)``; the normalised
    distributions and the normalised score :meth:`decision_function` are the same. AdaBoost is cost-blind:
    a ``cost_matrix`` is validated, ignored, and announced by a
    :class:`~algorithms.exceptions.CostMatrixIgnoredWarning`.
"""
        + BOOSTING_PARAMETERS_DOC
        + """
    Attributes
    ----------
    estimators_, estimator_weights_, estimator_errors_, vote_weights_, classes_, pos_label_, n_features_in_, \
trace_, final_distribution_, stop_reason_
        See :class:`~algorithms.boosting._base.BaseBoostingClassifier`.
"""
    )

    def _boosting_rules(self) -> BoostingRules:
        return BoostingRules()
