"""The refresh as a Prefect task: read what is new in a dataset's source, and show what was accepted and
refused as a table artifact (named apart from :mod:`tasks.datasets.live`, which refreshes)."""

from __future__ import annotations

from prefect import get_run_logger, task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE

from tasks.datasets.catalog import dataset_entry
from tasks.datasets.live import refresh_dataset

__all__ = ["refresh_dataset_task"]


@task(name="refresh_dataset", cache_policy=NO_CACHE)
def refresh_dataset_task(name: str, cache_dir: str | None = None) -> dict | None:
    """Refresh ``name`` when it is bound to a source (``None`` for a registered dataset or a one-off file);
    the result of :func:`tasks.datasets.live.refresh_dataset` as a dict."""
    logger = get_run_logger()
    entry = dataset_entry(name, cache_dir=cache_dir)
    if entry.kind != "user" or (entry.record or {}).get("live") is None:
        logger.info("%s is not bound to a source: nothing to refresh, its snapshot is used", name)
        return None
    result = refresh_dataset(name, cache_dir=cache_dir).as_dict()
    rows = [
        {"batch": item["batch"], "status": "accepted", "rows": item["rows"], "reason": ""}
        for item in result["accepted"]
    ]
    rows += [
        {"batch": item["batch"], "status": "refused", "rows": None, "reason": item["reason"]}
        for item in result["refused"]
    ]
    if rows:
        create_table_artifact(
            key="".join(c if c.isalnum() else "-" for c in f"refresh-{name}".lower()),
            table=rows,
            description=f"{name}: version {result['version']}, {result['added_rows']:,} row(s) added,"
            f" {len(result['refused'])} batch(es) refused",
        )
    logger.info(
        "%s: %d row(s) added (version %d); %d batch(es) refused",
        name,
        result["added_rows"],
        result["version"],
        len(result["refused"]),
    )
    for item in result["refused"]:
        logger.warning("refused: %s", item["reason"])
    return result
