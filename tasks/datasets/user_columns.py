"""Check a user's columns before encoding: refuse what would silently be reinterpreted.

The encoding (:mod:`tasks.datasets.encoding`) keeps numeric columns and one-hot encodes every other column.
On a user's file that turns mistakes into features, so before encoding (:func:`prepare_user_features`):

- a column whose name cslearn gives its own columns is refused, naming the column: ``target`` (every
  dataset's 0/1 label), a name starting with ``cost:`` or ``time:`` (the stored costs and time column, which
  are not features), and ``C_FP``, ``C_FN``, ``C_TP``, ``C_TN`` (a served model reads those as a row's own
  costs); the ways out are a rename or ``--drop-columns``;
- a number beyond :data:`~schemas.canonical_dataset.VALUE_LIMIT` (float32's range, where every estimator
  stops) is refused, naming the column, its value and row, as a fit or a prediction would refuse it later;
- a text column in which at least :data:`NUMERIC_SHARE` of the values are numbers is a numeric column with
  stray values (``1, x, 4, 6``): refused, naming the column, the rows and the values that are not numbers
  (values written with a decimal comma, ``1,5``, count as numbers here and are named as such);
- a text column with more than :data:`MAX_CATEGORY_LEVELS` distinct values (an identifier, a free-text
  field, a timestamp) would become that many 0/1 columns: refused, naming the column and its level count.

Either way the user decides: correct the values, leave the column out (``drop_columns`` /
``--drop-columns``), or declare it categorical (``categorical_columns`` / ``--categorical``), which encodes
its values as text levels whatever their type and number. Rows are counted from 0 over the data rows, as in
the pandera messages.

The four cost columns (``--cost-columns``) are read by :func:`user_cost_matrix`: every value a number from
0 to :data:`~schemas.canonical_dataset.VALUE_LIMIT`, or the column is named with its rows and values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schemas.canonical_dataset import COST_COLUMN_NAMES, COST_PREFIX, TARGET_COLUMN, TIME_PREFIX, VALUE_LIMIT

#: More distinct values than this in an inferred text column are refused (an explicit categorical is not).
MAX_CATEGORY_LEVELS = 100

#: A text column in which at least this share of the non-missing values are numbers is numeric.
NUMERIC_SHARE = 0.5

_SAMPLES_SHOWN = 5
_DECIMAL_COMMA = r"[+-]?\d*,\d+"


def _reserved_name_problem(name) -> str | None:
    text = str(name)
    if text == TARGET_COLUMN:
        reason = "cslearn gives every dataset's 0/1 label that name"
    elif text.startswith(COST_PREFIX):
        reason = f"names starting with {COST_PREFIX!r} are the stored cost columns, which are not features"
    elif text.startswith(TIME_PREFIX):
        reason = f"names starting with {TIME_PREFIX!r} are the stored time column, which is not a feature"
    elif text in COST_COLUMN_NAMES:
        reason = f"a served model reads {', '.join(COST_COLUMN_NAMES)} as a row's own costs"
    else:
        return None
    costs = text.startswith(COST_PREFIX) or text in COST_COLUMN_NAMES
    return (
        f"column {text!r} has a name cslearn reserves ({reason}): rename it, or leave it out (--drop-columns "
        f"{text})" + ("; if it holds a cost, name it in --cost-columns" if costs else "")
    )


def _too_large_problem(name: str, column: pd.Series) -> str | None:
    values = column.to_numpy(dtype=float, na_value=np.nan)
    rows = np.flatnonzero(np.isfinite(values) & (np.abs(values) > VALUE_LIMIT))
    if rows.size == 0:
        return None
    shown = ", ".join(f"{values[row]:.6g} at row {row}" for row in rows[:_SAMPLES_SHOWN])
    return (
        f"column {name!r} holds {rows.size:,} value(s) beyond +-{VALUE_LIMIT:.3g} (the largest float32: "
        "every cslearn estimator stops there, as decision trees compare features in float32): "
        f"{shown}. Rescale or transform the column, e.g. log or standardise it, or leave it out "
        f"(--drop-columns {name})"
    )


def _stray_values_problem(name: str, column: pd.Series) -> str | None:
    values = column.dropna()
    text = values.astype("str").str.strip()
    is_number = pd.to_numeric(text, errors="coerce").notna()
    has_decimal_comma = text.str.fullmatch(_DECIMAL_COMMA)
    if values.empty or (is_number | has_decimal_comma).mean() < NUMERIC_SHARE:
        return None
    stray = text[~is_number]
    shown = ", ".join(f"{value!r} at row {row}" for row, value in stray.head(_SAMPLES_SHOWN).items())
    comma = " (values such as '1,5' use a decimal comma: write '1.5')" if has_decimal_comma.any() else ""
    return (
        f"column {name!r} holds numbers, but {len(stray):,} of its {len(values):,} values are not numbers: "
        f"{shown}{comma}. Correct or remove those rows, leave the column out (--drop-columns {name}), or "
        f"encode it as categorical (--categorical {name})"
    )


def _too_many_levels_problem(name: str, column: pd.Series) -> str | None:
    levels = column.dropna().astype("str").unique()
    if len(levels) <= MAX_CATEGORY_LEVELS:
        return None
    shown = ", ".join(repr(level) for level in levels[:3])
    return (
        f"column {name!r} is text with {len(levels):,} distinct values (e.g. {shown}); one-hot encoding "
        f"would turn it into {len(levels):,} feature columns (more than {MAX_CATEGORY_LEVELS} are refused). "
        f"If it identifies rows, leave it out (--drop-columns {name}); if it is a categorical feature, "
        f"allow its levels (--categorical {name})"
    )


def _values_problem(name: str, column: pd.Series, categorical: bool) -> str | None:
    """What is wrong with the values of one feature column, if anything (the module docstring's checks)."""
    if categorical or pd.api.types.is_bool_dtype(column):
        return None
    if pd.api.types.is_numeric_dtype(column):
        return _too_large_problem(name, column)
    return _stray_values_problem(name, column) or _too_many_levels_problem(name, column)


def _as_text_levels(column: pd.Series) -> pd.Series:
    return column.astype("string")  # missing values stay missing: they set none of the 0/1 columns


def prepare_user_features(
    frame: pd.DataFrame, *, member: str, categorical_columns: tuple[str, ...] = ()
) -> pd.DataFrame:
    """``frame`` ready for :func:`~tasks.datasets.encoding.encode_features`, or every problem in one error.

    No column may have a reserved name; columns in ``categorical_columns`` become text (their values are
    the levels); boolean columns pass; numeric columns must stay within float32's range; every other column
    must pass the checks of stray values and of too many levels (module docstring).

    Raises
    ------
    ValueError
        Naming the file and, per refused column, the column, rows, values and the ways to proceed.
    """
    problems = []
    levels = {}
    for name, column in frame.items():
        categorical = name in categorical_columns
        if categorical:
            levels[name] = _as_text_levels(column)
        problem = _reserved_name_problem(name) or _values_problem(name, column, categorical)
        if problem is not None:
            problems.append(problem)
    if problems:
        raise ValueError(
            f"{member}: {len(problems)} column(s) cannot be used as they are:\n  " + "\n  ".join(problems)
        )
    return frame.assign(**levels) if levels else frame


def _cost_column_problem(name: str, cost: str, column: pd.Series) -> str | None:
    numbers = pd.to_numeric(column, errors="coerce").astype("float64")
    written, read = column.tolist(), numbers.tolist()
    checks = (
        ("value(s) that are not numbers", column.notna() & numbers.isna(), written),
        ("negative cost(s)", numbers < 0, read),
        (f"cost(s) beyond {VALUE_LIMIT:.3g}", numbers > VALUE_LIMIT, read),
    )
    for what, failing, values in checks:
        rows = np.flatnonzero(failing.to_numpy(dtype=bool))
        if rows.size:
            shown = ", ".join(f"{values[row]!r} at row {row}" for row in rows[:_SAMPLES_SHOWN])
            return f"cost column {name!r} ({cost}) holds {rows.size:,} {what}: {shown}"
    missing = np.flatnonzero(column.isna().to_numpy())
    if missing.size:
        rows = missing[:_SAMPLES_SHOWN].tolist()
        return f"cost column {name!r} ({cost}) has no value in {missing.size:,} row(s): rows {rows}"
    return None


def user_cost_matrix(raw: pd.DataFrame, cost_columns: tuple[str, ...], *, member: str) -> np.ndarray:
    """The ``(n, 4)`` float costs ``[C_FP, C_FN, C_TP, C_TN]`` of ``cost_columns`` (in that order).

    Raises
    ------
    ValueError
        Naming, per failing column, the cost it holds, its rows and values: text that is not a number, a
        missing value, a negative cost, or a cost beyond float32's range (the limit of every estimator's
        ``cost_matrix``: costs are summed and multiplied over the rows).
    """
    problems = [
        problem
        for cost, name in zip(COST_COLUMN_NAMES, cost_columns, strict=True)
        if (problem := _cost_column_problem(name, cost, raw[name])) is not None
    ]
    if problems:
        raise ValueError(
            f"{member}: {len(problems)} cost column(s) cannot be used as they are:\n  "
            + "\n  ".join(problems)
            + f"\n  every cost is a number from 0 to {VALUE_LIMIT:.3g} (express the costs in a larger unit, "
            "e.g. thousands, if they are larger)"
        )
    return np.column_stack([pd.to_numeric(raw[name]).to_numpy(dtype=np.float64) for name in cost_columns])
