"""CGAda, cost-generalised AdaBoost (Landesa-Vazquez and Alba-Castro 2012; AdaCC paper, Table 3)."""

from __future__ import annotations

from algorithms.boosting._base import FIXED_COST_PARAMETERS_DOC, BoostingRules, FixedCostBoostingClassifier
from algorithms.boosting._rules import cost_proportional_initial_weights, fixed_round_costs

__all__ = ["CGADA_RULES", "CGAda"]

#: CGAda = AdaBoost started from ``D^1(i) = C_i / sum_j C_j``.
CGADA_RULES = BoostingRules(initial_weights=cost_proportional_initial_weights, round_costs=fixed_round_costs)


class CGAda(FixedCostBoostingClassifier):
    __doc__ = (
        """Cost-generalised AdaBoost: costs only set the initial distribution (AdaCC paper, Table 3).

    ``D^1(i) = C_i / sum_j C_j`` (times ``sample_weight``), then discrete AdaBoost unchanged:
    ``alpha_t = 1/2 ln(sum_{correct} D^t / sum_{wrong} D^t)`` (Eq. 2),
    ``D^{t+1}(i) = D^t(i) exp(-alpha_t y_i h_t(x_i)) / Z_t`` (Eq. 1) and ``H(x) = sign(sum_t alpha_t h_t(x))``
    (Eq. 4). With ``C+ = C-`` it is AdaBoost exactly, and scaling both costs changes nothing (``D^1`` is
    normalised).
"""
        + FIXED_COST_PARAMETERS_DOC
    )

    def _boosting_rules(self) -> BoostingRules:
        return CGADA_RULES
