"""``prefect.yaml`` end to end: deploy every deployment, start a process worker, run deployments on it.

Against the fixture servers on 127.0.0.1: ``prefect work-pool create`` + ``prefect --no-prompt deploy --all``
from the project folder (the real ``prefect.yaml``), then a real ``prefect worker start`` (whose environment
names the MLflow server: the tracking URI is the worker's, not a parameter) runs

- ``run_deployment`` of ``retrain/retrain-direct-marketing`` with flat parameters, which must complete and set
  the registry alias;
- a test deployment of the retrain flow on a 15 s interval schedule: the server's scheduler creates the run,
  the worker executes it;
- a test deployment whose retrain always fails: the flow's retries run it three times, and it ends Failed
  with the error.

``prefect deployment run --param`` overrides one field, and the API refuses bad values and unknown parameters
(409) before any run; a configuration error no schema expresses fails the run before it starts, not retried.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import yaml
from mlflow import MlflowClient

from flows.retrain import RETRAIN_RETRIES, retrain

pytestmark = [pytest.mark.servers, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[2]
PREFECT = str(Path(sys.executable).parent / "prefect")
POOL = "cslearn-local"
#: A quick retrain: one cheap candidate on a few rows.
QUICK = {"dataset": "direct-marketing", "candidates": ["dt"], "max_rows": 1500}


def _prefect_environment() -> dict[str, str]:
    from tasks.config.flow_parameters import default_comparison_size

    env = dict(os.environ)
    env["CSLEARN_PROJECT_DIR"] = str(PROJECT)
    env["CSLEARN_COMPARE_DEFAULT_SIZE"] = default_comparison_size()  # as scripts/deploy.sh sets it
    env["PREFECT_WORKER_QUERY_SECONDS"] = "2"  # pick the run up quickly (default 10 s)
    return env


def _prefect(*arguments: str, check: bool = True) -> subprocess.CompletedProcess:
    completed = subprocess.run(
        [PREFECT, *arguments],
        cwd=PROJECT,
        env=_prefect_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check:
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
        "refresh-retrain",
        "score-newest",
        "monitor-newest",
    }
    live = {
        "refresh-retrain": "flows/refresh_retrain.py:refresh_and_retrain",
        "score-newest": "flows/score.py:score",
        "monitor-newest": "flows/monitor.py:monitor",
    }
    for name, entrypoint in live.items():
        assert deployments[name]["entrypoint"] == entrypoint
        ((schedule,),) = [deployments[name]["schedules"]]
        assert schedule["active"] is False and schedule["timezone"] == "UTC"  # a dataset must be set first
    assert "definitions" in config
    assert deployments["compare-benchmark"]["schedules"] == []
    assert deployments["compare-benchmark"]["entrypoint"] == "flows/compare.py:compare"
    for dataset in ("credit-scoring", "direct-marketing", "card-fraud"):
        deployment = deployments[f"retrain-{dataset}"]
        assert deployment["entrypoint"] == "flows/retrain.py:retrain"
        assert deployment["parameters"] == {"dataset": dataset}
        assert deployment["work_pool"]["name"] == POOL
        ((schedule,),) = [deployment["schedules"]]
        assert schedule["timezone"] == "UTC" and len(schedule["cron"].split()) == 5
    (pull_step,) = config["pull"]
    assert pull_step == {
        "prefect.deployments.steps.set_working_directory": {"directory": "{{ $CSLEARN_PROJECT_DIR }}"}
    }


def test_scheduled_retrains_retry_twice_two_minutes_apart():
    assert RETRAIN_RETRIES == {"retries": 2, "retry_delay_seconds": 120}
    assert (retrain.retries, retrain.retry_delay_seconds) == (2, 120)


@pytest.fixture(scope="module")
def deployed(prefect_server):
    """The work pool and every deployment of ``prefect.yaml`` on the fixture server, their parameter schemas
    closed to unknown parameters, as ``make deploy`` (``scripts/deploy.sh``) does."""
    _prefect("work-pool", "create", POOL, "--type", "process", "--overwrite")
    _prefect("--no-prompt", "deploy", "--all")
    closed = subprocess.run(
        [sys.executable, "-m", "flows.deployment_parameters"],
        cwd=PROJECT,
        env=_prefect_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert closed.returncode == 0, closed.stderr
    assert closed.stdout.startswith("7 deployments refuse unknown parameters: "), closed.stdout
    return prefect_server


@pytest.fixture(scope="module")
def worker(deployed, mlflow_server, tmp_path_factory):
    """A real process worker polling the pool, its flows tracked in the MLflow server (the worker's
    ``MLFLOW_TRACKING_URI``); stopped by its process group afterwards."""
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    env = {**_prefect_environment(), "MLFLOW_TRACKING_URI": mlflow_server}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [PREFECT, "worker", "start", "--pool", POOL, "--limit", "1"],
            cwd=PROJECT,
            env=env,
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
            try:  # Prefect's worker stops dequeuing at SIGTERM but waits for its runner: 5 s is plenty
                process.wait(timeout=5)
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
    assert retrain.work_pool_name == POOL and retrain.parameters == {"dataset": "credit-scoring"}
    ((schedule,),) = [retrain.schedules]
    assert (schedule.schedule.cron, schedule.schedule.timezone) == ("0 2 * * *", "UTC")
    # The placeholder is resolved by `prefect deploy`: workers need no project variable of their own.
    assert retrain.pull_steps == [
        {"prefect.deployments.steps.set_working_directory": {"directory": str(PROJECT)}}
    ]
    assert retrain.global_concurrency_limit.limit == 1
    assert compare.schedules == []


def test_deployed_parameters_are_flat_described_and_offer_choices(deployed):
    from prefect import get_client

    with get_client(sync_client=True) as client:
        retrain = client.read_deployment_by_name("retrain/retrain-credit-scoring")
        compare = client.read_deployment_by_name("method-comparison/compare-benchmark")
    retrain_fields = retrain.parameter_openapi_schema["properties"]
    compare_fields = compare.parameter_openapi_schema["properties"]
    assert "params" not in retrain_fields and {"dataset", "candidates", "max_rows"} <= set(retrain_fields)
    assert not {"tracking_uri", "cache_dir"} & (set(retrain_fields) | set(compare_fields))
    assert all(field.get("description") for field in [*retrain_fields.values(), *compare_fields.values()])
    assert {"credit-scoring", "direct-marketing", "card-fraud"} <= set(retrain_fields["dataset"]["enum"])
    assert "wisconsin" not in retrain_fields["dataset"]["enum"]  # no example-dependent costs
    assert {"csdt", "adacc1", "bmr-lr"} <= set(retrain_fields["candidates"]["items"]["enum"])
    assert {"pima", "wisconsin"} <= set(compare_fields["datasets"]["items"]["enum"])
    assert compare_fields["protocol"]["enum"] == ["cv", "holdout", "tvt"]
    assert compare_fields["experiment"]["pattern"] and compare_fields["cell_store"]["pattern"]
    # The form: no "None" branch to toggle (empty means the default, as each description says); methods is
    # a plain multi-select; the module paths of the code are not the user's language.
    fields = [*retrain_fields.values(), *compare_fields.values()]
    assert not [field for field in fields if "anyOf" in field or field.get("type") == "null"]
    assert compare_fields["methods"]["type"] == "array" and compare_fields["methods"]["items"]["enum"]
    assert "Leave empty to compare every method" in compare_fields["methods"]["description"]
    descriptions = " ".join(field["description"] for field in fields)
    assert not re.search(r"tasks\.|algorithms\.|DEFAULT_|_PATTERN", descriptions)
    assert not [field for field in fields if field.get("default", "") is None]  # the form would send null
    from tasks.config.flow_parameters import default_comparison_size

    assert f"fits {default_comparison_size()}" in compare.description  # the cost of pressing Run


def test_deployment_run_param_overrides_one_field(deployed):
    from prefect import get_client

    completed = _prefect(
        "deployment",
        "run",
        "retrain/retrain-credit-scoring",
        "--param",
        "max_rows=20000",
        "--start-in",
        "1 hour",  # created and scheduled, never picked up here
    )
    (flow_run_id,) = re.findall(r"UUID: ([0-9a-f-]{36})", completed.stdout)
    with get_client(sync_client=True) as client:
        flow_run = client.read_flow_run(flow_run_id)
        client.delete_flow_run(flow_run_id)
    assert flow_run.parameters == {"dataset": "credit-scoring", "max_rows": 20000}

    refused = _prefect(
        "deployment", "run", "retrain/retrain-credit-scoring", "--param", "max_rows=5", check=False
    )
    assert refused.returncode != 0
    assert "max_rows" in refused.stdout + refused.stderr


@pytest.mark.parametrize(
    ("deployment", "parameters", "named"),
    [
        ("retrain/retrain-credit-scoring", {"max_rows": 5}, "20"),
        ("retrain/retrain-credit-scoring", {"dataset": "credit-scorin"}, "credit-scorin"),
        ("retrain/retrain-credit-scoring", {"dataset": "wisconsin"}, "wisconsin"),
        ("retrain/retrain-credit-scoring", {"candidates": ["svm"]}, "svm"),
        ("retrain/retrain-credit-scoring", {"experiment": "../../../../../elsewhere"}, "elsewhere"),
        ("method-comparison/compare-benchmark", {"experiment": ".."}, ".."),
        ("method-comparison/compare-benchmark", {"cell_store": "/elsewhere"}, "/elsewhere"),
        ("method-comparison/compare-benchmark", {"cell_store": "cells/../../elsewhere"}, "elsewhere"),
        ("method-comparison/compare-benchmark", {"datasets": ["pima", "nope"]}, "nope"),
        ("method-comparison/compare-benchmark", {"protocol": "loo"}, "loo"),
        # issue 25, part 4: an unknown parameter (the run used to crash on the worker, the reason in its log)
        ("method-comparison/compare-benchmark", {"bogus": 1}, "'bogus' was unexpected"),
        ("retrain/retrain-credit-scoring", {"max_row": 100}, "'max_row' was unexpected"),
        # a negative cost (the run used to be retried three times, holding the concurrency slot) or a name
        # no cost model takes
        ("retrain/retrain-direct-marketing", {"cost_params": {"contact_cost": -1}}, "contact_cost"),
        ("retrain/retrain-direct-marketing", {"cost_params": {"contact_costs": 2}}, "contact_costs"),
    ],
)
def test_the_api_refuses_bad_parameters_before_any_run(deployed, deployment, parameters, named):
    from prefect.deployments import run_deployment
    from prefect.exceptions import PrefectHTTPStatusError

    with pytest.raises(PrefectHTTPStatusError, match="409") as refused:
        run_deployment(deployment, parameters=parameters, timeout=0)
    assert named in refused.value.response.text


def test_a_configuration_error_no_schema_expresses_fails_the_run_before_it_starts_and_is_not_retried(worker):
    """``alert_cost`` is a card-fraud cost parameter (the schema accepts it), not a direct-marketing one."""
    from prefect import get_client
    from prefect.deployments import run_deployment

    started = time.monotonic()
    flow_run = run_deployment(
        "retrain/retrain-direct-marketing",
        parameters={"cost_params": {"alert_cost": 5.0}},
        timeout=600,
        poll_interval=2,
    )
    elapsed = time.monotonic() - started
    with get_client(sync_client=True) as client:
        states = [state.type.value for state in client.read_flow_run_states(flow_run.id)]
    assert flow_run.state.is_failed(), f"{flow_run.state}\nworker log:\n{worker.read_text()[-4000:]}"
    assert flow_run.state.message == (
        "Validation of flow parameters failed with error: ParameterTypeError: cost_params ['alert_cost'] are "
        "not parameters of direct-marketing's cost model, which takes ['balance_column', 'contact_cost', "
        "'deposit_fraction', 'interest_spread']"
    )
    assert "RUNNING" not in states and states.count("FAILED") == 1, states  # never started, never retried
    assert elapsed < 240  # no retry two minutes later


def test_run_deployment_of_a_retrain_completes_and_sets_the_champion_alias(worker, mlflow_server):
    from prefect.deployments import run_deployment

    model_name = f"deployed-dm-{uuid.uuid4().hex[:8]}"
    params = {
        "dataset": "direct-marketing",
        "candidates": ["bmr-lr", "dt"],
        "max_rows": 2000,
        "model_name": model_name,
        "experiment": "deployed-retrain",
    }
    flow_run = run_deployment(
        "retrain/retrain-direct-marketing", parameters=params, timeout=600, poll_interval=2
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


def _deploy_test_deployment(tmp_path: Path, name: str, entrypoint: str, parameters: dict, schedules: list):
    """Deploy one test deployment from a file of its own (the real ``prefect.yaml``'s pull step and pool)."""
    config = yaml.safe_load((PROJECT / "prefect.yaml").read_text())
    config["deployments"] = [
        {
            "name": name,
            "entrypoint": entrypoint,
            "work_pool": {"name": POOL, "work_queue_name": "default"},
            "enforce_parameter_schema": True,
            "parameters": parameters,
            "schedules": schedules,
        }
    ]
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(config))
    _prefect("--no-prompt", "deploy", "--prefect-file", str(path), "--name", name)


def _wait_for_a_finished_run(client, deployment_id, timeout: float = 600.0):
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterId

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runs = client.read_flow_runs(
            deployment_filter=DeploymentFilter(id=DeploymentFilterId(any_=[deployment_id]))
        )
        finished = [run for run in runs if run.state is not None and run.state.is_final()]
        if finished:
            return finished[0], runs
        time.sleep(2)
    raise AssertionError(f"no run of deployment {deployment_id} finished in {timeout:.0f} s: {runs}")


def test_a_schedule_fires_and_the_worker_runs_it(worker, mlflow_server, tmp_path):
    from prefect import get_client

    name = f"retrain-every-15s-{uuid.uuid4().hex[:6]}"
    model_name = f"scheduled-{uuid.uuid4().hex[:8]}"
    parameters = {**QUICK, "model_name": model_name, "experiment": "scheduled-retrain"}
    _deploy_test_deployment(
        tmp_path, name, "flows/retrain.py:retrain", parameters, [{"interval": 15, "active": True}]
    )
    with get_client(sync_client=True) as client:
        deployment = client.read_deployment_by_name(f"retrain/{name}")
        try:
            flow_run, runs = _wait_for_a_finished_run(client, deployment.id)
        finally:
            client.delete_deployment(deployment.id)  # no further runs
    log = worker.read_text()
    assert flow_run.state.is_completed(), f"{flow_run.state}\nworker log:\n{log[-4000:]}"
    assert flow_run.auto_scheduled  # created by the server's scheduler, not by a caller
    assert str(flow_run.id) in log  # executed by this worker
    assert MlflowClient(mlflow_server).get_model_version_by_alias(model_name, "champion").version == "1"


def test_a_failing_scheduled_retrain_runs_three_times_and_ends_failed(worker, tmp_path):
    from prefect import get_client

    name = f"retrain-failing-{uuid.uuid4().hex[:6]}"
    parameters = {**QUICK, "method_params": {"dt": {"max_depth": -1}}, "experiment": "failing-retrain"}
    _deploy_test_deployment(
        tmp_path, name, "tests/flows/deployable.py:quickly_retried_retrain", parameters, []
    )
    from prefect.deployments import run_deployment

    flow_run = run_deployment(f"retrain/{name}", timeout=900, poll_interval=2)
    with get_client(sync_client=True) as client:
        states = [state.type.value for state in client.read_flow_run_states(flow_run.id)]
        client.delete_deployment(flow_run.deployment_id)
    assert flow_run.state.is_failed(), f"{flow_run.state}\nworker log:\n{worker.read_text()[-4000:]}"
    assert flow_run.run_count == 3 and states.count("RUNNING") == 3
    assert "every candidate failed on direct-marketing" in flow_run.state.message
    assert "max_depth" in flow_run.state.message
