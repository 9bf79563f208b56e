"""Check a user's feature columns before encoding: refuse what the encoding would silently reinterpret.

The encoding (:mod:`tasks.datasets.encoding`) keeps numeric columns and one-hot encodes every other column.
On a user's file that turns mistakes into features, so before encoding:

- a text column in which at least :data:`NUMERIC_SHARE` of the values are numbers is a numeric column with
  stray values (``1, x, 4, 6``): refused, naming the column, the rows and the values that are not numbers
  (values written with a decimal comma, ``1,5``, count as numbers here and are named as such);
- a text column with more than :data:`MAX_CATEGORY_LEVELS` distinct values (an identifier, a free-text
  field, a timestamp) would become that many 0/1 columns: refused, naming the column and its level count.

Either way the user decides: correct the values, leave the column out (``drop_columns`` /
``--drop-columns``), or declare it categorical (``categorical_columns`` / ``--categorical``), which encodes
its values as text levels whatever their type and number. Rows are counted from 0 over the data rows, as in
the pandera messages.
"""

from __future__ import annotations

import pandas as pd

#: More distinct values than this in an inferred text column are refused (an explicit categorical is not).
MAX_CATEGORY_LEVELS = 100

#: A text column in which at least this share of the non-missing values are numbers is numeric.
NUMERIC_SHARE = 0.5

_SAMPLES_SHOWN = 5
_DECIMAL_COMMA = r"[+-]?\d*,\d+"


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


def _as_text_levels(column: pd.Series) -> pd.Series:
    return column.astype("string")  # missing values stay missing: they set none of the 0/1 columns


def prepare_user_features(
    frame: pd.DataFrame, *, member: str, categorical_columns: tuple[str, ...] = ()
) -> pd.DataFrame:
    """``frame`` ready for :func:`~tasks.datasets.encoding.encode_features`, or every problem in one error.

    Columns in ``categorical_columns`` become text (their values are the levels); numeric and boolean
    columns pass; every other column must pass the two checks of the module docstring.

    Raises
    ------
    ValueError
        Naming the file and, per refused column, the column, rows, values and the ways to proceed.
    """
    problems = []
    levels = {}
    for name, column in frame.items():
        if name in categorical_columns:
            levels[name] = _as_text_levels(column)
        elif not (pd.api.types.is_bool_dtype(column) or pd.api.types.is_numeric_dtype(column)):
            problem = _stray_values_problem(name, column) or _too_many_levels_problem(name, column)
            if problem is not None:
                problems.append(problem)
    if problems:
        raise ValueError(
            f"{member}: {len(problems)} column(s) cannot be used as they are:\n  " + "\n  ".join(problems)
        )
    return frame.assign(**levels) if levels else frame
