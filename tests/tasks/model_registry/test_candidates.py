"""Candidates of a retrain: child run, holdout metrics and a complete logged model; choosing the best."""

from __future__ import annotations

import json
from pathlib import Path

import mlflow.pyfunc
import numpy as np
import pytest
import yaml
from mlflow.artifacts import download_artifacts

from algorithms.metrics import COST_COLUMNS, savings_score
from tasks.model_registry import (
    TRUSTED_TYPES,
    CandidateProgress,
    CandidateResult,
    best_candidate,
    cslearn_version,
    load_estimator,
)


@pytest.mark.servers
def test_candidate_child_run_holds_params_holdout_metrics_and_a_complete_model(logged_candidates):
    data, client, experiment_id, parent, results = logged_candidates
    result = results["bmr-lr"]
    run = client.get_run(result.run_id)
    assert run.info.status == "FINISHED"
    assert run.data.tags["mlflow.parentRunId"] == parent
    assert run.data.tags["cslearn.method"] == "bmr-lr"
    assert "random_state" in run.data.params
    assert run.data.metrics["savings"] == pytest.approx(result.savings)

    model = client.get_logged_model(result.model_id)
    assert model.name == "synthetic-bmr-lr"  # <dataset>-<method>, not "model"
    assert model.source_run_id == result.run_id and model.status.to_proto() == 2  # READY
    linked = {metric.key: metric.value for metric in model.metrics}  # the holdout metrics are the model's
    assert linked["savings"] == pytest.approx(result.savings) and {"auc", "cost", "fit_seconds"} <= set(
        linked
    )
    assert model.tags["cslearn.serialization"] == "skops"
    folder = Path(download_artifacts(artifact_uri=model.artifact_location, tracking_uri=client.tracking_uri))
    mlmodel = yaml.safe_load((folder / "MLmodel").read_text())
    assert mlmodel["flavors"]["python_function"]["loader_module"] == "tasks.model_registry.serving"
    assert mlmodel["flavors"]["sklearn"]["serialization_format"] == "skops"
    assert set(mlmodel["flavors"]["sklearn"]["skops_trusted_types"]) <= TRUSTED_TYPES
    assert not (folder / "code").exists()  # no code travels with the model: the installed cslearn loads it
    assert mlmodel["metadata"] == {"cslearn_version": cslearn_version(), "cost_model": "card-fraud"}
    inputs = json.loads(mlmodel["signature"]["inputs"])
    assert [(spec["name"], spec["required"]) for spec in inputs] == [
        ("V1", True),
        ("V2", True),
        ("Amount", True),
        *((column, False) for column in COST_COLUMNS),
    ]
    outputs = [spec["name"] for spec in json.loads(mlmodel["signature"]["outputs"])]
    assert outputs == ["decision", "probability", "expected_cost", *COST_COLUMNS]
    cost_model = json.loads((folder / "cost_model.json").read_text())
    assert cost_model["name"] == "card-fraud" and cost_model["params"]["alert_cost"] == 2.0
    example = json.loads((folder / "input_example.json").read_text())
    assert example["columns"] == ["V1", "V2", "Amount"] and len(example["data"]) == 5
    requirements = (folder / "requirements.txt").read_text().split()
    pinned = {line.split("==")[0] for line in requirements}
    assert pinned >= {"scikit-learn", "numpy", "skops", "mlflow", "pandas"}
    assert all("==" in line for line in requirements)  # explicit pins, not an inferred environment

    # MLflow's pyfunc is the cost-aware model: it derives the holdout's costs from Amount and reproduces the
    # logged savings (CSDT Eq. 4); Bayes minimum risk decides with those costs (CSDT Section 2.3).
    served = mlflow.pyfunc.load_model(str(folder)).predict(data.holdout_features)
    assert savings_score(data.holdout_target, served["decision"], data.holdout_costs) == pytest.approx(
        result.savings
    )
    estimator = load_estimator(f"models:/{result.model_id}", tracking_uri=client.tracking_uri)
    predicted = estimator.predict(data.holdout_features, cost_matrix=data.holdout_costs)
    np.testing.assert_array_equal(predicted, served["decision"])
    class_level = estimator.predict(data.holdout_features)
    assert savings_score(data.holdout_target, class_level, data.holdout_costs) != pytest.approx(
        result.savings
    )


def _result(method: str, savings: float) -> CandidateResult:
    return CandidateResult(method, f"run-{method}", f"m-{method}", savings, {"savings": savings}, 1.0)


@pytest.mark.servers
def test_a_fixed_cost_candidate_chooses_c_minus_by_training_savings(logged_candidates):
    """CGAda scales the negatives' regret by C- from ``regret_scale_grid`` and keeps the best training
    savings; the child run shows every candidate's score and the chosen C- among the params."""
    from tasks.fitting.cost_selection import regret_scale_grid

    data, client, _, _, results = logged_candidates
    run = client.get_run(results["cgada"].run_id)
    grid = regret_scale_grid(data.train_target, data.train_costs)
    scores = {
        float(key.rsplit(" ", 1)[1]): value
        for key, value in run.data.metrics.items()
        if key.startswith("selection/savings at C- ")
    }
    assert len(scores) == len(grid) == 5 and sorted(scores) == pytest.approx(sorted(grid), rel=1e-3)
    chosen = float(run.data.params["negative_cost"])
    assert scores[min(scores, key=lambda cost: abs(cost - chosen))] == max(scores.values())
    assert "selection/savings at C- 1" in run.data.metrics  # the regrets' own ratio is a candidate


def test_the_best_candidate_has_the_highest_savings_and_nan_never_wins():
    results = {"a": _result("a", float("nan")), "b": _result("b", -0.2), "c": _result("c", 0.1)}
    assert best_candidate(results, {}, "data").method == "c"
    assert best_candidate({"a": results["a"], "b": results["b"]}, {}, "data").method == "b"
    with pytest.raises(RuntimeError, match=r"^every candidate failed on data: a: ValueError: x; b: OSError$"):
        best_candidate({}, {"a": "ValueError: x", "b": "OSError"}, "data")


def test_candidate_progress_estimates_the_time_left_from_the_mean_so_far():
    now = iter([0.0, 10.0, 30.0])
    progress = CandidateProgress(4, clock=lambda: next(now))
    assert progress.update() == "candidates 1/4 done, elapsed 10 s, ETA 30 s"
    assert progress.update() == "candidates 2/4 done, elapsed 30 s, ETA 30 s"
