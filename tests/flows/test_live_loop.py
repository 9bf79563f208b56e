"""The live loop end to end on small data, against the real Prefect and MLflow servers of the fixtures.

A folder of transaction batches is bound as a dataset (time column ``ts``, the card-fraud cost model on
``Amount``). Then, as the deployments would run it: refresh + retrain (first champion, out of time); a
refresh with one bad batch (the champion stays, the flow run is Failed and names the batch); the batch
fixed, a retrain that judges the challenger by the paired bootstrap; scoring the newest unlabelled batch
(twice: its rows are replaced, not duplicated); monitoring a drifted batch, which starts the dataset's
retrain deployment.
"""

from __future__ import annotations

import uuid

import numpy as np
import pandas as pd
import pytest
from mlflow import MlflowClient

from flows.monitor import run_monitor
from flows.refresh_retrain import refresh_and_retrain
from flows.score import run_score
from schemas.flow_params import LiveRetrainParams
from tasks.config.flow_parameters import flow_arguments
from tasks.datasets.live import BindOptions, bind_source
from tasks.datasets.user_files import UserFileOptions

pytestmark = pytest.mark.servers


def _batch(index: int, rows: int = 400, shift: float = 0.0) -> pd.DataFrame:
    rng = np.random.default_rng(index)
    x = rng.normal(shift, 1, rows)
    fraud = (rng.random(rows) < 1 / (1 + np.exp(-(2 * x - 2.5)))).astype(int)
    return pd.DataFrame(
        {
            "ts": np.arange(index * rows, (index + 1) * rows, dtype=float),
            "x": x,
            "Amount": rng.uniform(1, 200, rows).round(2),
            "kind": rng.choice(["a", "b"], rows),
            "fraud": fraud,
        }
    )


def test_refresh_retrain_score_monitor_and_the_automatic_retrain(
    prefect_server, mlflow_server, tmp_path, monkeypatch
):
    monkeypatch.setenv("MLFLOW_TRACKING_URI", mlflow_server)
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))  # the dataset stays out of the session's
    name = f"live-{uuid.uuid4().hex[:6]}"
    source = tmp_path / "exports"
    source.mkdir()
    for index in range(3):
        _batch(index).to_parquet(source / f"tx-{index:03d}.parquet")
    bind_source(
        str(source / "*.parquet"),
        options=BindOptions(UserFileOptions(target="fraud"), time_column="ts", cost_model="card-fraud"),
        name=name,
    )
    params = LiveRetrainParams(dataset=name, candidates=("bmr-lr", "dt"), holdout_window="0.3")
    model_name = params.registered_model_name

    first = refresh_and_retrain(**flow_arguments(params))
    assert first["action"] == "retrained" and first["alias"] == "champion" and first["version"] == "1"
    client = MlflowClient(mlflow_server)
    assert first["model_name"] == model_name, first["model_name"]
    assert client.get_model_version_by_alias(model_name, "champion").version == "1"
    (dataset_input,) = client.get_run(first["parent_run_id"]).inputs.dataset_inputs
    assert {tag.key: tag.value for tag in dataset_input.tags}["cslearn.dataset_version"] == "1"

    nothing = refresh_and_retrain(**flow_arguments(params))
    assert nothing["refresh"]["added_rows"] == 0, nothing["refresh"]
    assert nothing["action"] == "nothing new", {k: nothing.get(k) for k in ("reason", "version", "outcome")}

    _batch(3).drop(columns="kind").to_parquet(source / "tx-003.parquet")  # another schema
    _batch(4).to_parquet(source / "tx-004.parquet")
    refused = refresh_and_retrain(**flow_arguments(params), return_state=True)
    assert refused.is_failed()
    assert "1 batch(es) refused, so the champion stays in place" in refused.message
    assert "tx-003.parquet has another schema: it lacks column(s) ['kind']" in refused.message
    assert client.get_model_version_by_alias(model_name, "champion").version == "1"

    (source / "tx-003.parquet").unlink()
    second = refresh_and_retrain(**flow_arguments(params))
    assert second["action"] == "retrained" and second["refresh"]["version"] == 2
    assert second["margin"] is not None and second["confidence"] == 0.95
    description = client.get_model_version(model_name, second["version"]).description
    assert "Better by more than the noise? savings difference" in description

    incoming = tmp_path / "incoming"
    incoming.mkdir()
    _batch(5).drop(columns="fraud").to_parquet(incoming / "new-001.parquet")
    score = {
        "dataset": name,
        "input": str(incoming / "*.parquet"),
        "output": str(tmp_path / "scores.parquet"),
        "newest": True,
        "keep_columns": ("ts",),
    }
    scored = run_score(score)
    run_score(score)
    stored = pd.read_parquet(tmp_path / "scores.parquet")
    assert scored["rows"] == 400 and len(stored) == 400  # scored twice, stored once
    assert {"decision", "probability", "expected_cost", "C_FP", "C_FN", "C_TP", "C_TN", "ts"} <= set(stored)
    run = client.get_run(scored["run_id"])
    assert (
        run.data.metrics["rows"] == 400 and run.data.tags["cslearn.model_version"] == scored["model_version"]
    )

    from prefect import get_client

    deployment = f"retrain-{uuid.uuid4().hex[:6]}"
    with get_client(sync_client=True) as prefect:
        flow_id = prefect.create_flow_from_name("refresh-and-retrain")
        deployment_id = prefect.create_deployment(
            flow_id, deployment, entrypoint="flows/live.py:refresh_and_retrain"
        )
    _batch(6, shift=2.0).to_parquet(source / "tx-006.parquet")  # drift in x: the newest accepted batch
    refresh_and_retrain(**flow_arguments(params))
    watched = run_monitor(
        {"dataset": name, "retrain_deployment": f"refresh-and-retrain/{deployment}", "psi_threshold": 0.25}
    )
    assert "x" in watched["drifted_features"] and "Amount" not in watched["drifted_features"]
    assert watched["realized_savings"] is not None and watched["step"] == 1
    assert watched["retrain"]["triggered"] and "feature(s) drifted (x" in watched["retrain"]["reasons"][0]
    with get_client(sync_client=True) as prefect:
        started = prefect.read_flow_run(watched["retrain"]["flow_run_id"])
        prefect.delete_deployment(deployment_id)
    assert started.parameters == {"dataset": name} and str(started.deployment_id) == str(deployment_id)
    history = client.get_metric_history(watched["run_id"], "psi/x")
    assert [metric.step for metric in history] == [1] and history[0].value >= 0.25
