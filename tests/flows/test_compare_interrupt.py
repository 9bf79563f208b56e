"""``cslearn compare`` stops within seconds of Ctrl-C or SIGTERM during a long fit, a second Ctrl-C exits at
once, and nothing outlives the command: no worker process, no Prefect server, no MLflow run left RUNNING.

Each test runs the real command in its own session, with Prefect's temporary server (no ``PREFECT_API_URL``)
and a sqlite MLflow store, on two cells whose fits (10,000 WOTBoost rounds on half of phoneme: no early stop)
would take over a minute each.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from mlflow import MlflowClient

from flows.cli import main
from tasks.storage import state_home

pytestmark = pytest.mark.slow

CSLEARN = Path(sys.executable).parent / "cslearn"

#: Seconds a stopped command may take to exit (its fits alone would take over a minute).
STOP_SECONDS = 20


def _wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class LongCompare:
    """A ``cslearn compare`` of two long cells, its processes and its MLflow store."""

    def __init__(self, tmp_path: Path):
        self.tmp_path = tmp_path
        self.experiment = "interrupt"
        self.tracking_uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
        self.log_path = tmp_path / "cli.log"
        self.cells = state_home() / "test-cells" / tmp_path.name  # cell stores live under $CSLEARN_HOME
        command = [
            str(CSLEARN), "compare", "--datasets", "phoneme", "--methods", "wotboost", "--repeats", "1",
            "--folds", "2", "--n-estimators", "10000", "--max-workers", "2", "--no-progress",
            "--tracking-uri", self.tracking_uri, "--experiment", self.experiment,
            "--cell-store", str(self.cells),
        ]  # fmt: skip
        environment = {key: value for key, value in os.environ.items() if key != "PREFECT_API_URL"}
        environment["PREFECT_HOME"] = str(tmp_path / "prefect")
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=environment
            )
        self.client = MlflowClient(self.tracking_uri)

    def runs(self):
        found = self.client.get_experiment_by_name(self.experiment)
        return self.client.search_runs([found.experiment_id]) if found else []

    def wait_until_fitting(self) -> tuple[list[psutil.Process], int]:
        """Wait for the parent run and two busy fit workers; the command's descendants and the server port."""
        _wait_for(lambda: any(run.info.status == "RUNNING" for run in self.runs()), 300, "the parent run")
        me = psutil.Process(self.process.pid)

        def two_workers():
            workers = [child for child in me.children() if "popen_loky" in " ".join(child.cmdline())]
            return workers if len(workers) >= 2 else None

        workers = _wait_for(two_workers, 120, "two fit workers")
        time.sleep(8)  # the workers are importing, then fitting: over a minute of work each
        assert all(worker.is_running() for worker in workers)
        [server] = [child for child in me.children() if "create_app" in " ".join(child.cmdline())]
        arguments = server.cmdline()
        port = int(arguments[arguments.index("--port") + 1])
        return me.children(recursive=True), port

    def output(self) -> str:
        return self.log_path.read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _gone(processes: list[psutil.Process], timeout: float = 10) -> bool:
    def all_gone():
        return not [p for p in processes if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]

    try:
        return _wait_for(all_gone, timeout, "the command's processes to end")
    except AssertionError:
        return False


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_an_interrupt_stops_a_long_fit_within_seconds(tmp_path, how):
    run = LongCompare(tmp_path)
    try:
        descendants, port = run.wait_until_fitting()
        assert _listening(port)
        signalled = time.monotonic()
        if how == "ctrl-c":
            os.killpg(run.process.pid, signal.SIGINT)  # what the terminal sends: to the whole process group
        else:
            run.process.send_signal(signal.SIGTERM)
        status = run.process.wait(timeout=120)
        stopped_after = time.monotonic() - signalled
    finally:
        run.stop()
    output = run.output()
    assert status == 130, output[-3000:]
    assert stopped_after < STOP_SECONDS, f"took {stopped_after:.1f} s to stop"
    assert "interrupted" in output and "Traceback" not in output, output[-3000:]
    assert [r.info.status for r in run.runs()] == ["KILLED"]
    assert _gone(descendants), "a worker or Prefect's server outlived the command"
    assert not _listening(port)
    assert not list(run.cells.rglob("*.json"))  # no cell finished; none was cut short and kept


def test_a_second_ctrl_c_exits_at_once_and_cleanup_ends_what_it_left(tmp_path, capsys):
    run = LongCompare(tmp_path)
    try:
        descendants, port = run.wait_until_fitting()
        os.killpg(run.process.pid, signal.SIGINT)
        time.sleep(0.3)
        os.killpg(run.process.pid, signal.SIGINT)
        signalled = time.monotonic()
        status = run.process.wait(timeout=120)
        stopped_after = time.monotonic() - signalled
    finally:
        run.stop()
    output = run.output()
    assert status == 130 and "interrupted again; exiting now" in output, output[-3000:]
    assert stopped_after < 5, f"took {stopped_after:.1f} s to exit"
    assert _gone(descendants), "a worker or Prefect's server outlived the command"
    assert not _listening(port)
    assert main(["runs", "cleanup", "--tracking-uri", run.tracking_uri, "--experiment", run.experiment]) == 0
    capsys.readouterr()
    assert [r.info.status for r in run.runs()] == ["KILLED"]


def test_a_killed_command_leaves_no_process_and_its_run_is_ended_by_cleanup(tmp_path, capsys):
    run = LongCompare(tmp_path)
    try:
        descendants, port = run.wait_until_fitting()
        run.process.send_signal(signal.SIGKILL)  # the command only: its children must notice
        assert run.process.wait(timeout=30) == -signal.SIGKILL
    finally:
        run.stop()
    assert _gone(descendants), "a worker or Prefect's server outlived the killed command"
    assert not _listening(port)
    assert [r.info.status for r in run.runs()] == ["RUNNING"]  # nobody could end it
    assert main(["runs", "cleanup", "--tracking-uri", run.tracking_uri, "--json"]) == 0
    assert run.runs()[0].info.run_id in capsys.readouterr().out
    assert [r.info.status for r in run.runs()] == ["KILLED"]
