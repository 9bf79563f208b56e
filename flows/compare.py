"""The ``compare`` flow: datasets x methods x protocol, every cell tracked in MLflow and resumable on disk.

The flow body only composes tasks: describe the datasets, plan the cells, skip the ones a previous run
finished, run the rest on the task runner (threads, or Dask with ``dask_address``), then log one MLflow child
run per (dataset, method) under a parent run, and the results tables as artifacts of the parent.

``compare`` (the deployed entrypoint) picks the task runner from its parameters and runs the cells in the
subflow ``compare_cells``; ``run_compare(params)`` validates first (``cslearn compare`` calls it).
"""

from __future__ import annotations

from collections.abc import Mapping

from prefect import flow, get_run_logger
from prefect.futures import as_completed
from prefect.runtime import flow_run

from algorithms import METHODS
from flows.runners import build_task_runner
from schemas.flow_params import CompareParams
from tasks.cells import (
    CellStore,
    default_cell_store,
    describe_dataset_task,
    load_finished_cells,
    plan_cells,
    run_cell,
)
from tasks.report import Progress, child_run_payload, summarize_task, summary_records
from tasks.track import (
    default_tracking_uri,
    end_run,
    end_run_task,
    git_commit,
    log_child_run_task,
    log_table_task,
    start_run_task,
    tracking_client,
)

__all__ = ["compare", "compare_cells", "registry_context", "run_compare", "validate_params"]


def registry_context() -> dict:
    """The method and dataset keys (and each method's constructor parameters) a configuration may name.

    This is the validation context of ``CompareParams``.
    """
    context = {
        "methods": sorted(METHODS),
        "method_parameters": {key: sorted(METHODS[key]().get_params(deep=False)) for key in METHODS},
    }
    try:
        from tasks.datasets import DATASETS
    except ImportError:
        return context
    context["datasets"] = sorted(DATASETS)
    return context


def validate_params(params: CompareParams | Mapping) -> CompareParams:
    """Validate a configuration against the registries; raises ``pydantic.ValidationError`` on any problem."""
    raw = params.model_dump() if isinstance(params, CompareParams) else dict(params)
    return CompareParams.model_validate(raw, context=registry_context())


def _flat_params(params: CompareParams) -> dict[str, str]:
    return {
        key: value if isinstance(value, str) else repr(value) for key, value in params.model_dump().items()
    }


@flow(name="method-comparison-cells", validate_parameters=True)
def compare_cells(params: CompareParams) -> dict:
    """Run, track and summarise every cell of a comparison on the task runner this flow was given."""
    params = validate_params(params)
    logger = get_run_logger()
    tracking_uri = params.tracking_uri or default_tracking_uri()
    store_root = params.cell_store or str(default_cell_store())
    methods = list(params.methods) if params.methods is not None else sorted(METHODS)

    datasets = [describe_dataset_task(name) for name in params.datasets]
    specs = plan_cells(params, datasets, methods)
    finished = load_finished_cells(CellStore(store_root), specs)
    tags = {
        "cslearn.purpose": "compare",
        "prefect.flow_run_id": flow_run.get_id(),
        "prefect.parent_flow_run_id": flow_run.get_parent_flow_run_id(),
        "git.commit": git_commit(),
        "mlflow.source.git.commit": git_commit(),
        **{f"dataset.{info.name}.fingerprint": info.fingerprint for info in datasets},
    }
    experiment_id, parent_run_id = start_run_task(
        tracking_uri,
        params.experiment,
        run_name=f"compare {flow_run.get_name() or ''}".strip(),
        tags=tags,
        params=_flat_params(params),
    )
    logger.info(
        "MLflow parent run %s (%s); %d cells, %d already done",
        parent_run_id,
        tracking_uri,
        len(specs),
        len(finished),
    )
    try:
        progress = Progress(len(specs), skipped=len(finished))
        results = dict(finished)
        futures = [run_cell.submit(spec, store_root) for spec in specs if spec.key not in finished]
        for future in as_completed(futures):
            result = future.result()
            results[result["key"]] = result
            if result["status"] != "ok":
                logger.warning(
                    "cell %s/%s r%sf%s failed: %s",
                    result["dataset"],
                    result["method"],
                    result["repeat"],
                    result["fold"],
                    result["error"],
                )
            logger.info(progress.update(result))
        ordered = [results[spec.key] for spec in specs]

        child_runs = {}
        info_by_name = {info.name: info for info in datasets}
        for info in datasets:
            for method in methods:
                group = [r for r in ordered if r["dataset"] == info.name and r["method"] == method]
                payload = child_run_payload(group)
                errors = sorted({r["error"] for r in group if r["status"] != "ok"})
                child_runs[f"{info.name}/{method}"] = log_child_run_task(
                    tracking_uri,
                    experiment_id,
                    parent_run_id,
                    run_name=f"{info.name} / {method}",
                    params={
                        **payload["params"],
                        "dataset": info.name,
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
                        "dataset": info.name,
                        "method": method,
                        "dataset.fingerprint": info_by_name[info.name].fingerprint,
                        "failed_cells": len([r for r in group if r["status"] != "ok"]),
                        "error": errors[0][:5000] if errors else None,
                    },
                    failed=bool(errors),
                )

        report = summarize_task(ordered)
        artifacts = log_table_task(tracking_uri, parent_run_id, report["frame"], "results")
        artifacts += log_table_task(tracking_uri, parent_run_id, report["summary"], "summary")
        artifacts += log_table_task(tracking_uri, parent_run_id, report["overall"], "overall")
        if report["ranks"] is not None:
            artifacts += log_table_task(tracking_uri, parent_run_id, report["ranks"].reset_index(), "ranks")
        cells = {
            "total": len(specs),
            "resumed": len(finished),
            "computed": progress.computed,
            "failed": sum(r["status"] != "ok" for r in ordered),
        }
        final_metrics = {f"cells_{key}": value for key, value in cells.items()}
        if report["friedman"] is not None:
            final_metrics["friedman_p_value"] = report["friedman"]["p_value"]
        end_run_task(tracking_uri, parent_run_id, "FINISHED", metrics=final_metrics)
    except BaseException as error:
        interrupted = not isinstance(
            error, Exception
        )  # KeyboardInterrupt, SystemExit, Prefect TerminationSignal
        end_run(tracking_client(tracking_uri), parent_run_id, "KILLED" if interrupted else "FAILED")
        raise
    return {
        "parent_run_id": parent_run_id,
        "experiment_id": experiment_id,
        "tracking_uri": tracking_uri,
        "cells": cells,
        "child_runs": child_runs,
        "artifacts": artifacts,
        "summary": summary_records(report["summary"]),
        "ranks": None if report["ranks"] is None else report["ranks"].round(3).to_dict(orient="index"),
        "friedman": report["friedman"],
        "summary_table": report["summary"],
        "overall_table": report["overall"],
    }


@flow(name="method-comparison", validate_parameters=True)
def compare(params: CompareParams) -> dict:
    """Compare methods on datasets under a protocol; returns the summary and the MLflow parent run id.

    The cells run in the subflow ``method-comparison-cells`` on the task runner ``params`` select (a thread
    pool of ``max_workers``, or the Dask cluster at ``dask_address``), so deployments honour them too.
    """
    params = validate_params(params)
    runner = build_task_runner(params.dask_address, params.max_workers)
    return compare_cells.with_options(task_runner=runner)(params=params)


def run_compare(params: CompareParams | Mapping) -> dict:
    """Validate ``params`` (raising ``pydantic.ValidationError`` before any flow run) and run ``compare``."""
    return compare(params=validate_params(params))
