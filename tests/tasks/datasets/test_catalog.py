"""User datasets are first-class: listed, described, loaded by name with their costs (issue 11, point 10)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from tasks.datasets import (
    DATASETS,
    available_datasets,
    dataset_entry,
    dataset_names,
    ingest_file,
    load_dataset,
)
from tests.tasks.datasets.conftest import FIXTURES, run_cli

COSTS = ["cost_fp", "cost_fn", "cost_tp", "cost_tn"]


@pytest.fixture
def good(cache_dir, tmp_path):
    """``good``: a user dataset with the four cost columns, from ``good.csv`` (semicolon-separated)."""
    source = tmp_path / "good.csv"
    source.write_text((FIXTURES / "user_costs.csv").read_text().replace(",", ";"))
    return ingest_file(source, target="fraud", positive="yes", cost_columns=COSTS, cache_dir=cache_dir)


def test_dataset_names_are_the_registered_then_the_users(cache_dir, good, tmp_path):
    assert dataset_names() == (*DATASETS, "good")
    other = tmp_path / "Another File.csv"
    other.write_text("a,y\n1,no\n2,yes\n3,no\n")
    ingest_file(other, target="y")
    assert dataset_names(cache_dir=cache_dir)[len(DATASETS) :] == ("another-file", "good")


def test_load_dataset_loads_a_user_dataset_with_its_cost_matrix(cache_dir, good):
    loaded = load_dataset("good")
    assert loaded.name == "good" and loaded.fingerprint == good.fingerprint
    assert loaded.features.columns.tolist() == ["income", "region=east", "region=north", "region=south"]
    assert loaded.target.tolist() == [0, 0, 1, 0, 0, 1, 0, 0]
    assert loaded.cost_matrix.shape == (8, 4) and loaded.cost_matrix.dtype == np.float64
    assert loaded.cost_matrix[0].tolist() == [5.0, 120.5, 5.0, 0.0]  # [C_FP, C_FN, C_TP, C_TN] of row 0
    assert loaded.spec.cost_model is None and loaded.spec.source.path == good.spec.source.path


def test_entries_describe_both_kinds_without_loading(cache_dir, good):
    entries = available_datasets()
    assert list(entries) == list(dataset_names())
    user, registered = entries["good"], entries["card-fraud"]
    assert (user.kind, user.cost_model, user.cost_columns, user.has_example_costs) == (
        "user",
        None,
        tuple(COSTS),
        True,
    )
    assert (registered.kind, registered.cost_model, registered.cost_columns) == (
        "registered",
        "card-fraud",
        (),
    )
    assert registered.has_example_costs and not entries["pima"].has_example_costs
    described = user.describe()
    assert described["cache"]["rows"] == 8 and described["cache"]["delimiter"] == ";"
    assert described["source"] == {"kind": "local-file", "path": str(good.spec.source.path)}
    assert described["minority_rule"] == "fraud == 'yes'" and described["cache_problem"] is None


def test_business_datasets_are_those_with_example_costs(cache_dir, good, tmp_path):
    plain = tmp_path / "plain.csv"
    plain.write_text("a,y\n1,no\n2,yes\n3,no\n")
    ingest_file(plain, target="y")
    with_costs = [name for name, entry in available_datasets().items() if entry.has_example_costs]
    registered = [name for name, spec in DATASETS.items() if spec.cost_model]
    assert with_costs == [*registered, "good"]


def test_unknown_name_lists_registered_and_user_datasets(cache_dir, good):
    with pytest.raises(
        KeyError, match=r"unknown dataset 'goood'; known datasets: abalone, .*; user datasets: good"
    ):
        load_dataset("goood")
    with pytest.raises(KeyError, match="unknown dataset '../good'"):
        dataset_entry("../good")


def test_a_user_entry_under_a_registered_name_is_ignored(cache_dir, good, caplog):
    folder = cache_dir / "datasets" / "user"
    shutil.copy(folder / "good.json", folder / "pima.json")
    with caplog.at_level("WARNING"):
        names = dataset_names()
    assert names.count("pima") == 1 and dataset_entry("pima").kind == "registered"
    assert "user dataset(s) ['pima'] in the cache have the name of a registered dataset" in caplog.text


def test_cli_lists_shows_and_ingests_a_user_dataset(cache_dir, good, capsys):
    assert run_cli(["datasets", "list"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert ["good", "yes", "8", "2", "(user)", "cost", "columns", "local-file"] in rows
    assert run_cli(["datasets", "list", "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert listed[-1]["name"] == "good" and listed[-1]["kind"] == "user" and listed[-1]["cached"] is True

    assert run_cli(["datasets", "show", "good", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["kind"] == "user" and shown["cache"]["cost_columns"] == COSTS
    assert shown["cost_characteristic_all_rows"]["n_examples"] == 8

    assert run_cli(["datasets", "ingest", "good", "--json"]) == 0  # a user name: verified from the cache
    assert json.loads(capsys.readouterr().out)["fingerprint"] == good.fingerprint
    inode = good.path.stat().st_ino
    assert run_cli(["datasets", "ingest", "good", "--force", "--json"]) == 0  # again from its source
    assert json.loads(capsys.readouterr().out)["fingerprint"] == good.fingerprint
    assert good.path.stat().st_ino != inode  # a new parquet was renamed into place


def test_re_ingesting_by_name_keeps_the_recorded_options(cache_dir, good):
    from tasks.datasets import reingest_user_dataset

    source = good.spec.source.path
    source.write_text(source.read_text() + "500;west;yes;5;50;5;0\n")
    again = reingest_user_dataset("good")
    assert again.metadata["delimiter"] == ";" and again.metadata["positive"] == "yes"
    assert again.n_positives == 3 and again.cost_matrix.shape == (9, 4)
