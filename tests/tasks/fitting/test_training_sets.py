"""The CSDT paper's training sets: what each keeps, and cells trained on them."""

from __future__ import annotations

import numpy as np
import pytest

from schemas.flow_params import CompareParams
from tasks.compare.cell_compute import CellStore, compute_cell, describe_dataset
from tasks.compare.cells import plan_cells
from tasks.config.checks import ProtocolError
from tasks.fitting.training_sets import TRAINING_SETS, resample_training_set


def _problem():
    rng = np.random.default_rng(0)
    features = rng.normal(size=(40, 2))
    target = np.r_[np.ones(8, int), np.zeros(32, int)]
    costs = np.zeros((40, 4))
    costs[:, 0] = 1.0  # C_FP
    costs[:, 1] = np.r_[np.linspace(2.0, 10.0, 8), np.zeros(32)]  # C_FN of the positives
    return features, target, costs


def test_train_is_the_split_itself():
    features, target, costs = _problem()
    chosen = resample_training_set("train", features, target, costs)
    assert chosen.features is features and chosen.target is target and chosen.cost_matrix is costs


def test_under_sampling_balances_the_classes_with_original_rows_and_their_costs():
    features, target, costs = _problem()
    chosen = resample_training_set("under", features, target, costs, random_state=3)
    assert np.bincount(chosen.target).tolist() == [8, 8]
    rows = [int(np.flatnonzero((features == row).all(axis=1))[0]) for row in chosen.features]
    assert np.array_equal(chosen.cost_matrix, costs[rows]) and rows == sorted(rows)


def test_over_sampling_copies_rows_in_proportion_to_their_cost():
    features, target, costs = _problem()
    chosen = resample_training_set("over", features, target, costs)
    # w = C_FN of positives (2..10), C_FP = 1 of negatives: ceil(10 w / 10) copies
    expected = np.ceil(np.round(np.r_[np.linspace(2.0, 10.0, 8), np.ones(32)] / 10 * 10, 9)).astype(int)
    assert chosen.target.size == expected.sum()
    assert np.array_equal(np.bincount(chosen.target), [32, expected[:8].sum()])
    assert np.array_equal(chosen.features[:2], features[[0, 0]])  # the first row twice (w = 2)


def test_rejection_sampling_keeps_the_most_expensive_row_and_is_seeded():
    features, target, costs = _problem()
    first = resample_training_set("rejection", features, target, costs, random_state=1)
    again = resample_training_set("rejection", features, target, costs, random_state=1)
    assert np.array_equal(first.features, again.features)
    assert any((row == features[7]).all() for row in first.features)  # w / max w = 1
    assert first.target.size < target.size


@pytest.mark.parametrize("name", ["rejection", "over"])
def test_cost_proportionate_sets_need_costs(name):
    features, target, _ = _problem()
    with pytest.raises(ValueError, match="needs a dataset with example-dependent costs"):
        resample_training_set(name, features, target)


def test_unknown_training_set():
    features, target, costs = _problem()
    with pytest.raises(ValueError, match="unknown training set 'bootstrap'"):
        resample_training_set("bootstrap", features, target, costs)
    assert TRAINING_SETS == ("train", "under", "rejection", "over")


@pytest.fixture(scope="module")
def wisconsin():
    return describe_dataset("wisconsin")


def test_the_default_training_set_keeps_the_cell_key_and_others_change_it(wisconsin):
    params = CompareParams(datasets=("wisconsin",), methods=("dt",), repeats=1, folds=3)
    spec = plan_cells(params, [wisconsin], ["dt"])[0]
    assert spec.training_set == "train"
    assert spec.key == spec.model_copy(update={"training_set": "train"}).key
    legacy = {name: value for name, value in spec.model_dump().items() if name != "training_set"}
    assert type(spec).model_validate(legacy).key == spec.key
    assert spec.model_copy(update={"training_set": "under"}).key != spec.key


def test_an_under_sampled_cell_trains_on_the_balanced_rows(wisconsin, tmp_path):
    params = CompareParams(datasets=("wisconsin",), methods=("dt",), repeats=1, folds=3, training_set="under")
    spec = plan_cells(params, [wisconsin], ["dt"])[0]
    result = compute_cell(spec, CellStore(tmp_path))
    assert result["status"] == "ok", result["traceback"]
    positives_in_training = round(212 * 2 / 3)
    assert abs(result["n_train"] - 2 * positives_in_training) <= 2
    assert 189 <= result["n_test"] <= 190


def test_cost_proportionate_sets_are_refused_for_a_dataset_without_costs(wisconsin):
    params = CompareParams(datasets=("wisconsin",), methods=("dt",), repeats=1, folds=3, training_set="over")
    with pytest.raises(ProtocolError, match="which wisconsin has not"):
        plan_cells(params, [wisconsin], ["dt"])
