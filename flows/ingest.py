"""The ``ingest`` flow: datasets -> validated, cached parquet plus a validation report.

Each dataset is ingested by the data layer (download or bundled source, checksum, strict raw schema, recipe,
canonical schema, defined counts, atomic parquet write; a valid cache entry is reused), then re-checked from
what was cached: the canonical schema on the cached frame, the row and positive counts against the definition,
and the content fingerprint against the cache metadata. The report is published as Prefect table artifacts
(one summary row per dataset, and one table of checks per dataset) and written next to the cache as
``validation-report.json``. A dataset that fails is reported with its error; the flow then fails, after the
report, naming every failed dataset.
"""

from __future__ import annotations

from prefect import flow, get_run_logger

from schemas.flow_params import IngestParams
from tasks.config.checks import validate_params
from tasks.datasets.validation_report import (
    failed_report_row,
    ingest_dataset_task,
    publish_validation_report_task,
    validate_cached_dataset_task,
)

__all__ = ["ingest"]


@flow(name="ingest", validate_parameters=True)
def ingest(params: IngestParams = IngestParams()) -> list[dict]:  # noqa: B008 - frozen, immutable default
    """Ingest and validate datasets into the cache and publish a validation report; returns its rows.

    Raises
    ------
    RuntimeError
        After publishing the report, when any dataset failed to ingest or failed a check.
    """
    params = validate_params(IngestParams, params)
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
