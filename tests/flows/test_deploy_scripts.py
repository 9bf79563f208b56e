"""``make deploy`` (scripts/deploy.sh) and ``make ui`` (scripts/ui.sh) start real services on 127.0.0.1.

Each test uses its own ``PREFECT_HOME`` / store and a free port, and stops what it started by process group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import yaml

from tests.servers import free_port

pytestmark = pytest.mark.servers

PROJECT = Path(__file__).resolve().parents[2]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_for(url: str, process: subprocess.Popen, timeout: float = 240.0) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the service exited with {process.returncode}"
        with contextlib.suppress(httpx.HTTPError):
            response = httpx.get(url, timeout=2.0)
            if response.status_code == 200:
                return response
        time.sleep(0.5)
    raise AssertionError(f"{url} not answering after {timeout} s")


@contextlib.contextmanager
def _make_ui(env: dict, port: int):
    """``scripts/ui.sh`` serving on ``port``, healthy; yields a list that receives its output once stopped."""
    process = subprocess.Popen(
        ["bash", str(PROJECT / "scripts" / "ui.sh")],
        env={**env, "MLFLOW_UI_PORT": str(port)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    output = []
    try:
        _wait_for(f"http://127.0.0.1:{port}/health", process)
        yield output
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        output.append(process.stdout.read().decode())


def test_make_ui_serves_the_mlflow_ui_on_loopback_over_the_given_store(tmp_path):
    port = free_port()
    env = {**os.environ, "MLFLOW_TRACKING_URI": f"sqlite:///{tmp_path / 'ui.db'}"}
    with _make_ui(env, port) as printed:
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert (tmp_path / "ui.db").is_file()  # the server opened the store it was pointed at
    output = printed[0]
    front_page = f"http://127.0.0.1:{port}/#/experiments?workflowType=machine_learning"  # training layout
    assert f"MLflow UI: {front_page} (training layout) over sqlite:///{tmp_path / 'ui.db'}" in output
    assert f"artifacts of new experiments: {(tmp_path / 'artifacts').as_uri()}" in output  # beside the store
    assert (tmp_path / "artifacts").is_dir()


def test_make_ui_and_the_cli_outside_make_share_one_default_store(tmp_path):
    port = free_port()
    home = tmp_path / "home"
    env = {key: value for key, value in os.environ.items() if key != "MLFLOW_TRACKING_URI"}
    env["CSLEARN_HOME"] = str(home)
    # What `.venv/bin/cslearn compare` does with no --tracking-uri: the default store of
    # tasks.tracking.mlflow_runs.
    made = subprocess.run(
        [
            sys.executable,
            "-c",
            "from tasks.tracking.mlflow_runs import *; ensure_experiment(tracking_client(), 'by-the-cli')",
        ],
        env=env,
        cwd=tmp_path,  # the working directory plays no part
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr[-3000:]
    with _make_ui(env, port) as printed:
        response = httpx.get(
            f"http://127.0.0.1:{port}/api/2.0/mlflow/experiments/get-by-name",
            params={"experiment_name": "by-the-cli"},
            timeout=10,
        )
    assert response.status_code == 200, response.text
    experiment = response.json()["experiment"]
    assert experiment["artifact_location"] == (home / "mlflow" / "artifacts" / "by-the-cli").as_uri()
    assert f"over sqlite:///{home / 'mlflow' / 'mlflow.db'}" in printed[0]


def test_make_ui_points_at_an_existing_tracking_server_instead_of_starting_one():
    env = {**os.environ, "MLFLOW_TRACKING_URI": "http://127.0.0.1:5999"}
    completed = subprocess.run(
        ["bash", str(PROJECT / "scripts" / "ui.sh")], env=env, capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0
    assert (
        "is a tracking server already: open http://127.0.0.1:5999/#/experiments?workflowType=machine_learning"
        in completed.stdout
    )


@pytest.mark.slow
def test_make_deploy_starts_server_pool_worker_deploys_all_and_stops(tmp_path):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "PREFECT_API_URL"}
    env.update({"PREFECT_HOME": str(tmp_path / "prefect"), "PREFECT_PORT": str(port)})
    state = tmp_path / "prefect" / "deploy"
    script = str(PROJECT / "scripts" / "deploy.sh")
    try:
        completed = subprocess.run(["bash", script], env=env, capture_output=True, text=True, timeout=600)
        assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
        assert f"Prefect UI: http://127.0.0.1:{port}" in completed.stdout
        # Said once, by the script that starts it, not after every deployment by Prefect.
        assert completed.stdout.count("start a worker") + completed.stdout.count("started a worker") == 1
        assert "deployment 'method-comparison/compare-benchmark' successfully" in completed.stdout
        worker_environment = Path(f"/proc/{int((state / 'worker.pid').read_text())}/environ").read_bytes()
        assert b"MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR=false\x00" in worker_environment  # no tqdm bars
        server_pid = int((state / "server.pid").read_text())
        worker_pid = int((state / "worker.pid").read_text())
        assert _alive(server_pid) and _alive(worker_pid)

        response = httpx.post(f"http://127.0.0.1:{port}/api/deployments/filter", json={}, timeout=30)
        response.raise_for_status()
        # Every deployment that prefect.yaml declares, the live loop's (inactive schedules) included.
        declared = yaml.safe_load((PROJECT / "prefect.yaml").read_text())["deployments"]
        assert len(declared) == 7
        assert sorted(deployment["name"] for deployment in response.json()) == sorted(
            deployment["name"] for deployment in declared
        )
        assert {deployment["work_pool_name"] for deployment in response.json()} == {"cslearn-local"}
        # ... each refusing unknown parameters (Prefect's own schemas let them through)
        assert "7 deployments refuse unknown parameters: " in completed.stdout
        assert all(
            deployment["parameter_openapi_schema"]["additionalProperties"] is False
            for deployment in response.json()
        )

        stopped = subprocess.run(
            ["bash", script, "stop"], env=env, capture_output=True, text=True, timeout=120
        )
        assert stopped.returncode == 0
        assert f"stopped worker (process group {worker_pid})" in stopped.stdout
        assert f"stopped server (process group {server_pid})" in stopped.stdout
        assert not _alive(server_pid) and not _alive(worker_pid)
    finally:
        for name in ("worker", "server"):
            pid_file = state / f"{name}.pid"
            if pid_file.exists():
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.killpg(int(pid_file.read_text()), signal.SIGKILL)
