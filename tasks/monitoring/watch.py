"""One batch watched: drift against the champion's training rows, prediction drift, realized savings.

The reference is the champion's training rows: the dataset's rows up to the time cutoff its version records
(``cslearn.time_cutoff``; a dataset without a time column: all its rows), at most :data:`REFERENCE_ROWS`
of them (a seeded sample). The batch is a file or query given, or the dataset's newest accepted batch (its
rows past the previous version's watermark), whose labels have arrived: then the champion's decisions on
it give the **realized savings** (CSDT Eq. 4 with the rows' own costs).

Each watch is a step of one MLflow run per dataset (``monitor <dataset>``, experiment ``cslearn-monitor``;
step = the watch's number): ``psi/<feature>``, ``drifted_features``, ``flagged_share``,
``mean_probability``, ``realized_savings`` and their reference values, so MLflow charts them over periods; a
figure (``figures/monitor.png``: PSI per feature against the bands, and the series) and a Prefect markdown
artifact. Past a threshold (drifted features, or a savings drop below the champion's holdout savings) the
flow starts the dataset's retrain deployment and says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from prefect import get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from algorithms.metrics import COST_COLUMNS, savings_score
from tasks.datasets import load_dataset
from tasks.datasets.encoding import NUMERIC, RawEncoding
from tasks.model_registry.serving import CostAwareModel
from tasks.monitoring.drift import feature_drift
from tasks.report.figures import figure_png
from tasks.scoring.inputs import read_score_batches
from tasks.tracking.mlflow_runs import (
    default_tracking_uri,
    ensure_experiment,
    log_metrics,
    log_run_files,
    start_run,
    tracking_client,
)

__all__ = [
    "REFERENCE_ROWS",
    "MonitorBatch",
    "champion_facts_task",
    "retrain_reasons",
    "load_monitor_batch_task",
    "load_reference_task",
    "log_watch_task",
    "trigger_retrain_task",
    "watch_batch",
    "watch_batch_task",
]

#: At most this many reference rows (a seeded sample of the training rows).
REFERENCE_ROWS = 20_000


@dataclass(frozen=True)
class MonitorBatch:
    """A batch to watch: its label, raw rows (with cost columns when known), labels when they arrived."""

    label: str
    rows: pd.DataFrame
    target: np.ndarray | None


def _raw_rows(dataset, mask: np.ndarray) -> pd.DataFrame:
    encoding = dataset.metadata.get("feature_encoding")
    encoding = (
        RawEncoding.from_record(encoding)
        if encoding
        else RawEncoding.from_feature_names(dataset.features.columns)
    )
    rows = encoding.decode(dataset.features[mask])
    if dataset.cost_matrix is not None:
        rows = rows.assign(**dict(zip(COST_COLUMNS, dataset.cost_matrix[mask].T, strict=True)))
    return rows.reset_index(drop=True)


@task(name="load_monitor_batch", cache_policy=NO_CACHE)
def load_monitor_batch_task(dataset_name: str, text: str | None, *, table=None, query=None, cache_dir=None):
    """The batch to watch: the input's newest file or query rows, or the dataset's newest accepted batch."""
    dataset = load_dataset(dataset_name, cache_dir=cache_dir)
    if text is None:
        live = dataset.metadata.get("live")
        if live is None or dataset.time is None or len(live["history"]) < 2:
            raise ValueError(
                f"dataset {dataset_name!r} has no newest batch to watch (it is not bound to a source with a"
                " time column, or has accepted no batch since its first ingest): pass --input SOURCE"
            )
        after = live["history"][-2]["watermark"]
        mask = dataset.time > after
        label = f"{dataset_name} v{live['version']} ({', '.join(live['history'][-1]['batches'])})"
        return MonitorBatch(label, _raw_rows(dataset, mask), np.asarray(dataset.target)[mask])
    (batch,) = read_score_batches(text, table=table, query=query, newest=True)
    target_column = dataset.metadata.get("target")
    rows, target = batch.frame, None
    if target_column is not None and target_column in rows:
        target = (rows[target_column].astype("str") == str(dataset.metadata.get("positive"))).to_numpy(int)
    for name, column in zip(COST_COLUMNS, dataset.metadata.get("cost_columns") or (), strict=False):
        if column in rows:
            rows = rows.assign(**{name: rows[column]})
    return MonitorBatch(batch.batch_id, rows, target)


@task(name="load_reference", cache_policy=NO_CACHE)
def load_reference_task(dataset_name: str, cutoff: float | None, *, cache_dir=None) -> pd.DataFrame:
    """The champion's training rows, raw (up to its time cutoff), at most :data:`REFERENCE_ROWS`."""
    dataset = load_dataset(dataset_name, cache_dir=cache_dir)
    mask = np.ones(len(dataset.target), dtype=bool)
    if cutoff is not None and dataset.time is not None:
        mask = dataset.time <= cutoff
    chosen = np.flatnonzero(mask)
    if chosen.size > REFERENCE_ROWS:
        chosen = np.sort(np.random.default_rng(0).choice(chosen, REFERENCE_ROWS, replace=False))
    keep = np.zeros_like(mask)
    keep[chosen] = True
    return _raw_rows(dataset, keep)


def watch_batch(
    model: CostAwareModel,
    reference: pd.DataFrame,
    batch: MonitorBatch,
    *,
    psi_threshold: float,
    holdout_savings: float | None,
) -> dict:
    """Drift of every feature, prediction drift and realized savings of one batch (module docstring)."""
    columns = model.input_names
    numeric = (
        {column.name for column in model.encoding.columns if column.kind == NUMERIC}
        if model.encoding is not None
        else set(columns)
    )
    drift = feature_drift(reference[columns], batch.rows[columns], numeric)
    drifted = drift.loc[drift["psi"] >= psi_threshold, "feature"].tolist()
    decided = model.predict(batch.rows)
    expected = model.predict(reference)
    result = {
        "batch": batch.label,
        "rows": len(batch.rows),
        "drift": drift,
        "drifted_features": drifted,
        "flagged_share": float(decided["decision"].mean()),
        "mean_probability": float(decided["probability"].mean()),
        "reference_flagged_share": float(expected["decision"].mean()),
        "reference_mean_probability": float(expected["probability"].mean()),
        "holdout_savings": holdout_savings,
        "realized_savings": None,
    }
    if batch.target is not None:
        costs = decided[list(COST_COLUMNS)].to_numpy(float)
        result["realized_savings"] = float(savings_score(batch.target, decided["decision"].to_numpy(), costs))
    return result


@task(name="watch_batch", cache_policy=NO_CACHE)
def watch_batch_task(model, reference, batch, *, psi_threshold, holdout_savings) -> dict:
    """Watch one batch; the log names the drifted features and the realized savings."""
    result = watch_batch(
        model, reference, batch, psi_threshold=psi_threshold, holdout_savings=holdout_savings
    )
    logger = get_run_logger()
    logger.info(
        "%s: %d row(s); %d feature(s) drifted (PSI >= %g): %s; flagged %.2f%% (reference %.2f%%); realized"
        " savings %s",
        batch.label,
        result["rows"],
        len(result["drifted_features"]),
        psi_threshold,
        ", ".join(result["drifted_features"]) or "none",
        100 * result["flagged_share"],
        100 * result["reference_flagged_share"],
        "not known yet (no labels)"
        if result["realized_savings"] is None
        else f"{result['realized_savings']:.4f}",
    )
    return result


def _series_run(client, experiment_id: str, dataset: str) -> tuple[str, int]:
    """The dataset's monitoring run (created on first use) and the next step of its series."""
    runs = client.search_runs(
        [experiment_id], filter_string=f"tags.`cslearn.monitor_series` = '{dataset}'", max_results=1
    )
    if runs:
        run = runs[0]
        history = client.get_metric_history(run.info.run_id, "flagged_share")
        return run.info.run_id, max((metric.step for metric in history), default=0) + 1
    run_id = start_run(
        client,
        experiment_id,
        run_name=f"monitor {dataset}",
        tags={"cslearn.monitor_series": dataset, "cslearn.purpose": "monitor"},
    )
    client.set_terminated(run_id, "FINISHED")  # a series, not a process: each watch adds a step to it
    return run_id, 1


def monitor_figure(series: pd.DataFrame, drift: pd.DataFrame, psi_threshold: float) -> bytes:
    """PSI per feature against the 0.1 / 0.25 bands, and the series of flagged share and realized savings."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 4), dpi=100)
    bars, lines = figure.subplots(1, 2)
    shown = drift.head(15).iloc[::-1]
    bars.barh(
        shown["feature"],
        shown["psi"],
        color=["#c0392b" if p >= psi_threshold else "#2e86c1" for p in shown["psi"]],
    )
    for level, style in ((0.1, ":"), (0.25, "--")):
        bars.axvline(level, color="grey", linestyle=style, linewidth=1)
    bars.set_xlabel("population stability index (bands 0.1, 0.25)")
    bars.set_title("feature drift of the newest batch")
    lines.plot(series["step"], series["flagged_share"], marker="o", label="flagged share")
    if series["realized_savings"].notna().any():
        lines.plot(series["step"], series["realized_savings"], marker="s", label="realized savings")
    lines.set_xlabel("period")
    lines.legend(loc="best")
    lines.set_title("the champion over periods")
    figure.tight_layout()
    return figure_png(figure, dpi=100, tight=False)


@task(name="log_watch", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=5)
def log_watch_task(
    tracking_uri: str | None,
    experiment: str,
    dataset: str,
    model_version: str | None,
    result: dict,
    psi_threshold: float,
) -> dict:
    """One step of the dataset's monitoring series in MLflow, the figure, and the Prefect artifact."""
    client = tracking_client(tracking_uri or default_tracking_uri())
    run_id, step = _series_run(client, ensure_experiment(client, experiment), dataset)
    metrics = {
        "drifted_features": len(result["drifted_features"]),
        "flagged_share": result["flagged_share"],
        "mean_probability": result["mean_probability"],
        "reference/flagged_share": result["reference_flagged_share"],
        "reference/mean_probability": result["reference_mean_probability"],
        **{f"psi/{row.feature}": row.psi for row in result["drift"].itertuples()},
    }
    if result["realized_savings"] is not None:
        metrics["realized_savings"] = result["realized_savings"]
    if result["holdout_savings"] is not None:
        metrics["reference/holdout_savings"] = result["holdout_savings"]
    log_metrics(client, run_id, metrics, step=step)
    client.set_tag(run_id, f"cslearn.step.{step}", f"{result['batch']} (model v{model_version})"[:5000])
    histories = {
        name: {metric.step: metric.value for metric in client.get_metric_history(run_id, name)}
        for name in ("flagged_share", "realized_savings")
    }
    series = pd.DataFrame(histories).rename_axis("step").reset_index().sort_values("step")
    series = series.reindex(columns=["step", "flagged_share", "realized_savings"])
    log_run_files(
        client,
        run_id,
        {
            "figures/monitor.png": monitor_figure(series, result["drift"], psi_threshold),
            f"drift/step-{step:04d}.csv": result["drift"].to_csv(index=False).encode(),
        },
    )
    table = "\n".join(
        f"| {row.feature} | {row.psi:.3f} | {row.band} | "
        + ("–" if math.isnan(row.ks_p_value) else f"{row.ks_p_value:.3g}")
        + " |"
        for row in result["drift"].head(20).itertuples()
    )
    realized = result["realized_savings"]
    create_markdown_artifact(
        key="".join(c if c.isalnum() else "-" for c in f"monitor-{dataset}".lower()),
        markdown=(
            f"**{dataset}**, period {step}: {result['batch']} ({result['rows']:,} rows),"
            f" champion v{model_version}.\n\n"
            f"Drifted features (PSI >= {psi_threshold:g}): {', '.join(result['drifted_features']) or 'none'}."
            f" Flagged {result['flagged_share']:.2%} (training rows {result['reference_flagged_share']:.2%});"
            f" realized savings {'not known yet' if realized is None else f'{realized:.4f}'}"
            + (f" (holdout {result['holdout_savings']:.4f})" if result["holdout_savings"] is not None else "")
            + ".\n\n| feature | PSI | band | KS p-value |\n|---|---|---|---|\n"
            + table
        ),
        description=f"drift and savings of {dataset}'s champion",
    )
    return {"run_id": run_id, "step": step}


@task(name="champion_facts", cache_policy=NO_CACHE)
def champion_facts_task(name: str | None, version: str | None, tracking_uri: str | None) -> dict:
    """The watched version's time cutoff (its training rows end there) and holdout savings, from its tags."""
    if name is None or version is None:
        return {"time_cutoff": None, "holdout_savings": None}
    tags = tracking_client(tracking_uri or default_tracking_uri()).get_model_version(name, version).tags
    cutoff, savings = tags.get("cslearn.time_cutoff") or None, tags.get("savings") or None
    return {
        "time_cutoff": float(cutoff) if cutoff else None,
        "holdout_savings": float(savings) if savings else None,
    }


def retrain_reasons(
    result: dict, *, drifted_features_to_retrain: int, savings_drop_to_retrain: float
) -> list:
    """Why the watch calls for a retrain: enough drifted features, or realized savings fallen too far."""
    reasons = []
    drifted = result["drifted_features"]
    if drifted_features_to_retrain and len(drifted) >= drifted_features_to_retrain:
        reasons.append(f"{len(drifted)} feature(s) drifted ({', '.join(drifted)})")
    realized, holdout = result["realized_savings"], result["holdout_savings"]
    if savings_drop_to_retrain and realized is not None and holdout is not None:
        if holdout - realized >= savings_drop_to_retrain:
            reasons.append(
                f"realized savings {realized:.4f} are {holdout - realized:.4f} below the holdout's"
                f" {holdout:.4f}"
            )
    return reasons


@task(name="trigger_retrain", cache_policy=NO_CACHE)
def trigger_retrain_task(dataset: str, deployment: str, reasons: list[str], start: bool) -> dict:
    """Start ``deployment`` for ``dataset`` when there are ``reasons`` (and ``start``); say what happened."""
    logger = get_run_logger()
    if not reasons:
        return {"triggered": False, "reasons": [], "flow_run_id": None}
    because = "; ".join(reasons)
    if not start:
        logger.warning("%s: would start %s because %s (trigger_retrain is off)", dataset, deployment, because)
        return {"triggered": False, "reasons": reasons, "flow_run_id": None}
    from prefect.deployments import run_deployment
    from prefect.exceptions import ObjectNotFound

    try:
        flow_run = run_deployment(deployment, parameters={"dataset": dataset}, timeout=0)
    except ObjectNotFound:
        logger.warning(
            "%s: %s; the deployment %s does not exist (`make deploy`), so nothing was started: run"
            " `cslearn retrain %s`",
            dataset,
            because,
            deployment,
            dataset,
        )
        return {"triggered": False, "reasons": reasons, "flow_run_id": None}
    logger.warning("%s: started %s (flow run %s) because %s", dataset, deployment, flow_run.id, because)
    return {"triggered": True, "reasons": reasons, "flow_run_id": str(flow_run.id)}
