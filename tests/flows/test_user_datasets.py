"""A user's own file with cost columns, end to end through the command line: ingest, compare, retrain."""

from __future__ import annotations

import json
import uuid

import numpy as np
import pytest
from mlflow import MlflowClient

from flows.cli import main
from tasks.datasets import load_dataset
from tasks.model_registry import prepare_retrain_data
from tasks.storage import state_home
from tests.user_data import PAYMENT_COST_COLUMNS, write_payments_csv

pytestmark = pytest.mark.servers


def test_ingest_compare_and_retrain_a_csv_with_cost_columns(
    prefect_server, mlflow_server, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    source = write_payments_csv(tmp_path / "payments.csv")
    assert (
        main(
            [
                "datasets",
                "ingest",
                str(source),
                "--target",
                "fraud",
                "--positive",
                "yes",
                "--cost-columns",
                ",".join(PAYMENT_COST_COLUMNS),
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["name"] == "payments"

    status = main(
        [
            "compare",
            "--datasets",
            "payments",
            "--methods",
            "csdt,bmr-dt,adaboost",
            "--protocol",
            "holdout",
            "--repeats",
            "2",
            "--n-estimators",
            "5",
            "--tracking-uri",
            mlflow_server,
            "--experiment",
            f"user-{tmp_path.name}",
            "--cell-store",
            str(state_home() / "test-cells" / tmp_path.name),
            "--json",
        ]
    )
    compared = json.loads(capsys.readouterr().out)
    assert status == 0 and compared["cells"] == {"total": 6, "resumed": 0, "computed": 6, "failed": 0}
    savings = {row["method"]: row["savings_mean"] for row in compared["summary"]}
    assert set(savings) == {"csdt", "bmr-dt", "adaboost"}
    # the costs reached the cells: the cost-sensitive methods save money, the cost-blind one does worse
    assert (
        savings["bmr-dt"] > 0 and savings["csdt"] > 0 and savings["adaboost"] < min(savings.values()) + 1e-9
    )
    stored = [
        json.loads(path.read_text()) for path in (state_home() / "test-cells" / tmp_path.name).rglob("*.json")
    ]
    assert {tuple(cell["cost_columns"]) for cell in stored} == {PAYMENT_COST_COLUMNS}

    model_name = f"payments-{uuid.uuid4().hex[:8]}"
    status = main(
        [
            "retrain",
            "payments",
            "--candidates",
            "csdt",
            "bmr-dt",
            "--tracking-uri",
            mlflow_server,
            "--model-name",
            model_name,
            "--json",
        ]
    )
    retrained = json.loads(capsys.readouterr().out)
    assert status == 0
    assert retrained["best"] in {"csdt", "bmr-dt"} and retrained["alias"] == "champion"
    assert retrained["candidates"][retrained["best"]] == max(retrained["candidates"].values())

    data = prepare_retrain_data(load_dataset("payments"), seed=0, holdout_fraction=0.3)
    assert retrained["holdout_key"] == data.holdout_key and data.cost_model is None
    assert np.array_equal(data.holdout_costs[:, 1], data.holdout_features["amount"].to_numpy())
    parent = MlflowClient(mlflow_server).get_run(retrained["parent_run_id"])
    assert parent.info.status == "FINISHED"
    assert parent.data.params["cost_columns"] == ",".join(PAYMENT_COST_COLUMNS)


def test_retrain_refuses_a_user_dataset_without_cost_columns(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    plain = tmp_path / "plain.csv"
    plain.write_text("a,y\n" + "".join(f"{i},{'yes' if i % 5 == 0 else 'no'}\n" for i in range(40)))
    assert main(["datasets", "ingest", str(plain), "--target", "y"]) == 0
    capsys.readouterr()
    assert main(["retrain", "plain"]) == 2
    assert "DATASET: dataset 'plain' is not a business dataset (one with example-dependent costs" in (
        capsys.readouterr().err
    )
