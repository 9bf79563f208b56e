"""The scoring flow's tasks: load the model, read the batches, score and write each, log the run.

One MLflow run per scoring flow run (experiment ``cslearn-score``), named ``score <dataset> v<version>``,
tagged with the model version it used; per batch (step = the batch's position) the metrics ``rows``,
``refused_rows``, ``flagged_share``, ``mean_probability`` and ``total_expected_cost``, the batch as an MLflow
dataset input (context ``score``), and the refused rows as ``refused/<batch>.csv``. The Prefect flow run
shows a table artifact of the batches.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

import pandas as pd
from prefect import get_run_logger, task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE

from tasks.model_registry.logged_models import load_cost_aware_model
from tasks.model_registry.serving import CostAwareModel
from tasks.scoring.decisions import ScoredBatch, score_batch
from tasks.scoring.inputs import ScoreBatch, read_score_batches
from tasks.scoring.outputs import describe_target, write_decisions
from tasks.tracking.dataset_inputs import log_dataset_input
from tasks.tracking.mlflow_runs import ParentRun, log_metrics, log_run_files, parent_run, tracking_client

__all__ = [
    "ScoringModel",
    "load_scoring_model_task",
    "log_scored_batch_task",
    "publish_scoring_summary_task",
    "read_score_batches_task",
    "resolve_model",
    "score_and_write_task",
    "scoring_run",
]


@dataclass(frozen=True)
class ScoringModel:
    """The model a scoring run applies: its URI, registered name and version (when registered), the model."""

    uri: str
    name: str | None
    version: str | None
    model: CostAwareModel


def resolve_model(uri: str, tracking_uri: str) -> tuple[str | None, str | None]:
    """The registered name and version a ``models:/<name>@<alias>`` or ``models:/<name>/<v>`` URI names."""
    reference = uri.removeprefix("models:/")
    client = tracking_client(tracking_uri)
    if "@" in reference:
        name, alias = reference.split("@", 1)
        return name, str(client.get_model_version_by_alias(name, alias).version)
    if reference.count("/") == 1 and reference.rsplit("/", 1)[1].isdigit():
        name, version = reference.rsplit("/", 1)
        return name, version
    return None, None


@task(name="load_scoring_model", cache_policy=NO_CACHE, retries=1, retry_delay_seconds=5)
def load_scoring_model_task(uri: str, tracking_uri: str) -> ScoringModel:
    """Resolve and load the model to score with (a registered alias is read once, at the start)."""
    name, version = resolve_model(uri, tracking_uri)
    pinned = f"models:/{name}/{version}" if name is not None else uri
    model = load_cost_aware_model(pinned, tracking_uri=tracking_uri)
    get_run_logger().info("scoring with %s (version %s)", uri, version or "unregistered")
    return ScoringModel(uri, name, version, model)


@task(name="read_score_batches", cache_policy=NO_CACHE)
def read_score_batches_task(text: str, **options) -> list[ScoreBatch]:
    """The batches of the score input."""
    batches = read_score_batches(text, **options)
    get_run_logger().info("%d batch(es) to score: %s", len(batches), ", ".join(b.batch_id for b in batches))
    return batches


def scoring_run(
    tracking_uri: str | None, experiment: str, *, dataset: str, model: ScoringModel, params: dict
) -> AbstractContextManager[ParentRun]:
    """The scoring flow run's MLflow run (ended FINISHED only when every batch was written)."""
    return parent_run(
        tracking_uri,
        experiment,
        run_name=f"score {dataset} v{model.version or '?'}",
        purpose="score",
        fingerprints={},
        tags={
            "cslearn.dataset": dataset,
            "cslearn.model_uri": model.uri,
            "cslearn.model_version": model.version,
        },
        params=params,
    )


@task(name="score_and_write", cache_policy=NO_CACHE)
def score_and_write_task(
    model: ScoringModel,
    batch: ScoreBatch,
    output: str,
    *,
    output_table: str | None = None,
    keep_columns: Sequence[str] = (),
) -> tuple[ScoredBatch, str]:
    """Score one batch and write its decisions (replacing its earlier rows); the result and where it went."""
    scored = score_batch(model.model, batch.frame, batch.batch_id, keep_columns=keep_columns)
    where = write_decisions(scored.table, output, batch.batch_id, output_table=output_table)
    logger = get_run_logger()
    summary = scored.summary()
    logger.info(
        "batch %s: %d row(s) scored, %d refused, %.2f%% flagged, expected cost %.2f -> %s",
        batch.batch_id,
        summary["rows"],
        summary["refused_rows"],
        100 * summary["flagged_share"] if not math.isnan(summary["flagged_share"]) else 0.0,
        summary["total_expected_cost"],
        where,
    )
    for _, refused in scored.refused.head(5).iterrows():
        logger.warning("batch %s: row %d refused: %s", batch.batch_id, refused["row"], refused["reason"])
    for column, levels in scored.unseen_levels.items():
        logger.warning("batch %s: levels of %r the model never saw: %s", batch.batch_id, column, levels)
    return scored, where


@task(name="log_scored_batch", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=5)
def log_scored_batch_task(run: ParentRun, batch: ScoreBatch, scored: ScoredBatch, step: int, dataset: str):
    """The batch's metrics at ``step``, its rows as the run's dataset input, its refused rows as a file."""
    client = tracking_client(run.tracking_uri)
    summary = scored.summary()
    log_metrics(client, run.run_id, {k: v for k, v in summary.items() if k != "batch"}, step=step)
    digest = hashlib.sha256(pd.util.hash_pandas_object(batch.frame, index=False).to_numpy().tobytes())
    log_dataset_input(
        client,
        run.run_id,
        batch.frame,
        name=f"{dataset}:{batch.batch_id}",
        fingerprint=digest.hexdigest(),
        source=batch.source,
        context="score",
    )
    if len(scored.refused):
        log_run_files(
            client, run.run_id, {f"refused/{batch.batch_id}.csv": scored.refused.to_csv(index=False).encode()}
        )


@task(name="publish_scoring_summary", cache_policy=NO_CACHE)
def publish_scoring_summary_task(
    run: ParentRun,
    dataset: str,
    model: ScoringModel,
    results: list[tuple[ScoredBatch, str]],
    output: str,
    output_table: str | None,
) -> dict:
    """Totals on the run, a table artifact on the Prefect flow run; what the flow returns."""
    rows = [{**scored.summary(), "output": where} for scored, where in results]
    scored_rows = sum(row["rows"] for row in rows)
    totals = {
        "rows": scored_rows,
        "refused_rows": sum(row["refused_rows"] for row in rows),
        "flagged_share": (
            sum(row["flagged_share"] * row["rows"] for row in rows if row["rows"]) / scored_rows
            if scored_rows
            else float("nan")
        ),
        "total_expected_cost": sum(row["total_expected_cost"] for row in rows),
    }
    log_metrics(tracking_client(run.tracking_uri), run.run_id, {f"total/{k}": v for k, v in totals.items()})
    key = f"score-{dataset}".lower()
    create_table_artifact(
        key="".join(c if c.isalnum() or c == "-" else "-" for c in key),
        table=rows,
        description=f"{dataset}: {totals['rows']:,} row(s) scored with {model.uri} (v{model.version}),"
        f" {totals['refused_rows']:,} refused; decisions in {describe_target(output, output_table)}",
    )
    return {
        "dataset": dataset,
        "model_uri": model.uri,
        "model_version": model.version,
        "run_id": run.run_id,
        "output": describe_target(output, output_table),
        "batches": rows,
        **totals,
    }
