"""The documented encoding from a prepared frame to the canonical numeric features.

- numeric columns (int, float) keep their source names and become float64;
- boolean columns become 0.0 / 1.0;
- every other column (text, categorical) ``c`` becomes one 0/1 float column per observed level, named
  ``c=level`` (levels sorted; a missing value sets none of them).

:class:`RawEncoding` is that encoding with its levels fixed, so that raw rows (``"job": "blue-collar"``)
are encoded again the same way: by a refresh of a dataset bound to a source, a served model and batch
scoring. :func:`align_features` fits rows encoded with more (or fewer) levels to a model's columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from schemas.canonical_dataset import VALUE_LIMIT


def encode_features(frame: pd.DataFrame) -> pd.DataFrame:
    """Numeric float64 features from ``frame`` by the module's encoding (column order: source order)."""
    encoded = []
    for name, column in frame.items():
        if pd.api.types.is_bool_dtype(column) or pd.api.types.is_numeric_dtype(column):
            encoded.append(column.astype("float64").rename(name))
        else:
            dummies = pd.get_dummies(column.astype("category"), prefix=name, prefix_sep="=", dtype="float64")
            encoded.append(dummies.reindex(sorted(dummies.columns), axis=1))
    if not encoded:
        return pd.DataFrame(index=frame.index)
    features = pd.concat(
        [part.to_frame() if isinstance(part, pd.Series) else part for part in encoded], axis=1
    )
    return features.reset_index(drop=True)


#: Kinds of raw feature column the encoding knows: kept as a number, or one 0/1 column per level.
NUMERIC = "numeric"
CATEGORICAL = "categorical"

_LEVEL_SEPARATOR = "="
_SAMPLES_SHOWN = 5


@dataclass(frozen=True)
class EncodedColumn:
    """One raw feature column: its name, its kind, and (categorical) the levels with a 0/1 column each."""

    name: str
    kind: str
    levels: tuple[str, ...] = ()

    @property
    def feature_names(self) -> list[str]:
        if self.kind == NUMERIC:
            return [self.name]
        return [f"{self.name}{_LEVEL_SEPARATOR}{level}" for level in self.levels]


def _shown_value(value) -> str:
    """A raw value as a message shows it: ``a missing value``, or its repr as a plain Python value."""
    if value is None or (isinstance(value, float | np.floating) and np.isnan(value)):
        return "a missing value"
    return repr(value.item() if isinstance(value, np.generic) else value)


class RawInputError(ValueError):
    """Raw rows break the encoding's input contract; ``problems`` lists one sentence per column."""

    def __init__(self, problems: list[str], bad_rows: dict[int, str] | None = None):
        super().__init__("; ".join(problems))
        self.problems = problems
        self.bad_rows = bad_rows or {}


@dataclass(frozen=True)
class RawEncoding:
    """The encoding of :func:`encode_features` with its levels fixed: raw columns in, canonical columns out.

    It is what a dataset's rows were encoded with (recorded with a user dataset, derived from the canonical
    column names otherwise, :meth:`from_feature_names`), so that the same raw columns a user has
    (``"job": "blue-collar"``) can be encoded again: by a served model, by batch scoring, by a refresh.
    A level the encoding does not know sets none of its column's 0/1 columns, exactly as a missing value
    does (see :meth:`unseen_levels` to count them); a numeric column must hold numbers.
    """

    columns: tuple[EncodedColumn, ...]

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> RawEncoding:
        """The encoding :func:`encode_features` applies to ``frame`` (levels as observed, sorted)."""
        columns = []
        for name, column in frame.items():
            if pd.api.types.is_bool_dtype(column) or pd.api.types.is_numeric_dtype(column):
                columns.append(EncodedColumn(str(name), NUMERIC))
            else:
                levels = sorted({str(value) for value in column.dropna().unique()})
                columns.append(EncodedColumn(str(name), CATEGORICAL, tuple(levels)))
        return cls(tuple(columns))

    @classmethod
    def from_feature_names(cls, names) -> RawEncoding:
        """The encoding read back from canonical column names: ``c=level`` is a level of ``c``, else numeric.

        The raw columns keep the order of their first canonical column; levels keep theirs.
        """
        columns: dict[str, list[str] | None] = {}
        for name in map(str, names):
            raw, separator, level = name.partition(_LEVEL_SEPARATOR)
            if separator:
                columns.setdefault(raw, []).append(level)
            else:
                columns[name] = None
        return cls(
            tuple(
                EncodedColumn(name, NUMERIC)
                if levels is None
                else EncodedColumn(name, CATEGORICAL, tuple(levels))
                for name, levels in columns.items()
            )
        )

    @classmethod
    def from_record(cls, record) -> RawEncoding:
        return cls(
            tuple(EncodedColumn(item["name"], item["kind"], tuple(item.get("levels", ()))) for item in record)
        )

    def to_record(self) -> list[dict]:
        return [
            {
                "name": column.name,
                "kind": column.kind,
                **({"levels": list(column.levels)} if column.levels else {}),
            }
            for column in self.columns
        ]

    @property
    def raw_names(self) -> list[str]:
        return [column.name for column in self.columns]

    @property
    def feature_names(self) -> list[str]:
        return [name for column in self.columns for name in column.feature_names]

    def restricted_to(self, feature_names) -> RawEncoding:
        """This encoding limited to ``feature_names`` (a model's columns): the levels it was trained with."""
        wanted = set(map(str, feature_names))
        columns = []
        for column in self.columns:
            if column.kind == NUMERIC:
                if column.name in wanted:
                    columns.append(column)
                continue
            levels = tuple(
                level
                for level, name in zip(column.levels, column.feature_names, strict=True)
                if name in wanted
            )
            if levels:
                columns.append(EncodedColumn(column.name, CATEGORICAL, levels))
        restricted = RawEncoding(tuple(columns))
        missing = sorted(wanted - set(restricted.feature_names))
        if missing:
            raise ValueError(f"the encoding has no column(s) {missing[:_SAMPLES_SHOWN]}")
        return restricted

    def extended(self, frame: pd.DataFrame) -> RawEncoding:
        """This encoding with the levels of ``frame``'s categorical columns it did not know yet (sorted)."""
        columns = []
        for column in self.columns:
            if column.kind == CATEGORICAL and column.name in frame:
                seen = {str(value) for value in frame[column.name].dropna().unique()}
                column = EncodedColumn(column.name, CATEGORICAL, tuple(sorted(set(column.levels) | seen)))
            columns.append(column)
        return RawEncoding(tuple(columns))

    def input_problems(self, rows: pd.DataFrame) -> RawInputError | None:
        """Why ``rows`` cannot be encoded: missing columns, or values of a numeric column that are not
        finite numbers within :data:`~schemas.canonical_dataset.VALUE_LIMIT` (float32's range, where every
        estimator stops: a served row with ``age=1e300`` is refused, not decided), each bad row named;
        ``None`` when they can."""
        missing = [name for name in self.raw_names if name not in rows]
        if missing:
            return RawInputError(
                [f"input lacks column(s) {missing}; the model takes the raw columns {self.raw_names}"]
            )
        problems, bad_rows = [], {}
        for column in self.columns:
            if column.kind != NUMERIC:
                continue
            values = pd.to_numeric(rows[column.name], errors="coerce").to_numpy(dtype="float64")
            with np.errstate(invalid="ignore"):
                bad = ~(np.abs(values) <= VALUE_LIMIT)  # NaN and infinity too
            if bad.any():
                positions = np.flatnonzero(bad)
                shown = ", ".join(
                    f"{_shown_value(rows[column.name].iloc[position])} at row {position}"
                    for position in positions[:_SAMPLES_SHOWN]
                )
                problems.append(
                    f"column {column.name!r} takes finite numbers of at most +-{VALUE_LIMIT:.3g};"
                    f" {bad.sum():,} of {len(rows):,} row(s) are not: {shown}"
                )
                for position in positions:
                    bad_rows.setdefault(
                        int(position), f"{column.name}: {_shown_value(rows[column.name].iloc[position])}"
                    )
        return RawInputError(problems, bad_rows) if problems else None

    def encode(self, rows: pd.DataFrame) -> pd.DataFrame:
        """The canonical float64 columns of raw ``rows`` (index kept), in :attr:`feature_names` order.

        Raises
        ------
        RawInputError
            When :meth:`input_problems` finds a problem.
        """
        problem = self.input_problems(rows)
        if problem is not None:
            raise problem
        parts = {}
        for column in self.columns:
            values = rows[column.name]
            if column.kind == NUMERIC:
                parts[column.name] = pd.to_numeric(values, errors="coerce").astype("float64").to_numpy()
                continue
            text = (
                values.astype("object")
                .where(values.notna(), None)
                .map(lambda value: None if value is None else str(value))
            )
            for level, name in zip(column.levels, column.feature_names, strict=True):
                parts[name] = (text == level).to_numpy(dtype="float64")
        return pd.DataFrame(parts, index=rows.index, columns=self.feature_names)

    def decode(self, features: pd.DataFrame) -> pd.DataFrame:
        """Raw columns back from canonical ``features``: the level whose 0/1 column is set (else missing)."""
        parts = {}
        for column in self.columns:
            if column.kind == NUMERIC:
                parts[column.name] = features[column.name].to_numpy()
                continue
            indicators = features[column.feature_names].to_numpy()
            chosen = np.where(indicators.any(axis=1), indicators.argmax(axis=1), -1)
            levels = np.array([*column.levels, None], dtype=object)
            parts[column.name] = levels[chosen]
        return pd.DataFrame(parts, index=features.index)

    def unseen_levels(self, rows: pd.DataFrame) -> dict[str, dict[str, int]]:
        """Per categorical column, the levels of ``rows`` this encoding does not know, with their counts."""
        unseen = {}
        for column in self.columns:
            if column.kind != CATEGORICAL or column.name not in rows:
                continue
            counts = rows[column.name].dropna().astype("str").value_counts()
            new = {str(level): int(count) for level, count in counts.items() if level not in column.levels}
            if new:
                unseen[column.name] = new
        return unseen


def align_features(features: pd.DataFrame, feature_names) -> pd.DataFrame:
    """``features`` with the columns ``feature_names`` a model was fitted on, in that order.

    Rows encoded with more levels than the model knew keep only its levels (a level it never saw sets none
    of its columns); a level column the rows lack is 0. Any other difference is an error.

    Raises
    ------
    ValueError
        When a numeric column the model needs is missing.
    """
    feature_names = [str(name) for name in feature_names]
    missing = [name for name in feature_names if name not in features]
    numeric_missing = [name for name in missing if _LEVEL_SEPARATOR not in name]
    if numeric_missing:
        raise ValueError(f"the rows lack the model's column(s) {numeric_missing[:_SAMPLES_SHOWN]}")
    extra = [
        name for name in features if name not in set(feature_names) and _LEVEL_SEPARATOR not in str(name)
    ]
    if extra:
        raise ValueError(f"the rows have column(s) {extra[:_SAMPLES_SHOWN]} the model was not fitted on")
    return features.reindex(columns=feature_names, fill_value=0.0)
