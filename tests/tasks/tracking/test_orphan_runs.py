"""Runs left RUNNING by a dead process are found by their owner tags and marked KILLED; others are left."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import psutil
import pytest
from mlflow.entities import LoggedModelStatus

from flows.cli import main
from tasks.tracking.mlflow_runs import ensure_experiment, parent_run, start_run, tracking_client
from tasks.tracking.orphan_runs import (
    OWNER_HOST_TAG,
    OWNER_PID_TAG,
    OWNER_STARTED_TAG,
    find_orphaned_runs,
    mark_orphaned_runs,
    owner_tags,
)


@pytest.fixture
def store(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    return uri, tracking_client(uri)


def _dead_process_tags() -> dict[str, str]:
    """Owner tags of a process of this host that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"])
    started = f"{psutil.Process(child.pid).create_time():.3f}"
    child.wait()
    return {**owner_tags(), OWNER_PID_TAG: str(child.pid), OWNER_STARTED_TAG: started}


def test_owner_tags_name_this_process():
    tags = owner_tags()
    assert tags[OWNER_PID_TAG] == str(os.getpid())
    assert float(tags[OWNER_STARTED_TAG]) == pytest.approx(psutil.Process().create_time(), abs=1e-3)


def test_only_runs_of_a_dead_owner_on_this_host_are_marked_killed(store, capsys):
    uri, client = store
    experiment = ensure_experiment(client, "orphans")
    other = ensure_experiment(client, "elsewhere")
    dead = _dead_process_tags()
    orphan = client.create_run(experiment, tags=dead, run_name="orphan").info.run_id
    mine = start_run(client, experiment, run_name="alive")  # this process: alive
    remote = client.create_run(experiment, tags={**dead, OWNER_HOST_TAG: "another-host"}).info.run_id
    untagged = client.create_run(experiment, run_name="no owner").info.run_id
    an_hour_later = f"{psutil.Process().create_time() + 3600:.3f}"  # this pid, started later: pid reused
    reused_pid = {**dead, OWNER_PID_TAG: str(os.getpid()), OWNER_STARTED_TAG: an_hour_later}
    stale = client.create_run(other, tags=reused_pid, run_name="stale").info.run_id
    finished = client.create_run(experiment, tags=dead).info.run_id
    client.set_terminated(finished, "FINISHED")

    assert {run.run_id for run in find_orphaned_runs(client, [experiment])} == {orphan}
    status = main(["runs", "cleanup", "--dry-run", "--json", "--tracking-uri", uri])
    listed = json.loads(capsys.readouterr().out)
    assert status == 0 and {run["run_id"] for run in listed} == {orphan, stale}
    assert {run["experiment"] for run in listed} == {"orphans", "elsewhere"}
    assert client.get_run(orphan).info.status == "RUNNING"  # a dry run changes nothing

    status = main(["runs", "cleanup", "--experiment", "orphans", "--tracking-uri", uri])
    text = capsys.readouterr().out
    assert status == 0 and orphan in text and text.rstrip().endswith("1 run marked KILLED")
    assert client.get_run(orphan).info.status == "KILLED"
    assert "ended without ending it" in client.get_run(orphan).data.tags["cslearn.orphaned"]
    for run_id in (mine, remote, untagged, stale):
        assert client.get_run(run_id).info.status == "RUNNING"
    assert client.get_run(finished).info.status == "FINISHED"

    assert main(["runs", "cleanup", "--experiment", "nope", "--tracking-uri", uri]) == 2
    assert "no MLflow experiment 'nope'" in capsys.readouterr().err


def test_a_flow_starting_a_parent_run_ends_the_orphans_of_its_experiment(store):
    uri, client = store
    experiment = ensure_experiment(client, "next-start")
    orphan = client.create_run(experiment, tags=_dead_process_tags()).info.run_id
    with parent_run(uri, "next-start", run_name="next", purpose="compare", fingerprints={}) as run:
        assert client.get_run(orphan).info.status == "KILLED"
        tags = client.get_run(run.run_id).data.tags
        assert tags[OWNER_PID_TAG] == str(os.getpid())
    assert mark_orphaned_runs(client, [experiment]) == []


def test_a_clock_correction_does_not_make_a_live_owner_an_orphan(store):
    """psutil's start time moves with the wall clock's boot time: a second off is the same process."""
    _, client = store
    experiment = ensure_experiment(client, "clock")
    started = psutil.Process().create_time()
    shifted = {**owner_tags(), OWNER_STARTED_TAG: f"{started - 1.0:.3f}"}
    alive = client.create_run(experiment, tags=shifted).info.run_id
    assert find_orphaned_runs(client, [experiment]) == []
    assert client.get_run(alive).info.status == "RUNNING"


_LOG_A_CANDIDATE_AND_HANG = """
import sys, time
from pathlib import Path
from mlflow import MlflowClient
from tasks.model_registry import fit_and_log_candidate
from tasks.tracking.mlflow_runs import ensure_experiment, start_run, tracking_client
from tests.tasks.model_registry.conftest import synthetic_retrain_data

uri, marker = sys.argv[1], Path(sys.argv[2])
def hang(self, model_id, local_dir, artifact_path=None):
    marker.write_text(model_id)
    time.sleep(300)
MlflowClient.log_model_artifacts = hang  # killed while the model's files are being logged
client = tracking_client(uri)
experiment = ensure_experiment(client, "killed-while-logging")
parent = start_run(client, experiment, run_name="retrain synthetic x 1 candidate")
fit_and_log_candidate(
    synthetic_retrain_data(rows=300), "dt", tracking_uri=uri, experiment_id=experiment, parent_run_id=parent
)
"""


def test_a_model_being_logged_when_its_process_is_killed_is_marked_failed_by_cleanup(store, tmp_path, capsys):
    """Issue 25: ``kill -9`` while a candidate's model was logged left the logged model PENDING forever, even
    after ``cslearn runs cleanup``; a real process is killed right while it uploads the model's files."""
    uri, client = store
    marker = tmp_path / "logging"
    process = subprocess.Popen([sys.executable, "-c", _LOG_A_CANDIDATE_AND_HANG, uri, str(marker)])
    try:
        deadline = time.monotonic() + 240
        while not marker.exists():
            assert process.poll() is None and time.monotonic() < deadline, "it never reached the logging"
            time.sleep(0.05)
    finally:
        process.kill()  # SIGKILL: nothing of it runs any more
        process.wait()
    model_id = marker.read_text()
    assert client.get_logged_model(model_id).status == LoggedModelStatus.PENDING
    experiment = client.get_experiment_by_name("killed-while-logging").experiment_id
    runs = client.search_runs([experiment])
    assert sorted(run.info.status for run in runs) == ["RUNNING", "RUNNING"]  # parent and candidate

    assert main(["runs", "cleanup", "--tracking-uri", uri]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"  logged model {model_id} left PENDING" in lines
    assert lines[-1] == "2 runs marked KILLED, 1 logged model marked FAILED"
    model = client.get_logged_model(model_id)
    assert model.status == LoggedModelStatus.FAILED
    assert model.tags["cslearn.orphaned"] == f"process {process.pid} ended while logging it"
    assert sorted(run.info.status for run in client.search_runs([experiment])) == ["KILLED", "KILLED"]
    assert main(["runs", "cleanup", "--tracking-uri", uri]) == 0  # nothing left to settle
    assert capsys.readouterr().out.strip() == "0 runs marked KILLED"


def test_a_model_whose_files_cannot_be_logged_is_failed_not_pending(store, monkeypatch):
    """A full disk is simulated (this suite runs as root, for whom no folder is read-only)."""
    from mlflow import MlflowClient
    from sklearn.dummy import DummyClassifier

    from tasks.model_registry import log_model
    from tests.tasks.model_registry.conftest import synthetic_retrain_data

    _, client = store
    data = synthetic_retrain_data(rows=100)
    experiment = ensure_experiment(client, "unwritable")
    run_id = start_run(client, experiment, run_name="logging fails")
    estimator = DummyClassifier().fit(data.train_features, data.train_target)

    def refuse(self, model_id, local_dir, artifact_path=None):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(MlflowClient, "log_model_artifacts", refuse)
    with pytest.raises(OSError, match="No space left on device"):
        log_model(client, experiment, run_id, estimator, data.holdout_features.head(5), name="full-disk")
    (model,) = client.search_logged_models([experiment])
    assert model.status == LoggedModelStatus.FAILED
