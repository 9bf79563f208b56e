"""A comparison whose MLflow store fails says how many cells it keeps (``tasks.compare.comparison_runs``)."""

from __future__ import annotations

import pickle
import shutil

import pytest
from mlflow import MlflowClient

from schemas.flow_params import CompareParams
from tasks.compare import cell_compute
from tasks.compare.cell_compute import CellStore, compute_cell, describe_dataset
from tasks.compare.cells import plan_cells
from tasks.compare.comparison_runs import ComparisonStoreError, cells_kept_if_the_store_fails


def test_a_store_failure_ends_the_comparison_with_the_cells_kept(tmp_path, monkeypatch):
    params = CompareParams(datasets=("wisconsin",), methods=("dt",), repeats=1, folds=3)
    specs = plan_cells(params, [describe_dataset("wisconsin")], ["dt"])
    store = CellStore(tmp_path / "cells")
    for spec in specs[:2]:
        assert compute_cell(spec, store)["status"] == "ok"
    with monkeypatch.context() as patched:  # a failed cell is stored too, but a rerun computes it again
        patched.setattr(cell_compute, "build_estimator", lambda *_, **__: 1 / 0)
        assert compute_cell(specs[2], store)["status"] == "failed"

    database = tmp_path / "store" / "mlflow.db"
    uri = f"sqlite:///{database}"
    client = MlflowClient(uri)
    experiment = client.create_experiment("comparison")
    shutil.rmtree(database.parent)  # the store is deleted while the comparison logs to it
    with pytest.raises(ComparisonStoreError) as raised, cells_kept_if_the_store_fails(uri, store, specs):
        client.create_run(experiment)
    assert str(raised.value) == (
        f"the MLflow store {uri} failed: its database file {database} no longer exists (deleted during the "
        f"run?); 2 of 3 cells are kept in {store.root}: rerun the same comparison to resume once the store "
        "works again"
    )
    assert str(pickle.loads(pickle.dumps(raised.value))) == str(raised.value)  # Prefect keeps it in a state


def test_other_errors_pass_unchanged(tmp_path):
    with (
        pytest.raises(KeyError, match="not the store"),
        cells_kept_if_the_store_fails(None, CellStore(tmp_path), []),
    ):
        raise KeyError("not the store")
