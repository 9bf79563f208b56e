"""``prefect.yaml`` end to end: deploy every deployment, start a process worker, run a retrain deployment.

Against the fixture servers on 127.0.0.1: ``prefect work-pool create`` + ``prefect --no-prompt deploy --all``
from the project folder (the real ``prefect.yaml``), then a real ``prefect worker start`` picks up
``run_deployment`` of ``retrain/retrain-direct-marketing`` (small row cap) which must complete and set the
registry alias in the MLflow server.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import yaml
from mlflow import MlflowClient

pytestmark = [pytest.mark.servers, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[2]
PREFECT = str(Path(sys.executable).parent / "prefect")
POOL = "cslearn-local"


def _prefect_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["CSLEARN_PROJECT_DIR"] = str(PROJECT)
    env["PREFECT_WORKER_QUERY_SECONDS"] = "2"  # pick the run up quickly (default 10 s)
    return env


def _prefect(*arguments: str) -> subprocess.CompletedProcess:
    completed = subprocess.run(
        [PREFECT, *arguments],
        cwd=PROJECT,
        env=_prefect_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, (
        f"prefect {' '.join(arguments)} failed:\n{completed.stdout}\n{completed.stderr}"
    )
    return completed


def test_prefect_yaml_declares_the_deployments_with_anchors_and_utc_crons():
    config = yaml.safe_load((PROJECT / "prefect.yaml").read_text())
    deployments = {deployment["name"]: deployment for deployment in config["deployments"]}
    assert set(deployments) == {
        "compare-benchmark",
        "retrain-credit-scoring",
        "retrain-direct-marketing",
        "retrain-card-fraud",
    }
    assert "definitions" in config
    assert deployments["compare-benchmark"]["schedules"] == []
    assert deployments["compare-benchmark"]["entrypoint"] == "flows/compare.py:compare"
    for dataset in ("credit-scoring", "direct-marketing", "card-fraud"):
        deployment = deployments[f"retrain-{dataset}"]
        assert deployment["entrypoint"] == "flows/retrain.py:retrain"
        assert deployment["parameters"] == {"params": {"dataset": dataset}}
        assert deployment["work_pool"]["name"] == POOL
        ((schedule,),) = [deployment["schedules"]]
        assert schedule["timezone"] == "UTC" and len(schedule["cron"].split()) == 5
    (pull_step,) = config["pull"]
    assert pull_step == {
        "prefect.deployments.steps.set_working_directory": {"directory": "{{ $CSLEARN_PROJECT_DIR }}"}
    }


@pytest.fixture(scope="module")
def deployed(prefect_server):
    """The work pool and every deployment of ``prefect.yaml`` on the fixture server."""
    _prefect("work-pool", "create", POOL, "--type", "process", "--overwrite")
    _prefect("--no-prompt", "deploy", "--all")
    return prefect_server


@pytest.fixture(scope="module")
def worker(deployed, tmp_path_factory):
    """A real process worker polling the pool, stopped by its process group afterwards."""
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [PREFECT, "worker", "start", "--pool", POOL, "--limit", "1"],
            cwd=PROJECT,
            env=_prefect_environment(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield log_path
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=20)


def test_deploy_registers_every_deployment_with_its_schedule_and_pool(deployed):
    from prefect import get_client

    with get_client(sync_client=True) as client:
        retrain = client.read_deployment_by_name("retrain/retrain-credit-scoring")
        compare = client.read_deployment_by_name("method-comparison/compare-benchmark")
        for name in ("retrain/retrain-direct-marketing", "retrain/retrain-card-fraud"):
            assert client.read_deployment_by_name(name).work_pool_name == POOL
    assert retrain.work_pool_name == POOL and retrain.parameters == {"params": {"dataset": "credit-scoring"}}
    ((schedule,),) = [retrain.schedules]
    assert (schedule.schedule.cron, schedule.schedule.timezone) == ("0 2 * * *", "UTC")
    # The placeholder is resolved by `prefect deploy`: workers need no project variable of their own.
    assert retrain.pull_steps == [
        {"prefect.deployments.steps.set_working_directory": {"directory": str(PROJECT)}}
    ]
    assert retrain.global_concurrency_limit.limit == 1
    assert compare.schedules == []


def test_run_deployment_of_a_retrain_completes_and_sets_the_champion_alias(worker, mlflow_server):
    from prefect.deployments import run_deployment

    model_name = f"deployed-dm-{uuid.uuid4().hex[:8]}"
    params = {
        "dataset": "direct-marketing",
        "candidates": ["bmr-lr", "dt"],
        "max_rows": 2000,
        "tracking_uri": mlflow_server,
        "model_name": model_name,
        "experiment": "deployed-retrain",
    }
    flow_run = run_deployment(
        "retrain/retrain-direct-marketing", parameters={"params": params}, timeout=600, poll_interval=2
    )
    assert flow_run.state.is_completed(), f"{flow_run.state}\nworker log:\n{worker.read_text()[-4000:]}"

    client = MlflowClient(mlflow_server)
    champion = client.get_model_version_by_alias(model_name, "champion")
    assert str(champion.version) == "1"
    assert champion.tags["cslearn.method"] in {"bmr-lr", "dt"}
    parent = client.search_runs(
        [client.get_experiment_by_name("deployed-retrain").experiment_id],
        filter_string=f"tags.`prefect.flow_run_id` = '{flow_run.id}'",
    )
    assert len(parent) == 1 and parent[0].info.status == "FINISHED"


def test_the_deployment_rejects_bad_parameters_before_any_work(deployed):
    from prefect.deployments import run_deployment
    from prefect.exceptions import PrefectHTTPStatusError

    with pytest.raises(PrefectHTTPStatusError, match="409|422"):
        run_deployment(
            "retrain/retrain-credit-scoring",
            parameters={"params": {"dataset": "credit-scoring", "max_rows": 5, "colour": "red"}},
            timeout=0,
        )
