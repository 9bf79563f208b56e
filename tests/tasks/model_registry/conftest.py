"""Shared by the model-method-table tests: a synthetic fraud-like table and two candidates logged on it.

Registry tests run against the real MLflow server of the ``mlflow_server`` fixture; the data is a small
synthetic card-fraud-like table whose costs come from the real card-fraud cost model (CSDT Table 6: an alert
costs 2, a missed fraud its amount), so the served model derives them from the ``Amount`` column.
"""

from __future__ import annotations

import uuid

import numpy as np
import pandas as pd
import pytest
from mlflow import MlflowClient

from tasks.cost_models import derive_split_costs
from tasks.model_registry import RetrainData, fit_and_log_candidate, make_holdout
from tasks.tracking.mlflow_runs import ensure_experiment, start_run

ALERT_COST = 2.0


def synthetic_retrain_data(seed: int = 0, rows: int = 1000) -> RetrainData:
    """``rows`` rows ``V1, V2, Amount``, positives leaning on ``V1``; C_FP = C_TP = 2, C_FN = Amount,
    C_TN = 0.

    With 1,000 rows the holdout has 300 rows and 56 positives: enough for the paired bootstrap to tell
    bmr-lr (savings 0.42) from cgada (0.28), and for promotion not to call the holdout too small.
    """
    rng = np.random.default_rng(seed)
    n = rows
    features = pd.DataFrame(rng.normal(size=(n, 2)), columns=["V1", "V2"])
    features["Amount"] = np.abs(rng.normal(size=n)) * 50 + 1
    target = (features["V1"] + rng.normal(scale=1.0, size=n) > 1.3).astype(int).to_numpy()
    split = make_holdout(target, fingerprint="synthetic", seed=seed, holdout_fraction=0.3)
    train, holdout = features.iloc[split.train], features.iloc[split.holdout]
    costs = derive_split_costs(
        "card-fraud", train, target[split.train], holdout, parameters={"alert_cost": ALERT_COST}
    )
    return RetrainData(
        dataset="synthetic",
        fingerprint="synthetic",
        holdout_key=split.key,
        train_features=train,
        train_target=target[split.train],
        train_costs=costs.train.values,
        holdout_features=holdout,
        holdout_target=target[split.holdout],
        holdout_costs=costs.evaluated.values,
        cost_model="card-fraud",
        cost_params=costs.params(),
        fitted_cost_model=costs.model,
    )


@pytest.fixture(scope="package")
def retrain_data() -> RetrainData:
    return synthetic_retrain_data()


@pytest.fixture(scope="package")
def logged_candidates(mlflow_server, retrain_data):
    """Three candidates fit on the synthetic data and logged under one parent run: (data, client, results)."""
    client = MlflowClient(mlflow_server)
    experiment_id = ensure_experiment(client, f"registry-{uuid.uuid4().hex[:8]}")
    parent = start_run(client, experiment_id, run_name="parent")
    results = {
        method: fit_and_log_candidate(
            retrain_data,
            method,
            tracking_uri=mlflow_server,
            experiment_id=experiment_id,
            parent_run_id=parent,
        )
        for method in ("bmr-lr", "adaboost", "cgada")
    }
    return retrain_data, client, experiment_id, parent, results
