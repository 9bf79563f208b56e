"""Candidates of a retrain: child run, holdout metrics and a complete logged model; choosing the best."""

from __future__ import annotations

import json
from pathlib import Path

import mlflow.sklearn
import pytest
from mlflow.artifacts import download_artifacts

from algorithms.metrics import savings_score
from tasks.model_registry import CandidateProgress, CandidateResult, best_candidate


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
    assert model.source_run_id == result.run_id and model.status.to_proto() == 2  # READY
    folder = Path(download_artifacts(artifact_uri=model.artifact_location, tracking_uri=client.tracking_uri))
    mlmodel = (folder / "MLmodel").read_text()
    assert "signature:" in mlmodel and '"name": "Amount"' in mlmodel
    serialization = model.tags["cslearn.serialization"]
    assert f"serialization_format: {serialization}" in mlmodel  # the tag tells the truth
    if serialization == "skops":
        assert all(name.startswith(("algorithms.", "sklearn.", "numpy.")) for name in _trusted_types(mlmodel))
    else:  # the fallback says why skops could not take it
        assert serialization == "cloudpickle" and model.tags["cslearn.skops_unsupported"]
    example = json.loads((folder / "input_example.json").read_text())
    assert example["columns"] == ["V1", "V2", "Amount"] and len(example["data"]) == 5
    requirements = (folder / "requirements.txt").read_text().split()
    pinned = {line.split("==")[0] for line in requirements}
    assert pinned >= {"scikit-learn", "numpy", serialization, "mlflow"}
    assert all("==" in line for line in requirements)  # explicit pins, not an inferred environment
    assert (folder / "code" / "algorithms" / "__init__.py").is_file()  # the model carries its code

    # The logged model reloads and reproduces the logged holdout savings, computed here by Eq. 4: Bayes
    # minimum risk decides with the holdout rows' own costs (CSDT paper, Section 2.3), not class-level ones.
    reloaded = mlflow.sklearn.load_model(str(folder))
    predicted = reloaded.predict(data.holdout_features, cost_matrix=data.holdout_costs)
    holdout = (data.holdout_target, data.holdout_costs)
    assert savings_score(holdout[0], predicted, holdout[1]) == pytest.approx(result.savings)
    class_level = reloaded.predict(data.holdout_features)
    assert savings_score(holdout[0], class_level, holdout[1]) != pytest.approx(result.savings)


def _trusted_types(mlmodel: str) -> list[str]:
    lines = mlmodel.splitlines()
    start = lines.index("    skops_trusted_types:") + 1
    return [line.strip()[2:] for line in lines[start:] if line.startswith("    - ")]


def _result(method: str, savings: float) -> CandidateResult:
    return CandidateResult(method, f"run-{method}", f"m-{method}", savings, {"savings": savings}, 1.0)


def test_the_best_candidate_has_the_highest_savings_and_nan_never_wins():
    results = {"a": _result("a", float("nan")), "b": _result("b", -0.2), "c": _result("c", 0.1)}
    assert best_candidate(results, {}, "data").method == "c"
    assert best_candidate({"a": results["a"], "b": results["b"]}, {}, "data").method == "b"
    with pytest.raises(RuntimeError, match=r"every candidate failed on data: \{'a': 'ValueError: x'\}"):
        best_candidate({}, {"a": "ValueError: x"}, "data")


def test_candidate_progress_estimates_the_time_left_from_the_mean_so_far():
    now = iter([0.0, 10.0, 30.0])
    progress = CandidateProgress(4, clock=lambda: next(now))
    assert progress.update() == "candidates 1/4 done, elapsed 10 s, ETA 30 s"
    assert progress.update() == "candidates 2/4 done, elapsed 30 s, ETA 30 s"
