"""The ``compare`` flow: datasets x methods x protocol, every cell tracked in MLflow and resumable on disk.

The flow body only composes tasks: describe the datasets, plan the cells, skip the ones a previous run
finished, run the rest on the task runner (threads, or Dask with ``dask_address``), then log one MLflow child
run per (dataset, method) under a parent run, and the results tables as artifacts of the parent.

``compare`` (the deployed entrypoint) takes the fields of ``CompareParams`` as flat parameters
(``tasks.flow_parameters.flat_parameters``: described, datasets and methods as choices, one field settable
with ``prefect deployment run --param``), picks the task runner from them and runs the cells in the subflow
``compare_cells``. ``run_compare(params)`` takes the model (``cslearn compare`` calls it): it validates first,
then runs the flow with the tracking URI it names as this process's MLflow default (its credentials moved to
MLflow's variables, never a flow parameter).
"""

from __future__ import annotations

from collections.abc import Mapping

from prefect import flow, get_run_logger
from prefect.futures import as_completed

from flows.runners import build_task_runner
from schemas.flow_params import CompareParams
from tasks.cells import (
    CellStore,
    cell_store_folder,
    describe_dataset_task,
    load_finished_cells,
    plan_cells,
    run_cell,
)
from tasks.comparison_runs import (
    cell_counts,
    comparison_outcome,
    comparison_parent_run,
    log_comparison_report_task,
    log_method_run_task,
)
from tasks.configuration import validate_params
from tasks.flow_parameters import flat_parameters, flow_arguments, machine_environment
from tasks.methods import compared_methods
from tasks.report import Progress, summarize_task

__all__ = ["compare", "compare_cells", "run_compare"]


@flow(name="method-comparison-cells", validate_parameters=True)
def compare_cells(params: CompareParams) -> dict:
    """Run, track and summarise every cell of a comparison on the task runner this flow was given."""
    params = validate_params(CompareParams, params)
    logger = get_run_logger()
    datasets = [describe_dataset_task(name) for name in params.datasets]
    methods = compared_methods(params)
    specs = plan_cells(params, datasets, methods)
    store = CellStore(cell_store_folder(params.cell_store))
    finished = load_finished_cells(store, specs)
    with comparison_parent_run(params, datasets) as run:
        logger.info(
            "MLflow parent run %s (%s); %d cells, %d already done",
            run.run_id,
            run.tracking_uri,
            len(specs),
            len(finished),
        )
        progress = Progress(len(specs), skipped=len(finished))
        results = dict(finished)
        pending = [run_cell.submit(spec, str(store.root)) for spec in specs if spec.key not in finished]
        for future in as_completed(pending):
            result = future.result()
            results[result["key"]] = result
            logger.info(progress.update(result))
        ordered = [results[spec.key] for spec in specs]
        child_runs = {
            f"{info.name}/{method}": log_method_run_task(run, params, info, method, ordered)
            for info in datasets
            for method in methods
        }
        report = summarize_task(ordered)
        cells = cell_counts(progress, ordered)
        artifacts = log_comparison_report_task(run, report, cells)
    return comparison_outcome(run, cells, child_runs, artifacts, report)


@flow(name="method-comparison", validate_parameters=True)
@flat_parameters(CompareParams, choices={"datasets": "datasets", "methods": "methods"})
def compare(params: CompareParams) -> dict:
    """Compare methods on datasets under a protocol; returns the summary and the MLflow parent run id.

    The cells run in the subflow ``method-comparison-cells`` on the task runner the parameters select (a
    thread pool of ``max_workers``, or the Dask cluster at ``dask_address``), so deployments honour them too.
    """
    runner = build_task_runner(params.dask_address, params.max_workers)
    return compare_cells.with_options(task_runner=runner)(params=params)


def run_compare(params: CompareParams | Mapping) -> dict:
    """Validate ``params`` (raising ``pydantic.ValidationError`` before any flow run) and run ``compare``.

    Its ``tracking_uri`` is MLflow's default for the run (``tasks.flow_parameters.machine_environment``).
    """
    params = validate_params(CompareParams, params)
    with machine_environment(params):
        return compare(**flow_arguments(params))
