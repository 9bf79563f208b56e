"""All MLflow plumbing of the pipeline: stores, experiments, parent / child runs, batched metrics, artifacts.

Runs are driven through ``mlflow.MlflowClient`` with explicit run ids, never the fluent run stack, so child
runs can be created from task-runner threads or Dask workers (``stack.md``: pass the parent id explicitly).

Default store: ``sqlite:///<state>/mlflow/mlflow.db``, ``<state>`` being the state folder (``$CSLEARN_HOME``,
:mod:`tasks.storage`); ``MLFLOW_TRACKING_URI`` (or an explicit ``tracking_uri``) points elsewhere. Experiments
created in a sqlite store keep their artifacts beside the database, ``artifacts/<experiment>``, with an
absolute location (MLflow's default depends on the cwd).

Run status is never left optimistic: ``tracked_run`` marks a run FINISHED only when its block completed,
FAILED on an exception and KILLED on an interrupt (``KeyboardInterrupt`` and ``SystemExit``, what SIGINT and
SIGTERM raise, or any other non-``Exception`` such as Prefect's termination signal). ``parent_run`` opens the
one parent run of a flow run on it, tagged by :func:`flow_run_tags`.
"""

from __future__ import annotations

import logging
import os
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from mlflow import MlflowClient
from mlflow.entities import Metric, Param
from mlflow.exceptions import MlflowException

from tasks.storage import inside, state_home
from tasks.tracking.credentials import use_uri_credentials
from tasks.tracking.mlflow_urls import EXPERIMENT_KIND_TAG, MODEL_DEVELOPMENT
from tasks.tracking.orphan_runs import mark_orphaned_runs, owner_tags
from tasks.tracking.store_locks import prepare_local_store

__all__ = [
    "SOURCE_ROOT",
    "ParentRun",
    "artifact_root",
    "child_runs",
    "default_tracking_uri",
    "end_run",
    "ensure_experiment",
    "flow_run_tags",
    "git_commit",
    "log_child_run",
    "log_curves",
    "log_metrics",
    "log_params",
    "log_run_files",
    "log_step_metrics",
    "log_table",
    "parent_run",
    "plain_param",
    "start_run",
    "tracked_run",
    "tracking_client",
]

#: The folder holding the packages: the repository root in a checkout (whose commit runs are tagged with).
#: Code, never state: nothing is written below it.
SOURCE_ROOT = Path(__file__).resolve().parents[1]

#: MLflow's limits per ``log_batch`` call.
_MAX_METRICS_PER_BATCH = 1000
_MAX_PARAMS_PER_BATCH = 100
_MAX_PARAM_LENGTH = 6000

logger = logging.getLogger(__name__)


def default_tracking_uri() -> str:
    """``MLFLOW_TRACKING_URI`` if set, else the sqlite store ``mlflow/mlflow.db`` of the state folder.

    Credentials in the variable's URI are moved to MLflow's own variables and the bare URI is returned
    (``tasks.tracking.credentials.use_uri_credentials``), so nothing downstream can show or log them.
    """
    configured = os.environ.get("MLFLOW_TRACKING_URI")
    if configured:
        return use_uri_credentials(configured)
    return f"sqlite:///{state_home() / 'mlflow' / 'mlflow.db'}"


def artifact_root(tracking_uri: str) -> Path | None:
    """Folder of the artifacts of a sqlite store: ``artifacts/`` beside its database file.

    ``None`` for any other store: a tracking server chooses its own artifact root, and a file store keeps the
    artifacts inside its own folder.
    """
    if not tracking_uri.startswith("sqlite:///"):
        return None
    return Path(tracking_uri.removeprefix("sqlite:///")).resolve().parent / "artifacts"


def tracking_client(tracking_uri: str | None = None) -> MlflowClient:
    """An ``MlflowClient`` on ``tracking_uri`` (default: ``default_tracking_uri()``).

    A sqlite store is made ready first, its folder and tables created (or migrated) under the store's lock
    (``tasks.tracking.store_locks.prepare_local_store``), so that two commands starting at once on a new
    store do not break each other's migration.
    """
    uri = tracking_uri or default_tracking_uri()
    prepare_local_store(uri)
    return MlflowClient(tracking_uri=uri)


def child_runs(client: MlflowClient, experiment_id: str, parent_run_id: str) -> list:
    """Every child run of ``parent_run_id`` (MLflow's ``mlflow.parentRunId`` tag), all result pages read."""
    runs, token = [], None
    while True:
        page = client.search_runs(
            [experiment_id],
            filter_string=f"tags.mlflow.parentRunId = '{parent_run_id}'",
            max_results=1000,
            page_token=token,
        )
        runs.extend(page)
        token = page.token
        if not token:
            return runs


def ensure_experiment(client: MlflowClient, name: str, *, artifact_location: str | None = None) -> str:
    """Id of the experiment ``name``, created if absent (artifacts beside a sqlite store, absolute path).

    The experiment is marked as model development (tag ``mlflow.experimentKind``,
    :data:`~tasks.tracking.mlflow_urls.EXPERIMENT_KIND_TAG`), so the MLflow UI opens it in its training
    layout; an existing experiment without the tag gets it. Safe under concurrent creation: a lost race
    re-reads the experiment the winner created.

    Raises
    ------
    ValueError
        When the artifact folder of a new experiment would resolve outside the store's ``artifacts/`` folder
        (a name with ``/`` or ``..``, or a symlink pointing out).
    """
    experiment = client.get_experiment_by_name(name)
    if experiment is not None:
        if experiment.lifecycle_stage == "deleted":
            raise ValueError(
                f"MLflow experiment {name!r} is deleted; restore it or choose another name with --experiment"
            )
        if EXPERIMENT_KIND_TAG not in experiment.tags:
            client.set_experiment_tag(experiment.experiment_id, EXPERIMENT_KIND_TAG, MODEL_DEVELOPMENT)
        return experiment.experiment_id
    root = artifact_root(client.tracking_uri)
    if artifact_location is None and root is not None:
        artifact_location = inside(root, name).as_uri()
    try:
        return client.create_experiment(
            name, artifact_location=artifact_location, tags={EXPERIMENT_KIND_TAG: MODEL_DEVELOPMENT}
        )
    except MlflowException:
        experiment = client.get_experiment_by_name(name)
        if experiment is None:
            raise
        return experiment.experiment_id


def git_commit(root: Path = SOURCE_ROOT) -> str | None:
    """The checked-out commit of ``root``, or ``None`` outside a git work tree."""
    try:
        completed = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return completed.stdout.strip() or None


def start_run(
    client: MlflowClient,
    experiment_id: str,
    *,
    run_name: str,
    tags: Mapping[str, object] | None = None,
    parent_run_id: str | None = None,
    start_time: int | None = None,
) -> str:
    """Create a RUNNING run and return its id; a child when ``parent_run_id`` is given.

    ``start_time`` (milliseconds since the epoch, default now) is when the work the run records began.
    """
    run_tags = {key: str(value) for key, value in (tags or {}).items() if value is not None}
    run_tags.update(owner_tags())  # who may end it: see tasks.tracking.orphan_runs
    if parent_run_id is not None:
        run_tags["mlflow.parentRunId"] = parent_run_id
    return client.create_run(
        experiment_id, start_time=start_time, tags=run_tags, run_name=run_name
    ).info.run_id


def end_run(
    client: MlflowClient, run_id: str, status: str = "FINISHED", *, end_time: int | None = None
) -> None:
    """End a run as ``FINISHED``, ``FAILED`` or ``KILLED`` at ``end_time`` (epoch ms; default now)."""
    if status not in ("FINISHED", "FAILED", "KILLED"):
        raise ValueError(f"terminal run status must be FINISHED, FAILED or KILLED, got {status!r}")
    client.set_terminated(run_id, status=status, end_time=end_time)


@contextmanager
def tracked_run(
    client: MlflowClient,
    experiment_id: str,
    *,
    run_name: str,
    tags: Mapping[str, object] | None = None,
    parent_run_id: str | None = None,
    times: tuple[int, int] | None = None,
) -> Iterator[str]:
    """Context manager around a run: FINISHED on success, FAILED on an exception, KILLED on an interrupt.

    An interrupt is anything raised that is not an ``Exception``: ``KeyboardInterrupt``, ``SystemExit``,
    Prefect's ``TerminationSignal``, a cancellation. ``times`` = (start, end) in milliseconds since the epoch
    records when the work was done (e.g. a child run logged after its cells were fit), instead of the
    logging time.
    """
    start_time, end_time = times if times is not None else (None, None)
    run_id = start_run(
        client,
        experiment_id,
        run_name=run_name,
        tags=tags,
        parent_run_id=parent_run_id,
        start_time=start_time,
    )
    try:
        yield run_id
    except Exception:
        end_run(client, run_id, "FAILED", end_time=end_time)
        raise
    except BaseException:
        end_run(client, run_id, "KILLED", end_time=end_time)
        raise
    end_run(client, run_id, "FINISHED", end_time=end_time)


def flow_run_tags(
    purpose: str, fingerprints: Mapping[str, str], extra: Mapping[str, object] | None = None
) -> dict[str, object]:
    """Tags of a flow's parent run: purpose, Prefect flow run (and parent), git commit, data fingerprints.

    Parameters
    ----------
    purpose : str
        ``cslearn.purpose``, e.g. ``"compare"`` or ``"retrain"``.
    fingerprints : mapping of dataset name -> fingerprint
        Logged as ``dataset.<name>.fingerprint``.
    extra : mapping, optional
        Further tags. ``None`` values are not set (``start_run`` drops them).
    """
    from prefect.runtime import flow_run  # here: the commands that only read runs never import Prefect

    commit = git_commit()
    return {
        "cslearn.purpose": purpose,
        "prefect.flow_run_id": flow_run.get_id(),
        "prefect.parent_flow_run_id": flow_run.get_parent_flow_run_id(),
        "git.commit": commit,
        "mlflow.source.git.commit": commit,
        **{f"dataset.{name}.fingerprint": fingerprint for name, fingerprint in fingerprints.items()},
        **(extra or {}),
    }


@dataclass(frozen=True)
class ParentRun:
    """Where a flow's parent run lives: what child runs and tasks need to reach it."""

    tracking_uri: str
    experiment_id: str
    run_id: str


@contextmanager
def parent_run(
    tracking_uri: str | None,
    experiment: str,
    *,
    run_name: str,
    purpose: str,
    fingerprints: Mapping[str, str],
    tags: Mapping[str, object] | None = None,
    params: Mapping[str, object] | None = None,
) -> Iterator[ParentRun]:
    """The parent run of a flow run, around the flow's work (:func:`tracked_run`: it always ends it).

    The run is created in experiment ``experiment`` (created if absent) of ``tracking_uri`` (default
    :func:`default_tracking_uri`), tagged by :func:`flow_run_tags` (``tags`` added) and given ``params``;
    it ends FINISHED only when the block completed, FAILED on an error, KILLED on an interrupt.
    """
    uri = tracking_uri or default_tracking_uri()
    client = tracking_client(uri)
    experiment_id = ensure_experiment(client, experiment)
    for orphan in mark_orphaned_runs(client, [experiment_id]):
        logger.warning("marked run %s KILLED: its process %d is gone", orphan.run_id, orphan.owner_pid)
    run_tags = flow_run_tags(purpose, fingerprints, tags)
    with tracked_run(client, experiment_id, run_name=run_name, tags=run_tags) as run_id:
        if params:
            log_params(client, run_id, params)
        yield ParentRun(uri, experiment_id, run_id)


def _now_ms() -> int:
    return int(time.time() * 1000)


def plain_param(value: object) -> str:
    """A parameter value as a person writes it: no Python repr, no quotes.

    Strings stay as they are, ``None`` is ``none``, booleans ``true`` / ``false``, sequences are joined by
    ``", "`` (``25, 50``), mappings are ``key=value`` pairs joined by ``"; "`` (an empty one is ``none``),
    a mapping inside one is ``key(name=value, ...)``: ``adaboost(n_estimators=5); dt()``.
    """
    if isinstance(value, str):
        return value
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        parts = [
            f"{key}({', '.join(f'{name}={plain_param(inner)}' for name, inner in item.items())})"
            if isinstance(item, Mapping)
            else f"{key}={plain_param(item)}"
            for key, item in value.items()
        ]
        return "; ".join(parts) or "none"
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return ", ".join(plain_param(item) for item in items)
    return str(value)


def log_params(client: MlflowClient, run_id: str, params: Mapping[str, object]) -> None:
    """Log parameters in batches as :func:`plain_param` strings (truncated to MLflow's 6,000 characters)."""
    entries = [Param(str(key), plain_param(value)[:_MAX_PARAM_LENGTH]) for key, value in params.items()]
    for start in range(0, len(entries), _MAX_PARAMS_PER_BATCH):
        client.log_batch(run_id, params=entries[start : start + _MAX_PARAMS_PER_BATCH])


def _log_metric_entries(client: MlflowClient, run_id: str, entries: list[Metric]) -> None:
    for start in range(0, len(entries), _MAX_METRICS_PER_BATCH):
        client.log_batch(run_id, metrics=entries[start : start + _MAX_METRICS_PER_BATCH])


def log_metrics(
    client: MlflowClient,
    run_id: str,
    metrics: Mapping[str, float],
    *,
    step: int = 0,
    model_id: str | None = None,
) -> None:
    """Log scalar metrics at one step in as few ``log_batch`` calls as MLflow allows (NaN kept as NaN).

    With ``model_id`` the metrics are also the logged model's (shown on its page, ``models:/<model_id>``).
    """
    timestamp = _now_ms()
    entries = [
        Metric(str(key), float(value), timestamp, step, model_id=model_id) for key, value in metrics.items()
    ]
    _log_metric_entries(client, run_id, entries)


def log_curves(
    client: MlflowClient, run_id: str, curves: Mapping[str, Sequence[float]], *, first_step: int = 1
):
    """Log every curve as a metric history, value ``i`` at ``step=first_step + i`` (per-round traces)."""
    timestamp = _now_ms()
    entries = [
        Metric(str(key), float(value), timestamp, first_step + index)
        for key, values in curves.items()
        for index, value in enumerate(values)
        if value is not None
    ]
    _log_metric_entries(client, run_id, entries)


def log_step_metrics(client: MlflowClient, run_id: str, histories: Mapping[str, Mapping[int, float]]) -> None:
    """Log metric histories at explicit steps, ``{name: {step: value}}``, batched."""
    timestamp = _now_ms()
    entries = [
        Metric(str(key), float(value), timestamp, int(step))
        for key, values in histories.items()
        for step, value in values.items()
    ]
    _log_metric_entries(client, run_id, entries)


def log_table(
    client: MlflowClient, run_id: str, frame, name: str, *, artifact_path: str = "results"
) -> list[str]:
    """Log a pandas table as ``<artifact_path>/<name>.csv`` and ``.parquet``; returns the artifact paths."""
    with tempfile.TemporaryDirectory(prefix="cslearn-table-") as folder:
        csv_path = Path(folder) / f"{name}.csv"
        parquet_path = Path(folder) / f"{name}.parquet"
        frame.to_csv(csv_path, index=False)
        frame.to_parquet(parquet_path, index=False)
        for path in (csv_path, parquet_path):
            client.log_artifact(run_id, str(path), artifact_path=artifact_path)
    return [f"{artifact_path}/{name}.csv", f"{artifact_path}/{name}.parquet"]


def log_run_files(client: MlflowClient, run_id: str, files: Mapping[str, bytes]) -> list[str]:
    """Log in-memory files as artifacts of a run in one upload; ``files`` maps an artifact path
    (``figures/rounds.png``) to its bytes. Returns the artifact paths."""
    if not files:
        return []
    with tempfile.TemporaryDirectory(prefix="cslearn-files-") as folder:
        for relative, content in files.items():
            target = Path(folder) / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        client.log_artifacts(run_id, folder)
    return sorted(files)


def log_child_run(
    tracking_uri: str,
    experiment_id: str,
    parent_run_id: str,
    *,
    run_name: str,
    params: Mapping[str, object],
    metrics: Mapping[str, float],
    curves: Mapping[str, Sequence[float]] | None = None,
    tags: Mapping[str, object] | None = None,
    failed: bool = False,
    step_metrics: Mapping[str, Mapping[int, float]] | None = None,
    files: Mapping[str, bytes] | None = None,
    times: tuple[int, int] | None = None,
) -> str:
    """Create, fill and close one child run; returns its id.

    Parameters
    ----------
    tracking_uri, experiment_id, parent_run_id : str
        Where the child goes; the parent is linked by the ``mlflow.parentRunId`` tag.
    params : mapping
        Estimator and protocol parameters (logged as :func:`plain_param` strings).
    metrics : mapping
        Aggregate metrics (logged at step 0).
    curves : mapping of name -> per-round values, optional
        Boosting traces, logged with ``step`` = the round (1-based).
    tags : mapping, optional
    failed : bool
        End the run FAILED instead of FINISHED (some of its cells failed).
    step_metrics : mapping of name -> {step: value}, optional
        Histories at explicit steps, e.g. a test metric per ensemble size T (``step=T``).
    files : mapping of artifact path -> bytes, optional
        Artifacts (tables, figures), uploaded together (:func:`log_run_files`).
    times : (int, int), optional
        Start and end of the work the run records (ms since the epoch); default: the logging time.
    """
    client = tracking_client(tracking_uri)
    try:
        with tracked_run(
            client, experiment_id, run_name=run_name, tags=tags, parent_run_id=parent_run_id, times=times
        ) as run_id:
            log_params(client, run_id, params)
            log_metrics(client, run_id, metrics)
            if curves:
                log_curves(client, run_id, curves, first_step=1)
            if step_metrics:
                log_step_metrics(client, run_id, step_metrics)
            if files:
                log_run_files(client, run_id, files)
            if failed:
                raise _CellsFailed(run_id)
    except _CellsFailed as marker:
        return str(marker.args[0])
    return run_id


class _CellsFailed(Exception):
    """Raised inside ``log_child_run`` so that ``tracked_run`` ends a run whose cells failed as FAILED."""
