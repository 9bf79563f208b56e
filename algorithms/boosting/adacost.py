"""AdaCost (Fan et al. 1999; AdaCC Table 3; docs/algorithms.md §3) in two formulations.

- ``"adacc-code"``: AdaCost as the AdaCC authors' code runs it (their ``CostBoostingAlgorithms``), the code
  that produced the AdaCC paper's tables: the learner weight comes from the plain weighted error and the cost
  adjustment ``beta_i`` only scales the step of misclassified samples;
- ``"fan"``: Fan et al.'s equations (the "beta2" of Ting 2000), with the costs scaled into the small range
  where the equations keep their learners.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils._param_validation import StrOptions

from algorithms.boosting._base import FIXED_COST_PARAMETERS_DOC, BoostingRules, FixedCostBoostingClassifier
from algorithms.boosting._rules import (
    RoundCosts,
    class_means,
    cost_in_exponent_alpha,
    cost_in_exponent_update,
    cost_proportional_initial_weights,
    misclassified,
)
from algorithms.boosting.adacc import log_odds_alpha, misclassified_cost_in_exponent_update

__all__ = [
    "ADACOST_FORMULATIONS",
    "FAN_COST_SCALE",
    "AdaCost",
    "adacost_cost_factors",
    "adacost_round_costs",
    "misclassified_cost_factors",
]

#: Largest cost of the ``"fan"`` formulation: the per-sample costs are divided by their maximum and
#: multiplied by this. With costs ``C_i <= 0.1`` every ``beta_i`` lies in [0.45, 0.55], so
#: ``r = sum_i D^t(i) y_i h_t(x_i) beta_i > 0`` for any learner with weighted error below 0.45; with
#: ``C_i = 1`` a correct sample gets ``beta_i = 0`` and ``r = -e <= 0`` for every learner.
FAN_COST_SCALE = 0.1


def adacost_cost_factors(y, output, costs):
    """AdaCost's cost-adjustment ``beta_i`` (Fan et al. 1999, the "beta2" of Ting 2000; docs/algorithms.md
    §3).

    ``beta_i = 1/2 (1 + C_i)`` when ``h_t`` misclassifies sample ``i`` and ``1/2 (1 - C_i)`` when it is right,
    for costs ``C_i`` in [0, 1]. AdaCost then uses ``beta_i`` where AdaC1 uses ``C_i``:
    ``r = sum_i D^t(i) y_i h_t(x_i) beta_i``, ``alpha_t = 1/2 ln((1 + r) / (1 - r))`` and
    ``D^{t+1}(i) = D^t(i) exp(-alpha_t y_i h_t(x_i) beta_i) / Z_t``.
    """
    return np.where(misclassified(y, output), 0.5 * (1.0 + costs), 0.5 * (1.0 - costs))


def misclassified_cost_factors(y, output, costs):
    """``beta_i = 1/2 (1 + C_i)`` for a misclassified sample and 0 for a correct one (``"adacc-code"``)."""
    return np.where(misclassified(y, output), 0.5 * (1.0 + costs), 0.0)


def _scaled(fixed_costs, largest):
    """The per-sample costs divided by their maximum and multiplied by ``largest``."""
    return fixed_costs * (largest / fixed_costs.max())


def adacost_round_costs(y, output, fixed_costs):
    """``"fan"``: ``beta_i`` from the costs scaled to max :data:`FAN_COST_SCALE` (Fan et al. 1999)."""
    costs = _scaled(fixed_costs, FAN_COST_SCALE)
    positive, negative = class_means(costs, y)
    return RoundCosts(adacost_cost_factors(y, output, costs), 0.5 * (1.0 + positive), 0.5 * (1.0 + negative))


def adacc_code_round_costs(y, output, fixed_costs):
    """``"adacc-code"``: ``beta_i = 1/2 (1 + C_i)`` on misclassified samples, costs scaled to max 1."""
    costs = _scaled(fixed_costs, 1.0)
    positive, negative = class_means(costs, y)
    return RoundCosts(
        misclassified_cost_factors(y, output, costs), 0.5 * (1.0 + positive), 0.5 * (1.0 + negative)
    )


#: The rules of each formulation (``D^1 ~ C`` in both, as Table 3 and the authors' code do).
ADACOST_FORMULATIONS: dict[str, BoostingRules] = {
    "adacc-code": BoostingRules(
        initial_weights=cost_proportional_initial_weights,
        round_costs=adacc_code_round_costs,
        alpha=log_odds_alpha,
        update=misclassified_cost_in_exponent_update,
    ),
    "fan": BoostingRules(
        initial_weights=cost_proportional_initial_weights,
        round_costs=adacost_round_costs,
        alpha=cost_in_exponent_alpha,
        update=cost_in_exponent_update,
    ),
}


_PARAMETERS_DOC, _ATTRIBUTES_AND_NOTES_DOC = FIXED_COST_PARAMETERS_DOC.split("\n    Attributes", 1)
_ATTRIBUTES_AND_NOTES_DOC = "\n    Attributes" + _ATTRIBUTES_AND_NOTES_DOC


class AdaCost(FixedCostBoostingClassifier):
    __doc__ = (
        """AdaCost: a cost-adjusted step in AdaBoost's update (Fan et al. 1999; AdaCC Table 3).

    Both formulations start from ``D^1(i) = C_i / sum_j C_j`` and predict
    ``H(x) = sign(sum_t alpha_t h_t(x))``.
    Costs enter only through their ratios: they are divided by their maximum, so scaling every cost leaves
    the model unchanged.

    ``formulation="adacc-code"`` (default), the AdaCost of the AdaCC authors' code:
    ``alpha_t = ln((1 - e_t) / e_t)`` from the plain weighted error ``e_t`` (the two-class SAMME weight) and
    ``D^{t+1}(i) = D^t(i) exp(alpha_t beta_i) / Z_t`` for a misclassified sample, with
    ``beta_i = 1/2 (1 + C_i)`` and ``C_i`` scaled to max 1; correct samples keep their weight. Boosting
    stops, discarding the learner, when ``e_t >= 1/2``. With equal costs this is AdaBoost. (The authors' code
    also gives each sample the *other* class's cost and uses ``1/2 (1 - C)`` for a misclassified sample,
    which with equal costs never changes a weight, so every round refits the first learner; not copied.)

    ``formulation="fan"``, Fan et al.'s equations as the AdaCC paper's Table 3 lists them (its alpha cell is
    garbled; docs/algorithms.md §3): ``beta_i = 1/2 (1 + C_i)`` for a misclassified sample and
    ``1/2 (1 - C_i)`` for a correct one, ``r = sum_i D^t(i) y_i h_t(x_i) beta_i``,
    ``alpha_t = 1/2 ln((1 + r) / (1 - r))`` and
    ``D^{t+1}(i) = D^t(i) exp(-alpha_t y_i h_t(x_i) beta_i) / Z_t``; boosting stops, discarding the learner,
    when ``r <= 0``. Used with the AdaCC paper's ``C+ = 1`` as given, a correct positive has ``beta = 0`` and
    the first round fails whenever the missed positives outweigh the negatives' small ``beta``; so the costs
    are scaled to max :data:`FAN_COST_SCALE` = 0.1, where ``r > 0`` for any learner with ``e_t < 0.45``.

    Measured on the 12 AdaCC datasets (``python -m benchmarks adacost``,
    ``docs/results/adacost-formulations.md``), ``"adacc-code"`` has the higher balanced accuracy on average;
    hence the default.
"""
        + _PARAMETERS_DOC
        + """    formulation : {"adacc-code", "fan"}, default="adacc-code"
        Which AdaCost, see above.
"""
        + _ATTRIBUTES_AND_NOTES_DOC
    )

    _parameter_constraints: dict = {
        **FixedCostBoostingClassifier._parameter_constraints,
        "formulation": [StrOptions(set(ADACOST_FORMULATIONS))],
    }

    def __init__(
        self,
        estimator=None,
        *,
        n_estimators=50,
        random_state=None,
        pos_label=None,
        positive_cost=1.0,
        negative_cost=1.0,
        formulation="adacc-code",
    ):
        super().__init__(
            estimator,
            n_estimators=n_estimators,
            random_state=random_state,
            pos_label=pos_label,
            positive_cost=positive_cost,
            negative_cost=negative_cost,
        )
        self.formulation = formulation

    def _boosting_rules(self) -> BoostingRules:
        return ADACOST_FORMULATIONS[self.formulation]
