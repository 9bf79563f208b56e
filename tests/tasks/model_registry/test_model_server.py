"""The registered champion served by ``mlflow models serve`` on 127.0.0.1 and asked over REST.

For each business dataset (a stratified row cap keeps it quick) a Bayes minimum risk model is fit with the
training costs, logged with its cost model, registered as champion and served; the holdout's raw rows are
posted to ``/invocations`` (``dataframe_split``) as a user has them (``"job": "blue-collar"``, not one-hot
columns: the model holds the dataset's encoding, and its signature is the raw schema) without any cost.
The served costs are the holdout's (derived
from income / debt ratio, balance or amount by the cost model fit on the training rows), the served decisions
equal the in-process ones, and their savings equal the savings logged at registration.
"""

from __future__ import annotations

import uuid

import httpx
import numpy as np
import pandas as pd
import pytest
from mlflow import MlflowClient

from algorithms.metrics import COST_COLUMNS, savings_score
from tasks.datasets import load_dataset
from tasks.datasets.encoding import RawEncoding
from tasks.model_registry import (
    fit_and_log_candidate,
    load_cost_aware_model,
    prepare_retrain_data,
    register_and_promote,
)
from tasks.tracking.mlflow_runs import ensure_experiment, start_run
from tests.servers import launch_model_server

pytestmark = pytest.mark.servers

#: Row caps: enough positives for calibration folds (card fraud has 0.17 % frauds).
MAX_ROWS = {"direct-marketing": 3000, "credit-scoring": 4000, "card-fraud": 20000}


def _invoke(url: str, frame: pd.DataFrame) -> pd.DataFrame:
    body = {"dataframe_split": frame.to_dict(orient="split")}
    response = httpx.post(f"{url}/invocations", json=body, timeout=300)
    assert response.status_code == 200, response.text[-2000:]
    return pd.DataFrame(response.json()["predictions"])


@pytest.mark.parametrize(
    "dataset",
    [
        "direct-marketing",
        pytest.param("credit-scoring", marks=pytest.mark.slow),
        pytest.param("card-fraud", marks=pytest.mark.slow),
    ],
)
def test_the_served_champion_decides_with_each_rows_costs_and_reproduces_the_logged_savings(
    dataset, mlflow_server, tmp_path
):
    data = prepare_retrain_data(
        load_dataset(dataset), seed=0, holdout_fraction=0.3, max_rows=MAX_ROWS[dataset]
    )
    client = MlflowClient(mlflow_server)
    experiment_id = ensure_experiment(client, f"serve-{uuid.uuid4().hex[:8]}")
    parent = start_run(client, experiment_id, run_name=f"retrain/{dataset}")
    candidate = fit_and_log_candidate(
        data, "bmr-lr", tracking_uri=mlflow_server, experiment_id=experiment_id, parent_run_id=parent
    )
    name = f"serve-{dataset}-{uuid.uuid4().hex[:6]}"
    decision = register_and_promote(client, name, candidate, data)
    model_uri = f"models:/{name}@champion"

    raw = RawEncoding.from_record(data.encoding).decode(data.holdout_features)
    server = launch_model_server(model_uri, mlflow_server, tmp_path)
    try:
        server.wait_until_healthy()
        served = _invoke(server.url, raw)
        given = np.tile([1.0, 1e6, 0.0, 0.0], (20, 1))  # explicit costs: a miss costs a million
        rows = data.holdout_features.head(20)
        with_costs = _invoke(server.url, raw.head(20).assign(**dict(zip(COST_COLUMNS, given.T, strict=True))))
    finally:
        server.stop()

    assert list(served.columns) == ["decision", "probability", "expected_cost", *COST_COLUMNS]
    np.testing.assert_allclose(served[list(COST_COLUMNS)].to_numpy(), data.holdout_costs, rtol=1e-12)
    cost_aware = load_cost_aware_model(model_uri, tracking_uri=mlflow_server)
    assert cost_aware.input_names == list(raw.columns)
    if dataset == "direct-marketing":
        assert "job" in raw.columns and raw["job"].map(type).eq(str).all() and "job=blue-collar" not in raw
    in_process = cost_aware.predict(raw)
    np.testing.assert_array_equal(served["decision"].to_numpy(), in_process["decision"].to_numpy())
    np.testing.assert_allclose(served["probability"], in_process["probability"], rtol=1e-12)

    savings = savings_score(data.holdout_target, served["decision"].to_numpy(), data.holdout_costs)
    version = client.get_model_version(name, decision.version)
    assert savings == pytest.approx(float(version.tags["savings"]), abs=1e-12)
    assert savings == pytest.approx(client.get_run(candidate.run_id).data.metrics["savings"], abs=1e-12)

    expected = cost_aware.estimator.predict(rows, cost_matrix=given)
    np.testing.assert_array_equal(with_costs["decision"].to_numpy(), expected)
    np.testing.assert_array_equal(with_costs[list(COST_COLUMNS)].to_numpy(), given)
