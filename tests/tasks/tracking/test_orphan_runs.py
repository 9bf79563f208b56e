"""Runs left RUNNING by a dead process are found by their owner tags and marked KILLED; others are left."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import psutil
import pytest

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
