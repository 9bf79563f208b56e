"""No credential and no path outside the project's folders escapes (issue 11, points 1 and 2).

The end-to-end case runs ``cslearn compare --tracking-uri http://alice:s3cret@127.0.0.1:PORT`` as a user would
(a subprocess, against the fixture Prefect server) on a real MLflow server with basic authentication whose
only user is alice: the run succeeds (the credentials did reach MLflow), and the password appears nowhere:
not on stdout or stderr, not in any MLflow run's parameters or tags, not in Prefect's database.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from mlflow import MlflowClient
from pydantic import ValidationError

from flows.cli import main
from flows.compare import run_compare
from schemas.flow_params import CompareParams, RetrainParams
from tasks.compare.cell_compute import cell_store_folder
from tasks.config.checks import validate_params
from tasks.config.flow_parameters import logged_params, machine_environment
from tasks.storage import inside, state_home
from tasks.tracking.credentials import PASSWORD_VARIABLE, USERNAME_VARIABLE, redact_uri, use_uri_credentials
from tasks.tracking.mlflow_runs import ensure_experiment, tracking_client
from tests import conftest
from tests.servers import launch_mlflow_server

PROJECT = Path(__file__).resolve().parents[2]
SECRET = "s3cret-staple-battery"  # MLflow's auth app wants 12 characters or more
NEEDLE = b"s3cret"  # what must appear nowhere


def test_redact_uri_hides_user_info_only():
    assert redact_uri("http://alice:s3cret@127.0.0.1:5055/path?q=1") == "http://***@127.0.0.1:5055/path?q=1"
    assert redact_uri("https://token@mlflow.example.com") == "https://***@mlflow.example.com"
    for plain in ("http://127.0.0.1:5055", "sqlite:////tmp/x/mlflow.db", "databricks"):
        assert redact_uri(plain) == plain


def test_use_uri_credentials_moves_them_to_mlflow_variables(monkeypatch):
    monkeypatch.delenv(USERNAME_VARIABLE, raising=False)
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    assert use_uri_credentials("http://127.0.0.1:5055") == "http://127.0.0.1:5055"
    assert USERNAME_VARIABLE not in os.environ
    assert use_uri_credentials("http://al%40ice:s3%3Acret@127.0.0.1:5055/x") == "http://127.0.0.1:5055/x"
    assert (os.environ[USERNAME_VARIABLE], os.environ[PASSWORD_VARIABLE]) == ("al@ice", "s3:cret")
    assert use_uri_credentials(None) is None


def test_models_refuse_a_uri_with_credentials_without_repeating_it():
    for model, extra in ((CompareParams, {}), (RetrainParams, {"dataset": "credit-scoring"})):
        with pytest.raises(ValidationError) as caught:
            model(tracking_uri=f"http://alice:{SECRET}@127.0.0.1:5055", **extra)
        message = str(caught.value)
        assert "carries credentials" in message and "MLFLOW_TRACKING_USERNAME" in message
        assert SECRET not in message


def test_logged_params_hold_no_machine_setting_and_a_relative_cell_store(monkeypatch):
    params = validate_params(
        CompareParams, {"tracking_uri": "http://127.0.0.1:1", "cell_store": str(state_home() / "mine")}
    )
    logged = logged_params(params)
    assert "tracking_uri" not in logged and logged["cell_store"] == "mine"
    retrain = RetrainParams(dataset="credit-scoring", cache_dir="/data/cache", tracking_uri="http://h:1")
    assert not {"tracking_uri", "cache_dir"} & set(logged_params(retrain))


def test_machine_environment_sets_and_restores_the_variables(monkeypatch):
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "http://before:1")
    monkeypatch.delenv("CSLEARN_CACHE", raising=False)
    params = RetrainParams(dataset="credit-scoring", cache_dir="/data/cache", tracking_uri="http://during:2")
    with machine_environment(params):
        assert os.environ["MLFLOW_TRACKING_URI"] == "http://during:2"
        assert os.environ["CSLEARN_CACHE"] == "/data/cache"
    assert os.environ["MLFLOW_TRACKING_URI"] == "http://before:1" and "CSLEARN_CACHE" not in os.environ


# ---- paths stay under their roots (issue 11, point 2) --------------------------------------------------


@pytest.mark.parametrize(
    "name", ["../../../../../elsewhere", "..", ".", "a/b", "/abs", "x" * 101, "sp ace", ""]
)
def test_unsafe_experiment_names_are_refused_with_the_rule(name):
    with pytest.raises(ValidationError, match="experiment") as caught:
        validate_params(CompareParams, {"experiment": name})
    if name:
        assert "letters, digits, '.', '_' and '-'" in str(caught.value)


@pytest.mark.parametrize("folder", ["/elsewhere", "../elsewhere", "cells/../../elsewhere", "a//b", "./x"])
def test_cell_stores_outside_the_state_folder_are_refused(folder):
    with pytest.raises(ValidationError, match=r"must be a folder inside \$CSLEARN_HOME"):
        validate_params(CompareParams, {"cell_store": folder})


def test_a_symlink_out_of_the_state_folder_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    link = state_home() / f"link-{uuid.uuid4().hex[:8]}"
    state_home().mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside, target_is_directory=True)
    try:
        params = validate_params(CompareParams, {"cell_store": f"{link.name}/cells"})  # the name is fine ...
        with pytest.raises(ValueError, match="outside"):
            cell_store_folder(params.cell_store)  # ... but where it resolves is not
    finally:
        link.unlink()
    assert cell_store_folder("a/b") == state_home() / "a" / "b"
    with pytest.raises(ValueError, match="outside"):
        inside(tmp_path, "../x")


def test_ensure_experiment_keeps_artifacts_under_the_store(tmp_path):
    client = tracking_client(f"sqlite:///{tmp_path / 'mlflow.db'}")
    with pytest.raises(ValueError, match="outside"):
        ensure_experiment(client, "../../elsewhere")
    assert client.get_experiment_by_name("../../elsewhere") is None
    assert not (tmp_path.parent / "elsewhere").exists()


def test_the_command_line_refuses_escaping_names_with_exit_status_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    good = tmp_path / "good.csv"
    good.write_text("a,b,y\n1,2,0\n2,3,1\n3,4,0\n4,5,1\n")
    for name in ("../pima", "/elsewhere/abs", "..", "a/b"):
        assert main(["datasets", "ingest", str(good), "--target", "y", "--name", name]) == 2
        assert f"--name: {name!r} is not a valid dataset name" in capsys.readouterr().err
    assert not (tmp_path / "cache" / "datasets").exists()
    assert not Path("/elsewhere").exists()

    assert main(["compare", "--experiment", "../../../../../elsewhere", "--cell-store", "/elsewhere"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "cslearn compare: invalid configuration"
    assert any(line.startswith("  --experiment: ") and "is not a safe name" in line for line in err)
    assert any(line.startswith("  --cell-store: ") and "inside $CSLEARN_HOME" in line for line in err)
    assert main(["retrain", "credit-scoring", "--experiment", "../x"]) == 2
    assert "is not a safe name" in capsys.readouterr().err


def test_run_compare_refuses_credentials_before_any_work(mlflow_server):
    with pytest.raises(ValidationError, match="carries credentials"):
        run_compare({"tracking_uri": mlflow_server.replace("http://", f"http://alice:{SECRET}@")})


# ---- end to end: a password in the tracking URI leaks nowhere -------------------------------------------


@pytest.fixture(scope="module")
def authenticated_mlflow(tmp_path_factory):
    """A real MLflow server with basic authentication whose only user is alice (password :data:`SECRET`)."""
    server = launch_mlflow_server(tmp_path_factory.mktemp("mlflow-auth"), admin=("alice", SECRET))
    try:
        yield server.wait_until_healthy()
    finally:
        server.stop()


def _prefect_database_files() -> list[Path]:
    home = conftest._servers["prefect"].log_path.parent
    return [path for path in home.rglob("*") if path.is_file() and path.name != "server.log"]


@pytest.mark.slow
def test_a_password_in_the_tracking_uri_leaks_nowhere(prefect_server, authenticated_mlflow, monkeypatch):
    unauthenticated = httpx.get(f"{authenticated_mlflow}/api/2.0/mlflow/experiments/search?max_results=1")
    assert unauthenticated.status_code == 401
    uri = authenticated_mlflow.replace("http://", f"http://alice:{SECRET}@")  # the URI
    experiment = f"secrets-{uuid.uuid4().hex[:8]}"
    store = f"test-cells/secrets-{uuid.uuid4().hex[:8]}"
    arguments = ["compare", "--datasets", "wisconsin", "--methods", "dt,adaboost", "--repeats", "1"]
    arguments += ["--folds", "2", "--n-estimators", "3", "--tracking-uri", uri, "--experiment", experiment]
    arguments += ["--cell-store", str(state_home() / store), "--no-progress"]
    env = {key: value for key, value in os.environ.items() if not key.startswith("MLFLOW_TRACKING_")}
    outputs = []
    for extra in (["--json"], []):
        completed = subprocess.run(
            [sys.executable, "-m", "flows.cli", *arguments, *extra],
            cwd=PROJECT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert completed.returncode == 0, completed.stderr[-4000:]
        outputs.append(completed)
        assert NEEDLE.decode() not in completed.stdout + completed.stderr
    document = json.loads(outputs[0].stdout)
    assert document["tracking_uri"] == authenticated_mlflow  # the bare URI
    assert "cells: 4 total, 4 resumed, 0 computed" in outputs[1].stdout

    monkeypatch.setenv("MLFLOW_TRACKING_USERNAME", "alice")
    monkeypatch.setenv("MLFLOW_TRACKING_PASSWORD", SECRET)
    client = MlflowClient(authenticated_mlflow)
    experiment_id = client.get_experiment_by_name(experiment).experiment_id
    runs = client.search_runs([experiment_id])
    assert len(runs) >= 3  # a parent and a child per method (a resume may add or link runs)
    for run in runs:
        recorded = json.dumps({"params": run.data.params, "tags": run.data.tags})
        assert NEEDLE.decode() not in recorded and "tracking_uri" not in run.data.params
        assert str(state_home()) not in recorded  # no absolute local path
    parents = [run for run in runs if "mlflow.parentRunId" not in run.data.tags]
    assert {parent.data.params["cell_store"] for parent in parents} == {store}

    conftest._flush_prefect_logs()
    files = _prefect_database_files()
    assert any(path.suffix == ".db" for path in files)
    for path in files:
        assert NEEDLE not in path.read_bytes(), f"{NEEDLE!r} found in {path}"


def test_report_with_a_password_in_the_uri_names_the_run_not_the_password(
    authenticated_mlflow, capsys, monkeypatch
):
    for variable in (USERNAME_VARIABLE, PASSWORD_VARIABLE):
        monkeypatch.setenv(variable, "")  # restored afterwards: the command sets them for its process
    uri = authenticated_mlflow.replace("http://", f"http://alice:{SECRET}@")
    assert main(["report", "0" * 32, "--tracking-uri", uri]) == 2
    err = capsys.readouterr().err
    assert f"no MLflow run '{'0' * 32}'" in err and NEEDLE.decode() not in err
    assert "not found" in err  # it authenticated: the run was looked up, not refused (401)
