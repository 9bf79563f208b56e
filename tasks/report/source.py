"""A finished ``compare`` or ``retrain`` run read back from MLflow: everything its report is built from.

:func:`load_run` reads the parent run (parameters, tags, metrics, its ``results/`` artifacts), its child runs
(parameters, metrics, tags and the per-round ``round/*`` metric histories) and, for a retrain, the registered
model versions its candidates became. Runs, artifacts and histories come back in a fixed order, so the same
run always gives the same :class:`RunRecord`.
"""

from __future__ import annotations

import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from mlflow import MlflowClient
from mlflow.exceptions import MlflowException

from tasks.redaction import redact_uri
from tasks.report.results import ROUND_PREFIX
from tasks.tracking.mlflow_runs import child_runs, tracking_client

__all__ = ["TRACE_PREFIXES", "ChildRun", "RunRecord", "load_run"]

#: Prefixes of the child-run metric histories that hold per-round boosting traces (step = round):
#: ``round/`` (``tasks.report.results.ROUND_PREFIX``), and ``trace_`` in runs logged before it.
TRACE_PREFIXES = (ROUND_PREFIX, "trace_")

#: Threads reading child runs' metric histories (I/O: a sqlite file or a tracking server).
_READ_THREADS = 8

#: Artifacts of the parent run read into the record.
_RESULTS_ARTIFACT = "results/results.parquet"
_SPLIT_SCORES_ARTIFACT = "results/split_scores.parquet"


@dataclass(frozen=True)
class ChildRun:
    """One (dataset, method) child run: its status, parameters, final metrics and per-round traces."""

    run_id: str
    name: str
    dataset: str | None
    method: str | None
    status: str
    params: dict[str, str]
    metrics: dict[str, float]
    tags: dict[str, str]
    curves: dict[str, list[float]] = field(default_factory=dict)


@dataclass(frozen=True)
class RunRecord:
    """A parent run and what hangs from it.

    Attributes
    ----------
    run_id, run_name, experiment_name : str
    purpose : str
        ``"compare"`` or ``"retrain"`` (tag ``cslearn.purpose``).
    status : str
    start_time : int
        Milliseconds since the epoch.
    params, tags : dict of str
    metrics : dict of float
    results : pandas.DataFrame or None
        ``results/results.parquet`` (compare runs): one row per (cell, ensemble size).
    split_scores : pandas.DataFrame or None
        ``results/split_scores.parquet``: one split's test labels, scores and costs per method.
    children : tuple of ChildRun
        Sorted by (dataset, method, name).
    model_versions : tuple of dict
        Registered versions created from the child runs (retrain): ``name``, ``version``, ``aliases``,
        ``run_id``, ``method``.
    """

    run_id: str
    run_name: str
    experiment_name: str
    purpose: str
    status: str
    start_time: int
    params: dict[str, str]
    tags: dict[str, str]
    metrics: dict[str, float]
    results: pd.DataFrame | None = None
    split_scores: pd.DataFrame | None = None
    children: tuple[ChildRun, ...] = ()
    model_versions: tuple[dict, ...] = ()

    @property
    def fingerprints(self) -> dict[str, str]:
        """Data fingerprint per dataset, from the tags ``dataset.<name>.fingerprint``."""
        return {
            key.removeprefix("dataset.").removesuffix(".fingerprint"): value
            for key, value in sorted(self.tags.items())
            if key.startswith("dataset.") and key.endswith(".fingerprint")
        }

    @property
    def commit(self) -> str | None:
        """The code commit the run was made with (tag ``git.commit``)."""
        return self.tags.get("git.commit") or self.tags.get("mlflow.source.git.commit")


def _artifact_paths(client: MlflowClient, run_id: str, folder: str) -> set[str]:
    try:
        return {item.path for item in client.list_artifacts(run_id, folder)}
    except (MlflowException, OSError):
        return set()


def _read_parquet_artifact(client: MlflowClient, run_id: str, path: str, available: set[str]):
    if path not in available:
        return None
    with tempfile.TemporaryDirectory(prefix="cslearn-report-") as folder:
        local = client.download_artifacts(run_id, path, folder)
        return pd.read_parquet(Path(local))


def _curves(client: MlflowClient, run) -> dict[str, list[float]]:
    curves = {}
    for key in sorted(run.data.metrics):
        prefix = next((prefix for prefix in TRACE_PREFIXES if key.startswith(prefix)), None)
        if prefix is not None:
            history = sorted(client.get_metric_history(run.info.run_id, key), key=lambda metric: metric.step)
            curves[key.removeprefix(prefix)] = [metric.value for metric in history]
    return curves


def _map_io(function, items) -> list:
    """``[function(item) for item in items]`` on a few threads: each child run's metric histories are one
    request per trace (a make-run comparison has hundreds); the results keep the order of ``items``."""
    items = list(items)
    if len(items) < 2:
        return [function(item) for item in items]
    with ThreadPoolExecutor(max_workers=_READ_THREADS, thread_name_prefix="cslearn-report-read") as pool:
        return list(pool.map(function, items))


def _child(client: MlflowClient, run) -> ChildRun:
    tags = dict(run.data.tags)
    return ChildRun(
        run_id=run.info.run_id,
        name=run.info.run_name or run.info.run_id,
        dataset=tags.get("dataset") or tags.get("cslearn.dataset"),
        method=tags.get("method") or tags.get("cslearn.method"),
        status=run.info.status,
        params=dict(sorted(run.data.params.items())),
        metrics=dict(sorted(run.data.metrics.items())),
        tags=dict(sorted(tags.items())),
        curves=_curves(client, run),
    )


def _model_versions(client: MlflowClient, children: list[ChildRun]) -> list[dict]:
    versions = []
    for child in children:
        try:
            found = client.search_model_versions(f"run_id = '{child.run_id}'")
        except MlflowException:
            continue
        for found_version in found:  # search results leave the aliases out: read each version
            version = client.get_model_version(found_version.name, found_version.version)
            versions.append(
                {
                    "name": version.name,
                    "version": str(version.version),
                    "aliases": sorted(version.aliases or []),
                    "run_id": child.run_id,
                    "method": child.method,
                }
            )
    return sorted(versions, key=lambda item: (item["name"], int(item["version"])))


def load_run(run_id: str, tracking_uri: str | None = None) -> RunRecord:
    """Read a ``compare`` or ``retrain`` parent run and its children from MLflow.

    Raises
    ------
    ValueError
        When no run has this id, or the run is not a cslearn parent run (it is a child run).
    """
    client = tracking_client(tracking_uri)
    try:
        run = client.get_run(run_id)
    except MlflowException as error:
        shown = redact_uri(client.tracking_uri)
        raise ValueError(f"no MLflow run {run_id!r} in {shown}: {error.message}") from error
    tags = dict(run.data.tags)
    parent = tags.get("mlflow.parentRunId")
    if parent:
        raise ValueError(f"run {run_id} is a child run; build the report of its parent run {parent}")
    experiment = client.get_experiment(run.info.experiment_id)
    available = _artifact_paths(client, run_id, "results")
    children = sorted(
        _map_io(lambda child: _child(client, child), child_runs(client, run.info.experiment_id, run_id)),
        key=lambda child: (child.dataset or "", child.method or "", child.name),
    )
    purpose = tags.get("cslearn.purpose") or ("retrain" if "cslearn.holdout_key" in tags else "compare")
    return RunRecord(
        run_id=run_id,
        run_name=run.info.run_name or run_id,
        experiment_name=experiment.name,
        purpose=purpose,
        status=run.info.status,
        start_time=int(run.info.start_time or 0),
        params=dict(sorted(run.data.params.items())),
        tags=dict(sorted(tags.items())),
        metrics=dict(sorted(run.data.metrics.items())),
        results=_read_parquet_artifact(client, run_id, _RESULTS_ARTIFACT, available),
        split_scores=_read_parquet_artifact(client, run_id, _SPLIT_SCORES_ARTIFACT, available),
        children=tuple(children),
        model_versions=tuple(_model_versions(client, children) if purpose == "retrain" else ()),
    )
