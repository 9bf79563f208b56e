"""One compare cell end to end on real data, its cache key and its atomic store (tasks.cells)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from algorithms import METHODS
from algorithms.metrics import classification_report_dict
from schemas.flow_params import CompareParams
from tasks.cells import CellSpec, CellStore, compute_cell, describe_dataset, load_finished_cells, plan_cells
from tasks.datasets import load_dataset
from tasks.evaluate import derive_seed, make_split


class ExplodingTree(DecisionTreeClassifier):
    """A real tree whose fit fails, standing for a broken method."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        raise ArithmeticError("weights collapsed to zero")


@pytest.fixture(scope="module")
def wisconsin():
    return describe_dataset("wisconsin")


def _spec(info, method, **changes):
    params = CompareParams(
        datasets=("wisconsin",), methods=(method,), repeats=1, folds=3, n_estimators=(3, 6)
    )
    spec = plan_cells(params, [info], [method])[0]
    return spec.model_copy(update=changes)


def test_describe_dataset(wisconsin):
    assert (wisconsin.n_rows, wisconsin.n_features, wisconsin.n_positive) == (569, 30, 212)
    assert wisconsin.cost_model is None and len(wisconsin.fingerprint) == 64


def test_plan_covers_datasets_methods_repeats_and_folds(wisconsin):
    params = CompareParams(repeats=2, folds=3, methods=("dt", "adaboost"))
    specs = plan_cells(params, [wisconsin], ["dt", "adaboost"])
    assert len(specs) == 2 * 2 * 3
    assert [(s.method, s.repeat, s.fold) for s in specs[:4]] == [
        ("dt", 0, 0),
        ("dt", 0, 1),
        ("dt", 0, 2),
        ("dt", 1, 0),
    ]
    assert len({spec.key for spec in specs}) == 12


def test_the_key_changes_with_everything_the_result_depends_on(wisconsin):
    base = _spec(wisconsin, "adaboost")
    assert base.key == _spec(wisconsin, "adaboost").key
    for change in (
        {"fingerprint": "0" * 64},
        {"method": "dt"},
        {"method_params": {"n_estimators": 9}},
        {"seed": 1},
        {"fold": 1},
        {"n_estimators": (3,)},
        {"cost_selection": "inner-cv"},
    ):
        assert base.model_copy(update=change).key != base.key, change


def test_a_boosting_cell_matches_a_hand_run_of_the_same_split_and_seed(wisconsin, tmp_path):
    spec = _spec(wisconsin, "adaboost")
    store = CellStore(tmp_path)
    result = compute_cell(spec, store)
    assert result["status"] == "ok", result["traceback"]
    assert [row["n_estimators"] for row in result["rows"]] == [3, 6]

    dataset = load_dataset("wisconsin")
    features, target = dataset.features.to_numpy(float), dataset.target
    split = make_split(target, "cv", repeat=0, fold=0, n_folds=3, seed=0)
    model = METHODS["adaboost"](n_estimators=3, random_state=derive_seed(0, 0, 0, 2))
    model.fit(features[split.train], target[split.train])
    expected = classification_report_dict(
        target[split.test], model.predict(features[split.test]), model.decision_function(features[split.test])
    )
    for name, value in expected.items():
        assert result["rows"][0][name] == pytest.approx(value), name
    assert result["n_test"] == split.test.size and result["n_train"] == split.train.size
    assert result["curves"] and all(len(curve) <= 6 for curve in result["curves"].values())

    stored = json.loads(store.path(spec.key).read_text())
    assert stored["rows"] == result["rows"]  # JSON round-trips floats exactly
    assert load_finished_cells(store, [spec]) == {spec.key: stored}
    assert [path.name for path in tmp_path.rglob("*") if path.is_file()] == [f"{spec.key}.json"]


def test_a_failing_cell_is_recorded_and_not_reported_finished(wisconsin, tmp_path, monkeypatch):
    monkeypatch.setitem(METHODS, "exploding-tree", ExplodingTree)
    spec = _spec(wisconsin, "exploding-tree")
    store = CellStore(tmp_path)
    result = compute_cell(spec, store)
    assert result["status"] == "failed"
    assert result["error"] == "ArithmeticError: weights collapsed to zero"
    assert "weights collapsed to zero" in result["traceback"]
    assert store.load(spec.key)["status"] == "failed"
    assert load_finished_cells(store, [spec]) == {}  # a rerun tries it again


def test_the_store_ignores_unreadable_files(tmp_path):
    store = CellStore(tmp_path)
    key = "ab" + "0" * 62
    store.path(key).parent.mkdir(parents=True)
    store.path(key).write_text("{truncated")
    assert store.load(key) is None
    assert store.load("cd" + "0" * 62) is None
    store.save({"key": key, "value": np.float64(0.5), "array": np.arange(2)})
    assert store.load(key) == {"key": key, "value": 0.5, "array": [0, 1]}


def test_a_changed_dataset_is_refused(wisconsin, tmp_path):
    spec = _spec(wisconsin, "dt", fingerprint="f" * 64)
    result = compute_cell(spec, CellStore(tmp_path))
    assert result["status"] == "failed"
    assert "dataset 'wisconsin' changed while the run was planned" in result["error"]


def test_cell_spec_rejects_unknown_fields():
    with pytest.raises(ValueError, match="extra"):
        CellSpec.model_validate({"dataset": "x", "unknown": 1})


@pytest.mark.slow
def test_business_cells_take_costs_from_a_cost_model_fit_on_the_training_rows(tmp_path):
    from tasks.cost_models import fit_cost_model

    info = describe_dataset("direct-marketing")
    params = CompareParams(datasets=(info.name,), methods=("dt",), protocol="holdout", repeats=1)
    spec = plan_cells(params, [info], ["dt"])[0]
    result = compute_cell(spec, CellStore(tmp_path))
    assert result["status"] == "ok", result["traceback"]
    row = result["rows"][0]

    dataset = load_dataset(info.name)
    target = dataset.target
    split = make_split(target, "holdout", repeat=0, seed=0)
    cost_model = fit_cost_model("direct-marketing", dataset.features.iloc[split.train], target[split.train])
    model = METHODS["dt"](random_state=derive_seed(0, 0, 0, 2))
    features = dataset.features.to_numpy(float)
    model.fit(
        features[split.train],
        target[split.train],
        cost_matrix=cost_model.cost_matrix(dataset.features.iloc[split.train]),
    )
    expected = classification_report_dict(
        target[split.test],
        model.predict(features[split.test]),
        model.predict_proba(features[split.test])[:, 1],
        cost_model.cost_matrix(dataset.features.iloc[split.test]),
    )
    assert row["cost"] == pytest.approx(expected["cost"])
    assert row["savings"] == pytest.approx(expected["savings"])
    assert result["cost_model_params"] == json.loads(json.dumps(cost_model.params(), default=float))


@pytest.mark.slow
def test_bayes_minimum_risk_cells_decide_with_the_test_rows_costs(tmp_path):
    from algorithms.metrics import savings_score
    from tasks.cost_models import fit_cost_model

    info = describe_dataset("direct-marketing")
    params = CompareParams(datasets=(info.name,), methods=("bmr-lr",), protocol="holdout", repeats=1)
    spec = plan_cells(params, [info], ["bmr-lr"])[0]
    result = compute_cell(spec, CellStore(tmp_path))
    assert result["status"] == "ok", result["traceback"]

    dataset = load_dataset(info.name)
    target, features = dataset.target, dataset.features.to_numpy(float)
    split = make_split(target, "holdout", repeat=0, seed=0)
    cost_model = fit_cost_model("direct-marketing", dataset.features.iloc[split.train], target[split.train])
    train_costs = cost_model.cost_matrix(dataset.features.iloc[split.train])
    test_costs = cost_model.cost_matrix(dataset.features.iloc[split.test])
    model = METHODS["bmr-lr"](random_state=derive_seed(0, 0, 0, 2))
    model.fit(features[split.train], target[split.train], cost_matrix=train_costs)
    with_test_costs = model.predict(features[split.test], cost_matrix=test_costs)
    class_level = model.predict(features[split.test])
    assert not np.array_equal(with_test_costs, class_level)
    assert result["rows"][0]["savings"] == pytest.approx(
        savings_score(target[split.test], with_test_costs, test_costs)
    )
    assert result["rows"][0]["savings"] != pytest.approx(
        savings_score(target[split.test], class_level, test_costs)
    )


def test_tvt_cells_choose_the_negative_cost_on_the_validation_split(wisconsin, tmp_path):
    from tasks.train import select_negative_cost

    params = CompareParams(
        methods=("adac1",), protocol="tvt", n_estimators=(4,), negative_costs=(0.2, 0.6, 1.0)
    )
    spec = plan_cells(params, [wisconsin], ["adac1"])[0]
    result = compute_cell(spec, CellStore(tmp_path))
    assert result["status"] == "ok", result["traceback"]

    dataset = load_dataset("wisconsin")
    features, target = dataset.features.to_numpy(float), dataset.target
    split = make_split(target, "tvt", repeat=0, seed=0)
    assert result["n_train"] == split.train.size and result["n_test"] == split.test.size
    estimator = METHODS["adac1"](n_estimators=4, random_state=derive_seed(0, 0, 0, 2))
    best, scores, _ = select_negative_cost(
        estimator,
        features[split.train],
        target[split.train],
        negative_costs=(0.2, 0.6, 1.0),
        mode="validation",
        validation=(features[split.validation], target[split.validation]),
    )
    assert result["negative_cost"] == best
    assert result["selection_scores"] == {str(cost): pytest.approx(score) for cost, score in scores.items()}
