"""How a comparison is recorded in MLflow and summarised for its caller.

Under the flow's parent run (:func:`comparison_parent_run`, built on
:func:`tasks.tracking.mlflow_runs.parent_run`, named
from its configuration, e.g. ``compare 4 datasets x 30 methods cv 1x5``, and tagged ``cslearn.config_hash``):

- every dataset as an MLflow dataset input (:func:`log_dataset_inputs_task`: digest = the first 36 characters
  of its fingerprint, source = where its rows came from);
- one child run per (dataset, method) (:func:`log_method_run_task`, content from
  ``tasks.compare.child_runs.child_run_payload``): the estimator and protocol parameters as plain strings,
  metrics grouped by name (``mean/``, ``std/``, ``T<T>/``, ``by_T/`` with step = T, ``round/`` with step =
  round, ``cells/``), the per-fold values as ``results/folds.csv``, one small figure ``figures/summary.png``
  of that run alone, and the start and end times of its cells (fit time, not logging time);
- the results tables as ``results/*.csv|parquet`` artifacts of the parent, with ``cells/*`` and
  ``friedman/p_value`` (:func:`log_comparison_report_task`).

A rerun of the same configuration (:func:`config_hash`: the hash of every cell key) finds its earlier runs
(:func:`find_earlier_runs`): when every cell is already done and an earlier run finished them all, that run
is reused (:func:`reuse_run_task`, tag ``cslearn.reused_by_flow_run``) instead of logging a new parent and
children; a partial resume links the run it continues (tag ``cslearn.resumes_run_id``).
:func:`comparison_outcome` is what the flow returns.

When the MLflow store fails during the comparison (its database deleted, made read-only, its disk full, its
server gone), the tracking tasks raise ``tasks.tracking.store_errors.TrackingStoreError`` instead of MLflow's
SQL, and :func:`cells_kept_if_the_store_fails` ends the comparison with a :class:`ComparisonStoreError`: the
store, its error, how many cells are kept in the cell store, and that the same comparison run again resumes
from them.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run

from schemas.flow_params import CompareParams
from tasks.compare.cell_compute import CellSpec, CellStore, DatasetInfo
from tasks.compare.child_runs import child_run_payload
from tasks.config.flow_parameters import given_values, logged_params
from tasks.cost_models import cost_unit
from tasks.fitting.split_scores import split_scores_frame
from tasks.report.figures import CHILD_FIGURE_DPI, child_run_figure, figure_png
from tasks.report.results import summary_records
from tasks.tracking.dataset_inputs import dataset_source
from tasks.tracking.mlflow_runs import (
    ParentRun,
    child_runs,
    default_tracking_uri,
    log_child_run,
    log_metrics,
    log_table,
    parent_run,
    tracking_client,
)
from tasks.tracking.progress import Progress
from tasks.tracking.store_errors import TrackingStoreError, store_failure, store_failures_named

__all__ = [
    "ChildRunLog",
    "ComparisonStoreError",
    "EarlierRuns",
    "cell_counts",
    "cells_kept_if_the_store_fails",
    "comparison_flow_run_name",
    "comparison_outcome",
    "comparison_parent_run",
    "comparison_run_name",
    "config_hash",
    "find_earlier_runs",
    "log_comparison_report_task",
    "log_dataset_inputs_task",
    "log_method_run_task",
    "reuse_run_task",
]

#: Prefect retries for tracking calls (I/O against a store or server; never for training).
_TRACKING_RETRIES = {"retries": 2, "retry_delay_seconds": 2}

#: Longest error text kept in a child run's ``error`` tag.
_ERROR_TAG_LENGTH = 5000

#: Length of an MLflow dataset digest (its column holds 36 characters).
_DIGEST_LENGTH = 36


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def comparison_run_name(params: CompareParams, n_datasets: int, n_methods: int) -> str:
    """The parent run's name from its configuration: ``compare 4 datasets x 30 methods cv 1x5`` (R x K
    folds), ``compare 1 dataset x 2 methods holdout x100`` (R repeats)."""
    shape = (
        f"cv {params.n_repeats}x{params.n_folds}"
        if params.protocol == "cv"
        else f"{params.protocol} x{params.n_repeats}"
    )
    return f"compare {_plural(n_datasets, 'dataset')} x {_plural(n_methods, 'method')} {shape}"


def comparison_flow_run_name() -> str:
    """The Prefect flow run's name from its parameters (``flow_run_name``): ``compare 3 datasets x 7 methods``
    for the flow the user started, ``cells of compare 3 datasets x 7 methods`` for its subflow."""
    from tasks.config.method_info import compared_methods

    parameters = dict(flow_run.parameters or {})
    subflow = "params" in parameters
    raw = parameters["params"] if subflow else parameters
    try:
        params = CompareParams.model_validate(
            raw if isinstance(raw, CompareParams) else given_values(CompareParams, raw)
        )
    except ValueError:  # the flow's own validation reports it: the run keeps Prefect's name
        return "compare"
    name = (
        f"compare {_plural(len(params.datasets), 'dataset')} x "
        f"{_plural(len(compared_methods(params)), 'method')}"
    )
    return f"cells of {name}" if subflow else name


def config_hash(specs: Sequence[CellSpec]) -> str:
    """sha256 of the sorted cell keys: equal exactly when two runs would compute the same cells (same data
    fingerprints, methods, parameters, protocol, sizes and seed)."""
    return hashlib.sha256("\n".join(sorted(spec.key for spec in specs)).encode()).hexdigest()


def comparison_parent_run(
    params: CompareParams,
    datasets: Sequence[DatasetInfo],
    methods: Sequence[str],
    *,
    config: str,
    resumes: str | None = None,
) -> AbstractContextManager[ParentRun]:
    """The comparison's parent run (:func:`tasks.tracking.mlflow_runs.parent_run`).

    Named by :func:`comparison_run_name`, tagged with the datasets' fingerprints, the unit of the costs of
    each dataset that has example-dependent costs (``dataset.<name>.cost_unit``), ``cslearn.config_hash``
    (``config``) and, for a partial resume, ``cslearn.resumes_run_id`` (the earlier run it continues); given
    the parameters of the comparison as plain strings (``tasks.config.flow_parameters.logged_params``: no
    tracking URI, the cell store relative to the state folder).
    """
    units = {
        f"dataset.{info.name}.cost_unit": cost_unit(info.cost_model)
        for info in datasets
        if info.cost_model or info.cost_columns
    }
    return parent_run(
        params.tracking_uri,
        params.experiment,
        run_name=comparison_run_name(params, len(datasets), len(methods)),
        purpose="compare",
        fingerprints={info.name: info.fingerprint for info in datasets},
        tags={"cslearn.config_hash": config, "cslearn.resumes_run_id": resumes, **units},
        params=logged_params(params),
    )


@dataclass(frozen=True)
class EarlierRuns:
    """Earlier parent runs of the same configuration in the experiment (newest first).

    ``complete``: the newest FINISHED one whose cells all succeeded (a pure resume reuses it); ``latest``:
    the newest of any status (a partial resume links it).
    """

    complete: str | None = None
    latest: str | None = None


def find_earlier_runs(tracking_uri: str | None, experiment: str, config: str) -> EarlierRuns:
    """The earlier compare parent runs tagged ``cslearn.config_hash = config`` in ``experiment``."""
    client = tracking_client(tracking_uri)
    with store_failures_named(client.tracking_uri):
        found = client.get_experiment_by_name(experiment)
        if found is None or found.lifecycle_stage == "deleted":
            return EarlierRuns()
        runs = client.search_runs(
            [found.experiment_id],
            filter_string=f"tags.`cslearn.config_hash` = '{config}' and tags.`cslearn.purpose` = 'compare'",
            order_by=["attributes.start_time DESC"],
            max_results=50,
        )
    complete = next(
        (
            run.info.run_id
            for run in runs
            if run.info.status == "FINISHED" and run.data.metrics.get("cells/failed", 1.0) == 0.0
        ),
        None,
    )
    return EarlierRuns(complete=complete, latest=runs[0].info.run_id if runs else None)


def _child_runs_of(client, experiment_id: str, run_id: str) -> dict[str, str]:
    children = {
        f"{child.data.tags.get('dataset')}/{child.data.tags.get('method')}": child.info.run_id
        for child in child_runs(client, experiment_id, run_id)
    }
    return dict(sorted(children.items()))


@task(name="reuse_earlier_run", cache_policy=NO_CACHE, **_TRACKING_RETRIES)
def reuse_run_task(tracking_uri: str | None, run_id: str) -> tuple[ParentRun, dict[str, str], list[str]]:
    """Reuse a finished parent run of the same configuration: tag it ``cslearn.reused_by_flow_run`` (this
    flow run's id) and return it with its child runs (``dataset/method`` -> run id) and its ``results/``
    artifacts; nothing new is logged."""
    client = tracking_client(tracking_uri)
    with store_failures_named(client.tracking_uri):
        run = client.get_run(run_id)
        client.set_tag(run_id, "cslearn.reused_by_flow_run", str(flow_run.get_id() or "outside a flow run"))
        parent = ParentRun(client.tracking_uri, run.info.experiment_id, run_id)
        artifacts = sorted(item.path for item in client.list_artifacts(run_id, "results"))
        return parent, _child_runs_of(client, run.info.experiment_id, run_id), artifacts


def _dataset_source(dataset) -> object:
    """Where a dataset's rows came from, as an MLflow dataset source (a URL, a PyPI page, or a file by its
    name and sha256: ``tasks.tracking.dataset_inputs.dataset_source``)."""
    from mlflow.data.http_dataset_source import HTTPDatasetSource

    described = dataset.spec.source.describe() if getattr(dataset, "spec", None) is not None else {}
    if described.get("url"):
        return HTTPDatasetSource(described["url"])
    if described.get("package"):
        package, version = described["package"].split("==")
        return HTTPDatasetSource(f"https://pypi.org/project/{package}/{version}/")
    if described.get("data_file"):
        import sklearn

        return HTTPDatasetSource(
            f"https://github.com/scikit-learn/scikit-learn/blob/{sklearn.__version__}/{described['data_file']}"
        )
    path = str(described.get("path") or dataset.path)  # recorded by its name and checksum, not its path
    checksums = (getattr(dataset, "metadata", None) or {}).get("source_checksums") or {}
    return dataset_source(path, sha256=checksums.get(path))


def _declared_schema(frame):
    """The schema of a canonical dataset as logged with the run: its float feature columns as ``double`` and
    its 0/1 ``target`` as ``long`` (the contract of ``schemas.canonical_dataset``), declared rather
    than inferred, since MLflow's inference warns about every integer column."""
    from mlflow.types import ColSpec, DataType, Schema

    kinds = {"f": DataType.double, "i": DataType.long, "u": DataType.long, "b": DataType.boolean}
    return Schema(
        [ColSpec(kinds.get(frame[name].dtype.kind, DataType.string), name) for name in frame.columns]
    )


@task(name="log_dataset_inputs", cache_policy=NO_CACHE, **_TRACKING_RETRIES)
def log_dataset_inputs_task(run: ParentRun, datasets: Sequence[DatasetInfo]) -> None:
    """Log every dataset as an input of the parent run (``mlflow.data.from_pandas``: its declared schema,
    :func:`_declared_schema`, and row count; digest = the first 36 characters of its fingerprint; source =
    where it came from)."""
    import mlflow.data
    from mlflow.entities import DatasetInput, InputTag

    from tasks.datasets import load_dataset

    inputs = []
    for info in datasets:
        dataset = load_dataset(info.name)
        frame = dataset.features.assign(target=dataset.target)
        logged = mlflow.data.from_pandas(
            frame,
            source=_dataset_source(dataset),
            targets="target",
            name=info.name,
            digest=info.fingerprint[:_DIGEST_LENGTH],
        )
        logged.schema = _declared_schema(frame)  # not inferred: MLflow would warn about the integer target
        tags = [
            InputTag(key="mlflow.data.context", value="compare"),
            InputTag(key="cslearn.fingerprint", value=info.fingerprint),
        ]
        inputs.append(DatasetInput(dataset=logged._to_mlflow_entity(), tags=tags))
    with store_failures_named(run.tracking_uri):
        tracking_client(run.tracking_uri).log_inputs(run.run_id, datasets=inputs)


def _child_files(payload: Mapping, group: Sequence[Mapping], title: str, method: str) -> dict[str, bytes]:
    """``results/folds.csv`` and, when there is something to draw, ``figures/summary.png`` (small)."""
    files = {"results/folds.csv": payload["folds"].to_csv(index=False).encode()}
    scores = split_scores_frame(group)
    figure = child_run_figure(
        {key.removeprefix("round/"): values for key, values in payload["curves"].items()},
        None if scores.empty else scores,
        title=title,
        method=method,
    )
    if figure is not None:
        files["figures/summary.png"] = figure_png(figure, dpi=CHILD_FIGURE_DPI, tight=False)
    return files


@task(
    name="log_method_run",
    task_run_name="log {dataset.name} / {method}",
    cache_policy=NO_CACHE,
    **_TRACKING_RETRIES,
)
def log_method_run_task(
    run: ParentRun, params: CompareParams, dataset: DatasetInfo, method: str, group: Sequence[Mapping]
) -> str:
    """Log the child run of one (dataset, method) from its cells' results (``group``); FAILED if a cell
    failed. Its start and end are those of its cells."""
    payload = child_run_payload(group)
    errors = sorted({r["error"] for r in group if r["status"] != "ok"})
    title = f"{dataset.name} / {method}"
    with store_failures_named(run.tracking_uri):
        return log_child_run(
            run.tracking_uri,
            run.experiment_id,
            run.run_id,
            run_name=title,
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
            curves=payload["curves"],
            step_metrics=payload["staged"],
            files=_child_files(payload, group, title, method),
            times=payload["times"],
            tags={
                "dataset": dataset.name,
                "method": method,
                "dataset.fingerprint": dataset.fingerprint,
                "failed_cells": len([r for r in group if r["status"] != "ok"]),
                "error": errors[0][:_ERROR_TAG_LENGTH] if errors else None,
            },
            failed=bool(errors),
        )


class ChildRunLog:
    """Logs the child run of each (dataset, method) as soon as every cell of it has a result.

    Parameters
    ----------
    run : ParentRun
    params : CompareParams
    datasets : sequence of DatasetInfo
    methods : sequence of str
    specs : sequence of CellSpec
        Every cell of the run.
    finished : mapping of cell key -> result
        The results already there (resumed cells).
    """

    def __init__(
        self,
        run: ParentRun,
        params: CompareParams,
        datasets: Sequence[DatasetInfo],
        methods: Sequence[str],
        specs: Sequence[CellSpec],
        finished: Mapping[str, Mapping],
    ):
        self._run, self._params, self._specs = run, params, list(specs)
        self._datasets = {info.name: info for info in datasets}
        self._order = [(info.name, method) for info in datasets for method in methods]
        self._results = dict(finished)
        self._waiting = Counter((spec.dataset, spec.method) for spec in specs if spec.key not in finished)
        self._run_ids: dict[tuple[str, str], str] = {}

    def _log(self, dataset: str, method: str) -> None:
        group = [self._results[s.key] for s in self._specs if (s.dataset, s.method) == (dataset, method)]
        self._run_ids[(dataset, method)] = log_method_run_task(
            self._run, self._params, self._datasets[dataset], method, group
        )

    def log_complete(self) -> None:
        """Log every group whose cells are all done and that is not logged yet."""
        for dataset, method in self._order:
            if not self._waiting[(dataset, method)] and (dataset, method) not in self._run_ids:
                self._log(dataset, method)

    def add(self, result: Mapping) -> None:
        """Record one computed cell; log its group's child run if it was the group's last cell."""
        self._results[result["key"]] = result
        group = (result["dataset"], result["method"])
        self._waiting[group] -= 1
        if not self._waiting[group]:
            self._log(*group)

    def ordered_results(self) -> list[Mapping]:
        """Every cell's result in the order of the specs."""
        return [self._results[spec.key] for spec in self._specs]

    def run_ids(self) -> dict[str, str]:
        """``dataset/method`` -> child run id, dataset-major in the order of the run's methods."""
        return {f"{dataset}/{method}": self._run_ids[(dataset, method)] for dataset, method in self._order}


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

    ``report`` is ``tasks.report.summarize_task``'s; the tables are ``results``, ``summary``, ``overall``,
    ``ranks`` and ``split_scores`` (one split's test scores, for ROC and cost curves); the metrics
    ``cells/<count>`` (and ``cells/ok``) and, when methods were ranked, ``friedman/p_value`` and each
    method's mean rank over the datasets, ``rank/<method>`` (1 = best), so that MLflow's charts and run
    comparison show the answer.
    """
    client = tracking_client(run.tracking_uri)
    tables = {"results": report["frame"], "summary": report["summary"], "overall": report["overall"]}
    if report["ranks"] is not None:
        tables["ranks"] = report["ranks"].reset_index()
    if not report["split_scores"].empty:
        tables["split_scores"] = report["split_scores"]
    final_metrics = {f"cells/{key}": value for key, value in cells.items()}
    final_metrics["cells/ok"] = cells["total"] - cells["failed"]
    if report["friedman"] is not None:
        final_metrics["friedman/p_value"] = report["friedman"]["p_value"]
    if report["ranks"] is not None:
        mean_ranks = report["ranks"].loc["mean rank"]
        final_metrics.update({f"rank/{method}": float(rank) for method, rank in mean_ranks.items()})
    with store_failures_named(run.tracking_uri):
        artifacts = [
            path for name, frame in tables.items() for path in log_table(client, run.run_id, frame, name)
        ]
        log_metrics(client, run.run_id, final_metrics)
    return artifacts


class ComparisonStoreError(TrackingStoreError):
    """The MLflow store failed during a comparison: :class:`TrackingStoreError`'s one line, with how many of
    the comparison's cells are kept in the cell store, and that the same comparison run again resumes from
    them once the store works.

    Parameters
    ----------
    uri, reason : str
        As :class:`TrackingStoreError`.
    kept, total : int
        Cells of the comparison stored with status ok, and all its cells.
    cell_store : str
        The cell store folder.
    """

    def __init__(self, uri: str, reason: str, kept: int, total: int, cell_store: str):
        super().__init__(uri, reason)
        self.args = (self.uri, reason, kept, total, cell_store)  # pickled as built (Prefect keeps states)
        self.kept, self.total, self.cell_store = kept, total, cell_store

    def __str__(self) -> str:
        return (
            f"{super().__str__()}; {self.kept} of {self.total} cells are kept in {self.cell_store}: rerun "
            "the same comparison to resume once the store works again"
        )


@contextmanager
def cells_kept_if_the_store_fails(
    tracking_uri: str | None, store: CellStore, specs: Sequence[CellSpec]
) -> Iterator[None]:
    """Around the part of a comparison that writes to MLflow: a failure of the MLflow store
    (``tasks.tracking.store_errors.store_failure``) ends it as a :class:`ComparisonStoreError` that counts
    the comparison's cells stored in ``store`` with status ok (what a rerun resumes); any other exception
    passes unchanged."""
    try:
        yield
    except Exception as error:
        failure = store_failure(error, tracking_uri or default_tracking_uri())
        if failure is None:
            raise
        kept = sum(
            (record := store.load(spec.key, warn=lambda _: None)) is not None and record["status"] == "ok"
            for spec in specs
        )
        raise ComparisonStoreError(failure.uri, failure.reason, kept, len(specs), str(store.root)) from error


def comparison_outcome(
    run: ParentRun,
    cells: Mapping[str, int],
    child_runs: Mapping[str, str],
    artifacts: Sequence[str],
    report: Mapping,
    *,
    published: Mapping | None = None,
    reused: bool = False,
) -> dict:
    """What ``compare`` returns: run ids, cell counts, child runs, artifacts, summary, ranks, tables, where
    the HTML report is (``report``: ``artifact``, ``uri``, ``mlflow_url``; ``None`` when it could not be
    built) and whether an earlier finished run of the same configuration was reused."""
    ranks = report["ranks"]
    return {
        "parent_run_id": run.run_id,
        "experiment_id": run.experiment_id,
        "tracking_uri": run.tracking_uri,
        "reused_run": reused,
        "cells": dict(cells),
        "child_runs": dict(child_runs),
        "artifacts": list(artifacts),
        "report": None if published is None else dict(published),
        "summary": summary_records(report["summary"]),
        "ranks": None if ranks is None else ranks.round(3).to_dict(orient="index"),
        "friedman": report["friedman"],
        "results_table": report["frame"],
        "summary_table": report["summary"],
        "overall_table": report["overall"],
    }
