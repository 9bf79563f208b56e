"""Fit a fixed-cost method at every candidate class cost ``C-`` at once (the AdaCC paper's C- grid, Sec. 5.2).

The fixed-cost methods (every estimator with a ``negative_cost`` parameter) choose ``C-`` from a grid by
fitting one model per candidate. :func:`fit_negative_cost_grid` returns those models, each the one
``clone(estimator).set_params(negative_cost=c).fit(X, y, ...)`` gives, with the work that does not depend on
``C-`` done once:

- the boosting methods (:class:`~algorithms.boosting._base.BaseBoostingClassifier`) boost the ``K``
  candidates in one run of the shared loop: the inputs are checked and the features sorted once, and each
  round fits the ``K`` stumps in one pass over the presorted features; candidates whose weights do not depend
  on ``C-`` (AdaMEC) share each round's search;
- AdaMEC-Cal trains and calibrates AdaBoost once: ``C-`` only moves its decision;
- any other estimator (a non-stump weak learner falls back inside the loop; CGAda-Cal, whose calibration
  folds scikit-learn fits, and estimators of other families) is fitted once per candidate
  (:func:`fit_each_negative_cost`).

An estimator takes part in the shared path by defining ``_fit_negative_cost_grid(X, y, negative_costs,
sample_weight, cost_matrix)``, returning per candidate the fitted model or the ``ValueError`` its fit raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sklearn.base import clone

__all__ = ["CandidateFit", "fit_each_negative_cost", "fit_negative_cost_grid"]


@dataclass(frozen=True)
class CandidateFit:
    """One candidate of the grid: its ``C-`` and the fitted model, or the ``ValueError`` its fit raised."""

    negative_cost: float
    model: object | None = None
    error: ValueError | None = None


def _fit_arguments(sample_weight, cost_matrix):
    arguments = {} if sample_weight is None else {"sample_weight": sample_weight}
    return arguments if cost_matrix is None else {**arguments, "cost_matrix": cost_matrix}


def fit_each_negative_cost(estimator, X, y, negative_costs, sample_weight=None, cost_matrix=None):
    """One fit per candidate: ``clone(estimator).set_params(negative_cost=c).fit`` (or its ``ValueError``)."""
    results = []
    for cost in negative_costs:
        try:
            model = clone(estimator).set_params(negative_cost=float(cost))
            results.append(model.fit(X, y, **_fit_arguments(sample_weight, cost_matrix)))
        except ValueError as error:
            results.append(error)
    return results


def fit_negative_cost_grid(
    estimator,
    X,
    y,
    negative_costs: Sequence[float],
    *,
    sample_weight=None,
    cost_matrix=None,
) -> list[CandidateFit]:
    """Fit ``estimator`` at every ``C-`` of ``negative_costs`` (``C+`` as the estimator has it).

    Parameters
    ----------
    estimator : unfitted estimator with a ``negative_cost`` parameter
    X, y : array-like
        Training features and labels.
    negative_costs : sequence of float
        The candidate ``C-``, at least one.
    sample_weight : array-like of shape (n_samples,), optional
    cost_matrix : array-like of shape (n_samples, 4), optional
        Example-dependent costs ``[C_FP, C_FN, C_TP, C_TN]``, passed to every candidate's fit.

    Returns
    -------
    list of CandidateFit
        In grid order; ``model`` is the fitted clone, identical to that candidate's own fit, or ``error`` the
        ``ValueError`` that fit raises (e.g. no weak learner beats chance at that ``C-``).
    """
    if "negative_cost" not in estimator.get_params(deep=False):
        raise ValueError(f"{type(estimator).__name__} has no negative_cost parameter to fit a grid of")
    if len(negative_costs) == 0:
        raise ValueError("negative_costs must hold at least one candidate C-")
    shared = getattr(estimator, "_fit_negative_cost_grid", None)
    fit = shared if shared is not None else lambda *args: fit_each_negative_cost(estimator, *args)
    results = fit(X, y, [float(cost) for cost in negative_costs], sample_weight, cost_matrix)
    return [
        CandidateFit(float(cost), error=result)
        if isinstance(result, ValueError)
        else CandidateFit(float(cost), result)
        for cost, result in zip(negative_costs, results, strict=True)
    ]
