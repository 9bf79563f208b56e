"""AdaCC1 and AdaCC2, cumulative cost-sensitive boosting, and their non-cumulative ablations AdaN-CC1/2.

Iosifidis, Papadopoulos, Rosenhahn and Ntoutsi (2023), "AdaCC: cumulative cost-sensitive boosting for
imbalanced classification", Knowledge and Information Systems 65(2), Section 4 (Eq. 5-18) and Section 5.2
(AdaN-CC). Each estimator offers two formulations (docs/algorithms.md §2):

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
vs 0.62, page-blocks0 0.80 vs 0.94), while ``"reference"`` beat AdaBoost on five of six (docs/algorithms.md
§2).
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

import numpy as np
from sklearn.utils._param_validation import StrOptions

from algorithms.boosting import _kernels
from algorithms.boosting._base import BOOSTING_PARAMETERS_DOC, BaseBoostingClassifier, BoostingRules
from algorithms.boosting._rules import (
    RoundCosts,
    adaboost_alpha,
    cost_in_exponent_alpha,
    cost_in_exponent_update,
    cost_outside_exponent_alpha,
    cost_outside_exponent_update,
    costs_by_class,
    error_rates,
    example_row_weights,
    misclassified,
    tie_margin,
)

__all__ = ["ADACC_RULES", "AdaCC1", "AdaCC2", "AdaNCC1", "AdaNCC2"]


# ------------------------------------------------------------------------------------- the rates of Eq. 5
def ensemble_error_rates(y, output, cumulative_votes, vote_scale, class_mass, alpha, cumulative):
    """``(FNR_{1:t}, FPR_{1:t})`` (Eq. 5) of ``H_{1:t}(x) = sign(sum_{j<t} alpha_j h_j(x) + alpha h_t(x))``.

    Counted with ``class_mass`` (``sample_weight``; ones give the paper's ``/ |D+|`` and ``/ |D-|``); a zero
    vote, up to rounding (:func:`~algorithms.boosting._rules.tie_margin` of ``vote_scale + alpha``), counts
    as a negative prediction. ``cumulative=False`` (AdaN-CC, Section 5.2) uses ``h_t`` alone.
    """
    if cumulative:
        tie = tie_margin(vote_scale + alpha)
        counts = _kernels.ensemble_confusion(
            cumulative_votes, output, alpha, alpha, y, class_mass, False, tie
        )
    else:
        counts = _kernels.confusion_mass(y, output, class_mass)
    return error_rates(*counts)


# ------------------------------------------------------------------------- "reference": the published code
def log_odds_alpha(weighted_error):
    """The published code's learner weight ``alpha_t = ln((1 - e) / e)`` (no factor 1/2; docs/algorithms.md
    §2).

    This is the SAMME weight for two classes (Zhu et al. 2009). ``e`` is floored at
    :data:`~algorithms.boosting._rules.ERROR_FLOOR`; a result <= 0 (``e >= 1/2``) stops the loop.
    """
    return 2.0 * adaboost_alpha(weighted_error)


def class_costs_as_published(false_negative_rate, false_positive_rate):
    """Class costs of the published code: ``c+ = 1 + FNR`` and ``c- = 1 + FPR``, the smaller reset to 1.

    A tie keeps the cost on the positive class. Returns ``(c+, c-)``: the cost of a missed positive and of a
    missed negative.
    """
    if false_negative_rate >= false_positive_rate:
        return 1.0 + false_negative_rate, 1.0
    return 1.0, 1.0 + false_positive_rate


def published_costs(y, output, cumulative_votes, vote_scale, cost_mass, weighted_error, *, cumulative):
    """Round costs of the published code: ``c+``, ``c-`` from the rates of ``H_{1:t}`` with its alpha.

    The rates count each sample with ``cost_mass`` (``sample_weight`` times the row weights of a
    ``cost_matrix``, ones without one).
    """
    rates = ensemble_error_rates(
        y, output, cumulative_votes, vote_scale, cost_mass, log_odds_alpha(weighted_error), cumulative
    )
    positive_cost, negative_cost = class_costs_as_published(*rates)
    return RoundCosts(costs_by_class(y, positive_cost, negative_cost), positive_cost, negative_cost)


def misclassified_cost_in_exponent_update(weights, y, output, alpha, costs):
    """The published AdaCC1 update: ``D^t(i) exp(C_i alpha_t)`` for misclassified samples, others unchanged.

    With ``alpha_t = ln((1 - e) / e)`` and unit costs it is the SAMME update, which normalises to the same
    distribution as AdaCC Eq. 1.
    """
    return weights * np.exp(costs * alpha * misclassified(y, output))


def misclassified_cost_outside_exponent_update(weights, y, output, alpha, costs):
    """The published AdaCC2 update: ``D^t(i) C_i exp(alpha_t)`` for misclassified samples, others kept."""
    return weights * np.where(misclassified(y, output), costs * np.exp(alpha), 1.0)


# ------------------------------------------------------------------------------- "paper": Eq. 5-18 printed
def cumulative_costs_as_printed(y, output, false_negative_rate, false_positive_rate):
    """Per-sample cumulative costs ``C^t_i`` exactly as AdaCC Eq. 6 prints them.

    ``C_i = 1 + FNR`` for a misclassified positive when ``FNR > FPR``; ``C_i = 1 + FPR`` for a misclassified
    negative when ``FNR < FPR``; 1 otherwise (so a tie ``FNR == FPR`` gives every sample cost 1).
    """
    wrong = misclassified(y, output)
    positive = y > 0
    costs = np.ones_like(output, dtype=float)
    if false_negative_rate > false_positive_rate:
        costs[wrong & positive] = 1.0 + false_negative_rate
    elif false_positive_rate > false_negative_rate:
        costs[wrong & ~positive] = 1.0 + false_positive_rate
    return costs


def printed_costs(y, output, cumulative_votes, vote_scale, cost_mass, weighted_error, *, cumulative):
    """Round costs of Eq. 6, ``H_{1:t}`` built with the provisional ``alpha0 = 1/2 ln((1 - e) / e)``.

    The rates count each sample with ``cost_mass`` (as in :func:`published_costs`).
    """
    alpha0 = adaboost_alpha(weighted_error)
    fnr, fpr = ensemble_error_rates(y, output, cumulative_votes, vote_scale, cost_mass, alpha0, cumulative)
    per_sample = cumulative_costs_as_printed(y, output, fnr, fpr)
    return RoundCosts(per_sample, 1.0 + fnr if fnr > fpr else 1.0, 1.0 + fpr if fpr > fnr else 1.0)


# -------------------------------------------------------------------------------------------- rule records
_PUBLISHED_UPDATES = {
    "in exponent": misclassified_cost_in_exponent_update,
    "outside exponent": misclassified_cost_outside_exponent_update,
}
#: Eq. 12 and 7 (AdaCC1), Eq. 18 and 14 (AdaCC2).
_PRINTED_ALPHA_AND_UPDATE = {
    "in exponent": (cost_in_exponent_alpha, cost_in_exponent_update),
    "outside exponent": (cost_outside_exponent_alpha, cost_outside_exponent_update),
}


def _adacc_rules(formulation: str, cost_placement: str, cumulative: bool) -> BoostingRules:
    if formulation == "reference":
        costs, alpha, update = published_costs, log_odds_alpha, _PUBLISHED_UPDATES[cost_placement]
    else:
        costs, (alpha, update) = printed_costs, _PRINTED_ALPHA_AND_UPDATE[cost_placement]
    return BoostingRules(round_costs=partial(costs, cumulative=cumulative), alpha=alpha, update=update)


#: Every AdaCC rule set, keyed by (formulation, cost placement, cumulative rates).
ADACC_RULES: dict[tuple[str, str, bool], BoostingRules] = {
    (formulation, placement, cumulative): _adacc_rules(formulation, placement, cumulative)
    for formulation in ("reference", "paper")
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

    _uses_cost_matrix = True

    def _boosting_rules(self) -> BoostingRules:
        return ADACC_RULES[(self.formulation, self._cost_placement, self._cumulative)]

    def _row_weights(self, y, cost_matrix):
        return None if cost_matrix is None else example_row_weights(y, cost_matrix)


_PARAMETERS_DOC = (
    BOOSTING_PARAMETERS_DOC
    + """    formulation : {"reference", "paper"}, default="reference"
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
    AdaCC is parameter-free: its costs are derived from the partial ensemble's error rates each round, and it
    takes no class costs. The error rates of Eq. 5 are weighted by ``sample_weight`` (frequency weights); with
    unit weights they are the paper's counts ``/ |D+|`` and ``/ |D-|``. A zero ensemble vote counts as a
    negative prediction.

    Example-dependent costs ("cost mass", an extension beyond the paper): with ``fit(..., cost_matrix=M)``
    each row's regret ``r_i`` (``C_FN - C_TP`` for a positive, ``C_FP - C_TN`` for a negative, clipped at
    0) over its class's mean regret, ``w_i = r_i / R_{y_i}``, (a) multiplies ``D^1`` and (b) weighs every
    sample in the cumulative rates of Eq. 5: ``FNR_{1:t} = sum_{i in D+, H_{1:t} wrong} w_i / sum_{i in D+}
    w_i`` (same for FPR), so a round's costs ``c+-`` grow with the *regret* the partial ensemble loses rather
    than with the number of rows it gets wrong. With a matrix that is constant per class ``w = 1`` and the
    model is the one fit without it.
"""
)


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
