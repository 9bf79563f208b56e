"""AdaC1, AdaC2 and AdaC3 (Sun et al. 2007) as summarised in the AdaCC paper, Table 3."""

from __future__ import annotations

from algorithms.boosting._base import (
    BoostingRules,
    FixedCostBoostingClassifier,
    cost_proportional_initial_weights,
    fixed_round_costs,
)
from algorithms.boosting._fixed_cost_rules import (
    FIXED_COST_PARAMETERS_DOC,
    adac1_alpha_rule,
    adac2_alpha_rule,
    adac3_alpha_rule,
    adac3_update_rule,
    cost_in_exponent_update_rule,
    cost_outside_exponent_update_rule,
)

__all__ = ["ADAC1_RULES", "ADAC2_RULES", "ADAC3_RULES", "AdaC1", "AdaC2", "AdaC3"]

_COST_PROPORTIONAL = {
    "initial_weights": cost_proportional_initial_weights,
    "round_costs": fixed_round_costs,
}

#: AdaC1: costs inside the exponent.
ADAC1_RULES = BoostingRules(**_COST_PROPORTIONAL, alpha=adac1_alpha_rule, update=cost_in_exponent_update_rule)
#: AdaC2: costs outside the exponent.
ADAC2_RULES = BoostingRules(
    **_COST_PROPORTIONAL, alpha=adac2_alpha_rule, update=cost_outside_exponent_update_rule
)
#: AdaC3: costs inside and outside the exponent.
ADAC3_RULES = BoostingRules(**_COST_PROPORTIONAL, alpha=adac3_alpha_rule, update=adac3_update_rule)

_SHARED = """
    All three start from ``D^1(i) = C_i / sum_j C_j`` (Table 3), decide ``H(x) = sign(sum_t alpha_t h_t(x))``
    and stop (discarding the learner) when ``alpha_t <= 0``. With ``C+ = C- = 1`` each is AdaBoost exactly.
"""


class AdaC1(FixedCostBoostingClassifier):
    __doc__ = (
        """AdaC1: costs inside the exponent (Sun et al. 2007; AdaCC paper, Table 3).

    ``alpha_t = 1/2 ln((1 + sum_{correct} C_i D^t(i) - sum_{wrong} C_i D^t(i)) /
    (1 - sum_{correct} C_i D^t(i) + sum_{wrong} C_i D^t(i)))`` and
    ``D^{t+1}(i) = D^t(i) exp(-C_i alpha_t y_i h_t(x_i)) / Z_t``. The costs are used on their own scale
    (Sun et al. take them in (0, 1]), so scaling both costs changes the model.
"""
        + _SHARED
        + FIXED_COST_PARAMETERS_DOC
    )

    def _boosting_rules(self) -> BoostingRules:
        return ADAC1_RULES


class AdaC2(FixedCostBoostingClassifier):
    __doc__ = (
        """AdaC2: costs outside the exponent (Sun et al. 2007; AdaCC paper, Table 3).

    ``alpha_t = 1/2 ln(sum_{correct} C_i D^t(i) / sum_{wrong} C_i D^t(i))`` and
    ``D^{t+1}(i) = D^t(i) C_i exp(-alpha_t y_i h_t(x_i)) / Z_t``. Scaling both costs changes nothing.
"""
        + _SHARED
        + FIXED_COST_PARAMETERS_DOC
    )

    def _boosting_rules(self) -> BoostingRules:
        return ADAC2_RULES


class AdaC3(FixedCostBoostingClassifier):
    __doc__ = (
        """AdaC3: costs inside and outside the exponent (Sun et al. 2007; AdaCC paper, Table 3).

    ``alpha_t = 1/2 ln((S + sum_{correct} C_i^2 D^t(i) - sum_{wrong} C_i^2 D^t(i)) /
    (S - sum_{correct} C_i^2 D^t(i) + sum_{wrong} C_i^2 D^t(i)))`` with ``S = sum_i C_i D^t(i)``, and
    ``D^{t+1}(i) = D^t(i) C_i exp(-C_i alpha_t y_i h_t(x_i)) / Z_t``. The costs in the exponent make the
    model depend on their scale.
"""
        + _SHARED
        + FIXED_COST_PARAMETERS_DOC
    )

    def _boosting_rules(self) -> BoostingRules:
        return ADAC3_RULES
