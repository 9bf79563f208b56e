"""Ingest a dataset (fetch, verify, parse, validate, binarize, validate, write parquet) or read its cache.

Nothing is written to ``datasets/`` unless every step succeeded: the raw frame satisfies its strict pandera
model, the canonical frame satisfies :class:`~schemas.canonical_dataset.CanonicalDataset`, and the row and
positive counts equal the registry's. The parquet is renamed into place first and its metadata JSON last; a
cached entry is trusted only when the JSON exists, its definition digest matches the registry entry and the
parquet's content fingerprint matches the JSON (otherwise it is rebuilt).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pandera.pandas as pa

from schemas.canonical_dataset import COST_COLUMN_NAMES as COST_COLUMNS
from schemas.canonical_dataset import COST_PREFIX, TARGET_COLUMN, CanonicalDataset
from schemas.validation import validate_frame
from tasks.datasets import parsers
from tasks.datasets.cache import resolve_cache_dir
from tasks.datasets.downloads import DEFAULT_HTTP_OPTIONS, HttpOptions
from tasks.datasets.encoding import encode_features
from tasks.datasets.sources import LocalFile
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
            f"{spec.name}: expected {expected[0]} rows and {expected[1]} positives (registry), "
            f"got {rows} rows and "
            f"{positives} positives; the source or its filter changed, nothing was cached"
        )
    return frame


def _entry_paths(cache_dir: Path, name: str, subdirectory: str = "") -> tuple[Path, Path]:
    directory = cache_dir / "datasets" / subdirectory if subdirectory else cache_dir / "datasets"
    return directory / f"{name}.parquet", directory / f"{name}.json"


def _to_dataset(spec: DatasetSpec, frame: pd.DataFrame, path: Path, metadata: dict) -> Dataset:
    cost_names = [f"{COST_PREFIX}{column}" for column in COST_COLUMNS]
    has_costs = all(name in frame.columns for name in cost_names)
    features = frame.drop(columns=[TARGET_COLUMN, *(cost_names if has_costs else [])])
    return Dataset(
        name=spec.name,
        features=features,
        target=frame[TARGET_COLUMN].to_numpy(dtype=np.int64),
        fingerprint=metadata["fingerprint"],
        path=path,
        spec=spec,
        metadata=metadata,
        cost_matrix=frame[cost_names].to_numpy(dtype=np.float64) if has_costs else None,
    )


def _write_entry(
    spec: DatasetSpec,
    frame: pd.DataFrame,
    parquet: Path,
    metadata_path: Path,
    checksums: dict,
    extra: dict | None = None,
) -> Dataset:
    fingerprint = content_fingerprint(frame)
    metadata = {
        "name": spec.name,
        "fingerprint": fingerprint,
        "rows": len(frame),
        "features": int(
            sum(1 for c in frame.columns if c != TARGET_COLUMN and not c.startswith(COST_PREFIX))
        ),
        "positives": int(frame[TARGET_COLUMN].sum()),
        "definition_digest": spec.digest,
        "source_checksums": checksums,
        "ingested_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        **(extra or {}),
    }
    with atomic_path(parquet) as temporary:
        frame.to_parquet(temporary, index=False)
    atomic_write_bytes(metadata_path, json.dumps(metadata, indent=2).encode())
    return _to_dataset(spec, frame, parquet, metadata)


def read_cached(spec: DatasetSpec, parquet: Path, metadata_path: Path) -> Dataset | None:
    """The cached dataset if its entry is complete, current and intact, else ``None`` (reason logged)."""
    if not (parquet.exists() and metadata_path.exists()):
        return None
    try:
        metadata = json.loads(metadata_path.read_text())
        if metadata.get("definition_digest") != spec.digest:
            logger.info("%s: registry definition changed since it was cached; rebuilding", spec.name)
            return None
        frame = pd.read_parquet(parquet)
    except (OSError, ValueError) as error:  # unreadable JSON or parquet (truncated, corrupted)
        logger.warning("%s: cached entry unreadable (%s); rebuilding", spec.name, error)
        return None
    if content_fingerprint(frame) != metadata.get("fingerprint"):
        logger.warning("%s: cached parquet does not match its fingerprint; rebuilding", spec.name)
        return None
    return _to_dataset(spec, frame, parquet, metadata)


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
    parquet, metadata_path = _entry_paths(cache, spec.name)
    if not force and (cached := read_cached(spec, parquet, metadata_path)) is not None:
        return cached
    files = spec.source.fetch(cache, options=options, progress=progress)
    frame = build_canonical_frame(spec, files)
    return _write_entry(spec, frame, parquet, metadata_path, spec.source.checksums(cache))


def load_dataset(name: str, *, cache_dir=None, progress: bool = False) -> Dataset:
    """The registered dataset ``name``: ingested on first use, read from the cache after that.

    Raises
    ------
    KeyError
        If ``name`` is not a key of :data:`tasks.datasets.DATASETS` (the message lists the known names).
    """
    from tasks.datasets.registry import DATASETS

    if name not in DATASETS:
        raise KeyError(f"unknown dataset {name!r}; known datasets: {', '.join(sorted(DATASETS))}")
    return ingest_dataset(DATASETS[name], cache_dir=cache_dir, progress=progress)


# --- a user's own file ------------------------------------------------------------


def _kebab(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "dataset"


def _user_label_rule(raw: pd.DataFrame, target: str, positive: str | None) -> pd.Series:
    labels = raw[target].astype("str")
    levels = labels.value_counts()
    if positive is not None:
        if str(positive) not in levels.index:
            raise ValueError(
                f"--positive {positive!r} is not a value of target column {target!r}; its values are "
                f"{sorted(levels.index)[:20]}"
            )
        return labels == str(positive)
    if len(levels) != 2:
        raise ValueError(
            f"target column {target!r} has {len(levels)} distinct values {sorted(levels.index)[:20]}; "
            "pass --positive VALUE to choose the positive class"
        )
    if levels.iloc[0] == levels.iloc[1]:
        raise ValueError(
            f"target column {target!r} is balanced; pass --positive VALUE to choose the positive class"
        )
    return labels == levels.index[-1]  # the minority value


def user_file_spec(
    path: Path,
    *,
    target: str,
    positive: str | None = None,
    cost_columns: tuple[str, ...] | None = None,
    name: str | None = None,
) -> DatasetSpec:
    """A registry-like entry for a user's CSV or parquet file (validated like the registered datasets).

    The raw check is a lazily-validated schema built from the arguments: ``target`` present without missing
    values; each of the four ``cost_columns`` (order C_FP, C_FN, C_TP, C_TN) numeric, non-negative and
    complete.
    """
    path = Path(path)
    cost_columns = tuple(cost_columns or ())
    if cost_columns and len(cost_columns) != len(COST_COLUMNS):
        raise ValueError(
            f"--cost-columns takes exactly {len(COST_COLUMNS)} column names in the order "
            f"{list(COST_COLUMNS)}; "
            f"got {len(cost_columns)}: {list(cost_columns)}"
        )
    if target in cost_columns:
        raise ValueError(f"target column {target!r} cannot also be a cost column")
    columns = {target: pa.Column(nullable=False, title="target")}
    columns |= {
        column: pa.Column("float64", checks=pa.Check.ge(0), nullable=False, coerce=True)
        for column in cost_columns
    }
    raw_schema = pa.DataFrameSchema(columns, strict=False, name=f"user file {path.name}")

    def recipe(raw: pd.DataFrame):
        is_positive = _user_label_rule(raw, target, positive)
        remaining = raw.drop(columns=[target, *cost_columns])
        if remaining.shape[1] == 0:
            raise ValueError(
                f"{path.name} has no feature column left once the target {target!r} and the cost columns "
                f"{list(cost_columns)} are set aside; its columns: {list(raw.columns)[:20]}"
            )
        features = encode_features(remaining)
        named_costs = dict(zip(COST_COLUMNS, cost_columns, strict=True)) if cost_columns else {}
        for cost_name, column in named_costs.items():
            features[f"{COST_PREFIX}{cost_name}"] = raw[column].to_numpy(dtype=np.float64)
        return features, is_positive.to_numpy(dtype=np.int8)

    recipe.__qualname__ = "user_file_recipe"
    return DatasetSpec(
        name=name or _kebab(path.stem),
        title=f"user file {path.name}",
        source=LocalFile(path=path.resolve()),
        parser=lambda files: parsers.read_user_table(files, member=path.name),
        raw_schema=raw_schema,
        recipe=recipe,
        row_filter="none",
        minority_rule=f"{target} == {positive!r}"
        if positive is not None
        else f"{target}: the rarer of its two values",
        expected_rows=None,
        expected_positives=None,
        citation="user-supplied",
        offline=True,
        notes=f"cost columns {list(cost_columns)}" if cost_columns else "",
    )


def ingest_file(
    path,
    *,
    target: str,
    positive: str | None = None,
    cost_columns=None,
    name: str | None = None,
    cache_dir=None,
) -> Dataset:
    """Ingest a user's CSV or parquet file into ``datasets/user/<name>.parquet`` (re-read from ``path``).

    Parameters
    ----------
    path : path-like
    target : str
        The label column.
    positive : str, optional
        The label value that is positive (compared as text); default: the rarer of exactly two values.
    cost_columns : sequence of 4 str, optional
        Columns holding C_FP, C_FN, C_TP, C_TN per example; stored as ``cost:C_FP`` ... and returned as
        ``Dataset.cost_matrix``; rows breaking C_FP > C_TN or C_FN > C_TP are counted in the metadata and
        logged as a warning (not refused).
    name : str, optional
        Cache name; default: the file's stem in kebab case.
    """
    spec = user_file_spec(Path(path), target=target, positive=positive, cost_columns=cost_columns, name=name)
    cache = resolve_cache_dir(cache_dir)
    files = spec.source.fetch(cache)
    frame = build_canonical_frame(spec, files)
    parquet, metadata_path = _entry_paths(cache, spec.name, "user")
    extra = {"target": target, "positive": positive, "cost_columns": list(cost_columns or [])}
    if cost_columns:
        extra["unreasonable_cost_rows"] = _count_unreasonable_cost_rows(frame, spec.name)
    return _write_entry(
        spec,
        frame,
        parquet,
        metadata_path,
        spec.source.checksums(cache),
        extra=extra,
    )


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
