"""AdaMEC, AdaBoost with a minimum-expected-cost vote (Nikolaou and Brown 2015; AdaCC paper, Table 3)."""

from __future__ import annotations

from algorithms.boosting._base import FIXED_COST_PARAMETERS_DOC, BoostingRules, FixedCostBoostingClassifier
from algorithms.boosting._rules import class_means, fixed_round_costs

__all__ = ["ADAMEC_RULES", "AdaMEC", "cost_weighted_vote"]


def cost_weighted_vote(alpha, y, fixed_costs):
    """AdaMEC's vote weights ``(c(+) alpha_t, c(-) alpha_t)`` (AdaCC Table 3, Nikolaou and Brown 2015).

    With them the ensemble decides ``sign(sum_{y in {+1,-1}} c(y) sum_{t: h_t(x) = y} alpha_t h_t(x))``:
    positive exactly when ``sum_{t: h_t = +1} alpha_t / sum_t alpha_t > c(-) / (c(+) + c(-))``. ``c(+)`` and
    ``c(-)`` are the class means of the per-sample costs (the class costs themselves unless a ``cost_matrix``
    gave costs per sample, since a new sample's own costs are unknown when it is classified).
    """
    positive_cost, negative_cost = class_means(fixed_costs, y)
    return float(positive_cost * alpha), float(negative_cost * alpha)


#: AdaMEC = AdaBoost's training with the cost-weighted vote ``(c(+) alpha_t, c(-) alpha_t)``.
ADAMEC_RULES = BoostingRules(round_costs=fixed_round_costs, vote=cost_weighted_vote)


class AdaMEC(FixedCostBoostingClassifier):
    __doc__ = (
        """AdaMEC: AdaBoost trained as usual, costs only shift the decision (AdaCC paper, Table 3).

    Training is discrete AdaBoost from ``D^1(i) = 1/n`` (Eq. 1-3). The decision is
    ``H(x) = sign(sum_{y in {+1,-1}} c(y) sum_{t: h_t(x) = y} alpha_t h_t(x))``, i.e. the learners voting
    positive weigh ``C+ alpha_t`` and those voting negative ``C- alpha_t``: positive exactly when the
    positive share of the vote ``sum_{t: h_t = +1} alpha_t / sum_t alpha_t`` exceeds ``C- / (C+ + C-)``.

    Scores: :meth:`decision_function` is that cost-weighted vote divided by ``max(C+, C-) sum_t alpha_t`` (in
    [-1, 1]); :meth:`predict_proba` is the logistic link of the unnormalised cost-weighted vote. With
    ``C+ = C-`` the model is AdaBoost exactly, and scaling both costs leaves the predictions unchanged.
    The calibrated variant is :class:`~algorithms.boosting.calibrated.AdaMECCalibrated`.
"""
        + FIXED_COST_PARAMETERS_DOC
        + """    With a ``cost_matrix`` the vote uses ``c(+)`` and ``c(-)`` = the class means of the
    normalised
    per-sample costs, since a new sample's own costs are unknown when it is classified.
"""
    )

    def _boosting_rules(self) -> BoostingRules:
        return ADAMEC_RULES
