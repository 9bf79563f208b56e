"""Fitting an estimator on a training fold with the AdaCC paper's cost selection (C- for fixed-cost methods).

Fixed-cost methods (every method whose ``get_params()`` has ``negative_cost``) fix C+ = 1 and choose C- from
a grid (AdaCC paper, Section 5.2: C- in {0.1, ..., 1.0}, chosen by F1):

- ``"train"`` (the paper): fit one model per candidate on the training fold and keep the best training F1;
  that model already is the winner refit on the whole training fold;
- ``"inner-cv"``: mean F1 over stratified inner folds of the training fold; refit the winner on all of it;
- ``"validation"``: F1 on a held-out validation split (``tvt`` protocol), then refit on the training split.

The candidates of one training set are fit together (:func:`algorithms.cost_grid.fit_negative_cost_grid`:
each is the model its own fit gives, the boosting methods boosting all of them in one loop), once per inner
fold under ``"inner-cv"``.

Ties go to the later candidate of the grid, the one closest to cost-insensitive (the larger C- of the F1 grid,
equal class costs on :func:`regret_scale_grid`). Boosting candidates are scored with all their rounds. A
candidate whose fit raises ``ValueError`` (e.g. no weak learner beats chance at that C-) scores NaN and cannot
be chosen; selection fails only when every candidate fails. A candidate fit whose score is undefined (NaN:
savings when the trivial classifier already costs nothing) is chosen only if no candidate has a score.

**With an example-dependent cost matrix** the costs are known, so the score is what they define: savings
(CSDT Eq. 4), the candidates predicting with the scored rows' own costs where their ``predict`` takes them.
The fixed-cost methods then read ``C+`` and ``C-`` as scales of their class's mean regret (``c(+-) = C+- R+-
/ max(C+ R+, C- R-)``, :func:`algorithms.boosting._rules.example_costs_from_matrix`), and C- is chosen from
:func:`regret_scale_grid`: from the regrets' own ratio (``C- = 1``) to equal class costs, five steps apart by
a constant factor. Without it the rules that re-apply the class costs every round (CSB2, AdaCost, AdaC2)
over-weighted the dearer class: on all of credit scoring (50/50 split, 100 stumps) CSB2 flagged 98 % of the
rows (savings -0.07) and AdaCost 91 % (0.00), against 0.47 and 0.49 with the selected C-
(``docs/results/example-dependent-costs.md``).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from algorithms.boosting._rules import class_mean_regrets
from algorithms.cost_grid import fit_negative_cost_grid
from algorithms.exceptions import CostMatrixIgnoredWarning
from algorithms.metrics import f1, savings_score
from tasks.fitting.estimators import fit_estimator, has_class_costs
from tasks.fitting.evaluate import predict_labels

__all__ = [
    "FittedModel",
    "fit_with_cost_selection",
    "regret_scale_grid",
    "select_negative_cost",
]

#: Steps of :func:`regret_scale_grid` between the regrets' own class-cost ratio and equal class costs.
REGRET_SCALE_STEPS = 4


def regret_scale_grid(target, cost_matrix, steps: int = REGRET_SCALE_STEPS) -> tuple[float, ...]:
    """Candidate C- for a fit with a cost matrix: ``(R+ / R-)^(k / steps)``, ``k = 0 .. steps``.

    ``R+-`` are the class mean regrets of the training rows (``C_FN - C_TP`` of the positives, ``C_FP - C_TN``
    of the negatives; :func:`algorithms.boosting._rules.class_mean_regrets`). With C+ = 1, C- scales the
    negatives' regret, so ``k = 0`` (C- = 1) follows the regrets' ratio as it is and ``k = steps`` gives both
    classes the same cost; the steps between are geometric. One candidate (C- = 1) when the ratio is within
    0.1 % of 1 or a class has no regret (then C- scales nothing). ``target`` holds 1 for the positive class
    (the canonical dataset's encoding).
    """
    signed = np.where(np.asarray(target) == 1, 1.0, -1.0)
    regret_positive, regret_negative = class_mean_regrets(signed, np.asarray(cost_matrix, dtype=float))
    if not (regret_positive > 0 and regret_negative > 0):
        return (1.0,)
    ratio = regret_positive / regret_negative
    if abs(ratio - 1.0) < 1e-3:
        return (1.0,)
    return tuple(float(ratio ** (k / steps)) for k in range(steps + 1))


def _fit_grid(estimator, negative_costs, train):
    """Every candidate C- fit on ``train`` at once (:func:`algorithms.cost_grid.fit_negative_cost_grid`).

    ``train`` is ``(features, target)`` or ``(features, target, cost_matrix)``. As in :func:`fit_estimator`,
    the warning of a method that ignores the costs is silenced.
    """
    features, target, *costs = train
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CostMatrixIgnoredWarning)
        return fit_negative_cost_grid(
            estimator, features, target, negative_costs, cost_matrix=costs[0] if costs else None
        )


def _candidate_score(model, scored):
    """A fitted candidate's score on ``scored`` ``(features, target[, cost_matrix])``: savings with costs,
    else F1."""
    features, target, *costs = scored
    if not costs:
        return f1(target, model.predict(features))
    return savings_score(target, predict_labels(model, features, costs[0]), costs[0])


def select_negative_cost(
    estimator,
    features,
    target,
    *,
    negative_costs: Sequence[float],
    mode: str = "train",
    inner_folds: int = 3,
    validation: tuple | None = None,
    random_state: int = 0,
    cost_matrix=None,
) -> tuple[float, dict[float, float], object | None]:
    """Choose C- (with C+ = 1) by F1 (AdaCC paper, Section 5.2), or by savings with a cost matrix.

    Parameters
    ----------
    estimator : unfitted estimator with a ``negative_cost`` parameter
    features, target : arrays
        The training fold.
    negative_costs : sequence of float
        The grid of C- values.
    mode : {"train", "inner-cv", "validation"}
        How candidates are scored (see the module docstring).
    inner_folds : int
        Folds of ``"inner-cv"``.
    validation : (features, target) or (features, target, cost_matrix), optional
        The held-out rows of ``"validation"`` (with their costs when ``cost_matrix`` is given).
    random_state : int
        Seed of the inner folds.
    cost_matrix : array of shape (n_samples, 4), optional
        The training rows' example-dependent costs: every candidate is fit with them and scored by savings
        (CSDT Eq. 4) instead of F1.

    Returns
    -------
    best : float
        The chosen C-.
    scores : dict
        F1 (or savings) of every candidate; NaN for a candidate whose fit raised ``ValueError`` (it cannot be
        chosen).
    fitted : estimator or None
        Under ``"train"`` the winner, already fit on the whole training fold; ``None`` otherwise.
    """
    if mode not in ("train", "inner-cv", "validation"):
        raise ValueError(
            f"unknown cost selection mode {mode!r}; expected 'train', 'inner-cv' or 'validation'"
        )
    if not negative_costs:
        raise ValueError("negative_costs must hold at least one candidate C-")
    if mode == "validation" and validation is None:
        raise ValueError("cost selection mode 'validation' needs validation=(features, target)")
    if mode == "validation" and cost_matrix is not None and len(validation) != 3:
        raise ValueError(
            "cost selection mode 'validation' with a cost matrix needs validation=(features, target, costs)"
        )

    def rows(index=None):
        if index is None:
            return (features, target) if cost_matrix is None else (features, target, cost_matrix)
        chosen = (features[index], target[index])
        return chosen if cost_matrix is None else (*chosen, cost_matrix[index])

    grid = [float(cost) for cost in negative_costs]
    if mode == "inner-cv":
        folds = StratifiedKFold(n_splits=inner_folds, shuffle=True, random_state=random_state)
        splits = [(rows(train), rows(test)) for train, test in folds.split(features, target)]
    else:
        splits = [(rows(), rows() if mode == "train" else validation)]
    fold_scores: dict[float, list[float]] = {cost: [] for cost in grid}
    models: dict[float, object] = {}
    errors: dict[float, str] = {}
    for train, scored in splits:
        for fit in _fit_grid(estimator, grid, train):
            cost = fit.negative_cost
            if cost in errors:
                continue
            if fit.error is not None:  # this C- cannot be fit (no weak learner beats chance): not selectable
                errors[cost] = f"{type(fit.error).__name__}: {fit.error}"
                continue
            try:
                fold_scores[cost].append(_candidate_score(fit.model, scored))
            except ValueError as error:
                errors[cost] = f"{type(error).__name__}: {error}"
                continue
            if mode == "train":
                models[cost] = fit.model
    scores = {
        cost: float("nan") if cost in errors else float(np.mean(values))
        for cost, values in fold_scores.items()
    }
    if len(errors) == len(scores):
        details = "; ".join(f"C-={cost}: {errors[cost]}" for cost in scores if cost in errors)
        raise ValueError(f"no candidate C- could be fit during cost selection: {details}")
    fitted = [cost for cost in scores if cost not in errors]  # in grid order: later is closer to cost-blind
    scored = [cost for cost in fitted if np.isfinite(scores[cost])]
    if scored:
        best = max(reversed(scored), key=lambda cost: scores[cost])  # max keeps the first of equals
    else:
        best = fitted[-1]
    return best, scores, models.get(best)


@dataclass
class FittedModel:
    """A model fit on a training fold, with what the fit chose and cost."""

    model: object
    negative_cost: float | None = None
    selection_scores: dict[float, float] = field(default_factory=dict)
    fit_seconds: float = 0.0


def fit_with_cost_selection(
    estimator,
    features,
    target,
    *,
    cost_matrix=None,
    cost_selection: str = "train",
    negative_costs: Sequence[float] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    inner_folds: int = 3,
    validation: tuple | None = None,
    random_state: int = 0,
    fit_params: Mapping | None = None,
) -> FittedModel:
    """Fit an estimator on a training fold, choosing C- first when it is a fixed-cost method.

    ``cost_selection="none"`` or an estimator without ``negative_cost`` fit the estimator as configured,
    with ``cost_matrix`` when given and ``fit_params`` (other keyword arguments of its ``fit``, such as a
    tree's pruning ``validation``). Otherwise :func:`select_negative_cost` picks C-, from ``negative_costs``
    by F1 or, with a ``cost_matrix``, from :func:`regret_scale_grid` by savings (``validation`` then carries
    the validation rows' costs as its third element), and the winner is fit on all of ``features`` (under
    ``"train"`` the selection fit is that model already).
    """
    started = time.perf_counter()
    if cost_selection == "none" or not has_class_costs(estimator):
        model = fit_estimator(clone(estimator), features, target, cost_matrix, **(fit_params or {}))
        return FittedModel(model, fit_seconds=time.perf_counter() - started)
    mode = "validation" if validation is not None else cost_selection
    grid = negative_costs if cost_matrix is None else regret_scale_grid(target, cost_matrix)
    best, scores, model = select_negative_cost(
        estimator,
        features,
        target,
        negative_costs=grid,
        mode=mode,
        inner_folds=inner_folds,
        validation=validation,
        random_state=random_state,
        cost_matrix=cost_matrix,
    )
    if model is None:
        model = fit_estimator(clone(estimator).set_params(negative_cost=best), features, target, cost_matrix)
    return FittedModel(model, best, scores, time.perf_counter() - started)
