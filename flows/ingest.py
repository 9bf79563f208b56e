"""The ``ingest`` flow: datasets -> validated, cached parquet plus a validation report.

Each dataset is ingested by the data layer (download or bundled source, checksum, strict raw schema, recipe,
canonical schema, registry counts, atomic parquet write; a valid cache entry is reused), then re-checked from
what was cached: the canonical schema on the cached frame, the row and positive counts against the registry,
and the content fingerprint against the cache metadata. The report is published as Prefect table artifacts
(one summary row per dataset, and one table of checks per dataset) and written next to the cache as
``validation-report.json``. A dataset that fails is reported with its error; the flow then fails, after the
report, naming every failed dataset.
"""

from __future__ import annotations

import json
from typing import Annotated

import pandas as pd
from prefect import flow, get_run_logger, task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE
from pydantic import BaseModel, ConfigDict, Field, field_validator

from schemas.canonical_dataset import TARGET_COLUMN, CanonicalDataset
from schemas.validation import validate_frame
from tasks.datasets import DATASETS, content_fingerprint, ingest_dataset, resolve_cache_dir
from tasks.datasets.cache import atomic_write_bytes

__all__ = ["DEFAULT_DATASETS", "IngestParams", "ingest", "validation_checks"]

#: The business datasets the scheduled retrains need.
DEFAULT_DATASETS = ("credit-scoring", "direct-marketing", "card-fraud")

#: Prefect artifact keys allow lowercase letters, digits and dashes.
ArtifactKey = Annotated[str, Field(pattern=r"^[a-z0-9-]+$")]


class IngestParams(BaseModel):
    """Parameters of one ``ingest`` run.

    Attributes
    ----------
    datasets : tuple of str
        Keys of ``tasks.datasets.DATASETS``.
    cache_dir : str or None
        Cache folder; ``None`` means ``$CSLEARN_CACHE`` or the user cache directory.
    force : bool
        Ingest again even when a valid cache entry exists.
    report_key : str
        Key of the summary table artifact (per-dataset tables are ``<report_key>-<dataset>``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    datasets: tuple[str, ...] = Field(default=DEFAULT_DATASETS, min_length=1)
    cache_dir: str | None = None
    force: bool = False
    report_key: ArtifactKey = "dataset-validation"

    @field_validator("datasets")
    @classmethod
    def _registered(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        duplicated = sorted({name for name in names if names.count(name) > 1})
        if duplicated:
            raise ValueError(f"datasets lists {duplicated} more than once")
        unknown = [name for name in names if name not in DATASETS]
        if unknown:
            raise ValueError(f"unknown datasets {unknown}; known datasets: {sorted(DATASETS)}")
        return names


def validation_checks(dataset) -> list[dict]:
    """Re-check a dataset from its cached parquet: canonical schema, registry counts, content fingerprint.

    Returns one ``{"check", "expected", "actual", "passed"}`` row per check.
    """
    spec = dataset.spec
    frame = pd.read_parquet(dataset.path)
    rows, positives = len(frame), int(frame[TARGET_COLUMN].sum())
    try:
        validate_frame(CanonicalDataset, frame, what=f"{dataset.name}: the cached dataset")
        schema_result, schema_passed = "valid", True
    except ValueError as error:
        schema_result, schema_passed = str(error), False
    fingerprint = content_fingerprint(frame)
    checks = [
        {
            "check": f"raw schema {spec.raw_schema.__name__}"
            if spec.raw_schema is not None
            else "raw schema",
            "expected": "valid at ingestion",
            "actual": "valid" if spec.raw_schema is not None else "none declared (columns known on download)",
            "passed": True,
        },
        {
            "check": "canonical schema CanonicalDataset",
            "expected": "valid",
            "actual": schema_result,
            "passed": schema_passed,
        },
        {
            "check": "rows",
            "expected": spec.expected_rows,
            "actual": rows,
            "passed": spec.expected_rows is None or rows == spec.expected_rows,
        },
        {
            "check": "positives",
            "expected": spec.expected_positives,
            "actual": positives,
            "passed": spec.expected_positives is None or positives == spec.expected_positives,
        },
        {
            "check": "fingerprint",
            "expected": dataset.fingerprint,
            "actual": fingerprint,
            "passed": fingerprint == dataset.fingerprint,
        },
    ]
    return checks


# TODO(data layer): move these tasks to tasks/datasets; the data layer exposes pure functions only, so
# they live here until it offers Prefect tasks.
@task(name="ingest_dataset", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=5)
def ingest_dataset_task(name: str, cache_dir: str | None = None, force: bool = False):
    """Ingest one registered dataset into the cache (or reuse its valid entry); returns the ``Dataset``."""
    return ingest_dataset(DATASETS[name], cache_dir=cache_dir, force=force)


@task(name="validate_cached_dataset", cache_policy=NO_CACHE)
def validate_cached_dataset_task(dataset) -> dict:
    """Summarize a cached dataset and re-check it; returns the report row with its checks."""
    checks = validation_checks(dataset)
    passed = sum(check["passed"] for check in checks)
    return {
        "dataset": dataset.name,
        "status": "valid" if passed == len(checks) else "invalid",
        "rows": len(dataset.target),
        "features": dataset.features.shape[1],
        "positives": int(dataset.target.sum()),
        "negatives": int(len(dataset.target) - dataset.target.sum()),
        "positive_share": round(float(dataset.target.mean()), 6),
        "fingerprint": dataset.fingerprint,
        "checks_passed": f"{passed}/{len(checks)}",
        "path": str(dataset.path),
        "error": "",
        "checks": checks,
    }


@task(name="publish_validation_report", cache_policy=NO_CACHE)
def publish_validation_report_task(report: list[dict], key: str, cache_dir: str | None = None) -> str:
    """Publish the report as table artifacts, write ``validation-report.json`` atomically; return its path."""
    summary = [{column: value for column, value in row.items() if column != "checks"} for row in report]
    create_table_artifact(
        key=key,
        table=summary,
        description="Dataset validation: rows, class counts, fingerprint and checks passed per dataset.",
    )
    for row in report:
        if row["checks"]:
            create_table_artifact(
                key=f"{key}-{row['dataset']}",
                table=row["checks"],
                description=f"Checks of the cached dataset {row['dataset']}.",
            )
    path = resolve_cache_dir(cache_dir) / "validation-report.json"
    atomic_write_bytes(path, json.dumps(report, indent=2, default=str).encode())
    return str(path)


def _failed_row(name: str, error: str) -> dict:
    return {
        "dataset": name,
        "status": "failed",
        "rows": None,
        "features": None,
        "positives": None,
        "negatives": None,
        "positive_share": None,
        "fingerprint": "",
        "checks_passed": "0/0",
        "path": "",
        "error": error,
        "checks": [],
    }


@flow(name="ingest", validate_parameters=True)
def ingest(params: IngestParams = IngestParams()) -> list[dict]:  # noqa: B008 - frozen, immutable default
    """Ingest and validate datasets into the cache and publish a validation report; returns its rows.

    Raises
    ------
    RuntimeError
        After publishing the report, when any dataset failed to ingest or failed a check.
    """
    logger = get_run_logger()
    report = []
    for name in params.datasets:
        state = ingest_dataset_task(name, params.cache_dir, params.force, return_state=True)
        if state.is_failed():
            report.append(_failed_row(name, str(state.message or state.name)))
            continue
        report.append(validate_cached_dataset_task(state.result()))
    path = publish_validation_report_task(report, params.report_key, params.cache_dir)
    logger.info("validation report of %d dataset(s) written to %s", len(report), path)
    failed = [row["dataset"] for row in report if row["status"] != "valid"]
    if failed:
        raise RuntimeError(f"datasets failed ingestion or validation: {failed}; see the report {path}")
    return report
