"""CSB1 and CSB2, cost-sensitive boosting of Ting (2000) as summarised in the AdaCC paper, Table 3."""

from __future__ import annotations

import numpy as np

from algorithms.boosting._base import FIXED_COST_PARAMETERS_DOC, BoostingRules, FixedCostBoostingClassifier
from algorithms.boosting._rules import (
    cost_factor_outside_exponent_update,
    cost_proportional_initial_weights,
    fixed_round_costs,
)

__all__ = ["CSB1", "CSB1_RULES", "CSB2", "CSB2_RULES", "csb1_update"]


def csb1_update(weights, y, output, cost_factors):
    """CSB1's update ``D^t(i) C_i exp(-y_i h_t(x_i))`` before normalisation (AdaCC Table 3, Ting 2000).

    Unlike every other variant the exponent carries no ``alpha_t``; ``alpha_t`` (AdaBoost's, Eq. 2) only
    weighs the learner's vote. ``cost_factors`` is ``C_i`` with class costs and ``C_i^(1/T)`` with a
    ``cost_matrix`` (:func:`~algorithms.boosting._rules.per_round_cost_factors`).
    """
    return weights * cost_factors * np.exp(-y * output)


#: CSB1: ``D^1 ~ C``, AdaBoost's alpha, update ``D C exp(-y h)`` (no alpha in the exponent).
CSB1_RULES = BoostingRules(
    initial_weights=cost_proportional_initial_weights, round_costs=fixed_round_costs, update=csb1_update
)
#: CSB2: ``D^1 ~ C``, AdaBoost's alpha, update ``D C exp(-alpha y h)``.
CSB2_RULES = BoostingRules(
    initial_weights=cost_proportional_initial_weights,
    round_costs=fixed_round_costs,
    update=cost_factor_outside_exponent_update,
)

_COMPOUNDING = """
    With a ``cost_matrix`` the update's factor ``C_i`` is ``C_i^(1/T)`` (``T`` = ``n_estimators``), so ``T``
    rounds compound to ``C_i`` once instead of ``C_i^T``: a deliberate deviation from Table 3 (class costs
    follow it exactly), because with the class costs derived from a cost matrix the compounded factor
    starved one class within a few rounds and the model predicted every row positive (issue 8).
"""


class CSB1(FixedCostBoostingClassifier):
    __doc__ = (
        """CSB1: costs outside the exponent, no ``alpha`` inside it (Ting 2000; AdaCC paper, Table 3).

    ``D^1(i) = C_i / sum_j C_j``; ``alpha_t = 1/2 ln(sum_{correct} D^t / sum_{wrong} D^t)`` (AdaBoost's Eq. 2,
    weighting the vote only); ``D^{t+1}(i) = D^t(i) C_i exp(-y_i h_t(x_i)) / Z_t``;
    ``H(x) = sign(sum_t alpha_t h_t(x))``. Because the update ignores ``alpha_t``, CSB1 does not reduce to
    AdaBoost when ``C+ = C-``; scaling both costs changes nothing (every use of ``C_i`` is normalised away).
"""
        + _COMPOUNDING
        + FIXED_COST_PARAMETERS_DOC
    )

    def _boosting_rules(self) -> BoostingRules:
        return CSB1_RULES


class CSB2(FixedCostBoostingClassifier):
    __doc__ = (
        """CSB2: costs outside the exponent of AdaBoost's update (Ting 2000; AdaCC paper, Table 3).

    ``D^1(i) = C_i / sum_j C_j``; ``alpha_t = 1/2 ln(sum_{correct} D^t / sum_{wrong} D^t)`` (Eq. 2);
    ``D^{t+1}(i) = D^t(i) C_i exp(-alpha_t y_i h_t(x_i)) / Z_t``; ``H(x) = sign(sum_t alpha_t h_t(x))``.
    With ``C+ = C-`` it is AdaBoost exactly; scaling both costs changes nothing.
"""
        + _COMPOUNDING
        + FIXED_COST_PARAMETERS_DOC
    )

    def _boosting_rules(self) -> BoostingRules:
        return CSB2_RULES
