"""MLflow runs left RUNNING by a process that was killed: find them by their owner and mark them KILLED.

A run normally ends FINISHED, FAILED or KILLED (``tasks.tracking.mlflow_runs.tracked_run``), but a process
killed with ``SIGKILL`` (or by the out-of-memory killer, or a power cut) cannot end its runs. Every run this
package creates is therefore tagged with its owner (:func:`owner_tags`): the host name, the process id and the
process's start time, which together name one process even after its pid is reused. A RUNNING run whose
owner is on this host and no longer exists is an orphan; :func:`mark_orphaned_runs` sets it KILLED (with the
tag ``cslearn.orphaned`` saying why), and the logged models it left PENDING (a process killed while it logged
a model, before the model was finalized) FAILED, tagged the same way. Runs of other hosts, and runs without
owner tags, are left alone: this host cannot tell whether their process lives.

The flows call it for their experiment when they start a parent run
(``tasks.tracking.mlflow_runs.parent_run``); ``cslearn runs cleanup`` calls it on demand.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache

import psutil
from mlflow import MlflowClient
from mlflow.entities import LoggedModelStatus

__all__ = [
    "OWNER_HOST_TAG",
    "OWNER_PID_TAG",
    "OWNER_STARTED_TAG",
    "OrphanedRun",
    "ended_owner",
    "find_orphaned_runs",
    "mark_orphaned_runs",
    "owner_tags",
]

OWNER_PID_TAG = "cslearn.owner.pid"
OWNER_HOST_TAG = "cslearn.owner.host"
OWNER_STARTED_TAG = "cslearn.owner.started"
ORPHANED_TAG = "cslearn.orphaned"

#: Runs read per ``search_runs`` page.
_PAGE = 1000


@cache
def _start_time(pid: int) -> str:
    """The start time of this process ``pid`` (cached per pid: a forked child has its own)."""
    return f"{psutil.Process(pid).create_time():.3f}"


def owner_tags() -> dict[str, str]:
    """The tags naming the process that creates a run: host, pid and the process's start time."""
    pid = os.getpid()
    host = socket.gethostname()
    return {OWNER_HOST_TAG: host, OWNER_PID_TAG: str(pid), OWNER_STARTED_TAG: _start_time(pid)}


#: Seconds by which a live owner's start time, read again, may differ from the one it recorded. psutil
#: derives a start time from the boot time the kernel recomputes from the wall clock, so a clock correction
#: moves it (by a second or so) while the process lives; a recycled pid starts much later than that.
START_TIME_TOLERANCE = 5.0


def _owner_alive(pid: int, started: str) -> bool:
    try:
        return abs(psutil.Process(pid).create_time() - float(started)) <= START_TIME_TOLERANCE
    except psutil.NoSuchProcess:
        return False
    except psutil.Error:  # exists, but not ours to inspect: alive
        return True
    except ValueError:  # a start-time tag that is not a number names no process of ours
        return False


def ended_owner(tags: Mapping[str, str]) -> int | None:
    """The pid named by owner ``tags`` (:func:`owner_tags`) when that process ran on this host and has ended;
    ``None`` when it lives, ran on another host (this host cannot tell) or the tags name no owner."""
    pid, started = tags.get(OWNER_PID_TAG), tags.get(OWNER_STARTED_TAG)
    if tags.get(OWNER_HOST_TAG) != socket.gethostname() or pid is None or started is None:
        return None
    if not pid.isdigit() or _owner_alive(int(pid), started):
        return None
    return int(pid)


@dataclass(frozen=True)
class OrphanedRun:
    """A RUNNING run whose owning process on this host is gone, and the ids of the logged models it left
    PENDING."""

    run_id: str
    run_name: str
    experiment_id: str
    experiment: str
    owner_pid: int
    start_time: int
    pending_models: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return asdict(self)


def _running_runs(client: MlflowClient, experiment_ids: list[str]):
    token = None
    while True:
        page = client.search_runs(
            experiment_ids, filter_string="attributes.status = 'RUNNING'", max_results=_PAGE, page_token=token
        )
        yield from page
        token = page.token
        if not token:
            return


def _pending_models(client: MlflowClient, experiment_id: str, run_id: str) -> tuple[str, ...]:
    """The logged models of run ``run_id`` still PENDING (never finalized READY or FAILED)."""
    models, token = [], None
    while True:
        page = client.search_logged_models(
            [experiment_id], filter_string=f"source_run_id = '{run_id}'", page_token=token
        )
        models += [model.model_id for model in page if model.status == LoggedModelStatus.PENDING]
        token = page.token
        if not token:
            return tuple(models)


def find_orphaned_runs(client: MlflowClient, experiment_ids: list[str] | None = None) -> list[OrphanedRun]:
    """The orphaned runs (see the module docstring) of ``experiment_ids`` (default: every active one)."""
    experiments = {experiment.experiment_id: experiment.name for experiment in client.search_experiments()}
    ids = list(experiment_ids) if experiment_ids is not None else list(experiments)
    if not ids:
        return []
    orphans = []
    for run in _running_runs(client, ids):
        pid = ended_owner(run.data.tags)
        if pid is None:
            continue
        orphans.append(
            OrphanedRun(
                run_id=run.info.run_id,
                run_name=run.info.run_name or "",
                experiment_id=run.info.experiment_id,
                experiment=experiments.get(run.info.experiment_id, run.info.experiment_id),
                owner_pid=pid,
                start_time=run.info.start_time,
                pending_models=_pending_models(client, run.info.experiment_id, run.info.run_id),
            )
        )
    return orphans


def mark_orphaned_runs(
    client: MlflowClient, experiment_ids: list[str] | None = None, *, dry_run: bool = False
) -> list[OrphanedRun]:
    """Mark every orphaned run of ``experiment_ids`` KILLED and the logged models it left PENDING FAILED
    (unless ``dry_run``); the runs found."""
    orphans = find_orphaned_runs(client, experiment_ids)
    if not dry_run:
        for orphan in orphans:
            for model_id in orphan.pending_models:
                reason = f"process {orphan.owner_pid} ended while logging it"
                client.set_logged_model_tags(model_id, {ORPHANED_TAG: reason})
                client.finalize_logged_model(model_id, LoggedModelStatus.FAILED)
            client.set_tag(orphan.run_id, ORPHANED_TAG, f"process {orphan.owner_pid} ended without ending it")
            client.set_terminated(orphan.run_id, status="KILLED")
    return orphans
