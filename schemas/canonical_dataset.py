"""The canonical dataset contract every ingested dataset satisfies before it is cached.

Encoding (documented once, applied by ``tasks.datasets.encoding``): numeric source columns keep their names
and become float64; each categorical column ``c`` becomes one float 0/1 column per level, named ``c=level``;
booleans become 0/1. A user's file may add the four example-dependent cost columns ``cost:C_FP``,
``cost:C_FN``, ``cost:C_TP``, ``cost:C_TN`` (non-negative), and a dataset bound to a source with a time column
keeps it as ``time:<column>`` (float64 seconds: the number itself, or seconds since the Unix epoch for dates),
which is not a feature. The target column is 0/1 with 1 = positive = the
minority class. No NaN or infinity remains (every dataset's recipe documents its own imputation or row
filter), and no feature or cost is larger in magnitude than :data:`VALUE_LIMIT` (float32's range, where every
estimator stops).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

#: Name of the target column inside the cached parquet (features are every other column).
TARGET_COLUMN = "target"

#: Order of the cost columns: ``algorithms.metrics.COST_COLUMNS`` (repeated, not imported: importing
#: ``algorithms`` loads every estimator, which the data layer and the CLI do not need).
COST_COLUMN_NAMES = ("C_FP", "C_FN", "C_TP", "C_TN")

#: Prefix of the optional example-dependent cost columns (``cost:C_FP``, ...) of a user's dataset.
COST_PREFIX = "cost:"

#: Prefix of the time column of a dataset bound to a source (``time:<column>``), never a feature.
TIME_PREFIX = "time:"

#: Largest magnitude of a feature or cost: float32's largest finite value (about 3.4e38), the limit of every
#: estimator (``algorithms._validation.FEATURE_MAGNITUDE_LIMIT`` and ``COST_MAGNITUDE_LIMIT``; repeated, not
#: imported, like :data:`COST_COLUMN_NAMES`), so that what is ingested can be fitted and served.
VALUE_LIMIT = float(np.finfo(np.float32).max)

_FEATURE_COLUMNS = rf"^(?!{TARGET_COLUMN}$)(?!{COST_PREFIX})(?!{TIME_PREFIX}).+"
_COST_COLUMNS = rf"^{COST_PREFIX}C_(FP|FN|TP|TN)$"
_TIME_COLUMNS = rf"^{TIME_PREFIX}.+"


def within_value_limit(column: pd.Series) -> pd.Series:
    """Whether each value is at most :data:`VALUE_LIMIT` in magnitude (infinities are the finite check's);
    ``True`` for a column that is not numeric (its dtype failure is reported by its own check)."""
    if not pd.api.types.is_numeric_dtype(column):
        return pd.Series(True, index=column.index)
    values = column.to_numpy(dtype=float, na_value=np.nan)
    return pd.Series(~(np.isfinite(values) & (np.abs(values) > VALUE_LIMIT)), index=column.index)


def is_feature_column(name: str) -> bool:
    """Whether a canonical column is a feature (not the target, a cost or the time column)."""
    return name != TARGET_COLUMN and not name.startswith((COST_PREFIX, TIME_PREFIX))


class CanonicalBatch(pa.DataFrameModel):
    """Rows of a canonical dataset: float64 features without NaN/inf, a 0/1 target, optional costs and time.

    A batch appended to a dataset bound to a source satisfies this; it may hold one class only (an hour
    without fraud). :class:`CanonicalDataset` adds the checks on a whole dataset.
    """

    features: Series[np.float64] = pa.Field(alias=_FEATURE_COLUMNS, regex=True, nullable=False)
    target: Series[np.int8] = pa.Field(isin=[0, 1], nullable=False, alias=TARGET_COLUMN)
    costs: Series[np.float64] = pa.Field(
        alias=_COST_COLUMNS, regex=True, nullable=False, ge=0, required=False
    )
    time: Series[np.float64] = pa.Field(alias=_TIME_COLUMNS, regex=True, nullable=False, required=False)

    class Config:
        strict = True
        coerce = True

    @pa.check(_FEATURE_COLUMNS, regex=True, name="finite")
    def finite(cls, column: pd.Series) -> pd.Series:
        if not pd.api.types.is_numeric_dtype(column):
            return pd.Series(True, index=column.index)  # the dtype failure is already reported
        return pd.Series(np.isfinite(column.to_numpy(dtype=float)), index=column.index)

    @pa.check(_FEATURE_COLUMNS, _COST_COLUMNS, regex=True, name="within_float32_range")
    def within_float32_range(cls, column: pd.Series) -> pd.Series:
        return within_value_limit(column)

    @pa.check(_TIME_COLUMNS, regex=True, name="finite")
    def finite_time(cls, column: pd.Series) -> pd.Series:
        if not pd.api.types.is_numeric_dtype(column):
            return pd.Series(True, index=column.index)
        return pd.Series(np.isfinite(column.to_numpy(dtype=float)), index=column.index)

    @pa.dataframe_check(name="has_feature_columns")
    def has_feature_columns(cls, frame: pd.DataFrame) -> bool:
        return any(is_feature_column(name) for name in frame.columns)


class CanonicalDataset(CanonicalBatch):
    """Numeric float64 features without NaN/inf and a binary 0/1 target in which 1 is the minority class."""

    class Config:
        strict = True
        coerce = True

    @pa.dataframe_check(name="both_classes_present")
    def both_classes_present(cls, frame: pd.DataFrame) -> bool:
        return frame[TARGET_COLUMN].nunique() == 2

    @pa.dataframe_check(name="positive_class_is_minority", raise_warning=True)
    def positive_class_is_minority(cls, frame: pd.DataFrame) -> bool:
        return frame[TARGET_COLUMN].mean() <= 0.5
