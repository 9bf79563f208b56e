"""How a comparison is recorded in MLflow and summarised for its caller.

Under the flow's parent run (:func:`comparison_parent_run`, built on :func:`tasks.track.parent_run`): one
child run per (dataset, method) with the estimator and protocol parameters, aggregate and per-fold metrics,
metrics per ensemble size and the boosting curves (:func:`log_method_run_task`, content from
``tasks.report.child_run_payload``); the results tables as ``results/*.csv|parquet`` artifacts of the parent
and its final cell counts (:func:`log_comparison_report_task`). :func:`comparison_outcome` is what the flow
returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run

from schemas.flow_params import CompareParams
from tasks.cells import DatasetInfo
from tasks.flow_parameters import logged_params
from tasks.report import Progress, child_run_payload, summary_records
from tasks.track import ParentRun, log_child_run, log_metrics, log_table, parent_run, tracking_client

__all__ = [
    "cell_counts",
    "comparison_outcome",
    "comparison_parent_run",
    "log_comparison_report_task",
    "log_method_run_task",
]

#: Prefect retries for tracking calls (I/O against a store or server; never for training).
_TRACKING_RETRIES = {"retries": 2, "retry_delay_seconds": 2}

#: Longest error text kept in a child run's ``error`` tag.
_ERROR_TAG_LENGTH = 5000


def comparison_parent_run(
    params: CompareParams, datasets: Sequence[DatasetInfo]
) -> AbstractContextManager[ParentRun]:
    """The comparison's parent run (:func:`tasks.track.parent_run`).

    Named ``compare <Prefect flow-run name>``, tagged with the datasets' fingerprints, and given the
    parameters of the comparison (``tasks.flow_parameters.logged_params``: no tracking URI, the cell store
    relative to the state folder), flat (non-strings as their repr).
    """
    return parent_run(
        params.tracking_uri,
        params.experiment,
        run_name=f"compare {flow_run.get_name() or ''}".strip(),
        purpose="compare",
        fingerprints={info.name: info.fingerprint for info in datasets},
        params={
            key: value if isinstance(value, str) else repr(value)
            for key, value in logged_params(params).items()
        },
    )


@task(name="log_method_run", cache_policy=NO_CACHE, **_TRACKING_RETRIES)
def log_method_run_task(
    run: ParentRun, params: CompareParams, dataset: DatasetInfo, method: str, results: Sequence[Mapping]
) -> str:
    """Log the child run of one (dataset, method) from its cells' results; FAILED if a cell failed."""
    group = [r for r in results if r["dataset"] == dataset.name and r["method"] == method]
    payload = child_run_payload(group)
    errors = sorted({r["error"] for r in group if r["status"] != "ok"})
    return log_child_run(
        run.tracking_uri,
        run.experiment_id,
        run.run_id,
        run_name=f"{dataset.name} / {method}",
        params={
            **payload["params"],
            "dataset": dataset.name,
            "method": method,
            "protocol": params.protocol,
            "repeats": params.n_repeats,
            "folds": params.n_folds,
            "ensemble_sizes": list(params.n_estimators),
            "cost_selection": params.cost_selection,
            "seed": params.seed,
        },
        metrics=payload["metrics"],
        fold_metrics=payload["fold_metrics"],
        curves=payload["curves"],
        step_metrics=payload["staged"],
        tags={
            "dataset": dataset.name,
            "method": method,
            "dataset.fingerprint": dataset.fingerprint,
            "failed_cells": len([r for r in group if r["status"] != "ok"]),
            "error": errors[0][:_ERROR_TAG_LENGTH] if errors else None,
        },
        failed=bool(errors),
    )


def cell_counts(progress: Progress, results: Sequence[Mapping]) -> dict[str, int]:
    """``total``, ``resumed``, ``computed`` and ``failed`` cells of a run."""
    return {
        "total": progress.total,
        "resumed": progress.skipped,
        "computed": progress.computed,
        "failed": sum(result["status"] != "ok" for result in results),
    }


@task(name="log_comparison_report", cache_policy=NO_CACHE, **_TRACKING_RETRIES)
def log_comparison_report_task(run: ParentRun, report: Mapping, cells: Mapping[str, int]) -> list[str]:
    """Log the results tables as artifacts of the parent run and its final metrics; returns the artifacts.

    ``report`` is ``tasks.report.summarize_task``'s; the metrics are ``cells_<count>`` and, when methods were
    ranked, ``friedman_p_value``.
    """
    client = tracking_client(run.tracking_uri)
    tables = {"results": report["frame"], "summary": report["summary"], "overall": report["overall"]}
    if report["ranks"] is not None:
        tables["ranks"] = report["ranks"].reset_index()
    artifacts = []
    for name, frame in tables.items():
        artifacts += log_table(client, run.run_id, frame, name)
    final_metrics = {f"cells_{key}": value for key, value in cells.items()}
    if report["friedman"] is not None:
        final_metrics["friedman_p_value"] = report["friedman"]["p_value"]
    log_metrics(client, run.run_id, final_metrics)
    return artifacts


def comparison_outcome(
    run: ParentRun,
    cells: Mapping[str, int],
    child_runs: Mapping[str, str],
    artifacts: Sequence[str],
    report: Mapping,
) -> dict:
    """What ``compare`` returns: run ids, cell counts, child runs, artifacts, summary, ranks and tables."""
    ranks = report["ranks"]
    return {
        "parent_run_id": run.run_id,
        "experiment_id": run.experiment_id,
        "tracking_uri": run.tracking_uri,
        "cells": dict(cells),
        "child_runs": dict(child_runs),
        "artifacts": list(artifacts),
        "summary": summary_records(report["summary"]),
        "ranks": None if ranks is None else ranks.round(3).to_dict(orient="index"),
        "friedman": report["friedman"],
        "results_table": report["frame"],
        "summary_table": report["summary"],
        "overall_table": report["overall"],
    }
