"""MLflow plumbing on a real sqlite tracking store (tasks.tracking.mlflow_runs)."""

from __future__ import annotations

import signal
import tempfile
from pathlib import Path

import pandas as pd
import platformdirs
import pytest
from prefect.exceptions import TerminationSignal

from tasks import storage
from tasks.compare.cell_compute import default_cell_store
from tasks.tracking import mlflow_runs


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("mlflow")
    uri = f"sqlite:///{root / 'mlflow.db'}"
    client = mlflow_runs.tracking_client(uri)
    experiment_id = mlflow_runs.ensure_experiment(
        client, "unit", artifact_location=(root / "artifacts").as_uri()
    )
    return uri, client, experiment_id


def test_default_store_is_in_the_state_folder_unless_overridden(monkeypatch, tmp_path):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.setenv("CSLEARN_HOME", str(tmp_path / "home"))
    assert mlflow_runs.default_tracking_uri() == f"sqlite:///{tmp_path}/home/mlflow/mlflow.db"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "http://127.0.0.1:5999")
    assert mlflow_runs.default_tracking_uri() == "http://127.0.0.1:5999"


def test_state_stays_out_of_the_source_tree(monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.delenv("CSLEARN_HOME", raising=False)
    default = storage.state_home()
    assert default == Path(platformdirs.user_data_dir("cslearn")).resolve()
    assert not default.is_relative_to(mlflow_runs.SOURCE_ROOT)
    assert mlflow_runs.default_tracking_uri() == f"sqlite:///{default}/mlflow/mlflow.db"
    assert default_cell_store() == default / "cells"


def test_the_tests_never_touch_the_users_state():
    assert storage.state_home() != Path(platformdirs.user_data_dir("cslearn")).resolve()
    assert Path(tempfile.gettempdir()).resolve() in storage.state_home().parents


def test_artifacts_live_beside_the_sqlite_store_they_belong_to(tmp_path):
    assert mlflow_runs.artifact_root(f"sqlite:///{tmp_path}/a/mlflow.db") == tmp_path / "a" / "artifacts"
    assert mlflow_runs.artifact_root("http://127.0.0.1:5999") is None
    assert (
        mlflow_runs.artifact_root(f"file://{tmp_path}/mlruns") is None
    )  # MLflow keeps them inside the store


def test_experiments_are_created_once_with_an_absolute_artifact_location(store, tmp_path):
    uri, client, experiment_id = store
    assert mlflow_runs.ensure_experiment(client, "unit") == experiment_id
    created = mlflow_runs.ensure_experiment(client, "second")
    location = client.get_experiment(created).artifact_location
    assert location == (Path(uri.removeprefix("sqlite:///")).parent / "artifacts" / "second").as_uri()
    client.delete_experiment(created)
    with pytest.raises(ValueError, match="experiment 'second' is deleted"):
        mlflow_runs.ensure_experiment(client, "second")


OUTCOMES = [
    (None, "FINISHED"),
    (RuntimeError("boom"), "FAILED"),
    (KeyboardInterrupt(), "KILLED"),
    (SystemExit(143), "KILLED"),
    (TerminationSignal(signal.SIGTERM), "KILLED"),  # what Prefect raises in a flow run told to stop
]


@pytest.mark.parametrize(("error", "status"), OUTCOMES)
def test_tracked_run_never_reports_an_unfinished_run_as_finished(store, error, status):
    _, client, experiment_id = store
    run_ids = []
    try:
        with mlflow_runs.tracked_run(
            client, experiment_id, run_name="r", tags={"a": 1, "skipped": None}
        ) as run_id:
            run_ids.append(run_id)
            assert client.get_run(run_id).info.status == "RUNNING"
            if error is not None:
                raise error
    except BaseException as raised:
        assert raised is error
    run = client.get_run(run_ids[0])
    assert run.info.status == status
    assert run.data.tags["a"] == "1" and "skipped" not in run.data.tags


@pytest.mark.parametrize(("error", "status"), OUTCOMES)
def test_a_parent_run_is_tagged_given_its_params_and_always_ended(tmp_path, error, status):
    uri = f"sqlite:///{tmp_path / 'store' / 'mlflow.db'}"
    runs = []
    try:
        with mlflow_runs.parent_run(
            uri,
            "flows",
            run_name="compare x",
            purpose="compare",
            fingerprints={"pima": "f" * 64},
            tags={"cslearn.holdout_key": "k"},
            params={"seed": 3},
        ) as run:
            runs.append(run)
            assert run.tracking_uri == uri
            if error is not None:
                raise error
    except BaseException as raised:
        assert raised is error
    client = mlflow_runs.tracking_client(uri)
    logged = client.get_run(runs[0].run_id)
    assert logged.info.status == status and logged.info.run_name == "compare x"
    assert client.get_experiment(runs[0].experiment_id).artifact_location == (
        (tmp_path / "store" / "artifacts" / "flows").as_uri()
    )
    tags = logged.data.tags
    assert tags["cslearn.purpose"] == "compare" and tags["cslearn.holdout_key"] == "k"
    assert tags["dataset.pima.fingerprint"] == "f" * 64
    assert tags["git.commit"] == tags["mlflow.source.git.commit"] == mlflow_runs.git_commit()
    assert "prefect.flow_run_id" not in tags  # outside a flow run there is none: not tagged "None"
    assert logged.data.params == {"seed": "3"}


@pytest.mark.servers
def test_flow_run_tags_name_the_prefect_flow_run(prefect_server):
    from prefect import flow

    @flow
    def tagged():
        from prefect.runtime import flow_run

        return flow_run.get_id(), mlflow_runs.flow_run_tags("retrain", {"d": "f"}, {"extra": 1})

    flow_run_id, tags = tagged()
    assert tags["prefect.flow_run_id"] == flow_run_id and tags["prefect.parent_flow_run_id"] is None
    assert tags["cslearn.purpose"] == "retrain" and tags["dataset.d.fingerprint"] == "f"
    assert tags["extra"] == 1


def test_child_run_content_times_files_and_link_to_the_parent(store, tmp_path):
    uri, client, experiment_id = store
    with mlflow_runs.tracked_run(client, experiment_id, run_name="parent") as parent_id:
        child_id = mlflow_runs.log_child_run(
            uri,
            experiment_id,
            parent_id,
            run_name="d / m",
            params={"method": "m", "n_estimators": [25, 50], "class_weight": None, "grid": {"a": 1}},
            metrics={"mean/f1": 0.75},
            curves={"round/alpha": [0.9, 0.5, 0.1]},
            step_metrics={"by_T/f1": {25: 0.6, 50: 0.75}},
            tags={"dataset": "d"},
            files={"results/folds.csv": b"fold,f1\n0,0.7\n", "figures/summary.png": b"\x89PNG"},
            times=(1_700_000_000_000, 1_700_000_004_500),
        )
        failed_id = mlflow_runs.log_child_run(
            uri, experiment_id, parent_id, run_name="d / bad", params={}, metrics={}, failed=True
        )
    child = client.get_run(child_id)
    assert child.info.status == "FINISHED" and client.get_run(failed_id).info.status == "FAILED"
    assert (child.info.start_time, child.info.end_time) == (1_700_000_000_000, 1_700_000_004_500)
    assert child.data.tags["mlflow.parentRunId"] == parent_id and child.data.tags["dataset"] == "d"
    assert child.data.params == {
        "method": "m",
        "n_estimators": "25, 50",
        "class_weight": "none",
        "grid": "a=1",
    }
    assert child.data.metrics["mean/f1"] == 0.75
    folder = client.download_artifacts(child_id, "", str(tmp_path))
    assert (tmp_path / "results" / "folds.csv").read_bytes() == b"fold,f1\n0,0.7\n" and folder

    def history(key):
        return [(metric.step, metric.value) for metric in client.get_metric_history(child_id, key)]

    assert history("round/alpha") == [(1, 0.9), (2, 0.5), (3, 0.1)]
    assert sorted(history("by_T/f1")) == [(25, 0.6), (50, 0.75)]


def test_parameters_are_plain_strings():
    assert mlflow_runs.plain_param("SAMME") == "SAMME"
    assert mlflow_runs.plain_param((25, 50)) == "25, 50" and mlflow_runs.plain_param(["a", "b"]) == "a, b"
    assert mlflow_runs.plain_param(None) == "none" and mlflow_runs.plain_param(True) == "true"
    assert (
        mlflow_runs.plain_param({"adaboost": {"n_estimators": 5}, "dt": {}})
        == "adaboost(n_estimators=5); dt()"
    )
    assert mlflow_runs.plain_param({}) == "none" and mlflow_runs.plain_param(0.1) == "0.1"


def test_metrics_and_params_beyond_one_batch(store):
    _, client, experiment_id = store
    with mlflow_runs.tracked_run(client, experiment_id, run_name="big") as run_id:
        mlflow_runs.log_metrics(client, run_id, {f"m{i}": float(i) for i in range(1500)})
        mlflow_runs.log_params(client, run_id, {f"p{i}": "x" * 7000 for i in range(150)})
        mlflow_runs.log_curves(client, run_id, {"curve": list(range(1200))})
    run = client.get_run(run_id)
    assert len(run.data.metrics) == 1501 and run.data.metrics["m1499"] == 1499.0
    assert len(run.data.params) == 150 and len(run.data.params["p0"]) == 6000
    assert len(client.get_metric_history(run_id, "curve")) == 1200


def test_tables_are_logged_as_csv_and_parquet(store, tmp_path):
    _, client, experiment_id = store
    frame = pd.DataFrame({"method": ["a", "b"], "f1": [0.5, 0.25]})
    with mlflow_runs.tracked_run(client, experiment_id, run_name="tables") as run_id:
        paths = mlflow_runs.log_table(client, run_id, frame, "results")
    assert paths == ["results/results.csv", "results/results.parquet"]
    local = client.download_artifacts(run_id, "results", str(tmp_path))
    pd.testing.assert_frame_equal(pd.read_csv(f"{local}/results.csv"), frame)
    pd.testing.assert_frame_equal(pd.read_parquet(f"{local}/results.parquet"), frame)


def test_end_run_rejects_a_non_terminal_status(store):
    _, client, experiment_id = store
    with mlflow_runs.tracked_run(client, experiment_id, run_name="s") as run_id:
        with pytest.raises(ValueError, match="FINISHED, FAILED or KILLED, got 'RUNNING'"):
            mlflow_runs.end_run(client, run_id, "RUNNING")


def test_git_commit_of_the_work_tree(tmp_path):
    commit = mlflow_runs.git_commit()
    assert commit is None or len(commit) == 40
    assert mlflow_runs.git_commit(tmp_path) is None
