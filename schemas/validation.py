"""Run a pandera model lazily and turn its failures into one readable ``ValueError``.

pandera's ``SchemaErrors.failure_cases`` frame lists, per failure, the column, the check, the failing value
and its row index. :func:`validate_frame` keeps that frame on the raised :class:`DataValidationError` (for
logging as an artifact) and writes a summary naming each failing column and check with a few sample values and
row indices.
"""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa

#: How many sample failure cases and row indices the message shows per (column, check).
SAMPLES_SHOWN = 5


class DataValidationError(ValueError):
    """A frame broke its pandera contract; ``failure_cases`` lists every failure (column, check, row)."""

    def __init__(self, message: str, failure_cases: pd.DataFrame):
        super().__init__(message)
        self.failure_cases = failure_cases


_FRAME_CHECK_WORDING = {
    "column_in_dataframe": "missing column",
    "column_in_schema": "unexpected column (the model is strict)",
}


def _row_label(index):
    """A row label as the user knows it: integer positions as ``int``, other labels (strings, dates) as-is."""
    try:
        return int(index)
    except (TypeError, ValueError):
        return index


def summarize_failure_cases(failure_cases: pd.DataFrame, *, samples: int = SAMPLES_SHOWN) -> list[str]:
    """One line per failing (column, check): how many failures, sample values and sample row indices.

    Missing and unexpected columns (pandera reports them against the whole frame) are named as such.
    """
    lines = []
    cases = failure_cases.astype({"column": "object", "check": "object"}).fillna({"column": "<frame>"})
    for (column, check), group in cases.groupby(["column", "check"], sort=False, dropna=False):
        values = [repr(value) for value in group["failure_case"].head(samples)]
        if check in _FRAME_CHECK_WORDING:
            lines.append(f"{_FRAME_CHECK_WORDING[check]}: {', '.join(values)} ({check})")
            continue
        rows = [_row_label(index) for index in group["index"].dropna().head(samples)]
        line = f"column {column!r} failed {check}: {len(group)} case(s), e.g. {', '.join(values)}"
        if rows:
            line += f" at rows {rows}"
        lines.append(line)
    return lines


def validate_frame(
    model: type[pa.DataFrameModel] | pa.DataFrameSchema, frame: pd.DataFrame, *, what: str
) -> pd.DataFrame:
    """Validate ``frame`` against ``model`` lazily; raise :class:`DataValidationError` naming every failure.

    Parameters
    ----------
    model : pandera DataFrameModel subclass or DataFrameSchema
    frame : pandas.DataFrame
    what : str
        Names the data in the message, e.g. ``"credit-scoring (raw creditscoring1.csv.gz)"``.

    Returns
    -------
    pandas.DataFrame
        The validated (and, for coercing models, coerced) frame.
    """
    try:
        return model.validate(frame, lazy=True)
    except pa.errors.SchemaErrors as error:
        failure_cases = error.failure_cases
    except pa.errors.SchemaError as error:  # strict-mode and some frame-level failures are raised eagerly
        failure_cases = pd.DataFrame(
            {
                "column": [getattr(error.schema, "name", None)],
                "check": [str(error.check) if error.check is not None else "schema"],
                "failure_case": [str(error)],
                "index": [None],
            }
        )
    lines = summarize_failure_cases(failure_cases)
    model_name = getattr(model, "__name__", None) or getattr(model, "name", None) or "its schema"
    message = f"{what} does not satisfy {model_name}:\n  " + "\n  ".join(lines)
    raise DataValidationError(message, failure_cases)
