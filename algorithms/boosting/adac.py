"""AdaC1, AdaC2 and AdaC3 (Sun et al. 2007) as summarised in the AdaCC paper, Table 3."""

from __future__ import annotations

import numpy as np

from algorithms.boosting import _kernels
from algorithms.boosting._base import FIXED_COST_PARAMETERS_DOC, BoostingRules, FixedCostBoostingClassifier
from algorithms.boosting._rules import (
    ERROR_FLOOR,
    cost_factor_outside_exponent_update,
    cost_in_exponent_alpha,
    cost_in_exponent_update,
    cost_outside_exponent_alpha,
    cost_proportional_initial_weights,
    fixed_round_costs,
)

__all__ = [
    "ADAC1_RULES",
    "ADAC2_RULES",
    "ADAC3_RULES",
    "AdaC1",
    "AdaC2",
    "AdaC3",
    "adac3_alpha",
    "adac3_update",
]


def adac3_alpha(weights, y, output, costs):
    """AdaC3's learner weight (AdaCC Table 3, Sun et al. 2007).

    ``alpha_t = 1/2 ln((S + m) / (S - m))`` with ``S = sum_i C_i D^t(i)`` and
    ``m = sum_{i: y_i = h_t(x_i)} C_i^2 D^t(i) - sum_{i: y_i != h_t(x_i)} C_i^2 D^t(i)
    = sum_i C_i^2 D^t(i) y_i h_t(x_i)``.

    Returns 0 when ``m <= 0`` (the learner does not help; the loop discards it and stops); ``S - m`` is
    floored at ``2 * ERROR_FLOOR * S`` so a learner without errors gets a large finite weight.
    """
    cost_mass, _, margin, _ = _kernels.cost_weighted_sums(weights, y, output, costs)
    if margin <= 0.0:
        return 0.0
    return 0.5 * float(np.log((cost_mass + margin) / max(cost_mass - margin, 2.0 * ERROR_FLOOR * cost_mass)))


def adac3_update(weights, y, output, alpha, costs, cost_factors):
    """AdaC3's update ``D^t(i) C_i exp(-C_i alpha_t y_i h_t(x_i))`` before normalisation (AdaCC Table 3).

    The factor outside the exponent is ``cost_factors``: ``C_i`` with class costs, ``C_i^(1/T)`` with a
    ``cost_matrix`` (:func:`~algorithms.boosting._rules.per_round_cost_factors`).
    """
    return weights * cost_factors * np.exp(-costs * alpha * y * output)


_COST_PROPORTIONAL = {"initial_weights": cost_proportional_initial_weights, "round_costs": fixed_round_costs}

#: AdaC1: costs inside the exponent (the alpha and update of AdaCC1's Eq. 12 and 7).
ADAC1_RULES = BoostingRules(
    **_COST_PROPORTIONAL, alpha=cost_in_exponent_alpha, update=cost_in_exponent_update
)
#: AdaC2: costs outside the exponent (the alpha and update of AdaCC2's Eq. 18 and 14).
ADAC2_RULES = BoostingRules(
    **_COST_PROPORTIONAL, alpha=cost_outside_exponent_alpha, update=cost_factor_outside_exponent_update
)
#: AdaC3: costs inside and outside the exponent.
ADAC3_RULES = BoostingRules(**_COST_PROPORTIONAL, alpha=adac3_alpha, update=adac3_update)

_SHARED = """
    All three start from ``D^1(i) = C_i / sum_j C_j`` (Table 3), decide ``H(x) = sign(sum_t alpha_t h_t(x))``
    and stop (discarding the learner) when ``alpha_t <= 0``. With ``C+ = C- = 1`` each is AdaBoost exactly.
"""

_COMPOUNDING = """
    With a ``cost_matrix`` the factor ``C_i`` *outside* the exponent of the update is ``C_i^(1/T)`` (``T`` =
    ``n_estimators``), so ``T`` rounds compound to ``C_i`` once instead of ``C_i^T``: a deliberate deviation
    from Table 3 (with class costs the update is Table 3's), because with the class costs derived from a
    cost matrix (e.g. ``c(-) = 0.2`` on bank marketing) the compounded factor starved one class within a few
    rounds and the model predicted every row positive (issue 8).
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
        + _COMPOUNDING
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
        + _COMPOUNDING
        + FIXED_COST_PARAMETERS_DOC
    )

    def _boosting_rules(self) -> BoostingRules:
        return ADAC3_RULES
