"""AdaCost with Fan et al.'s cost adjustment "beta2" (Fan et al. 1999; AdaCC Table 3; spec section 3)."""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from algorithms.boosting._base import FIXED_COST_PARAMETERS_DOC, BoostingRules, FixedCostBoostingClassifier
from algorithms.boosting._rules import (
    RoundCosts,
    class_means,
    cost_in_exponent_alpha,
    cost_in_exponent_update,
    cost_proportional_initial_weights,
    misclassified,
)

__all__ = ["ADACOST_RULES", "AdaCost", "adacost_cost_factors", "adacost_round_costs"]


def adacost_cost_factors(y, output, costs):
    """AdaCost's cost-adjustment ``beta_i`` (Fan et al. 1999, the "beta2" of Ting 2000; spec section 3).

    ``beta_i = 1/2 (1 + C_i)`` when ``h_t`` misclassifies sample ``i`` and ``1/2 (1 - C_i)`` when it is right,
    for costs ``C_i`` in [0, 1]. AdaCost then uses ``beta_i`` where AdaC1 uses ``C_i``:
    ``r = sum_i D^t(i) y_i h_t(x_i) beta_i``, ``alpha_t = 1/2 ln((1 + r) / (1 - r))`` and
    ``D^{t+1}(i) = D^t(i) exp(-alpha_t y_i h_t(x_i) beta_i) / Z_t``.
    """
    return np.where(misclassified(y, output), 0.5 * (1.0 + costs), 0.5 * (1.0 - costs))


def adacost_round_costs(y, output, fixed_costs):
    """AdaCost's round costs: ``beta_i`` per sample; the trace records ``beta`` of a misclassified sample."""
    positive, negative = class_means(fixed_costs, y)
    return RoundCosts(
        adacost_cost_factors(y, output, fixed_costs), 0.5 * (1.0 + positive), 0.5 * (1.0 + negative)
    )


#: AdaCost: ``D^1 ~ C``, ``beta_i`` from the costs, AdaC1's alpha and update with ``beta_i`` for ``C_i``
#: (``r <= 0`` gives alpha 0, which discards the learner and stops).
ADACOST_RULES = BoostingRules(
    initial_weights=cost_proportional_initial_weights,
    round_costs=adacost_round_costs,
    alpha=cost_in_exponent_alpha,
    update=cost_in_exponent_update,
)


class AdaCost(FixedCostBoostingClassifier):
    __doc__ = (
        """AdaCost(beta2): a cost-adjusted step in AdaBoost's exponent (Fan et al. 1999; AdaCC Table 3).

    ``D^1(i) = C_i / sum_j C_j``; each round ``beta_i = 1/2 (1 + C_i)`` for a misclassified sample and
    ``1/2 (1 - C_i)`` for a correct one, ``r = sum_i D^t(i) y_i h_t(x_i) beta_i``,
    ``alpha_t = 1/2 ln((1 + r) / (1 - r))`` and
    ``D^{t+1}(i) = D^t(i) exp(-alpha_t y_i h_t(x_i) beta_i) / Z_t``; ``H(x) = sign(sum_t alpha_t h_t(x))``.
    Table 3's alpha cell is garbled; this is Fan et al.'s formula (spec section 3). Boosting stops,
    discarding the learner, when ``r <= 0``.

    Fan et al.'s ``beta`` needs costs in [0, 1]: class costs must lie in (0, 1] (a ``cost_matrix`` is
    normalised to max 1). Costs near 1 are fragile with a discrete weak learner: a correct sample of cost 1
    has ``beta = 0``, so with every cost 1 ``r = -e <= 0`` for any learner and no round can be kept (``fit``
    raises a ``ValueError`` saying so), and with ``C+ = 1`` the first round fails whenever the missed
    positives outweigh the negatives' small ``beta``. Hence the defaults differ from the other methods:
    ``C+ = C- = 0.1`` (equal, so cost-neutral; ``r = 0.45 - e``), with which scikit-learn's estimator checks
    pass (``C+ = C- = 0.5`` fails 9 of them, ``C+ = 1, C- = 0.5`` 15). AdaCost has no AdaBoost limit, and
    scaling the costs changes it.
"""
        + FIXED_COST_PARAMETERS_DOC
    )

    _parameter_constraints: dict = {
        **FixedCostBoostingClassifier._parameter_constraints,
        "positive_cost": [Interval(Real, 0, 1, closed="right")],
        "negative_cost": [Interval(Real, 0, 1, closed="right")],
    }

    def __init__(
        self,
        estimator=None,
        *,
        n_estimators=50,
        random_state=None,
        pos_label=None,
        positive_cost=0.1,
        negative_cost=0.1,
    ):
        super().__init__(
            estimator,
            n_estimators=n_estimators,
            random_state=random_state,
            pos_label=pos_label,
            positive_cost=positive_cost,
            negative_cost=negative_cost,
        )

    def _boosting_rules(self) -> BoostingRules:
        return ADACOST_RULES

    def _fixed_costs(self, y, cost_matrix):
        costs = super()._fixed_costs(y, cost_matrix)
        if np.all(costs == 1.0):
            raise ValueError(
                "AdaCost with every cost equal to 1 cannot keep any learner: beta = (1 - C) / 2 = 0 for "
                "correct samples, so r = -(weighted error) <= 0 and alpha <= 0 in the first round. Give the "
                "negative (or positive) class a cost below 1, e.g. negative_cost=0.5."
            )
        return costs
