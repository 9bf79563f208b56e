"""One compare cell end to end on real data, its cache key and its atomic store (tasks.compare.cells)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from algorithms import METHODS
from algorithms.metrics import classification_report_dict
from schemas.flow_params import CompareParams
from tasks.compare.cell_compute import (
    CELL_FORMAT_VERSION,
    CellSpec,
    CellStore,
    compute_cell,
    describe_dataset,
)
from tasks.compare.cells import load_finished_cells, plan_cells
from tasks.config.checks import ProtocolError
from tasks.datasets import load_dataset
from tasks.fitting.splits import derive_seed, make_split


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


def _corruptions(record: dict, key: str) -> dict[str, tuple[str, str]]:
    """Damaged versions of a valid record's file text, with the words the warning must use."""
    from tasks.compare.cell_compute import record_checksum

    def resealed(changed: dict) -> str:
        changed = {**changed}
        changed["checksum"] = record_checksum(changed)
        return json.dumps(changed)

    edited = json.loads(json.dumps(record))
    edited["rows"][0]["f1"] = 0.999
    other_key = "0" * 64
    return {
        "truncated": (json.dumps(record)[:-40], "is not valid JSON"),
        "issue 11's record": (json.dumps({"status": "ok", "key": "x"}), "has no format version"),
        "a list": ("[1, 2]", "holds a JSON list"),
        "metrics edited": (json.dumps(edited), "does not match its checksum"),
        "old format": (resealed({**record, "format": 3}), f"has format 3, not {CELL_FORMAT_VERSION}"),
        "wrong schema": (resealed({**record, "rows": "many"}), "is not a valid cell record"),
        "unknown field": (resealed({**record, "note": "hand-made"}), "is not a valid cell record"),
        "another cell's file": (resealed({**record, "key": other_key}), f"holds the cell {other_key[:12]}"),
        "ok without metrics": (resealed({**record, "rows": []}), "says ok but holds no metrics"),
    }


def test_invalid_records_are_named_and_computed_again(wisconsin, tmp_path, caplog):
    spec = _spec(wisconsin, "dt")
    store = CellStore(tmp_path)
    computed = compute_cell(spec, store)
    path = store.path(spec.key)
    record = json.loads(path.read_text())
    assert record["format"] == CELL_FORMAT_VERSION == 7 and len(record["checksum"]) == 64
    assert store.load(spec.key) == record and load_finished_cells(store, [spec]) == {spec.key: record}

    for case, (text, words) in _corruptions(record, spec.key).items():
        path.write_text(text)
        caplog.clear()
        assert store.load(spec.key) is None, case
        assert load_finished_cells(store, [spec]) == {}, case
        warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert warnings and all(f"cell file {path} " in w and words in w for w in warnings), (case, warnings)
        assert all(w.endswith("computing the cell again") for w in warnings)

    recomputed = compute_cell(spec, store)  # what the flow does with a cell load_finished_cells left out
    assert recomputed["rows"] == computed["rows"]
    assert store.load(spec.key)["rows"] == computed["rows"]


def test_results_with_numpy_values_are_stored_as_plain_json(tmp_path):
    store = CellStore(tmp_path)
    key = "ab" + "0" * 62
    store.save({"key": key, "value": np.float64(0.5), "array": np.arange(2)})
    stored = json.loads(store.path(key).read_text())
    assert (stored["value"], stored["array"]) == (0.5, [0, 1])
    assert store.load("cd" + "0" * 62) is None  # absent: no warning, nothing to name


def test_a_protocol_that_does_not_fit_the_data_is_refused_before_any_cell(wisconsin):
    haberman_like = wisconsin.model_copy(update={"name": "haberman", "n_rows": 306, "n_positive": 81})
    with pytest.raises(ProtocolError) as error:
        plan_cells(CompareParams(folds=100, repeats=1), [wisconsin, haberman_like], ["dt"])
    assert error.value.problems == [
        "100 folds are more than the 81 rows of haberman's smaller class: stratified 100-fold CV needs 100 "
        "rows of each class; use 81 folds or fewer"
    ]
    tiny = wisconsin.model_copy(update={"name": "tiny", "n_rows": 40, "n_positive": 3})
    with pytest.raises(
        ProtocolError, match=r"tiny's smaller class has 3 rows: the tvt protocol's smallest share"
    ):
        plan_cells(CompareParams(protocol="tvt"), [tiny], ["dt"])
    with pytest.raises(ProtocolError, match="4 inner folds are more than the about 2 rows of tiny's smaller"):
        plan_cells(CompareParams(folds=3, cost_selection="inner-cv", inner_folds=4), [tiny], ["adac1"])
    assert len(plan_cells(CompareParams(folds=3, repeats=1), [tiny], ["dt"])) == 3


def test_user_dataset_cells_score_with_their_own_cost_columns(tmp_path, monkeypatch):
    from algorithms.metrics import savings_score
    from tasks.datasets import ingest_file
    from tests.user_data import PAYMENT_COST_COLUMNS, write_payments_csv

    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    source = write_payments_csv(tmp_path / "payments.csv")
    ingest_file(source, target="fraud", positive="yes", cost_columns=PAYMENT_COST_COLUMNS)
    info = describe_dataset("payments")
    assert info.cost_columns == PAYMENT_COST_COLUMNS and info.cost_model is None

    params = CompareParams(datasets=("payments",), methods=("bmr-dt",), protocol="holdout", repeats=1)
    spec = plan_cells(params, [info], ["bmr-dt"])[0]
    assert spec.cost_columns == PAYMENT_COST_COLUMNS
    result = compute_cell(spec, CellStore(tmp_path / "cells"))
    assert result["status"] == "ok", result["traceback"]
    assert result["cost_model_params"] == {"cost_columns": list(PAYMENT_COST_COLUMNS)}

    dataset = load_dataset("payments")
    features, target, costs = dataset.features.to_numpy(float), dataset.target, dataset.cost_matrix
    split = make_split(target, "holdout", repeat=0, seed=0)
    model = METHODS["bmr-dt"](random_state=derive_seed(0, 0, 0, 2))
    model.fit(features[split.train], target[split.train], cost_matrix=costs[split.train])
    decided = model.predict(features[split.test], cost_matrix=costs[split.test])
    expected = savings_score(target[split.test], decided, costs[split.test])
    assert result["rows"][0]["savings"] == pytest.approx(expected)
    assert np.array_equal(costs[split.test][:, 1], dataset.features["amount"].to_numpy()[split.test])


def test_a_user_dataset_missing_from_the_cells_cache_is_named_with_the_way_to_provide_it(
    tmp_path, monkeypatch
):
    import socket

    from tasks.datasets import ingest_file
    from tests.user_data import write_payments_csv

    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "planner-cache"))
    ingest_file(
        write_payments_csv(tmp_path / "payments.csv"), target="fraud", positive="yes", name="elsewhere"
    )
    info = describe_dataset("elsewhere")
    spec = plan_cells(CompareParams(datasets=("elsewhere",), methods=("dt",), repeats=1), [info], ["dt"])[0]
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "worker-cache"))  # the cell runs where it is not
    result = compute_cell(spec, CellStore(tmp_path / "cells"))
    assert result["status"] == "failed"
    assert result["error"] == (
        "DatasetUnavailableError: dataset 'elsewhere' is not in the dataset cache of the process that ran "
        f"this cell ({tmp_path / 'worker-cache'} on {socket.gethostname()}): ingest it on every worker "
        "machine (`cslearn datasets ingest FILE --target COLUMN --name elsewhere`) or point CSLEARN_CACHE "
        "at a folder all workers share, then rerun (docs/usage.md: Running on a Dask cluster)"
    )


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
    from tasks.fitting.cost_selection import select_negative_cost

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


def test_tvt_cells_prune_trees_on_the_validation_split(wisconsin, tmp_path):
    params = CompareParams(methods=("dt",), protocol="tvt", method_params={"dt": {"pruning": "error"}})
    spec = plan_cells(params, [wisconsin], ["dt"])[0]
    result = compute_cell(spec, CellStore(tmp_path))
    assert result["status"] == "ok", result["traceback"]

    dataset = load_dataset("wisconsin")
    features, target = dataset.features.to_numpy(float), dataset.target
    split = make_split(target, "tvt", repeat=0, seed=0)
    model = METHODS["dt"](pruning="error", random_state=derive_seed(0, 0, 0, 2))
    model.fit(
        features[split.train],
        target[split.train],
        validation=(features[split.validation], target[split.validation]),
    )
    assert result["n_train"] == split.train.size
    assert result["tree_nodes"] == model.tree_.node_count
    predicted = model.predict(features[split.test])
    expected = classification_report_dict(target[split.test], predicted)
    assert result["rows"][0]["tpr"] == pytest.approx(expected["tpr"])


@pytest.mark.servers
def test_describing_an_unknown_dataset_is_not_retried_but_an_io_failure_is(prefect_server, monkeypatch):
    from prefect import flow, get_client

    from tasks.compare import cells

    @flow
    def describe(name: str):
        """The task run's id and state type (the flow itself completes)."""
        state = cells.describe_dataset_task(name, return_state=True)
        return state.state_details.task_run_id, state.type.value

    def run_count(task_run_id) -> int:
        with get_client(sync_client=True) as client:
            return client.read_task_run(task_run_id).run_count

    task_run, state = describe("no-such-dataset")  # a KeyError: the same name fails the same way again
    assert state == "FAILED" and run_count(task_run) == 1

    def unreadable_disk(name):
        raise OSError(f"{name}: the disk went away")

    monkeypatch.setattr(cells.describe_dataset_task, "retry_delay_seconds", 0)
    monkeypatch.setattr(cells, "describe_dataset", unreadable_disk)
    task_run, state = describe("wisconsin")  # an OSError (a download, a disk) may heal: retried twice
    assert state == "FAILED" and run_count(task_run) == 3
