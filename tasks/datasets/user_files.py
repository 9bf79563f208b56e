"""A user's own CSV or parquet file as a dataset: ingest it, read it back, rebuild it, describe it.

A user dataset lives in ``datasets/user/<name>.parquet`` with its record ``<name>.json`` beside it (written
last, atomically), under the same validation as the registered datasets. Its name shares one name space with
the registered datasets (``compare --datasets NAME``), so it must be a valid name
(:func:`~tasks.datasets.records.name_problem`) and not a registered one; an existing user dataset is replaced
only when re-ingested from the same file, or when the caller says so (``replace=True``, ``--force``). That
check and the write happen under the entry's lock (:mod:`tasks.datasets.entry_lock`), so two ingests of one
name at once end as they do one after the other.

The record keeps the source path and every option the file was read with, so the dataset can be described,
loaded, and rebuilt from the source when its parquet is damaged and the source is unchanged (same sha256);
otherwise the error names the damaged file and gives the exact command that ingests it again.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import shlex
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pandera.pandas as pa

from schemas.canonical_dataset import COST_COLUMN_NAMES as COST_COLUMNS
from schemas.canonical_dataset import COST_PREFIX
from schemas.dataset_record import DatasetRecord, UserDatasetRecord
from tasks.datasets.cache import resolve_cache_dir, sha256_file
from tasks.datasets.encoding import encode_features
from tasks.datasets.entry_lock import locked_entry
from tasks.datasets.ingestion import (
    UnusableEntryError,
    build_canonical_frame,
    content_fingerprint,
    open_entry,
    write_entry,
)
from tasks.datasets.records import (
    USER_FOLDER,
    DamagedRecordError,
    EntryPaths,
    entry_paths,
    name_problem,
    read_record,
)
from tasks.datasets.sources import LocalFile, check_regular_file
from tasks.datasets.spec import Dataset, DatasetEntry, DatasetSpec
from tasks.datasets.user_columns import prepare_user_features, user_cost_matrix
from tasks.datasets.user_table import (
    DEFAULT_MAX_COLUMNS,
    delimiter_name,
    inspect_csv_header,
    is_parquet,
    read_user_table,
)

logger = logging.getLogger(__name__)

#: Record fields that only a user dataset's record has (how its file was read).
_USER_RECORD_FIELDS = tuple(set(UserDatasetRecord.model_fields) - set(DatasetRecord.model_fields))


class UserDatasetError(ValueError):
    """A user dataset exists but cannot be loaded; the message names the damaged file and the fix."""


@dataclasses.dataclass(frozen=True)
class UserFileOptions:
    """How a user's file becomes a dataset (the arguments of :func:`ingest_file`, kept in the record).

    Attributes
    ----------
    target : str
        The label column.
    positive : str or None
        The label value that is positive (compared as text); ``None``: the rarer of exactly two values.
    cost_columns : tuple of str
        Empty, or the 4 columns holding C_FP, C_FN, C_TP, C_TN per example.
    delimiter : str or None
        CSV delimiter; ``None`` detects it from the header (see :mod:`tasks.datasets.user_table`).
    encoding : str
        Text encoding of a CSV file.
    drop_columns : tuple of str
        Columns left out of the features (identifiers, free text).
    categorical_columns : tuple of str
        Columns one-hot encoded as text levels whatever their type and number of levels.
    max_columns : int
        The widest table accepted.
    """

    target: str
    positive: str | None = None
    cost_columns: tuple[str, ...] = ()
    delimiter: str | None = None
    encoding: str = "utf-8"
    drop_columns: tuple[str, ...] = ()
    categorical_columns: tuple[str, ...] = ()
    max_columns: int = DEFAULT_MAX_COLUMNS

    def __post_init__(self):
        if self.cost_columns and len(self.cost_columns) != len(COST_COLUMNS):
            raise ValueError(
                f"--cost-columns takes exactly {len(COST_COLUMNS)} column names in the order "
                f"{list(COST_COLUMNS)}; got {len(self.cost_columns)}: {list(self.cost_columns)}"
            )
        costs_of = {column: [] for column in self.cost_columns}
        for cost, column in zip(COST_COLUMNS, self.cost_columns, strict=False):
            costs_of[column].append(cost)
        repeated = "; ".join(
            f"{column!r} as {' and '.join(costs)}" for column, costs in costs_of.items() if len(costs) > 1
        )
        if repeated:
            raise ValueError(
                f"--cost-columns repeats columns ({repeated}); each of the four costs "
                f"{', '.join(COST_COLUMNS)} needs a column of its own, named in that order"
            )
        if self.target in self.cost_columns:
            raise ValueError(f"target column {self.target!r} cannot also be a cost column")
        roles = {
            "the target": (self.target,),
            "--cost-columns": self.cost_columns,
            "--drop-columns": self.drop_columns,
            "--categorical": self.categorical_columns,
        }
        seen: dict[str, str] = {}
        for role, columns in roles.items():
            for column in columns:
                if column in seen and seen[column] != role:
                    raise ValueError(f"column {column!r} is named both as {seen[column]} and in {role}")
                seen[column] = role
        if self.max_columns < 1:
            raise ValueError(f"--max-columns must be at least 1, not {self.max_columns}")

    @classmethod
    def from_record(cls, record: dict) -> UserFileOptions:
        """The options a validated user record was ingested with (older records: the then-implied ones)."""
        fields = UserDatasetRecord.model_validate(record)
        return cls(
            target=fields.target,
            positive=fields.positive,
            cost_columns=tuple(fields.cost_columns),
            delimiter=fields.delimiter,
            encoding=fields.encoding,
            drop_columns=tuple(fields.drop_columns),
            categorical_columns=tuple(fields.categorical_columns),
            max_columns=fields.max_columns or DEFAULT_MAX_COLUMNS,
        )

    def record_fields(self, source: Path) -> dict:
        """What the record keeps of these options, and the source path."""
        return {
            "target": self.target,
            "positive": self.positive,
            "cost_columns": list(self.cost_columns),
            "source_path": str(source),
            "delimiter": self.delimiter,
            "encoding": self.encoding,
            "drop_columns": list(self.drop_columns),
            "categorical_columns": list(self.categorical_columns),
            "max_columns": self.max_columns,
        }

    def command(self, source: Path | str, name: str) -> str:
        """The ``cslearn datasets ingest`` command that ingests ``source`` with these options as ``name``."""
        words = ["cslearn", "datasets", "ingest", str(source), "--target", self.target]
        if self.positive is not None:
            words += ["--positive", self.positive]
        if self.cost_columns:
            words += ["--cost-columns", *self.cost_columns]
        if self.delimiter not in (None, ","):
            words += ["--delimiter", "tab" if self.delimiter == "\t" else self.delimiter]
        if self.encoding != "utf-8":
            words += ["--encoding", self.encoding]
        if self.drop_columns:
            words += ["--drop-columns", *self.drop_columns]
        if self.categorical_columns:
            words += ["--categorical", *self.categorical_columns]
        if self.max_columns != DEFAULT_MAX_COLUMNS:
            words += ["--max-columns", str(self.max_columns)]
        return shlex.join([*words, "--name", name])


def default_user_dataset_name(path: Path) -> str:
    """The file's stem in kebab case (``Loans 2024.parquet`` -> ``loans-2024``)."""
    return re.sub(r"[^a-z0-9]+", "-", Path(path).stem.lower()).strip("-") or "dataset"


def check_new_user_dataset_name(name: str) -> None:
    """Refuse a name that is invalid or belongs to a registered dataset.

    Raises
    ------
    ValueError
        Saying which rule the name breaks and what to do.
    """
    from tasks.datasets.builtin import DATASETS

    problem = name_problem(name)
    if problem is not None:
        raise ValueError(f"{problem}; pass --name NAME")
    if name in DATASETS:
        raise ValueError(
            f"{name!r} is a registered dataset; a user dataset needs another name (pass --name NAME): "
            "both kinds share one name space, e.g. in `cslearn compare --datasets`"
        )


def label_values(
    raw: pd.DataFrame, *, member: str, target: str, positive: str | None
) -> tuple[list[str], str]:
    """The target's two values (as text, sorted) and the positive one: ``positive``, or the rarer value.

    Raises
    ------
    ValueError
        If ``positive`` is not a value of the target, the target holds one value only, more than two values
        without ``positive``, or two equally frequent values without ``positive``.
    """
    labels = raw[target].astype("str")
    levels = labels.value_counts()
    if positive is not None and str(positive) not in levels.index:
        raise ValueError(
            f"--positive {positive!r} is not a value of target column {target!r}; its values are "
            f"{sorted(levels.index)[:20]}"
        )
    if len(levels) == 1:
        raise ValueError(
            f"{member}: target column {target!r} holds one value only ({levels.index[0]!r} in all "
            f"{len(labels):,} rows); a classifier needs rows of both classes"
        )
    if positive is not None:
        return sorted(levels.index), str(positive)
    if len(levels) != 2:
        raise ValueError(
            f"target column {target!r} has {len(levels)} distinct values {sorted(levels.index)[:20]}; "
            "pass --positive VALUE to choose the positive class"
        )
    if levels.iloc[0] == levels.iloc[1]:
        raise ValueError(
            f"target column {target!r} is balanced; pass --positive VALUE to choose the positive class"
        )
    return sorted(levels.index), str(levels.index[-1])  # the minority value


def _label_rule(raw: pd.DataFrame, *, member: str, target: str, positive: str | None) -> pd.Series:
    _, chosen = label_values(raw, member=member, target=target, positive=positive)
    return raw[target].astype("str") == chosen


def _check_listed_columns(raw: pd.DataFrame, member: str, columns: tuple[str, ...], option: str) -> None:
    missing = [column for column in columns if column not in raw.columns]
    if missing:
        raise ValueError(
            f"{option} names {missing}, which {member} does not have; its columns: {list(raw.columns)[:20]}"
        )


def user_file_recipe(
    raw: pd.DataFrame,
    *,
    member: str,
    target: str,
    positive: str | None,
    cost_columns: tuple[str, ...],
    drop_columns: tuple[str, ...],
    categorical_columns: tuple[str, ...],
) -> tuple[pd.DataFrame, np.ndarray]:
    """A user's raw frame to canonical features (plus ``cost:*`` columns) and the 0/1 target.

    Every column but the target, the cost columns and ``drop_columns`` is a feature, checked by
    :func:`~tasks.datasets.user_columns.prepare_user_features` and encoded by
    :func:`~tasks.datasets.encoding.encode_features`.
    """
    _check_listed_columns(raw, member, cost_columns, "--cost-columns")
    _check_listed_columns(raw, member, drop_columns, "--drop-columns")
    _check_listed_columns(raw, member, categorical_columns, "--categorical")
    is_positive = _label_rule(raw, member=member, target=target, positive=positive)
    remaining = raw.drop(columns=[target, *cost_columns, *drop_columns])
    if remaining.shape[1] == 0:
        dropped = f" and the dropped columns {list(drop_columns)}" if drop_columns else ""
        raise ValueError(
            f"{member} has no feature column left once the target {target!r} and the cost columns "
            f"{list(cost_columns)}{dropped} are set aside; its columns: {list(raw.columns)[:20]}"
        )
    features = encode_features(
        prepare_user_features(remaining, member=member, categorical_columns=categorical_columns)
    )
    if cost_columns:
        costs = user_cost_matrix(raw, cost_columns, member=member)
        for index, cost_name in enumerate(COST_COLUMNS):
            features[f"{COST_PREFIX}{cost_name}"] = costs[:, index]
    return features, is_positive.to_numpy(dtype=np.int8)


def user_file_spec(path: Path, options: UserFileOptions, name: str) -> DatasetSpec:
    """A definition like the built-in ones for a user's CSV or parquet file (validated like the registered
    datasets).

    The raw check is a lazily-validated schema: ``target`` present without missing values. The recipe
    (:func:`user_file_recipe`) then reads the four ``cost_columns`` (order C_FP, C_FN, C_TP, C_TN) with
    :func:`~tasks.datasets.user_columns.user_cost_matrix`, which names a value that is not a cost.
    """
    path = Path(path)
    columns = {options.target: pa.Column(nullable=False, title="target")}
    text_options = {"delimiter": options.delimiter, "encoding": options.encoding}
    if is_parquet(path.name):
        text_options = {}
    return DatasetSpec(
        name=name,
        title=f"user file {path.name}",
        source=LocalFile(path=path.absolute()),
        parser=partial(read_user_table, member=path.name, max_columns=options.max_columns, **text_options),
        raw_schema=pa.DataFrameSchema(columns, strict=False, name=f"user file {path.name}"),
        recipe=partial(
            user_file_recipe,
            member=path.name,
            target=options.target,
            positive=options.positive,
            cost_columns=options.cost_columns,
            drop_columns=options.drop_columns,
            categorical_columns=options.categorical_columns,
        ),
        row_filter="none",
        minority_rule=f"{options.target} == {options.positive!r}"
        if options.positive is not None
        else f"{options.target}: the rarer of its two values",
        expected_rows=None,
        expected_positives=None,
        citation="user-supplied",
        offline=True,
        notes=f"cost columns {list(options.cost_columns)}" if options.cost_columns else "",
    )


def _check_replacement(paths: EntryPaths, name: str, source: Path, replace: bool) -> None:
    """Refuse to overwrite another file's user dataset (or a damaged one) unless ``replace``."""
    if replace:
        return
    try:
        record = read_record(paths.record, name, user=True)
    except FileNotFoundError:
        return  # nothing, or a parquet without record (an ingestion that did not finish)
    except DamagedRecordError as error:
        raise ValueError(
            f"user dataset {name!r} exists but {error}; pass --force (replace=True) to replace it with "
            f"{source}"
        ) from error
    existing = UserDatasetRecord.model_validate(record).source
    if existing != str(source):
        raise ValueError(
            f"user dataset {name!r} already exists, ingested from {existing} at {record['ingested_at']}; "
            f"pass --force (replace=True) to replace it with {source}, or choose another --name"
        )


def ingest_file(
    path,
    *,
    target: str,
    positive: str | None = None,
    cost_columns=None,
    name: str | None = None,
    cache_dir=None,
    delimiter: str | None = None,
    encoding: str = "utf-8",
    drop_columns=(),
    categorical_columns=(),
    max_columns: int = DEFAULT_MAX_COLUMNS,
    replace: bool = False,
) -> Dataset:
    """Ingest a user's CSV or parquet file into ``datasets/user/<name>.parquet`` (re-read from ``path``).

    Parameters
    ----------
    path : path-like
        A regular file (a symlink is followed); parquet if its name ends in ``.parquet``/``.pq``.
    target : str
        The label column.
    positive : str, optional
        The label value that is positive (compared as text); default: the rarer of exactly two values.
    cost_columns : sequence of 4 str, optional
        Columns holding C_FP, C_FN, C_TP, C_TN per example; stored as ``cost:C_FP`` ... and returned as
        ``Dataset.cost_matrix``; rows breaking C_FP > C_TN or C_FN > C_TP are counted in the metadata and
        logged as a warning (not refused).
    name : str, optional
        Dataset name; default: the file's stem in kebab case. Must not be a registered dataset's name.
    cache_dir : path-like, optional
    delimiter : str, optional
        CSV delimiter; default: detected from the header among ``,`` ``;`` tab ``|`` (and recorded).
    encoding : str
        CSV text encoding (default UTF-8).
    drop_columns, categorical_columns : sequence of str
        Columns left out, and columns encoded as categorical whatever their type and level count
        (:mod:`tasks.datasets.user_columns`).
    max_columns : int
        The widest table accepted (default 10,000); the header is checked before the file is read.
    replace : bool
        Replace an existing user dataset of this name ingested from another file (or damaged).

    Raises
    ------
    ValueError
        The name is invalid or taken, or the file breaks a check (the message names file, column, rows
        and what was expected); nothing is written then.
    FileNotFoundError
        ``path`` does not exist.
    """
    source = Path(path).expanduser().absolute()
    name = name if name is not None else default_user_dataset_name(source)
    check_new_user_dataset_name(name)
    options = UserFileOptions(
        target=target,
        positive=None if positive is None else str(positive),
        cost_columns=tuple(cost_columns or ()),
        delimiter=delimiter,
        encoding=encoding,
        drop_columns=tuple(drop_columns),
        categorical_columns=tuple(categorical_columns),
        max_columns=max_columns,
    )
    cache = resolve_cache_dir(cache_dir)
    paths = entry_paths(cache, name, user=True)
    with locked_entry(paths, name):  # from the check that the name is free to the record written
        _check_replacement(paths, name, source, replace)
        check_regular_file(source)
        if not is_parquet(source.name):
            with open(source, "rb") as stream:  # the header alone: a too-wide file stops here
                options = dataclasses.replace(
                    options,
                    delimiter=inspect_csv_header(
                        stream, source.name, delimiter=delimiter, encoding=encoding, max_columns=max_columns
                    ),
                )
        return _ingest(user_file_spec(source, options, name), options, paths, cache)


def _ingest(spec: DatasetSpec, options: UserFileOptions, paths: EntryPaths, cache: Path) -> Dataset:
    frame = build_canonical_frame(spec, spec.source.fetch(cache))
    if options.delimiter not in (None, ","):
        logger.info("%s: read as %s-separated", spec.title, delimiter_name(options.delimiter))
    extra = options.record_fields(spec.source.path)
    if options.cost_columns:
        extra["unreasonable_cost_rows"] = _count_unreasonable_cost_rows(frame, spec.name)
    return write_entry(spec, frame, paths, spec.source.checksums(cache), extra=extra)


def _count_unreasonable_cost_rows(frame: pd.DataFrame, name: str) -> int:
    """Rows of a user's costs breaking C_FP > C_TN or C_FN > C_TP (Elkan 2001): warned about, not refused."""
    from schemas.cost_matrix import report_unreasonable_rows

    costs = frame[[f"{COST_PREFIX}{column}" for column in COST_COLUMNS]].set_axis(list(COST_COLUMNS), axis=1)
    report = report_unreasonable_rows(costs)
    rows = int(report["index"].nunique())
    if rows:
        conditions = ", ".join(sorted(report["condition"].unique()))
        logger.warning(
            "%s: %d row(s) break %s; e.g. rows %s",
            name,
            rows,
            conditions,
            report["index"].unique()[:5].tolist(),
        )
    return rows


# --- reading user datasets back -----------------------------------------------------


def user_dataset_names(cache_dir=None) -> list[str]:
    """Names of the user datasets in the cache (complete or not, damaged or not), sorted."""
    folder = resolve_cache_dir(cache_dir) / "datasets" / USER_FOLDER
    if not folder.is_dir():
        return []
    stems = {path.stem for path in folder.iterdir() if path.suffix in (".json", ".parquet")}
    return sorted(stem for stem in stems if name_problem(stem) is None)


def user_dataset_entry(name: str, cache_dir=None) -> DatasetEntry | None:
    """What the cache holds for the user dataset ``name`` (``None``: nothing), its problem named if any."""
    cache = resolve_cache_dir(cache_dir)
    if name_problem(name) is not None:
        return None
    paths = entry_paths(cache, name, user=True)
    command = shlex.join(["cslearn", "datasets", "ingest", "FILE", "--target", "COLUMN", "--name", name])
    try:
        record = read_record(paths.record, name, user=True)
    except FileNotFoundError:
        if not paths.parquet.exists():
            return None
        problem = (
            f"user dataset {name!r}: {paths.parquet} has no record {paths.record.name} (an ingestion that "
            f"did not finish); ingest the file again with `{command}`, or delete {paths.parquet}"
        )
        return DatasetEntry(name, "user", None, problem=problem)
    except DamagedRecordError as error:
        problem = (
            f"user dataset {name!r}: {error}. The record names the source file and the options it was read "
            f"with, so the dataset cannot be rebuilt without it: ingest the file again with `{command} "
            f"--force` (and the options you used), or delete {paths.record} and {paths.parquet} to forget it"
        )
        return DatasetEntry(name, "user", None, problem=problem)
    try:
        if record.get("live") is not None:  # bound to a source that grows (tasks.datasets.live)
            from tasks.datasets.live import live_dataset_spec

            spec = live_dataset_spec(record, name)
        else:
            source = UserDatasetRecord.model_validate(record).source
            spec = user_file_spec(Path(source), UserFileOptions.from_record(record), name)
    except ValueError as error:  # options an older cslearn accepted and this one refuses
        problem = (
            f"user dataset {name!r}: {paths.record} records options that are refused now ({error}); ingest "
            f"its source again with corrected options and --force, or delete {paths.record} and "
            f"{paths.parquet} to forget it"
        )
        return DatasetEntry(name, "user", None, problem=problem)
    return DatasetEntry(name, "user", spec, record)


def load_user_dataset(name: str, *, cache_dir=None) -> Dataset:
    """The user dataset ``name``, rebuilt from its unchanged source file if its parquet is damaged.

    Raises
    ------
    KeyError
        If there is no user dataset ``name``.
    UserDatasetError
        If its record is damaged or missing, or its parquet is damaged and the source is gone or changed;
        the message names the file and gives the command that ingests it again.
    """
    cache = resolve_cache_dir(cache_dir)
    entry = user_dataset_entry(name, cache)
    if entry is None:
        raise KeyError(f"no user dataset {name!r}")
    if entry.problem is not None:
        raise UserDatasetError(entry.problem)
    paths = entry_paths(cache, name, user=True)
    try:
        return open_entry(entry.spec, paths, entry.record)
    except UnusableEntryError as error:
        return _rebuild_from_source(entry, paths, str(error), cache)


def _rebuild_from_source(entry: DatasetEntry, paths: EntryPaths, problem: str, cache: Path) -> Dataset:
    if entry.record.get("live") is not None:
        raise UserDatasetError(
            f"user dataset {entry.name!r}: {problem}; it is bound to"
            f" {entry.record['live']['source']['location']} and its accepted batches cannot be told apart"
            " from later rows of the source: ingest it again with"
            f" `cslearn datasets ingest {entry.name} --force` (every row the source holds now), or delete"
            f" {paths.record} and {paths.parquet} to forget it"
        )
    options = UserFileOptions.from_record(entry.record)
    source = Path(entry.spec.source.path)
    recorded = entry.record["source_checksums"].get(str(source))
    try:
        check_regular_file(source)
        actual = sha256_file(source)
    except (OSError, ValueError):
        actual = None
    again = f"ingest it again with `{options.command(source, entry.name)}`"
    forget = f"or delete {paths.record} and {paths.parquet} to forget it"
    if actual is None or actual != recorded:
        state = "is gone" if actual is None else f"changed since ingestion (sha256 {actual[:16]}...)"
        raise UserDatasetError(
            f"user dataset {entry.name!r}: {problem}, and its source {source} {state}, so it cannot be "
            f"rebuilt as it was: {again}, {forget}"
        )
    logger.warning("user dataset %r: %s; rebuilding it from %s (unchanged)", entry.name, problem, source)
    frame = build_canonical_frame(entry.spec, entry.spec.source.fetch(cache))
    if content_fingerprint(frame) != entry.record["fingerprint"]:
        raise UserDatasetError(
            f"user dataset {entry.name!r}: {problem}; rebuilt from the unchanged {source} it differs from "
            f"the recorded fingerprint (made by another cslearn version?): {again}, {forget}"
        )
    extra = {field: entry.record[field] for field in _USER_RECORD_FIELDS if field in entry.record}
    with locked_entry(paths, entry.name):
        return write_entry(entry.spec, frame, paths, entry.record["source_checksums"], extra=extra)


def reingest_user_dataset(name: str, *, cache_dir=None) -> Dataset:
    """Ingest the user dataset ``name`` again from its recorded source file with its recorded options."""
    entry = user_dataset_entry(name, cache_dir)
    if entry is None:
        raise KeyError(f"no user dataset {name!r}")
    if entry.problem is not None:
        raise UserDatasetError(entry.problem)
    if entry.record.get("live") is not None:
        from tasks.datasets.live import rebind_source

        return rebind_source(name, entry.record, cache_dir=cache_dir)
    options = UserFileOptions.from_record(entry.record)
    cache = resolve_cache_dir(cache_dir)
    spec = user_file_spec(Path(entry.spec.source.path), options, name)
    paths = entry_paths(cache, name, user=True)
    with locked_entry(paths, name):
        check_regular_file(spec.source.path)
        return _ingest(spec, options, paths, cache)
