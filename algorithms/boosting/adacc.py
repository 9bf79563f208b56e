"""AdaCC1 and AdaCC2, cumulative cost-sensitive boosting, and their non-cumulative ablations AdaN-CC1/2.

Iosifidis, Papaioannou and Ntoutsi, "AdaCC: cumulative cost-sensitive boosting for imbalanced classification"
(``../shared/papers/adacc-cumulative-cost-boosting.txt``), Section 4 (Eq. 5-18) and Section 5.2 (AdaN-CC).
Each estimator offers two formulations (spec section 2):

``"reference"`` (default)
    What the authors' published code (``cumulative-cost-boosting`` 0.1.2) computes, which produced the
    paper's tables: ``alpha_t = ln((1 - e) / e)`` from the cost-free weighted error ``e``; ``alpha_t h_t``
    joins the cumulative votes; FNR and FPR of ``H_{1:t}`` (Eq. 5) give ``c+ = 1 + FNR`` and
    ``c- = 1 + FPR`` of which the smaller is reset to 1 (a tie keeps the cost on the positive class); only
    misclassified samples change weight: AdaCC1 ``D_i exp(c alpha_t)``, AdaCC2 ``D_i c exp(alpha_t)``.
``"paper"``
    The equations as printed: a provisional ``alpha0 = 1/2 ln((1 - e) / e)`` gives ``H_{1:t}`` and so FNR,
    FPR and the costs of Eq. 6 (ties give every sample cost 1); ``alpha_t`` comes from Eq. 12 (AdaCC1) or
    Eq. 18 (AdaCC2) and boosting stops when Eq. 13 fails; the update is Eq. 7 (AdaCC1) or Eq. 14 (AdaCC2),
    normalised by Eq. 8 / 15; the final vote uses ``alpha_t``.

Why the default is not the printed form: measured on six KEEL imbalanced sets (5-fold CV, 100 stumps),
``"paper"`` hits its Eq. 13 stop after 2-10 rounds on most of them and loses balanced accuracy (glass2 0.49
vs 0.62, page-blocks0 0.80 vs 0.94), while ``"reference"`` beat AdaBoost on five of six (spec section 2).
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

import numpy as np
from sklearn.utils._param_validation import StrOptions

from algorithms.boosting import _rules
from algorithms.boosting._base import (
    BOOSTING_PARAMETERS_DOC,
    BaseBoostingClassifier,
    BoostingRules,
    RoundCosts,
    RoundState,
)

__all__ = ["AdaCC1", "AdaCC2", "AdaNCC1", "AdaNCC2"]


def _vote_for_rates(state: RoundState, alpha: float, cumulative: bool) -> np.ndarray:
    """Votes whose sign gives the rates of Eq. 5: ``H_{1:t}`` (cumulative) or ``h_t`` alone (AdaN-CC)."""
    if cumulative:
        return state.cumulative_votes + alpha * state.output
    return state.output


def published_costs(state: RoundState, *, cumulative: bool) -> RoundCosts:
    """Round costs of the published AdaCC code: ``c+``, ``c-`` from the rates of ``H_{1:t}`` (spec s. 2)."""
    alpha = _rules.log_odds_alpha(state.weighted_error)
    rates = _rules.class_error_rates(_vote_for_rates(state, alpha, cumulative), state.y, state.class_mass)
    positive_cost, negative_cost = _rules.class_costs_as_published(*rates)
    per_sample = _rules.costs_by_class(state.y, positive_cost, negative_cost)
    return RoundCosts(per_sample, positive_cost, negative_cost)


def printed_costs(state: RoundState, *, cumulative: bool) -> RoundCosts:
    """Round costs of AdaCC Eq. 6 with ``H_{1:t}`` built from the provisional ``alpha0 = 1/2 ln((1-e)/e)``."""
    alpha0 = _rules.adaboost_alpha(state.weighted_error)
    fnr, fpr = _rules.class_error_rates(_vote_for_rates(state, alpha0, cumulative), state.y, state.class_mass)
    per_sample = _rules.cumulative_costs_as_printed(state.y, state.output, fnr, fpr)
    return RoundCosts(per_sample, 1.0 + fnr if fnr > fpr else 1.0, 1.0 + fpr if fpr > fnr else 1.0)


def published_alpha(state: RoundState, costs: RoundCosts) -> float:
    """``alpha_t = ln((1 - e) / e)`` of the published code (spec section 2)."""
    return _rules.log_odds_alpha(state.weighted_error)


def _alpha_from(rule):
    def alpha(state: RoundState, costs: RoundCosts) -> float:
        return rule(state.weights, state.y, state.output, costs.per_sample)

    alpha.__doc__ = rule.__doc__
    return alpha


def _update_from(rule):
    def update(state: RoundState, costs: RoundCosts, alpha: float) -> np.ndarray:
        return rule(state.weights, state.y, state.output, alpha, costs.per_sample)

    update.__doc__ = rule.__doc__
    return update


def _published_rules(cost_placement: str, cumulative: bool) -> BoostingRules:
    """Rules of the authors' published code (``formulation="reference"``)."""
    return BoostingRules(
        round_costs=partial(published_costs, cumulative=cumulative),
        alpha=published_alpha,
        update=_PUBLISHED_UPDATES[cost_placement],
    )


def _printed_rules(cost_placement: str, cumulative: bool) -> BoostingRules:
    """Rules of the equations as printed (``formulation="paper"``)."""
    alpha, update = _PRINTED_ALPHA_AND_UPDATE[cost_placement]
    costs = partial(printed_costs, cumulative=cumulative)
    return BoostingRules(round_costs=costs, alpha=alpha, update=update)


_PUBLISHED_UPDATES = {
    "in exponent": _update_from(_rules.misclassified_cost_in_exponent_update),
    "outside exponent": _update_from(_rules.misclassified_cost_outside_exponent_update),
}
_PRINTED_ALPHA_AND_UPDATE = {
    "in exponent": (_alpha_from(_rules.cost_in_exponent_alpha), _update_from(_rules.cost_in_exponent_update)),
    "outside exponent": (
        _alpha_from(_rules.cost_outside_exponent_alpha),
        _update_from(_rules.cost_outside_exponent_update),
    ),
}

_FORMULATIONS = {"reference": _published_rules, "paper": _printed_rules}

#: Every AdaCC rule set, keyed by (formulation, cost placement, cumulative rates).
ADACC_RULES: dict[tuple[str, str, bool], BoostingRules] = {
    (formulation, placement, cumulative): build(placement, cumulative)
    for formulation, build in _FORMULATIONS.items()
    for placement in ("in exponent", "outside exponent")
    for cumulative in (True, False)
}


class _CumulativeCostBoosting(BaseBoostingClassifier):
    """Shared parameters of AdaCC1/2 and AdaN-CC1/2; subclasses only name their cost placement and rates."""

    _cost_placement: ClassVar[str]
    _cumulative: ClassVar[bool] = True

    _parameter_constraints: dict = {
        **BaseBoostingClassifier._parameter_constraints,
        "formulation": [StrOptions({"reference", "paper"})],
    }

    def __init__(
        self, estimator=None, *, n_estimators=50, random_state=None, pos_label=None, formulation="reference"
    ):
        super().__init__(estimator, n_estimators=n_estimators, random_state=random_state, pos_label=pos_label)
        self.formulation = formulation

    def _boosting_rules(self) -> BoostingRules:
        return ADACC_RULES[(self.formulation, self._cost_placement, self._cumulative)]


_PARAMETERS_DOC = BOOSTING_PARAMETERS_DOC + """    formulation : {"reference", "paper"}, default="reference"
        ``"reference"``: the authors' published code; ``"paper"``: the equations as printed (see the module
        docstring for both and why the default is the published code).

    Attributes
    ----------
    estimators_, estimator_weights_, estimator_errors_, vote_weights_, classes_, pos_label_, n_features_in_, \
trace_, final_distribution_, stop_reason_
        See :class:`~algorithms.boosting._base.BaseBoostingClassifier`; ``trace_["positive_cost"]`` and
        ``trace_["negative_cost"]`` hold the round's cost of a misclassified positive / negative.

    Notes
    -----
    AdaCC is parameter-free: its costs are derived from the partial ensemble's error rates each round, so it
    ignores class costs and ``cost_matrix`` (accepted and validated, but unused). The error rates of Eq. 5 are
    weighted by ``sample_weight`` (frequency weights); with unit weights they are the paper's counts
    ``/ |D+|`` and ``/ |D-|``. A zero ensemble vote counts as a negative prediction.
"""


class AdaCC1(_CumulativeCostBoosting):
    __doc__ = (
        """AdaCC1: cumulative costs inside the exponent of the weight update (AdaCC paper, Section 4.2).

    Paper form: ``D^{t+1}(i) = D^t(i) exp(-C^t_i alpha_t y_i h_t(x_i)) / Z_t`` (Eq. 7-8) with ``alpha_t`` of
    Eq. 12 and the costs ``C^t_i`` of Eq. 6 from the partial ensemble's FNR/FPR (Eq. 5).
"""
        + _PARAMETERS_DOC
    )
    _cost_placement = "in exponent"


class AdaCC2(_CumulativeCostBoosting):
    __doc__ = (
        """AdaCC2: cumulative costs outside the exponent of the weight update (AdaCC paper, Section 4.3).

    Paper form: ``D^{t+1}(i) = D^t(i) C^t_i exp(-alpha_t y_i h_t(x_i)) / Z_t`` (Eq. 14-15) with ``alpha_t`` of
    Eq. 18 and the costs ``C^t_i`` of Eq. 6 from the partial ensemble's FNR/FPR (Eq. 5).
"""
        + _PARAMETERS_DOC
    )
    _cost_placement = "outside exponent"


class AdaNCC1(AdaCC1):
    __doc__ = (
        """AdaN-CC1: AdaCC1 whose FNR/FPR come from the round's weak learner ``h_t`` alone (AdaCC s. 5.2).

    The ablation replaces the partial ensemble ``sum_{j<=t} alpha_j h_j(x)`` of Eq. 5 by ``h_t(x)``.
"""
        + _PARAMETERS_DOC
    )
    _cumulative = False


class AdaNCC2(AdaCC2):
    __doc__ = (
        """AdaN-CC2: AdaCC2 whose FNR/FPR come from the round's weak learner ``h_t`` alone (AdaCC s. 5.2).

    The ablation replaces the partial ensemble ``sum_{j<=t} alpha_j h_j(x)`` of Eq. 5 by ``h_t(x)``.
"""
        + _PARAMETERS_DOC
    )
    _cumulative = False
