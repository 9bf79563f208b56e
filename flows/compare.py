"""The ``compare`` flow: datasets x methods x protocol, every cell tracked in MLflow and resumable on disk.

The flow body only composes tasks: describe the datasets, plan the cells, skip the ones a previous run
finished, run the rest on the task runner (threads, or Dask with ``dask_address``) while logging one MLflow
child run per (dataset, method) as soon as its cells are done, then log the results tables, build the HTML
report and log it with its figures and the leaderboard (as the run's description) to the parent run, and put
the leaderboard, links to the run and its report, and the progress on the Prefect flow run's page. A rerun
whose cells are all done reuses the earlier finished run of the same configuration instead of logging a new
one. An MLflow store that fails during the run ends it with one line: the store, its error, the cells kept
(``tasks.compare.comparison_runs.ComparisonStoreError``); the same comparison run again resumes from them.

``compare`` (the deployed entrypoint) takes the fields of ``CompareParams`` as flat parameters
(``tasks.config.flow_parameters.flat_parameters``: described, datasets and methods as choices, one field
settable with ``prefect deployment run --param``), picks the task runner from them and runs the cells in the
subflow ``compare_cells``. ``run_compare(params)`` takes the model (``cslearn compare`` calls it): it
validates first, then runs the flow with the tracking URI it names as this process's MLflow default (its
credentials moved to MLflow's variables, never a flow parameter).
"""

from __future__ import annotations

from collections.abc import Mapping

from prefect import flow, get_run_logger
from prefect.futures import as_completed

from flows.deployment_parameters import parameter_checked_flow
from flows.runners import build_task_runner
from schemas.flow_params import CompareParams
from tasks.compare.cell_compute import CellStore, cell_store_folder
from tasks.compare.cells import describe_dataset_task, load_finished_cells, plan_cells, run_cell
from tasks.compare.comparison_runs import (
    ChildRunLog,
    cell_counts,
    cells_kept_if_the_store_fails,
    comparison_flow_run_name,
    comparison_outcome,
    comparison_parent_run,
    config_hash,
    find_earlier_runs,
    log_comparison_report_task,
    log_dataset_inputs_task,
    reuse_run_task,
)
from tasks.compare.summary import summarize_task
from tasks.config.checks import validate_params
from tasks.config.flow_parameters import (
    default_comparison_size,
    flat_parameters,
    flow_arguments,
    machine_environment,
)
from tasks.config.method_info import compared_methods
from tasks.redaction import redact_uri
from tasks.report.publish import publish_report_task, published_report
from tasks.tracking.prefect_artifacts import ProgressArtifact, publish_run_artifacts
from tasks.tracking.progress import Progress

__all__ = ["compare", "compare_cells", "run_compare"]


@flow(name="method-comparison-cells", flow_run_name=comparison_flow_run_name, validate_parameters=True)
def compare_cells(params: CompareParams) -> dict:
    """Run, track and summarise every cell of a comparison on the task runner this flow was given."""
    params = validate_params(CompareParams, params)
    logger = get_run_logger()
    datasets = [describe_dataset_task(name) for name in params.datasets]
    methods = compared_methods(params)
    specs = plan_cells(params, datasets, methods)
    store = CellStore(cell_store_folder(params.cell_store))
    finished = load_finished_cells(store, specs)
    config = config_hash(specs)
    with cells_kept_if_the_store_fails(params.tracking_uri, store, specs):
        earlier = find_earlier_runs(params.tracking_uri, params.experiment, config)
        progress = Progress(len(specs), skipped=len(finished))
        if earlier.complete is not None and len(finished) == len(specs):
            run, child_runs, artifacts = reuse_run_task(params.tracking_uri, earlier.complete)
            logger.info("Every cell is done and MLflow run %s holds them all: reusing it.", run.run_id)
            report = summarize_task([finished[spec.key] for spec in specs])
            published = published_report(run.tracking_uri, run.run_id)
            publish_run_artifacts("compare", params.experiment, run, published)
            cells = cell_counts(progress, list(finished.values()))
            return comparison_outcome(
                run, cells, child_runs, artifacts, report, published=published, reused=True
            )
        resumes = earlier.latest if finished else None
        with comparison_parent_run(params, datasets, methods, config=config, resumes=resumes) as run:
            logger.info(
                "Logging to MLflow parent run %s in %s: %d cells, %d of them already done%s.",
                run.run_id,
                redact_uri(run.tracking_uri),
                len(specs),
                len(finished),
                f", continuing run {resumes}" if resumes else "",
            )
            log_dataset_inputs_task(run, datasets)
            bar = ProgressArtifact(len(specs), done=len(finished), description="cells done")
            children = ChildRunLog(run, params, datasets, methods, specs, finished)
            pending = [run_cell.submit(spec, str(store.root)) for spec in specs if spec.key not in finished]
            children.log_complete()  # (dataset, method) groups resumed whole, while the pending cells run
            for future in as_completed(pending):
                result = future.result()
                logger.info(progress.update(result))
                bar.update(progress.skipped + progress.computed)
                children.add(result)  # logs its child run once the last cell of its group is done
            bar.finish()
            ordered = children.ordered_results()
            report = summarize_task(ordered)
            cells = cell_counts(progress, ordered)
            artifacts = log_comparison_report_task(run, report, cells)
            published = publish_report_task(run)
            publish_run_artifacts("compare", params.experiment, run, published)
        return comparison_outcome(run, cells, children.run_ids(), artifacts, report, published=published)


@parameter_checked_flow(
    name="method-comparison", flow_run_name=comparison_flow_run_name, validate_parameters=True
)
@flat_parameters(
    CompareParams,
    choices={"datasets": "datasets", "methods": "methods"},
    notes={"repeats": lambda: f"With every field left as it is, the run fits {default_comparison_size()}."},
)
def compare(params: CompareParams) -> dict:
    """Compare methods on datasets under a protocol; returns the summary and the MLflow parent run id.

    The cells run in the subflow ``method-comparison-cells`` on the task runner the parameters select (a
    thread pool of ``max_workers``, or the Dask cluster at ``dask_address``), so deployments honour them too.
    """
    runner = build_task_runner(params.dask_address, params.max_workers)
    return compare_cells.with_options(task_runner=runner)(params=params)


def run_compare(params: CompareParams | Mapping) -> dict:
    """Validate ``params`` (raising ``pydantic.ValidationError`` before any flow run) and run ``compare``.

    Its ``tracking_uri`` is MLflow's default for the run
    (``tasks.config.flow_parameters.machine_environment``).
    """
    params = validate_params(CompareParams, params)
    with machine_environment(params):
        return compare(**flow_arguments(params))
