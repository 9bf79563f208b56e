"""The ``retrain`` flow against the real Prefect and MLflow servers of the fixtures.

Three retrains of direct marketing (a stratified row cap keeps them small): the first registers the better
of two candidates as ``champion``; the second, with only the losing candidate, scores below the champion
re-scored on the same holdout and becomes ``challenger``; the third repeats the first (same data, code and
score) and registers nothing. Bad parameters fail before any work.
"""

from __future__ import annotations

import json
import uuid

import pytest
from mlflow import MlflowClient
from pydantic import ValidationError

from flows.retrain import run_retrain
from schemas.flow_params import DEFAULT_CANDIDATES, RetrainParams
from tasks.config.checks import validate_params

pytestmark = pytest.mark.servers

DATASET = "direct-marketing"
SMALL = {"max_rows": 2500, "holdout_fraction": 0.4, "seed": 7}


def test_parameters_are_a_frozen_model_that_names_the_bad_values():
    params = RetrainParams(dataset=DATASET)
    assert params.candidates == DEFAULT_CANDIDATES
    assert params.registered_model_name == "cslearn-direct-marketing"
    with pytest.raises(ValidationError, match="frozen"):
        params.seed = 1
    bad = {"dataset": "wisconsin", "candidates": ("csdt", "csdt", "svm"), "max_rows": 5, "retries": 3}
    with pytest.raises(ValidationError) as error:
        validate_params(RetrainParams, bad)
    message = str(error.value)
    assert "'wisconsin' is not a business dataset (one with example-dependent costs" in message
    assert "candidates lists ['csdt'] more than once" in message
    assert "max_rows" in message and "greater than or equal to 20" in message
    assert "retries" in message and "Extra inputs are not permitted" in message
    with pytest.raises(
        ValidationError, match=r"method_params names methods that are not candidates: \['adacc1'\]"
    ):
        RetrainParams(dataset=DATASET, candidates=("csdt",), method_params={"adacc1": {"n_estimators": 5}})


def test_a_bad_configuration_fails_before_any_run_is_logged(prefect_server, mlflow_server):
    experiment = f"retrain-bad-{uuid.uuid4().hex[:8]}"
    with pytest.raises(Exception, match="unknown candidates \\['svm'\\]"):
        run_retrain(
            {
                "dataset": DATASET,
                "candidates": ["svm"],
                "tracking_uri": mlflow_server,
                "experiment": experiment,
            }
        )
    assert MlflowClient(mlflow_server).get_experiment_by_name(experiment) is None


@pytest.fixture(scope="module")
def retrains(prefect_server, mlflow_server):
    """First retrain with two candidates, then one with only the first run's loser, then the first again."""
    common = {**SMALL, "tracking_uri": mlflow_server, "model_name": f"dm-{uuid.uuid4().hex[:8]}"}
    first = run_retrain(RetrainParams(dataset=DATASET, candidates=("bmr-lr", "dt"), **common))
    loser = min(first["candidates"], key=first["candidates"].get)
    second = run_retrain(RetrainParams(dataset=DATASET, candidates=(loser,), **common))
    third = run_retrain(RetrainParams(dataset=DATASET, candidates=("bmr-lr", "dt"), **common))
    return first, second, third, loser, MlflowClient(mlflow_server)


def test_first_retrain_logs_every_candidate_and_crowns_the_best(retrains):
    first, _, _, loser, client = retrains
    assert set(first["candidates"]) == {"bmr-lr", "dt"}
    assert first["best"] == max(first["candidates"], key=first["candidates"].get) != loser
    assert first["candidates"][first["best"]] > first["candidates"][loser]
    assert (first["version"], first["alias"], first["previous_champion_version"]) == ("1", "champion", None)

    parent = client.get_run(first["parent_run_id"])
    assert parent.info.status == "FINISHED"
    assert parent.data.tags["cslearn.dataset"] == DATASET
    assert len(parent.data.tags["prefect.flow_run_id"]) == 36  # a UUID from the Prefect server
    assert parent.data.params["max_rows"] == "2500" and parent.data.params["holdout_rows"] == "1000"
    children = client.search_runs(
        [parent.info.experiment_id], filter_string=f"tags.mlflow.parentRunId = '{parent.info.run_id}'"
    )
    assert {
        child.data.tags["cslearn.method"]: child.data.metrics["savings"] for child in children
    } == pytest.approx(first["candidates"])
    assert all(child.info.status == "FINISHED" for child in children)

    version = client.get_model_version(first["model_name"], "1")
    assert version.tags["cslearn.method"] == first["best"]
    assert version.tags["holdout_key"] == parent.data.tags["cslearn.holdout_key"]
    assert version.tags["git.commit"] == parent.data.tags["git.commit"]
    assert float(version.tags["savings"]) == pytest.approx(first["candidates"][first["best"]])
    assert "First champion of this model." in version.description
    assert f"| savings | {first['candidates'][first['best']]:.4f} |" in version.description

    # Registered from its logged model, named <dataset>-<method>, with the holdout metrics on it.
    best_child = next(child for child in children if child.data.tags["cslearn.method"] == first["best"])
    model_id = best_child.outputs.model_outputs[0].model_id
    assert version.source == f"models:/{model_id}"
    logged = client.get_logged_model(model_id)
    assert logged.name == f"{DATASET}-{first['best']}"
    assert {"name": first["model_name"], "version": 1} in json.loads(logged.tags["mlflow.modelVersions"])
    assert {metric.key: metric.value for metric in logged.metrics}["savings"] == pytest.approx(
        first["candidates"][first["best"]]
    )
    assert parent.data.tags["cslearn.registry.outcome"] == "champion"


def test_second_retrain_with_a_worse_candidate_becomes_challenger(retrains):
    first, second, _, loser, client = retrains
    assert second["best"] == loser
    assert second["holdout_key"] == first["holdout_key"]  # same data and seed: the same holdout
    assert second["candidates"][loser] == pytest.approx(first["candidates"][loser])  # deterministic fits
    assert (second["version"], second["alias"]) == ("2", "challenger")
    assert second["previous_champion_version"] == "1"
    # The champion was re-scored on this run's holdout and reproduced its own registered savings.
    assert second["previous_champion_savings"] == pytest.approx(first["candidates"][first["best"]])
    aliases = client.get_registered_model(first["model_name"]).aliases
    assert {alias: str(version) for alias, version in aliases.items()} == {"champion": "1", "challenger": "2"}
    description = client.get_model_version(first["model_name"], "2").description
    assert f"Against champion v1 ({first['best']}), re-scored on the same holdout" in description


def test_a_retrain_that_repeats_the_champion_registers_nothing_and_says_so(retrains):
    first, _, third, _, client = retrains
    assert (third["registered"], third["outcome"], third["version"], third["alias"]) == (
        False,
        "unchanged",
        None,
        None,
    )
    assert third["candidates"] == pytest.approx(first["candidates"])
    assert third["reason"].startswith(f"nothing registered: {first['best']} (savings")
    assert "repeats champion v1: same method, data fingerprint, code commit" in third["reason"]
    versions = client.search_model_versions(f"name='{first['model_name']}'")
    assert sorted(str(version.version) for version in versions) == ["1", "2"]
    tags = client.get_run(third["parent_run_id"]).data.tags
    assert (
        tags["cslearn.registry.outcome"] == "unchanged" and tags["cslearn.registry.reason"] == third["reason"]
    )


def test_a_failing_candidate_is_logged_failed_and_the_others_still_compete(prefect_server, mlflow_server):
    model_name = f"dm-fail-{uuid.uuid4().hex[:8]}"
    outcome = run_retrain(
        RetrainParams(
            dataset=DATASET,
            candidates=("dt", "bmr-lr"),
            method_params={"dt": {"max_depth": -1}},  # rejected by scikit-learn's parameter validation at fit
            tracking_uri=mlflow_server,
            model_name=model_name,
            max_rows=1500,
        )
    )
    assert list(outcome["failed"]) == ["dt"] and "max_depth" in outcome["failed"]["dt"]
    assert (outcome["best"], outcome["alias"]) == ("bmr-lr", "champion")
    client = MlflowClient(mlflow_server)
    parent = client.get_run(outcome["parent_run_id"])
    children = client.search_runs(
        [parent.info.experiment_id], filter_string=f"tags.mlflow.parentRunId = '{parent.info.run_id}'"
    )
    assert {child.data.tags["cslearn.method"]: child.info.status for child in children} == {
        "dt": "FAILED",
        "bmr-lr": "FINISHED",
    }
    assert parent.info.status == "FINISHED"
