"""The command line on its own: a configured Prefect server is checked and reused, none configured means one
temporary server started early, whose output stays out of the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mlflow import MlflowClient
from prefect.settings import PREFECT_API_URL, temporary_settings

from flows.cli import main
from flows.cli._environment import PrefectApi
from tasks.storage import state_home
from tests.servers import free_port


def test_a_configured_server_that_does_not_answer_is_named_with_what_to_do(tmp_path, capsys, monkeypatch):
    url = f"http://127.0.0.1:{free_port()}/api"
    cells = state_home() / "test-cells" / tmp_path.name
    monkeypatch.setenv("PREFECT_API_URL", url)
    with temporary_settings(updates={PREFECT_API_URL: url}):
        status = main(["compare", "--methods", "dt", "--folds", "2", "--cell-store", str(cells)])
    assert status == 1
    message = capsys.readouterr().err
    assert f"cslearn compare: the Prefect server at {url} (PREFECT_API_URL) does not answer" in message
    assert "unset PREFECT_API_URL to let cslearn start a temporary one" in message
    assert not cells.exists()


def test_a_configured_server_is_reused(prefect_server):
    api = PrefectApi()
    api.start()
    assert api.wait() == prefect_server and not api.temporary


@pytest.mark.slow
def test_compare_works_outside_make_with_a_temporary_server_and_a_quiet_terminal(tmp_path):
    """As a user runs it from a shell with nothing set up: no Prefect, MLflow or telemetry settings."""
    environment = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "CSLEARN_HOME": str(tmp_path / "home"),
        "PREFECT_HOME": str(tmp_path / "prefect"),
    }
    completed = subprocess.run(
        [
            str(Path(sys.executable).parent / "cslearn"),
            "compare",
            "--datasets",
            "wisconsin",
            "--methods",
            "dt,adaboost",
            "--folds",
            "3",
            "--repeats",
            "2",
            "--n-estimators",
            "3",
        ],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "Traceback" not in completed.stderr, completed.stderr
    assert "starting Prefect's temporary server (PREFECT_API_URL is not set)" in completed.stderr
    routine = [line for line in completed.stderr.splitlines() if "Task run" in line and "Completed()" in line]
    assert routine == []  # one line per cell at most: its progress, and only every tenth of the run
    progress = [line for line in completed.stderr.splitlines() if " - cells " in line]
    assert 1 <= len(progress) <= 11 and "cells 12/12 (0 resumed, 0 failed)" in progress[-1]
    assert (tmp_path / "prefect" / "temporary-server.log").exists()

    out = completed.stdout
    assert out.startswith("Leaderboard: ranked by OPM per dataset at the largest T, over 1 dataset")
    assert "No Friedman test: it needs at least 2 datasets and 3 methods (this run has 1 and 2)." in out
    run_id = out.split("MLflow parent run ")[1].split()[0]
    store = f"sqlite:///{tmp_path / 'home' / 'mlflow' / 'mlflow.db'}"
    assert MlflowClient(store).get_run(run_id).info.status == "FINISHED"


_KILLED_COMMAND = """
import sys, time
from flows.cli._environment import PrefectApi
from tasks.storage import state_home
api = PrefectApi()
api.start()
print(api._process.pid, flush=True)
api.wait()
print("ready", flush=True)
time.sleep(600)
"""


def test_the_temporary_server_never_outlives_its_command_even_killed(tmp_path):
    environment = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect")}
    environment.pop("PREFECT_API_URL", None)
    command = subprocess.Popen(
        [sys.executable, "-c", _KILLED_COMMAND], stdout=subprocess.PIPE, text=True, env=environment
    )
    server_pid = int(command.stdout.readline())
    assert command.stdout.readline().strip() == "ready"
    os.kill(server_pid, 0)  # the server runs
    command.kill()  # SIGKILL: no exit handler runs in the command
    command.wait()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    os.kill(server_pid, 9)
    pytest.fail("the temporary server outlived its killed command")
