"""The example-dependent cost-matrix contract: four non-negative cost columns per example.

A cost matrix has one row per example and the columns ``C_FP, C_FN, C_TP, C_TN`` (CSDT paper, Table 1;
cslearn's array layout ``[C_FP, C_FN, C_TP, C_TN]``). Two pandera models describe it:

- :class:`CostMatrix` holds the hard invariants: exactly the four columns, float, no NaN, finite,
  non-negative, at most :data:`~schemas.canonical_dataset.VALUE_LIMIT` (float32's range: the limit of every
  estimator's ``cost_matrix``, beyond which sums and products of costs overflow).
- :class:`ReasonableCostMatrix` adds Elkan's (2001) reasonableness conditions per example, quoted by the CSDT
  paper in Section 2.1: ``C_FP > C_TN`` (a false alarm costs more than a correct rejection) and
  ``C_FN > C_TP`` (a miss costs more than a hit).

The paper's own cost formulas break the second condition on some rows (a card transaction smaller than the
cost of an alert, a client whose expected interest is below the contact cost), so callers choose:
:func:`validate_cost_matrix` fails on any broken condition, while :func:`report_unreasonable_rows` enforces
only the hard invariants and returns one line per (row, broken condition).
Failures raise :class:`schemas.validation.DataValidationError` (a ``ValueError``) naming each failing column
and check with sample values and row indices.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from schemas.canonical_dataset import within_value_limit
from schemas.validation import SAMPLES_SHOWN, DataValidationError, validate_frame

__all__ = [
    "CostMatrix",
    "REPORT_COLUMNS",
    "ReasonableCostMatrix",
    "UNREASONABLE_CONDITIONS",
    "cost_columns",
    "cost_matrix_from_frame",
    "cost_matrix_to_frame",
    "report_unreasonable_rows",
    "validate_cost_matrix",
]


class CostMatrix(pa.DataFrameModel):
    """Hard invariants of an example-dependent cost matrix (one row per example, money units).

    Columns, in this order: ``C_FP`` (cost of a false positive), ``C_FN`` (false negative), ``C_TP`` (true
    positive), ``C_TN`` (true negative), each a finite, non-negative float of at most
    :data:`~schemas.canonical_dataset.VALUE_LIMIT`. Integer input is coerced to float.
    """

    C_FP: Series[float] = pa.Field(ge=0, nullable=False)
    C_FN: Series[float] = pa.Field(ge=0, nullable=False)
    C_TP: Series[float] = pa.Field(ge=0, nullable=False)
    C_TN: Series[float] = pa.Field(ge=0, nullable=False)

    class Config:
        strict = True
        coerce = True

    @pa.check("C_FP", "C_FN", "C_TP", "C_TN", name="finite")
    def _finite(cls, costs: Series[float]) -> Series[bool]:
        return pd.Series(np.isfinite(costs.to_numpy(dtype=float)), index=costs.index)

    @pa.check("C_FP", "C_FN", "C_TP", "C_TN", name="within_float32_range")
    def _within_float32_range(cls, costs: Series[float]) -> Series[bool]:
        return within_value_limit(costs)


class ReasonableCostMatrix(CostMatrix):
    """:class:`CostMatrix` plus Elkan's reasonableness conditions, checked per example (CSDT Section 2.1)."""

    @pa.dataframe_check(name="false_positive_cost_above_true_negative_cost")
    def _false_positive_above_true_negative(cls, frame: pd.DataFrame) -> Series[bool]:
        return frame[cls.C_FP] > frame[cls.C_TN]

    @pa.dataframe_check(name="false_negative_cost_above_true_positive_cost")
    def _false_negative_above_true_positive(cls, frame: pd.DataFrame) -> Series[bool]:
        return frame[cls.C_FN] > frame[cls.C_TP]


#: The reasonableness checks of :class:`ReasonableCostMatrix`, by check name, as readable conditions.
UNREASONABLE_CONDITIONS = {
    "false_positive_cost_above_true_negative_cost": f"{CostMatrix.C_FP} > {CostMatrix.C_TN}",
    "false_negative_cost_above_true_positive_cost": f"{CostMatrix.C_FN} > {CostMatrix.C_TP}",
}


#: Columns of the report of :func:`report_unreasonable_rows`.
REPORT_COLUMNS = [
    "index",
    "check",
    "condition",
    CostMatrix.C_FP,
    CostMatrix.C_FN,
    CostMatrix.C_TP,
    CostMatrix.C_TN,
]


def cost_columns() -> list[str]:
    """The column names of a cost matrix in array order ``[C_FP, C_FN, C_TP, C_TN]``."""
    return [CostMatrix.C_FP, CostMatrix.C_FN, CostMatrix.C_TP, CostMatrix.C_TN]


def cost_matrix_to_frame(cost_matrix, index=None) -> pd.DataFrame:
    """Turn an ``(n, 4)`` array ``[C_FP, C_FN, C_TP, C_TN]`` into a float frame with the named columns.

    Parameters
    ----------
    cost_matrix : array-like of shape (n_examples, 4)
    index : pandas.Index or array-like, optional
        Row labels (e.g. the feature frame's index), so that failures name the caller's rows.

    Raises
    ------
    ValueError
        If the array is not two-dimensional with four columns. Values are not checked here: see
        :func:`validate_cost_matrix`.
    """
    costs = np.asarray(cost_matrix, dtype=float)
    if costs.ndim != 2 or costs.shape[1] != 4:
        raise ValueError(
            f"a cost matrix must have shape (n_examples, 4) with columns {cost_columns()}; "
            f"got shape {costs.shape}"
        )
    return pd.DataFrame(costs, columns=cost_columns(), index=index)


def cost_matrix_from_frame(frame: pd.DataFrame) -> np.ndarray:
    """Validate ``frame`` against :class:`CostMatrix` and return its ``(n, 4)`` float array.

    Raises
    ------
    schemas.validation.DataValidationError
        If a column is missing or extra, or a value is NaN, infinite or negative.
    """
    validated = validate_frame(CostMatrix, frame, what="cost matrix")
    return validated[cost_columns()].to_numpy(dtype=float)


def validate_cost_matrix(frame: pd.DataFrame) -> pd.DataFrame:
    """Validate every invariant, reasonableness included; return the validated float frame.

    The hard invariants are checked first, so a NaN or a missing column is reported as such and not also as a
    broken reasonableness condition.

    Raises
    ------
    schemas.validation.DataValidationError
        Naming each failing column and check with sample failure values and row indices; for a broken
        reasonableness condition, the condition, how many rows break it, and sample rows with their two costs.
        Its ``failure_cases`` are pandera's, labelled with ``frame``'s row labels.
    """
    validated = validate_frame(CostMatrix, frame, what="cost matrix")
    report = _unreasonable_rows(validated)
    if report.empty:
        return validated
    lines = []
    for check, rows in report.groupby("check", sort=False):
        left, right = (column.strip() for column in UNREASONABLE_CONDITIONS[check].split(">"))
        samples = ", ".join(
            f"row {row['index']!r} ({left}={row[left]!r}, {right}={row[right]!r})"
            for row in rows.head(SAMPLES_SHOWN).to_dict("records")
        )
        lines.append(
            f"{len(rows)} row(s) break {UNREASONABLE_CONDITIONS[check]} (check {check}), e.g. {samples}"
        )
    message = "cost matrix does not satisfy ReasonableCostMatrix:\n  " + "\n  ".join(lines)
    failure_cases = pd.DataFrame()
    try:  # pandera's own failure cases, for callers that log them as an artifact
        ReasonableCostMatrix.validate(validated.reset_index(drop=True), lazy=True)  # labels may repeat
    except pa.errors.SchemaErrors as error:
        positions = error.failure_cases["index"].to_numpy(dtype=int)
        failure_cases = error.failure_cases.assign(index=validated.index[positions])
    raise DataValidationError(message, failure_cases)


def report_unreasonable_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Enforce the hard invariants, then list the rows that break a reasonableness condition.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns ``C_FP, C_FN, C_TP, C_TN``.

    Returns
    -------
    pandas.DataFrame
        One line per (row, broken condition), sorted by row: ``index`` (the row label in ``frame``),
        ``check`` (the pandera check name), ``condition`` (e.g. ``"C_FN > C_TP"``) and the row's four costs.
        Empty (with these columns) when every row is reasonable.

    Raises
    ------
    schemas.validation.DataValidationError
        If a hard invariant fails (missing or extra column, NaN, infinite or negative cost).
    """
    return _unreasonable_rows(validate_frame(CostMatrix, frame, what="cost matrix"))


def _unreasonable_rows(validated: pd.DataFrame) -> pd.DataFrame:
    """Run the reasonableness checks of :class:`ReasonableCostMatrix`; one line per broken (row, check).

    Calling the pandera checks (rather than validating and catching ``SchemaErrors``) skips the formatting of
    every failure case, which dominates when many rows fail (the card-fraud data has 100,000 such rows).
    """
    by_position = validated.reset_index(drop=True)  # row labels may repeat; positions do not
    broken = []
    for check in ReasonableCostMatrix.to_schema().checks:
        if check.name in UNREASONABLE_CONDITIONS:
            failed = np.flatnonzero(~check(by_position).check_output.to_numpy(dtype=bool))
            broken.append(pd.DataFrame({"position": failed, "check": check.name}))
    broken = pd.concat(broken, ignore_index=True).sort_values(["position", "check"], kind="stable")
    positions = broken["position"].to_numpy(dtype=int)
    report = pd.DataFrame({"index": validated.index[positions], "check": broken["check"].to_numpy()})
    report["condition"] = report["check"].map(UNREASONABLE_CONDITIONS)
    costs = by_position.iloc[positions].reset_index(drop=True)
    return pd.concat([report, costs], axis=1)[REPORT_COLUMNS]
