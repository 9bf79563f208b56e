"""Ingest a registered dataset (fetch, verify, parse, validate, binarize, validate, write) or read its cache.

Nothing is written to ``datasets/`` unless every step succeeded: the raw frame satisfies its strict pandera
model, the canonical frame satisfies :class:`~schemas.canonical_dataset.CanonicalDataset`, and the row and
positive counts equal the definition's. The parquet is renamed into place first and its record (metadata JSON)
last; a cached entry is trusted only when the record validates (:func:`tasks.datasets.records.read_record`:
schema, format version, name), its definition digest matches the definition and the parquet's content
fingerprint matches the record. Anything else is logged with the file's name and rebuilt from the source.
The same entry I/O (:func:`write_entry`, :func:`open_entry`) serves users' datasets
(:mod:`tasks.datasets.user_files`); every writer holds the entry's lock (:mod:`tasks.datasets.entry_lock`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from schemas.canonical_dataset import COST_COLUMN_NAMES as COST_COLUMNS
from schemas.canonical_dataset import (
    COST_PREFIX,
    TARGET_COLUMN,
    TIME_PREFIX,
    CanonicalDataset,
    is_feature_column,
)
from schemas.dataset_record import FORMAT_VERSION
from schemas.validation import validate_frame
from tasks.datasets.cache import resolve_cache_dir
from tasks.datasets.downloads import DEFAULT_HTTP_OPTIONS, HttpOptions
from tasks.datasets.entry_lock import locked_entry
from tasks.datasets.records import DamagedRecordError, EntryPaths, entry_paths, read_record
from tasks.datasets.spec import Dataset, DatasetSpec
from tasks.storage import atomic_path, atomic_write_bytes

logger = logging.getLogger(__name__)


def content_fingerprint(frame: pd.DataFrame) -> str:
    """sha256 over the column names, dtypes and row hashes of ``frame``: equal data, equal fingerprint.

    It hashes the content, not the parquet bytes, so it does not change with the pyarrow version.
    """
    digest = hashlib.sha256()
    digest.update(json.dumps([[str(name), str(dtype)] for name, dtype in frame.dtypes.items()]).encode())
    digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def build_canonical_frame(spec: DatasetSpec, files: dict[str, bytes]) -> pd.DataFrame:
    """Parse, validate the raw frame, apply the recipe, validate the canonical frame and check the counts.

    Raises
    ------
    ValueError
        :class:`~schemas.validation.DataValidationError` naming each failing column and check, or a count
        mismatch naming expected and actual counts.
    """
    raw = spec.parser(files)
    if spec.raw_schema is not None:
        raw = validate_frame(spec.raw_schema, raw, what=f"{spec.name}: the raw data")
    features, target = spec.recipe(raw)
    frame = pd.concat([features, pd.Series(target, index=features.index, name=TARGET_COLUMN)], axis=1)
    frame = validate_frame(CanonicalDataset, frame, what=f"{spec.name}: the canonical dataset")
    rows, positives = len(frame), int(frame[TARGET_COLUMN].sum())
    expected = (spec.expected_rows, spec.expected_positives)
    if (expected[0] is not None and rows != expected[0]) or (
        expected[1] is not None and positives != expected[1]
    ):
        raise ValueError(
            f"{spec.name}: expected {expected[0]} rows and {expected[1]} positives (its definition), "
            f"got {rows} rows and "
            f"{positives} positives; the source or its filter changed, nothing was cached"
        )
    return frame


def _to_dataset(spec: DatasetSpec, frame: pd.DataFrame, path: Path, metadata: dict) -> Dataset:
    cost_names = [f"{COST_PREFIX}{column}" for column in COST_COLUMNS]
    has_costs = all(name in frame.columns for name in cost_names)
    time_names = [name for name in frame.columns if name.startswith(TIME_PREFIX)]
    features = frame.drop(columns=[TARGET_COLUMN, *(cost_names if has_costs else []), *time_names])
    return Dataset(
        name=spec.name,
        features=features,
        target=frame[TARGET_COLUMN].to_numpy(dtype=np.int64),
        fingerprint=metadata["fingerprint"],
        path=path,
        spec=spec,
        metadata=metadata,
        cost_matrix=frame[cost_names].to_numpy(dtype=np.float64) if has_costs else None,
        time=frame[time_names[0]].to_numpy(dtype=np.float64) if time_names else None,
    )


def write_entry(
    spec: DatasetSpec, frame: pd.DataFrame, paths: EntryPaths, checksums: dict, extra: dict | None = None
) -> Dataset:
    """Write the parquet, then its record (atomically each, record last), and return the dataset.

    The caller holds the entry's lock (:func:`tasks.datasets.entry_lock.locked_entry`), so no other process
    writes the entry meanwhile.
    """
    fingerprint = content_fingerprint(frame)
    metadata = {
        "format_version": FORMAT_VERSION,
        "name": spec.name,
        "fingerprint": fingerprint,
        "rows": len(frame),
        "features": int(sum(1 for column in frame.columns if is_feature_column(column))),
        "positives": int(frame[TARGET_COLUMN].sum()),
        "definition_digest": spec.digest,
        "source_checksums": checksums,
        "ingested_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        **(extra or {}),
    }
    with atomic_path(paths.parquet) as temporary:
        frame.to_parquet(temporary, index=False)
    atomic_write_bytes(paths.record, json.dumps(metadata, indent=2).encode())
    return _to_dataset(spec, frame, paths.parquet, metadata)


class UnusableEntryError(ValueError):
    """A cache entry whose record is valid but whose parquet is missing, unreadable or altered."""


def open_entry(spec: DatasetSpec, paths: EntryPaths, record: dict) -> Dataset:
    """The dataset of a validated ``record``, if its parquet is readable and matches the fingerprint.

    Raises
    ------
    UnusableEntryError
        Naming the parquet and why it cannot be used.
    """
    try:
        frame = pd.read_parquet(paths.parquet)
    except FileNotFoundError as error:
        raise UnusableEntryError(f"{paths.parquet} is missing") from error
    except (OSError, ValueError) as error:  # truncated or corrupted parquet (ArrowInvalid is a ValueError)
        raise UnusableEntryError(f"{paths.parquet} is unreadable ({error})") from error
    if content_fingerprint(frame) != record["fingerprint"]:
        raise UnusableEntryError(
            f"{paths.parquet} does not match the fingerprint in {paths.record.name} (altered after ingestion)"
        )
    return _to_dataset(spec, frame, paths.parquet, record)


def cached_record(spec: DatasetSpec, cache_dir: Path) -> tuple[dict | None, str | None]:
    """The current, valid record of a registered dataset, or ``None`` and why not (``None``: not cached)."""
    paths = entry_paths(cache_dir, spec.name)
    try:
        record = read_record(paths.record, spec.name)
    except FileNotFoundError:
        return None, None
    except DamagedRecordError as error:
        return None, str(error)
    if record["definition_digest"] != spec.digest:
        return None, f"{paths.record} was written for an older definition of {spec.name!r}"
    return record, None


def read_cached(spec: DatasetSpec, cache_dir: Path) -> Dataset | None:
    """The cached registered dataset if its entry is complete, current and intact, else ``None`` (logged)."""
    record, problem = cached_record(spec, cache_dir)
    if record is None:
        if problem is not None:
            logger.warning("%s: %s; rebuilding it from the source", spec.name, problem)
        return None
    try:
        return open_entry(spec, entry_paths(cache_dir, spec.name), record)
    except UnusableEntryError as error:
        logger.warning("%s: %s; rebuilding it from the source", spec.name, error)
        return None


def ingest_dataset(
    spec: DatasetSpec,
    *,
    cache_dir=None,
    options: HttpOptions = DEFAULT_HTTP_OPTIONS,
    progress: bool = False,
    force: bool = False,
) -> Dataset:
    """Load ``spec`` from the cache, or ingest it (download, verify, validate, write) when absent or stale.

    Parameters
    ----------
    spec : DatasetSpec
    cache_dir : path-like, optional
        Defaults to ``$CSLEARN_CACHE`` or the user cache directory.
    options : HttpOptions
        Timeout, retries and backoff of downloads.
    progress : bool
        Show download progress bars.
    force : bool
        Ignore a valid cached entry and ingest again.
    """
    cache = resolve_cache_dir(cache_dir)
    if not force and (cached := read_cached(spec, cache)) is not None:
        return cached
    paths = entry_paths(cache, spec.name)
    with locked_entry(paths, spec.name):
        files = spec.source.fetch(cache, options=options, progress=progress)
        frame = build_canonical_frame(spec, files)
        return write_entry(spec, frame, paths, spec.source.checksums(cache))
