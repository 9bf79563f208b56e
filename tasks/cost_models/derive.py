"""Cost matrices of a split, derived from a registered cost model fit on the split's training rows.

:func:`derive_split_costs` is the one way the pipeline gets example-dependent costs (compare cells, retrain,
and the costs a served model derives from its rows): :func:`fit_cost_model` builds a registered cost model
with explicit parameters and fits it on the training rows only; :func:`checked_cost_matrix` computes the
matrix of any rows with that model and validates it against the cost-matrix schema, either failing on a
broken reasonableness condition or reporting the rows that break one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from schemas.cost_matrix import (
    REPORT_COLUMNS,
    cost_matrix_to_frame,
    report_unreasonable_rows,
    validate_cost_matrix,
)
from tasks.cost_models.card_fraud import CardFraudCostModel
from tasks.cost_models.characteristic import cost_characteristic_summary
from tasks.cost_models.cost_model import CostModel
from tasks.cost_models.credit_scoring import CreditScoringCostModel, PakddCreditScoringCostModel
from tasks.cost_models.direct_marketing import DirectMarketingCostModel

__all__ = [
    "COST_MODELS",
    "OWN_COLUMNS_UNIT",
    "CheckedCostMatrix",
    "SplitCosts",
    "checked_cost_matrix",
    "cost_unit",
    "derive_split_costs",
    "fit_cost_model",
]

#: Cost models by dataset name (``tasks.datasets`` specs name one of these keys in ``cost_model``).
COST_MODELS: dict[str, type[CostModel]] = {
    CreditScoringCostModel.name: CreditScoringCostModel,
    PakddCreditScoringCostModel.name: PakddCreditScoringCostModel,
    DirectMarketingCostModel.name: DirectMarketingCostModel,
    CardFraudCostModel.name: CardFraudCostModel,
}

#: The unit of a user's own cost columns (cslearn cannot know their currency).
OWN_COLUMNS_UNIT = "units of the cost columns"


def cost_unit(cost_model: str | None) -> str:
    """The unit of the costs of a dataset: its cost model's (``COST_MODELS[cost_model].unit``), or
    :data:`OWN_COLUMNS_UNIT` for a user's own cost columns (``cost_model`` ``None``)."""
    return COST_MODELS[cost_model].unit if cost_model else OWN_COLUMNS_UNIT


@dataclass(frozen=True)
class CheckedCostMatrix:
    """A validated cost matrix with its ``b_i`` summary and the rows breaking a reasonableness condition."""

    values: np.ndarray
    summary: dict
    unreasonable_rows: pd.DataFrame


def fit_cost_model(name: str, train_features: pd.DataFrame, train_target, **parameters) -> CostModel:
    """Construct ``COST_MODELS[name](**parameters)`` and fit it on the training split.

    Raises
    ------
    ValueError
        If ``name`` is not registered or a parameter is unknown or out of range (the message lists the valid
        names), or the training data lacks what the model needs.
    """
    if name not in COST_MODELS:
        raise ValueError(f"unknown cost model {name!r}; registered cost models: {sorted(COST_MODELS)}")
    model_class = COST_MODELS[name]
    known = set(model_class().get_params())
    unknown = sorted(set(parameters) - known)
    if unknown:
        raise ValueError(
            f"{model_class.__name__} has no parameter(s) {unknown}; its parameters: {sorted(known)}"
        )
    return model_class(**parameters).fit(train_features, train_target)


def checked_cost_matrix(
    model: CostModel, features: pd.DataFrame, *, on_unreasonable: Literal["raise", "report"] = "raise"
) -> CheckedCostMatrix:
    """Compute ``model.cost_matrix(features)`` and validate it against the cost-matrix schema.

    Parameters
    ----------
    model : CostModel
        A fitted cost model.
    features : pandas.DataFrame
        The split whose costs are wanted; its index labels the rows of any error or report.
    on_unreasonable : {"raise", "report"}, default="raise"
        ``"raise"`` fails when a row breaks ``C_FP > C_TN`` or ``C_FN > C_TP``; ``"report"`` returns those
        rows
        in ``unreasonable_rows`` instead. Missing columns, NaN, infinite and negative costs always fail.

    Raises
    ------
    schemas.validation.DataValidationError
        A ``ValueError`` naming each failing column and check, with sample values and row indices.
    """
    if on_unreasonable not in ("raise", "report"):
        raise ValueError(f"on_unreasonable must be 'raise' or 'report'; got {on_unreasonable!r}")
    values = model.cost_matrix(features)
    frame = cost_matrix_to_frame(values, index=features.index)
    if on_unreasonable == "raise":
        validate_cost_matrix(frame)
        unreasonable = pd.DataFrame(columns=REPORT_COLUMNS)
    else:
        unreasonable = report_unreasonable_rows(frame)
    return CheckedCostMatrix(values, cost_characteristic_summary(values), unreasonable)


@dataclass(frozen=True)
class SplitCosts:
    """A cost model fit on a split's training rows and the checked cost matrices of its two sides."""

    model: CostModel
    train: CheckedCostMatrix
    evaluated: CheckedCostMatrix

    def params(self) -> dict:
        """The cost model's parameters and fitted statistics, for logging (``CostModel.params``)."""
        return self.model.params()


def derive_split_costs(
    cost_model: str,
    train_features: pd.DataFrame,
    train_target,
    evaluated_features: pd.DataFrame,
    *,
    parameters: Mapping | None = None,
    on_unreasonable: Literal["raise", "report"] = "report",
) -> SplitCosts:
    """Fit ``COST_MODELS[cost_model]`` on the training rows; derive and validate both sides' cost matrices.

    The model's statistics (class priors, averages) come from the training rows only (CSDT paper, Section 4),
    so the evaluated rows (test fold, holdout, rows to score) never leak into any cost. Both matrices
    ``[C_FP, C_FN, C_TP, C_TN]`` are validated by the cost-matrix schema (``schemas.cost_matrix``).

    Parameters
    ----------
    cost_model : str
        Key of :data:`COST_MODELS`.
    train_features : pandas.DataFrame
        The training rows, holding the model's monetary columns.
    train_target : array-like of shape (n_train,)
        Their 0/1 labels.
    evaluated_features : pandas.DataFrame
        The rows the fitted model is evaluated (or scored) on.
    parameters : mapping, optional
        Explicit cost-model parameters (default: the paper's).
    on_unreasonable : {"report", "raise"}, default="report"
        See :func:`checked_cost_matrix`: the paper's own formulas break a reasonableness condition on some
        rows, so by default those rows are reported, not fatal.

    Raises
    ------
    ValueError
        An unknown cost model or parameter, training data the model cannot use, or (as
        ``schemas.validation.DataValidationError``) a cost matrix that breaks the schema.
    """
    model = fit_cost_model(cost_model, train_features, train_target, **dict(parameters or {}))
    return SplitCosts(
        model=model,
        train=checked_cost_matrix(model, train_features, on_unreasonable=on_unreasonable),
        evaluated=checked_cost_matrix(model, evaluated_features, on_unreasonable=on_unreasonable),
    )
