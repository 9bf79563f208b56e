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

from typing import Annotated

from prefect import flow, get_run_logger
from pydantic import BaseModel, ConfigDict, Field, field_validator

from tasks.datasets import DATASETS
from tasks.ingest import (
    failed_report_row,
    ingest_dataset_task,
    publish_validation_report_task,
    validate_cached_dataset_task,
)

__all__ = ["DEFAULT_DATASETS", "IngestParams", "ingest"]

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
            report.append(failed_report_row(name, str(state.message or state.name)))
            continue
        report.append(validate_cached_dataset_task(state.result()))
    path = publish_validation_report_task(report, params.report_key, params.cache_dir)
    logger.info("validation report of %d dataset(s) written to %s", len(report), path)
    failed = [row["dataset"] for row in report if row["status"] != "valid"]
    if failed:
        raise RuntimeError(f"datasets failed ingestion or validation: {failed}; see the report {path}")
    return report
