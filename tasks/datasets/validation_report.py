"""The validation report of the ``ingest`` flow: ingest each dataset, re-check it from the cache, publish.

Ingestion itself belongs to the data layer (``tasks.datasets.ingestion``); this module holds the flow's tasks
around it and the report they produce. The checks are pure functions (:func:`validation_checks`), callable
without Prefect; the tasks wrap them.
"""

from __future__ import annotations

import json

import pandas as pd
from prefect import task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE

from schemas.canonical_dataset import TARGET_COLUMN, CanonicalDataset
from schemas.validation import validate_frame
from tasks.datasets import DATASETS, content_fingerprint, ingest_dataset, resolve_cache_dir
from tasks.storage import atomic_write_bytes

__all__ = [
    "failed_report_row",
    "ingest_dataset_task",
    "publish_validation_report_task",
    "validate_cached_dataset_task",
    "validation_checks",
]


def validation_checks(dataset) -> list[dict]:
    """Re-check a dataset from its cached parquet: canonical schema, defined counts, content fingerprint.

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


def failed_report_row(name: str, error: str) -> dict:
    """The report row of a dataset that could not be ingested."""
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
