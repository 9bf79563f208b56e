"""Datasets bound to a source: ingest what the source holds, then refresh with only what is new.

:func:`bind_source` (``cslearn datasets ingest SOURCE --target COL [--time-column COL] --name NAME``) reads a
source of :mod:`tasks.datasets.live_sources` as a first ingest reads a file (the same raw contract, label
rule, column checks, encoding and canonical contract of :mod:`tasks.datasets.user_files`) and records the
source, the raw columns, the two target values, the encoding of the raw columns and the time watermark.

:func:`refresh_dataset` (``cslearn datasets refresh NAME``) reads only what is new: new batch files, or the
rows past the watermark of the time column (a one-file source and a SQL source grow by their time column).
Each batch goes through the same contracts, in order:

1. its columns are the dataset's (a batch with another schema is refused, naming the columns);
2. the raw contract of a first ingest (target present);
3. its target holds only the dataset's two values;
4. its time column holds times, none older than the watermark (a time column going backwards is refused);
5. its features pass the user-column checks and encode with the dataset's encoding (new levels of a
   categorical column are learnt: a new 0/1 column, 0 in the earlier rows, as encoding all rows again gives),
   and its cost columns hold costs (numbers from 0 to float32's largest);
6. the canonical batch contract (``schemas.canonical_dataset.CanonicalBatch``).

A batch that fails is refused with its name (file, or query window), the column, the rows and why; nothing
of it is appended, and the batches that passed are kept. A one-file or SQL source whose rows at or before the
watermark changed in number (rows arrived in the past, or were removed) is refused as a whole. Every
accepted state gets the next version and its own fingerprint; the record keeps the history. A refresh holds
a lock on the dataset, so two refreshes never interleave.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pandera.pandas as pa

from schemas.canonical_dataset import COST_COLUMN_NAMES as COST_COLUMNS
from schemas.canonical_dataset import (
    COST_PREFIX,
    TARGET_COLUMN,
    TIME_PREFIX,
    CanonicalBatch,
    CanonicalDataset,
)
from schemas.dataset_record import UserDatasetRecord
from schemas.validation import validate_frame
from tasks.datasets.cache import resolve_cache_dir
from tasks.datasets.encoding import CATEGORICAL, NUMERIC, RawEncoding
from tasks.datasets.entry_lock import locked_entry
from tasks.datasets.ingestion import content_fingerprint, write_entry
from tasks.datasets.live_sources import (
    BatchFiles,
    FileTable,
    RawBatch,
    SourceUnavailableError,
    SqlSource,
    parse_source,
    source_from_record,
    window_label,
)
from tasks.datasets.records import DamagedRecordError, EntryPaths, entry_paths, read_record
from tasks.datasets.spec import Dataset, DatasetSpec
from tasks.datasets.user_columns import prepare_user_features, user_cost_matrix
from tasks.datasets.user_files import (
    UserDatasetError,
    UserFileOptions,
    check_new_user_dataset_name,
    label_values,
)
from tasks.datasets.user_table import read_user_table

__all__ = [
    "BindOptions",
    "RefreshResult",
    "SourceUnavailableError",
    "bind_source",
    "live_dataset_spec",
    "refresh_dataset",
]

logger = logging.getLogger(__name__)

_SAMPLES_SHOWN = 5
_EPOCH = pd.Timestamp("1970-01-01", tz="UTC")


@dataclasses.dataclass(frozen=True)
class BindOptions:
    """How a source's rows become a dataset: a user file's options, plus the time column and cost model."""

    file: UserFileOptions
    time_column: str | None = None
    cost_model: str | None = None

    def __post_init__(self):
        if self.time_column is None:
            return
        roles = {
            "the target": (self.file.target,),
            "--cost-columns": self.file.cost_columns,
            "--drop-columns": self.file.drop_columns,
            "--categorical": self.file.categorical_columns,
        }
        for role, columns in roles.items():
            if self.time_column in columns:
                raise ValueError(f"the time column {self.time_column!r} is also named as {role}")
        if self.cost_model is not None and self.file.cost_columns:
            raise ValueError(
                "pass --cost-model or --cost-columns, not both: a dataset has one source of costs"
            )

    @property
    def text_options(self) -> dict:
        return {
            "delimiter": self.file.delimiter,
            "encoding": self.file.encoding,
            "max_columns": self.file.max_columns,
        }


@dataclasses.dataclass(frozen=True)
class RefreshResult:
    """What a bind or refresh did: the dataset's version and fingerprint, rows added, batches accepted and
    refused (with why), categorical levels seen for the first time."""

    name: str
    version: int
    fingerprint: str
    rows: int
    added_rows: int
    accepted: list[dict]
    refused: list[dict]
    new_levels: dict[str, list[str]]
    watermark: float | None

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


# --- times -----------------------------------------------------------------------------------------


def _infer_time_kind(column: pd.Series, where: str) -> str:
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        return "number"
    if pd.api.types.is_datetime64_any_dtype(column):
        return "datetime"
    parsed = pd.to_datetime(column, errors="coerce", utc=True, format="mixed")
    if parsed.notna().mean() >= 0.5:
        return "datetime"
    raise ValueError(
        f"{where}: the time column {column.name!r} holds neither numbers nor dates (e.g. "
        f"{column.dropna().astype('str').head(3).tolist()}); pass a column of numbers or dates as"
        " --time-column"
    )


def time_seconds(column: pd.Series, kind: str, where: str) -> np.ndarray:
    """The time column as float64 seconds (the number itself, or seconds since the epoch, UTC).

    Raises
    ------
    ValueError
        Naming the rows whose time is missing or unreadable.
    """
    if kind == "number":
        values = pd.to_numeric(column, errors="coerce").astype("float64")
    else:
        parsed = pd.to_datetime(column, errors="coerce", utc=True, format="mixed")
        values = ((parsed - _EPOCH) / pd.Timedelta(seconds=1)).astype("float64")
    bad = np.flatnonzero(~np.isfinite(values.to_numpy()))
    if bad.size:
        shown = ", ".join(f"{column.iloc[row]!r} at row {row}" for row in bad[:_SAMPLES_SHOWN])
        raise ValueError(
            f"{where}: the time column {column.name!r} has {bad.size:,} row(s) without a readable "
            f"{'number' if kind == 'number' else 'date'}: {shown}"
        )
    return values.to_numpy()


def _raw_watermark(column: pd.Series) -> tuple[object, bool]:
    """The newest raw value of a SQL source's time column, as JSON, and whether it was a date."""
    value = column.max()
    if isinstance(value, datetime.datetime | pd.Timestamp):
        return pd.Timestamp(value).isoformat(), True
    if isinstance(value, np.generic):
        value = value.item()
    return value, False


def _watermark_parameter(state: dict):
    value = state.get("watermark_raw")
    if value is not None and state.get("watermark_is_datetime"):
        return pd.Timestamp(value).to_pydatetime()
    return value


def shown_time(seconds: float | None, kind: str | None) -> str:
    """A time of the canonical column as a person reads it (a date for dates)."""
    if seconds is None:
        return "none"
    if kind == "datetime":
        return pd.Timestamp(seconds, unit="s", tz="UTC").isoformat()
    return f"{seconds:g}"


# --- one batch to canonical rows ------------------------------------------------------------------


def _raw_schema(options: UserFileOptions, label: str) -> pa.DataFrameSchema:
    """The target present without missing values (the cost columns are read by ``user_cost_matrix``)."""
    columns = {options.target: pa.Column(nullable=False, title="target")}
    return pa.DataFrameSchema(columns, strict=False, name=f"the raw contract of {label}")


def _check_columns(raw: pd.DataFrame, expected: list[str], label: str) -> None:
    missing = [column for column in expected if column not in raw.columns]
    extra = [column for column in raw.columns if column not in expected]
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"lacks column(s) {missing}")
        if extra:
            parts.append(f"has column(s) {extra} the dataset does not")
        raise ValueError(
            f"{label} has another schema: it {' and '.join(parts)}; the dataset's columns are {expected}"
            " (a changed export? ingest the source again with --force to take the new columns)"
        )


def _target(raw: pd.DataFrame, options: UserFileOptions, values: list[str], positive: str, label: str):
    labels = raw[options.target].astype("str")
    stray = ~labels.isin(values)
    if stray.any():
        rows = np.flatnonzero(stray.to_numpy())
        raise ValueError(
            f"{label}: target column {options.target!r} holds {sorted(labels[stray].unique())[:5]} at rows "
            f"{rows[:_SAMPLES_SHOWN].tolist()} ({rows.size:,} row(s)) besides the dataset's values {values}"
        )
    return (labels == positive).to_numpy(dtype=np.int8)


def _canonical_rows(
    raw: pd.DataFrame,
    options: BindOptions,
    encoding: RawEncoding | None,
    *,
    positive: str,
    values: list[str],
    time_kind: str | None,
    label: str,
    contract=CanonicalBatch,
) -> tuple[pd.DataFrame, RawEncoding, np.ndarray | None]:
    """``raw`` through every contract of a first ingest: canonical rows, the encoding, the times."""
    file = options.file
    raw = validate_frame(_raw_schema(file, label), raw.reset_index(drop=True), what=label)
    target = _target(raw, file, values, positive, label)
    times = None
    if options.time_column is not None:
        times = time_seconds(raw[options.time_column], time_kind, label)
    set_aside = [file.target, *file.cost_columns, *file.drop_columns]
    if options.time_column is not None:
        set_aside.append(options.time_column)
    remaining = raw.drop(columns=set_aside)
    if encoding is not None:  # the dataset's categorical columns stay categorical in every batch
        remaining = remaining.assign(
            **{
                column.name: remaining[column.name].astype("string")
                for column in encoding.columns
                if column.kind == CATEGORICAL
                and column.name not in file.categorical_columns
                and pd.api.types.is_numeric_dtype(remaining[column.name])
            }
        )
    prepared = prepare_user_features(remaining, member=label, categorical_columns=file.categorical_columns)
    if encoding is None:
        encoding = RawEncoding.from_frame(prepared)
    else:
        _check_kinds(prepared, encoding, label)
        encoding = encoding.extended(prepared)
    try:
        features = encoding.encode(prepared)
    except ValueError as error:
        raise ValueError(f"{label}: {error}") from error
    if file.cost_columns:
        costs = user_cost_matrix(raw, file.cost_columns, member=label)
        for index, cost_name in enumerate(COST_COLUMNS):
            features[f"{COST_PREFIX}{cost_name}"] = costs[:, index]
    if times is not None:
        features[f"{TIME_PREFIX}{options.time_column}"] = times
    frame = pd.concat([features, pd.Series(target, index=features.index, name=TARGET_COLUMN)], axis=1)
    return validate_frame(contract, frame, what=label), encoding, times


def _check_kinds(prepared: pd.DataFrame, encoding: RawEncoding, label: str) -> None:
    """A column the dataset encodes as numbers must hold numbers in every batch (and text stays text)."""
    problems = []
    for column in encoding.columns:
        values = prepared[column.name]
        if column.kind == NUMERIC and not (
            pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values)
        ):
            text = values.dropna().astype("str")
            stray = text[pd.to_numeric(text, errors="coerce").isna()]
            shown = ", ".join(f"{value!r} at row {row}" for row, value in stray.head(_SAMPLES_SHOWN).items())
            problems.append(f"column {column.name!r} is numeric in the dataset and text here: {shown}")
    if problems:
        raise ValueError(f"{label}: " + "; ".join(problems))


# --- the record -----------------------------------------------------------------------------------


def _options_from_record(record: dict) -> BindOptions:
    fields = UserDatasetRecord.model_validate(record)
    return BindOptions(UserFileOptions.from_record(record), fields.time_column, fields.cost_model)


def live_dataset_spec(record: dict, name: str) -> DatasetSpec:
    """The definition of a dataset bound to a source, read from its record (the source shown redacted)."""
    return _live_spec(_options_from_record(record), record["live"]["source"], name)


def _live_spec(options: BindOptions, source: dict, name: str) -> DatasetSpec:
    shown = {
        "file": lambda: FileTable(Path(source["location"])),
        "files": lambda: BatchFiles(source["location"]),
        "sql": lambda: SqlSource(source["location"], source.get("table"), source.get("query")),
    }[source["kind"]]()
    file = options.file
    return DatasetSpec(
        name=name,
        title=f"{source['kind']} source {source['location']}"
        + (f" ({source.get('table') or 'query'})" if source["kind"] == "sql" else ""),
        source=shown,
        parser=partial(read_user_table, member="<batch>", **options.text_options),
        raw_schema=_raw_schema(file, name),
        recipe=partial(_canonical_rows, options=options, label=name),
        row_filter="none; each batch checked by the first ingest's contracts",
        minority_rule=f"{file.target} == {file.positive!r}",
        expected_rows=None,
        expected_positives=None,
        citation="user-supplied",
        offline=True,
        cost_model=options.cost_model,
        notes=f"time column {options.time_column!r}" if options.time_column else "no time column",
    )


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


# --- bind -----------------------------------------------------------------------------------------


def _initial_frame(source, options: BindOptions) -> tuple[pd.DataFrame, dict[str, dict], list[str]]:
    """Everything the source holds now, as one raw frame; the files read; the batch labels."""
    if isinstance(source, BatchFiles):
        batches = source.read_new({}, options.text_options)
        if not batches:
            raise ValueError(f"no CSV or parquet file matches {source.pattern}; nothing to ingest yet")
        problems = [f"{batch.label}: {batch.problem}" for batch in batches if batch.problem]
        if problems:
            raise ValueError("cannot ingest the source: " + "; ".join(problems))
        first = batches[0].frame
        for batch in batches[1:]:
            _check_columns(batch.frame, [str(column) for column in first.columns], batch.label)
        frame = pd.concat([batch.frame for batch in batches], ignore_index=True)
        files = {batch.label: {"sha256": batch.sha256, "rows": len(batch.frame)} for batch in batches}
        return frame, files, [batch.label for batch in batches]
    if isinstance(source, SqlSource):
        if options.time_column is None:
            raise ValueError(
                f"{source.shown}: a SQL source grows by its time column; pass --time-column COLUMN (the rows"
                " past its newest value are what each refresh reads)"
            )
        frame = source.read()
        if frame.empty:
            raise ValueError(f"{source.shown} returned no rows; nothing to ingest yet")
        return frame, {}, [window_label(source, None, frame[options.time_column].max())]
    frame = source.read(options.text_options)
    return frame, {}, [Path(source.path).name]


def bind_source(
    text: str,
    *,
    options: BindOptions,
    name: str,
    table: str | None = None,
    query: str | None = None,
    replace: bool = False,
    cache_dir=None,
) -> RefreshResult:
    """Ingest what the source ``text`` holds now as the user dataset ``name``, bound to that source.

    Raises
    ------
    ValueError
        The name is taken (without ``replace``), the source is unusable, or its rows break a contract of a
        first ingest (the message names the file, column, rows and what was expected); nothing is written.
    SourceUnavailableError
        The source cannot be reached.
    """
    check_new_user_dataset_name(name)
    cache = resolve_cache_dir(cache_dir)
    paths = entry_paths(cache, name, user=True)
    source = parse_source(text, table=table, query=query)
    described = source.describe()
    with locked_entry(paths, name):  # from the check that the name is free to the record written
        _check_rebinding(paths, name, described, replace)
        raw, files, labels = _initial_frame(source, options)
        raw_columns = [str(column) for column in raw.columns]
        _require_columns(raw, options, labels[0])
        values, positive = label_values(
            raw, member=labels[0], target=options.file.target, positive=options.file.positive
        )
        time_kind = None
        if options.time_column is not None:
            time_kind = _infer_time_kind(raw[options.time_column], labels[0])
        frame, encoding, times = _canonical_rows(
            raw,
            options,
            None,
            positive=positive,
            values=values,
            time_kind=time_kind,
            label=f"{name}: {labels[0] if len(labels) == 1 else source.describe()['location']}",
            contract=CanonicalDataset,
        )
        watermark = float(times.max()) if times is not None else None
        state = {
            "source": {key: value for key, value in described.items() if value is not None},
            "version": 1,
            "raw_columns": raw_columns,
            "target_values": values,
            "watermark": watermark,
            "rows_read": len(raw),
            "files": {label: {**entry, "version": 1} for label, entry in files.items()},
            "refused": [],
        }
        if isinstance(source, SqlSource):
            state["watermark_raw"], state["watermark_is_datetime"] = _raw_watermark(raw[options.time_column])
        if isinstance(source, FileTable) and options.time_column is None:
            raise ValueError(
                f"{source.path}: one file grows by its time column; pass --time-column COLUMN (or ingest a"
                " folder or glob of batch files, where each new file is a batch)"
            )
        fingerprint = content_fingerprint(frame)
        state["history"] = [
            {
                "version": 1,
                "fingerprint": fingerprint,
                "rows": len(frame),
                "added_rows": len(frame),
                "batches": labels,
                "watermark": watermark,
                "at": _now(),
            }
        ]
        file = dataclasses.replace(options.file, positive=positive)
        record = _record_fields(file, options, described, encoding, time_kind, state)
        spec = _live_spec(dataclasses.replace(options, file=file), state["source"], name)
        dataset = write_entry(spec, frame, paths, {described["location"]: None}, extra=record)
    return _result(
        dataset,
        added_rows=len(frame),
        accepted=[{"batch": label} for label in labels],
        refused=[],
        new_levels={},
    )


def _record_fields(file, options, described, encoding, time_kind, state) -> dict:
    fields = file.record_fields(Path(described["location"]))
    fields.update(source_path=described["location"], delimiter=file.delimiter or ",")
    return {
        **fields,
        "cost_model": options.cost_model,
        "time_column": options.time_column,
        "time_kind": time_kind,
        "feature_encoding": encoding.to_record(),
        "live": state,
    }


def _require_columns(raw: pd.DataFrame, options: BindOptions, label: str) -> None:
    named = {
        "--target": [options.file.target],
        "--time-column": [options.time_column] if options.time_column else [],
        "--cost-columns": list(options.file.cost_columns),
        "--drop-columns": list(options.file.drop_columns),
        "--categorical": list(options.file.categorical_columns),
    }
    for option, columns in named.items():
        missing = [column for column in columns if column not in raw.columns]
        if missing:
            raise ValueError(
                f"{option} names {missing}, which {label} does not have; its columns:"
                f" {list(raw.columns)[:20]}"
            )


def _check_rebinding(paths: EntryPaths, name: str, described: dict, replace: bool) -> None:
    if replace:
        return
    try:
        record = read_record(paths.record, name, user=True)
    except FileNotFoundError:
        return
    except DamagedRecordError as error:
        raise ValueError(f"user dataset {name!r} exists but {error}; pass --force to replace it") from error
    live = record.get("live")
    if live is not None and live["source"]["location"] == described["location"]:
        raise ValueError(
            f"user dataset {name!r} is already bound to {described['location']} (version {live['version']});"
            f" `cslearn datasets refresh {name}` reads what is new, --force ingests it again from the start"
        )
    existing = (live or {}).get("source", {}).get("location") or record.get("source_path")
    raise ValueError(
        f"user dataset {name!r} already exists, ingested from {existing}; pass --force to replace it with "
        f"{described['location']}, or choose another --name"
    )


def _result(dataset: Dataset, *, added_rows, accepted, refused, new_levels) -> RefreshResult:
    live = dataset.metadata["live"]
    return RefreshResult(
        name=dataset.name,
        version=live["version"],
        fingerprint=dataset.fingerprint,
        rows=len(dataset.target),
        added_rows=added_rows,
        accepted=accepted,
        refused=refused,
        new_levels=new_levels,
        watermark=live.get("watermark"),
    )


# --- refresh --------------------------------------------------------------------------------------


def _new_rows(source, state: dict, options: BindOptions, time_kind: str | None) -> list[RawBatch]:
    """What is new in a one-file or SQL source since the recorded state (one batch, or none): the rows past
    the watermark, unless the count at or before it changed (then one refused batch says so)."""
    time_column = options.time_column
    if isinstance(source, SqlSource):
        watermark = _watermark_parameter(state)
        through = source.count_through(time_column, watermark)
        if through != state["rows_read"]:
            return [_backwards(source, state, through, time_column, time_kind)]
        frame = source.read(time_column=time_column, after=watermark)
        if frame.empty:
            return []
        return [RawBatch(window_label(source, watermark, frame[time_column].max()), frame)]
    frame = source.read(options.text_options)
    seconds = time_seconds(frame[time_column], time_kind, Path(source.path).name)
    through = int((seconds <= state["watermark"]).sum())
    if through != state["rows_read"]:
        return [_backwards(source, state, through, time_column, time_kind)]
    new = frame[seconds > state["watermark"]]
    if new.empty:
        return []
    label = window_label(
        source, shown_time(state["watermark"], time_kind), shown_time(float(seconds.max()), time_kind)
    )
    return [RawBatch(label, new)]


def _backwards(source, state, through: int, time_column: str, time_kind) -> RawBatch:
    watermark = shown_time(state["watermark"], time_kind)
    change = (
        f"{through - state['rows_read']:,} row(s) now have a time at or before it that were not there"
        if through > state["rows_read"]
        else f"{state['rows_read'] - through:,} row(s) at or before it are gone"
    )
    return RawBatch(
        window_label(source, None, watermark),
        None,
        f"the time column {time_column!r} went backwards: the dataset was read up to {watermark}"
        f" ({state['rows_read']:,} rows), and {change}; rows in the past are never appended silently (ingest"
        " the source again with --force to rebuild from all its rows)",
    )


def refresh_dataset(name: str, *, cache_dir=None) -> RefreshResult:
    """Read what is new in the source of dataset ``name``; append the batches that pass every contract.

    Raises
    ------
    KeyError
        No user dataset ``name``.
    ValueError
        The dataset is not bound to a source (a registered dataset, or a user file ingested without one).
    SourceUnavailableError
        The source cannot be read at all (nothing is changed).
    """
    from tasks.datasets.user_files import load_user_dataset, user_dataset_entry

    cache = resolve_cache_dir(cache_dir)
    paths = entry_paths(cache, name, user=True)
    with locked_entry(paths, name):  # a second refresh waits for the first
        entry = user_dataset_entry(name, cache)
        if entry is None:
            raise KeyError(f"no user dataset {name!r}")
        if entry.problem is not None:
            raise UserDatasetError(entry.problem)
        record = entry.record
        if record.get("live") is None:
            raise ValueError(
                f"dataset {name!r} is not bound to a source (it was ingested from a file once); bind it with"
                f" `cslearn datasets ingest SOURCE --target ... --name {name} --force`"
            )
        options = _options_from_record(record)
        state = dict(record["live"])
        time_kind = record.get("time_kind")
        source = source_from_record(record, name)
        if isinstance(source, BatchFiles):
            accepted_files = {label: item["sha256"] for label, item in state["files"].items()}
            raw_batches = source.read_new(accepted_files, options.text_options)
        else:
            raw_batches = _new_rows(source, state, options, time_kind)
        dataset = load_user_dataset(name, cache_dir=cache)
        return _append(dataset, record, options, state, raw_batches, paths)


def _append(dataset: Dataset, record: dict, options, state: dict, raw_batches, paths) -> RefreshResult:
    encoding = RawEncoding.from_record(record["feature_encoding"])
    first_encoding = encoding
    watermark = state.get("watermark")
    time_kind = record.get("time_kind")
    values = state["target_values"]
    accepted, refused, frames, raw_accepted = [], [], [], []
    for batch in raw_batches:
        label = f"{dataset.name}: {batch.label}"
        if batch.problem is not None:
            refused.append({"batch": batch.label, "reason": f"{label}: {batch.problem}"})
            continue
        try:
            _check_columns(batch.frame, state["raw_columns"], label)
            frame, extended, times = _canonical_rows(
                batch.frame,
                options,
                encoding,
                positive=options.file.positive,
                values=values,
                time_kind=time_kind,
                label=label,
            )
            if times is not None and watermark is not None and times.min() < watermark:
                older = np.flatnonzero(times < watermark)
                raise ValueError(
                    f"{label}: the time column {options.time_column!r} goes backwards: {older.size:,} row(s)"
                    f" (rows {older[:_SAMPLES_SHOWN].tolist()}) are older than the dataset's newest time"
                    f" {shown_time(watermark, time_kind)}; a batch in the past is never appended (ingest the"
                    " source again with --force to rebuild it in time order)"
                )
        except ValueError as error:
            refused.append({"batch": batch.label, "reason": str(error)})
            continue
        encoding = extended
        if times is not None:
            watermark = max(watermark if watermark is not None else -np.inf, float(times.max()))
        frames.append(frame)
        raw_accepted.append(batch)
        accepted.append({"batch": batch.label, "rows": len(frame)})
    now = _now()
    state["refused"] = [{**item, "at": now} for item in refused]
    for item in refused:
        logger.warning("refused batch %s", item["reason"])
    new_levels = {
        column.name: sorted(set(column.levels) - set(old.levels))
        for column, old in zip(encoding.columns, first_encoding.columns, strict=True)
        if set(column.levels) - set(old.levels)
    }
    if not frames:
        if refused or state.get("refused") != record["live"].get("refused"):
            _write_record_only(dataset, record, state, paths)
        return _result(dataset, added_rows=0, accepted=[], refused=refused, new_levels={})
    current = pd.read_parquet(dataset.path)
    order = [*encoding.feature_names, *[c for c in current.columns if not _is_feature(c)]]
    combined = pd.concat(
        [
            current.reindex(columns=order, fill_value=0.0),
            *(frame.reindex(columns=order, fill_value=0.0) for frame in frames),
        ],
        ignore_index=True,
    )
    version = state["version"] + 1
    fingerprint = content_fingerprint(combined)
    added = sum(len(frame) for frame in frames)
    state.update(version=version, watermark=watermark, rows_read=state["rows_read"] + added)
    for batch, item in zip(raw_accepted, accepted, strict=True):
        if batch.sha256 is not None:
            state["files"] = {
                **state["files"],
                batch.label: {"sha256": batch.sha256, "rows": item["rows"], "version": version},
            }
    if state["source"]["kind"] == "sql":
        state["watermark_raw"], state["watermark_is_datetime"] = _raw_watermark(
            pd.concat([batch.frame[options.time_column] for batch in raw_accepted])
        )
    state["history"] = [
        *state["history"],
        {
            "version": version,
            "fingerprint": fingerprint,
            "rows": len(combined),
            "added_rows": added,
            "batches": [item["batch"] for item in accepted],
            "watermark": watermark,
            "at": now,
        },
    ]
    extra = {key: value for key, value in record.items() if key in UserDatasetRecord.model_fields}
    extra.update(feature_encoding=encoding.to_record(), live=state)
    for key in (
        "format_version",
        "name",
        "fingerprint",
        "rows",
        "features",
        "positives",
        "definition_digest",
        "source_checksums",
        "ingested_at",
    ):
        extra.pop(key, None)
    updated = write_entry(dataset.spec, combined, paths, record["source_checksums"], extra=extra)
    logger.info("%s: version %d, %d row(s) added", dataset.name, version, added)
    return _result(updated, added_rows=added, accepted=accepted, refused=refused, new_levels=new_levels)


def _is_feature(column: str) -> bool:
    return column != TARGET_COLUMN and not column.startswith((COST_PREFIX, TIME_PREFIX))


def _write_record_only(dataset: Dataset, record: dict, state: dict, paths: EntryPaths) -> None:
    """Record the refusals of a refresh that accepted nothing (the data and its fingerprint unchanged)."""
    import json

    from tasks.storage import atomic_write_bytes

    atomic_write_bytes(paths.record, json.dumps({**record, "live": state}, indent=2).encode())


def rebind_source(name: str, record: dict, *, cache_dir=None):
    """Ingest the dataset ``name`` again from the start of its recorded source, with its recorded options
    (``cslearn datasets ingest NAME --force``); returns the dataset."""
    from tasks.datasets.catalog import load_dataset

    options = _options_from_record(record)
    source = source_from_record(record, name)
    text = (
        source.url if isinstance(source, SqlSource) else str(getattr(source, "path", None) or source.pattern)
    )
    bind_source(
        text,
        options=options,
        name=name,
        table=record["live"]["source"].get("table"),
        query=record["live"]["source"].get("query"),
        replace=True,
        cache_dir=cache_dir,
    )
    return load_dataset(name, cache_dir=cache_dir)
