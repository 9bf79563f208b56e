"""Shared by the model-registry tests: a synthetic business-like table and two candidates logged on it.

Registry tests run against the real MLflow server of the ``mlflow_server`` fixture; the data is a small
synthetic business-like table with example-dependent costs, so the savings are checked by hand.
"""

from __future__ import annotations

import uuid

import numpy as np
import pandas as pd
import pytest
from mlflow import MlflowClient

from tasks.model_registry import RetrainData, fit_and_log_candidate, make_holdout
from tasks.track import ensure_experiment, start_run


def _synthetic_retrain_data(seed: int = 0) -> RetrainData:
    """A fraud-like table: C_FP = C_TP = 2 (alert), C_FN = the amount, C_TN = 0 (CSDT Table 6)."""
    rng = np.random.default_rng(seed)
    n = 600
    features = pd.DataFrame(rng.normal(size=(n, 3)), columns=["V1", "V2", "Amount"])
    target = (features["V1"] + rng.normal(scale=1.0, size=n) > 1.3).astype(int).to_numpy()
    amount = np.abs(features["Amount"].to_numpy()) * 50 + 1
    costs = np.column_stack([np.full(n, 2.0), amount, np.full(n, 2.0), np.zeros(n)])
    split = make_holdout(target, fingerprint="synthetic", seed=seed, holdout_fraction=0.3)
    return RetrainData(
        dataset="synthetic",
        fingerprint="synthetic",
        holdout_key=split.key,
        train_features=features.iloc[split.train],
        train_target=target[split.train],
        train_costs=costs[split.train],
        holdout_features=features.iloc[split.holdout],
        holdout_target=target[split.holdout],
        holdout_costs=costs[split.holdout],
        cost_model="card-fraud",
        cost_params={},
    )


@pytest.fixture(scope="package")
def logged_candidates(mlflow_server):
    """Two candidates fit on the synthetic data and logged under one parent run: (data, client, results)."""
    data = _synthetic_retrain_data()
    client = MlflowClient(mlflow_server)
    experiment_id = ensure_experiment(client, f"registry-{uuid.uuid4().hex[:8]}")
    parent = start_run(client, experiment_id, run_name="parent")
    results = {
        method: fit_and_log_candidate(
            data, method, tracking_uri=mlflow_server, experiment_id=experiment_id, parent_run_id=parent
        )
        for method in ("bmr-lr", "adaboost")
    }
    return data, client, experiment_id, parent, results
