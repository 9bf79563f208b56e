"""Retrain tasks: deterministic holdout, candidate logging, model artifacts, champion / challenger aliases.

Registry tests run against the real MLflow server of the ``mlflow_server`` fixture; the data is a small
synthetic business-like table with example-dependent costs, so the savings are checked by hand.
"""

from __future__ import annotations

import decimal
import json
import uuid
from pathlib import Path

import mlflow.sklearn
import numpy as np
import pandas as pd
import pytest
from mlflow import MlflowClient
from mlflow.artifacts import download_artifacts
from sklearn.linear_model import LogisticRegression

from algorithms.metrics import savings_score
from tasks.registry import (
    CHALLENGER,
    CHAMPION,
    RetrainData,
    choose_serialization,
    decide_alias,
    fit_and_log_candidate,
    load_model_version,
    make_holdout,
    register_and_promote,
    skops_trusted_types,
    version_with_alias,
)
from tasks.track import ensure_experiment, start_run

# ------------------------------------------------------------------------------------------- holdout


def _labels(n_negative: int, n_positive: int) -> np.ndarray:
    return np.r_[np.zeros(n_negative, dtype=int), np.ones(n_positive, dtype=int)]


def test_holdout_is_a_pure_function_of_data_fingerprint_and_seed():
    target = _labels(180, 20)
    first = make_holdout(target, fingerprint="f1", seed=3, holdout_fraction=0.25)
    again = make_holdout(target, fingerprint="f1", seed=3, holdout_fraction=0.25)
    np.testing.assert_array_equal(first.holdout, again.holdout)
    assert first.key == again.key == "f1/seed=3/fraction=0.25/max_rows=None"
    other_data = make_holdout(target, fingerprint="f2", seed=3, holdout_fraction=0.25)
    other_seed = make_holdout(target, fingerprint="f1", seed=4, holdout_fraction=0.25)
    assert not np.array_equal(first.holdout, other_data.holdout)
    assert not np.array_equal(first.holdout, other_seed.holdout)


def test_holdout_is_stratified_disjoint_and_covers_every_row():
    target = _labels(180, 20)
    split = make_holdout(target, fingerprint="f", seed=0, holdout_fraction=0.25)
    assert np.intersect1d(split.train, split.holdout).size == 0
    np.testing.assert_array_equal(np.sort(np.r_[split.train, split.holdout]), np.arange(200))
    assert split.holdout.size == 50
    assert target[split.holdout].sum() == 5  # 25 % of the 20 positives
    assert target[split.train].sum() == 15


def test_row_cap_draws_a_stratified_sample_before_splitting():
    target = _labels(900, 100)
    split = make_holdout(target, fingerprint="f", seed=0, holdout_fraction=0.5, max_rows=200)
    rows = np.r_[split.train, split.holdout]
    assert rows.size == 200 and np.unique(rows).size == 200
    assert target[rows].sum() == 20  # the 10 % positive share is kept
    assert target[split.holdout].sum() == 10


def test_a_row_cap_that_starves_the_minority_class_is_refused_with_the_needed_size():
    target = _labels(990, 10)
    with pytest.raises(ValueError, match=r"max_rows=50 keeps about 0\.5 rows of class 1 .*at least 200"):
        make_holdout(target, fingerprint="f", seed=0, holdout_fraction=0.3, max_rows=50)


# -------------------------------------------------------------------------------------- alias choice


@pytest.mark.parametrize(
    ("candidate", "champion", "expected"),
    [
        (0.30, None, CHAMPION),  # first version of a model
        (0.30, 0.20, CHAMPION),  # strictly better
        (0.20, 0.20, CHALLENGER),  # a tie keeps the incumbent
        (0.10, 0.20, CHALLENGER),
        (-0.5, float("nan"), CHAMPION),  # the champion could not be scored
        (float("nan"), 0.20, CHALLENGER),
    ],
)
def test_decide_alias_moves_champion_only_on_strictly_higher_savings(candidate, champion, expected):
    assert decide_alias(candidate, champion) == expected


# ------------------------------------------------------------------------------------ serialization


def test_skops_trusts_only_our_estimators_and_the_scientific_stack():
    rng = np.random.default_rng(0)
    features, target = rng.normal(size=(60, 3)), np.r_[np.zeros(40), np.ones(20)]
    from algorithms import METHODS

    tree = METHODS["csdt"]().fit(features, target, cost_matrix=np.tile([1.0, 5.0, 1.0, 0.0], (60, 1)))
    trusted = skops_trusted_types(tree)
    assert trusted and all(
        name.startswith(("algorithms.", "sklearn.", "numpy.", "builtins.")) for name in trusted
    )

    model = LogisticRegression().fit(features, target)
    model.note_ = decimal.Decimal("1.5")  # a type nobody reviewed
    with pytest.raises(ValueError, match=r"LogisticRegression holds types outside .* \['decimal\.Decimal'\]"):
        skops_trusted_types(model)


def test_a_model_skops_cannot_represent_safely_falls_back_to_cloudpickle_with_the_reason():
    model = LogisticRegression().fit(np.random.default_rng(0).normal(size=(20, 2)), np.arange(20) % 2)
    model.transform_ = lambda values: values  # a function from no trusted module
    serialization, trusted, reason = choose_serialization(model)
    assert (serialization, trusted) == ("cloudpickle", None)
    assert "ValueError" in reason and "<lambda>" in reason
    assert choose_serialization(LogisticRegression().fit(*_two_class_data()))[0] == "skops"


def _two_class_data():
    rng = np.random.default_rng(1)
    return rng.normal(size=(30, 2)), np.arange(30) % 2


# -------------------------------------------------------------------------- logging and the registry


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


@pytest.fixture(scope="module")
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


@pytest.mark.servers
def test_champion_moves_only_when_beaten_on_the_same_holdout(logged_candidates):
    data, client, _, _, results = logged_candidates
    good, bad = results["bmr-lr"], results["adaboost"]
    assert good.savings > bad.savings  # the fixture's premise: cost-aware BMR beats plain AdaBoost here
    name = f"cslearn-test-{uuid.uuid4().hex[:8]}"
    holdout = {
        "holdout_features": data.holdout_features,
        "holdout_target": data.holdout_target,
        "holdout_cost_matrix": data.holdout_costs,
        "holdout_key": data.holdout_key,
    }

    first = register_and_promote(client, name, bad.model_id, bad.run_id, savings=bad.savings, **holdout)
    assert (first.version, first.alias, first.previous_champion_version) == ("1", CHAMPION, None)

    second = register_and_promote(client, name, good.model_id, good.run_id, savings=good.savings, **holdout)
    assert (second.version, second.alias, second.previous_champion_version) == ("2", CHAMPION, "1")
    assert second.previous_champion_savings == pytest.approx(bad.savings)  # re-scored, not read back

    third = register_and_promote(client, name, bad.model_id, bad.run_id, savings=bad.savings, **holdout)
    assert (third.alias, third.previous_champion_version) == (CHALLENGER, "2")
    assert third.previous_champion_savings == pytest.approx(good.savings)

    tie = register_and_promote(client, name, good.model_id, good.run_id, savings=good.savings, **holdout)
    assert tie.alias == CHALLENGER  # equal savings do not dethrone the champion

    assert version_with_alias(client, name, CHAMPION).version in (2, "2")
    assert str(version_with_alias(client, name, CHALLENGER).version) == "4"
    registered = client.get_registered_model(name)
    assert {alias: str(version) for alias, version in registered.aliases.items()} == {
        CHAMPION: "2",
        CHALLENGER: "4",
    }
    assert all(
        version.current_stage in (None, "None") for version in client.search_model_versions(f"name='{name}'")
    )
    champion = client.get_model_version(name, "2")
    assert champion.tags["holdout_key"] == data.holdout_key
    assert float(champion.tags["savings"]) == pytest.approx(good.savings)

    # A new champion clears the stale challenger.
    better = register_and_promote(
        client, name, good.model_id, good.run_id, savings=good.savings + 1.0, **holdout
    )
    assert better.alias == CHAMPION
    assert version_with_alias(client, name, CHALLENGER) is None

    loaded = load_model_version(client, version_with_alias(client, name, CHAMPION))
    np.testing.assert_array_equal(
        loaded.predict(data.holdout_features),
        load_model_version(client, client.get_model_version(name, "2")).predict(data.holdout_features),
    )
