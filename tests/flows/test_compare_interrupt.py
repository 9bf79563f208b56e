"""SIGTERM to ``cslearn compare`` leaves no MLflow run marked FINISHED and keeps the finished cells."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mlflow import MlflowClient

from tasks.storage import state_home

pytestmark = [pytest.mark.servers, pytest.mark.slow]

CSLEARN = Path(sys.executable).parent / "cslearn"


def _wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def test_sigterm_marks_the_parent_run_killed(prefect_server, mlflow_server, tmp_path):
    experiment = f"interrupt-{tmp_path.name}"
    command = [
        str(CSLEARN),
        "compare",
        "--datasets",
        "wisconsin",
        "--methods",
        "smoteboost",
        "--repeats",
        "4",
        "--folds",
        "5",
        "--n-estimators",
        "200",
        "--max-workers",
        "1",
        "--tracking-uri",
        mlflow_server,
        "--experiment",
        experiment,
        "--cell-store",
        str(state_home() / "test-cells" / tmp_path.name),
    ]  # 20 slow cells, one at a time: minutes of work, interrupted after the first finished cell
    log = (tmp_path / "cli.log").open("w")
    process = subprocess.Popen(
        command,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ, "PREFECT_API_URL": prefect_server},
    )
    client = MlflowClient(mlflow_server)
    try:

        def running_parent():
            found = client.get_experiment_by_name(experiment)
            runs = client.search_runs([found.experiment_id]) if found else []
            return runs[0] if runs and runs[0].info.status == "RUNNING" else None

        parent = _wait_for(running_parent, 240, "the parent run")
        _wait_for(
            lambda: list((state_home() / "test-cells" / tmp_path.name).rglob("*.json")),
            240,
            "a finished cell",
        )
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=240)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
    output = (tmp_path / "cli.log").read_text()
    assert status == 130, output[-3000:]
    assert "interrupted" in output
    runs = client.search_runs([parent.info.experiment_id])
    assert [run.info.status for run in runs] == ["KILLED"]
    assert runs[0].info.run_id == parent.info.run_id
    stored = list((state_home() / "test-cells" / tmp_path.name).rglob("*.json"))
    assert 1 <= len(stored) < 20  # finished cells are kept for the rerun, the rest never ran
