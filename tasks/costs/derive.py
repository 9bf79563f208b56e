"""The Prefect task that derives a dataset's cost matrix, and the pure functions it wraps.

:func:`fit_cost_model` builds a registered cost model with explicit parameters and fits it on the training
split; :func:`checked_cost_matrix` computes a split's matrix and validates it against the cost-matrix schema,
either failing on a broken reasonableness condition or reporting the rows that break one.
:func:`derive_cost_matrix` is the Prefect task composing both; it logs the parameters, the ``b_i`` summary
and any unreasonable rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from schemas.cost_matrix import (
    REPORT_COLUMNS,
    cost_matrix_to_frame,
    report_unreasonable_rows,
    validate_cost_matrix,
)
from tasks.costs._base import CostModel
from tasks.costs.card_fraud import CardFraudCostModel
from tasks.costs.characteristic import cost_characteristic_summary
from tasks.costs.credit_scoring import CreditScoringCostModel, PakddCreditScoringCostModel
from tasks.costs.direct_marketing import DirectMarketingCostModel

__all__ = ["COST_MODELS", "CheckedCostMatrix", "checked_cost_matrix", "derive_cost_matrix", "fit_cost_model"]

#: Cost models by dataset name (``tasks.datasets`` specs name one of these keys in ``cost_model``).
COST_MODELS: dict[str, type[CostModel]] = {
    CreditScoringCostModel.name: CreditScoringCostModel,
    PakddCreditScoringCostModel.name: PakddCreditScoringCostModel,
    DirectMarketingCostModel.name: DirectMarketingCostModel,
    CardFraudCostModel.name: CardFraudCostModel,
}

#: How many unreasonable rows the task logs.
ROWS_LOGGED = 5


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


@task(name="derive_cost_matrix", cache_policy=NO_CACHE)
def derive_cost_matrix(
    cost_model: str,
    train_features: pd.DataFrame,
    train_target: np.ndarray,
    features: pd.DataFrame,
    parameters: dict | None = None,
    on_unreasonable: Literal["raise", "report"] = "report",
) -> np.ndarray:
    """Fit a registered cost model on the training split; return the validated cost matrix of ``features``."""
    logger = get_run_logger()
    model = fit_cost_model(cost_model, train_features, train_target, **(parameters or {}))
    checked = checked_cost_matrix(model, features, on_unreasonable=on_unreasonable)
    logger.info("cost model %s: %s", cost_model, model.params())
    logger.info("cost characteristic b_i: %s", checked.summary)
    if not checked.unreasonable_rows.empty:
        counts = checked.unreasonable_rows["condition"].value_counts().to_dict()
        logger.warning(
            "%d of %d rows break a reasonableness condition %s; first rows:\n%s",
            checked.unreasonable_rows["index"].nunique(),
            len(features),
            counts,
            checked.unreasonable_rows.head(ROWS_LOGGED).to_string(index=False),
        )
    return checked.values
