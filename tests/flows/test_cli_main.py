"""The ``cslearn`` entry point: subcommands, version, plain help, one list syntax, fast checks, defaults."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from flows.cli import build_parser, main
from flows.cli._environment import ENVIRONMENT_DEFAULTS, apply_environment_defaults
from tasks.config.name_index import name_index
from tasks.storage import state_home


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _leaf_parsers(parser, path=()):
    children = _subparsers(parser)
    if not children:
        yield path, parser
    for name, child in children.items():
        yield from _leaf_parsers(child, (*path, name))


def test_every_subcommand_group_is_registered():
    assert set(_subparsers(build_parser())) == {
        "datasets",
        "methods",
        "compare",
        "retrain",
        "serve",
        "score",
        "monitor",
        "replay",
        "report",
        "figure",
        "runs",
    }


def test_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"cslearn {version('cslearn')}"


def test_every_command_has_plain_help_with_examples(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    for path, parser in _leaf_parsers(build_parser()):
        text = parser.format_help()
        assert "``" not in text and ":func:" not in text and ":mod:" not in text, path
        assert "\nexamples:\n  cslearn " in text, path
        for line in text.split("examples:")[0].splitlines():
            assert len(line) <= 100, (path, line)  # prose is filled to the terminal's width


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["compare", "--datasets", "pima,haberman", "wisconsin"],
            {"datasets": ["pima", "haberman", "wisconsin"]},
        ),
        (["compare", "--datasets", "pima", "--datasets", "haberman"], {"datasets": ["pima", "haberman"]}),
        (["compare", "--n-estimators", "25", "50"], {"n_estimators": [25, 50]}),
        (["compare", "--n-estimators", "25,50"], {"n_estimators": [25, 50]}),
        (["compare", "--n-estimators", "25, 50,"], {"n_estimators": [25, 50]}),
        (["compare", "--methods", "adaboost,", "csdt"], {"methods": ["adaboost", "csdt"]}),
        (["compare", "--negative-costs", "0.5,1"], {"negative_costs": [0.5, 1.0]}),
        (["retrain", "credit-scoring", "--candidates", "csdt,bmr-lr"], {"candidates": ["csdt", "bmr-lr"]}),
        (
            ["datasets", "ingest", "f.csv", "--target", "y", "--cost-columns", "a,b", "c", "d"],
            {"cost_columns": ["a", "b", "c", "d"]},
        ),
        (
            ["datasets", "ingest", "f.csv", "--target", "y", "--drop-columns", "id,date"],
            {"drop_columns": ["id", "date"]},
        ),
        (["figure", "boundaries", "--methods", "adaboost,adacc1"], {"methods": ["adaboost", "adacc1"]}),
        (["figure", "boundaries"], {"methods": ["adaboost", "adacc1", "adacc2"]}),
    ],
)
def test_lists_take_spaces_and_commas_alike(argv, expected):
    args = build_parser().parse_args(argv)
    assert {name: getattr(args, name) for name in expected} == expected


def test_a_malformed_list_is_a_usage_error_naming_the_item(capsys):
    for argv, words in (
        (["compare", "--n-estimators", "25,2x"], "--n-estimators: '2x' is not a valid integer"),
        (["datasets", "ingest", "f.csv", "--cost-columns", "a,b,c"], "--cost-columns takes exactly 4 items"),
    ):
        with pytest.raises(SystemExit) as exited:
            build_parser().parse_args(argv)
        assert exited.value.code == 2 and words in capsys.readouterr().err


def test_methods_list_as_a_table_and_as_json(capsys):
    assert main(["methods", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["key", "family", "paper", "costs", "estimator"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert list(rows) == list(name_index().methods)
    assert re.fullmatch(r"csdt\s+tree\s+CSDT\s+example costs\s+CostSensitiveTreeCostPruned", rows["csdt"])
    assert re.fullmatch(r"adaboost\s+boosting\s+AdaCC\s+no\s+AdaBoost", rows["adaboost"])
    assert re.fullmatch(r"adacc1\s+boosting\s+AdaCC\s+example costs\s+AdaCC1", rows["adacc1"])

    assert main(["methods", "list", "--json"]) == 0
    methods = {record["key"]: record for record in json.loads(capsys.readouterr().out)}
    assert methods["bmr-lr"]["uses_costs"] and methods["bmr-lr"]["predict_uses_costs"]
    assert methods["adac1"]["class_costs"] and "negative_cost" in methods["adac1"]["parameters"]
    assert methods["wotboost"]["paper"] == "WOTBoost" and not methods["wotboost"]["uses_costs"]


def test_a_typo_is_rejected_with_suggestions_before_anything_heavy_is_imported(tmp_path, monkeypatch):
    """In a fresh interpreter, as a user runs it: exit 2, the options named, no Prefect nor scikit-learn."""
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    name_index()  # the snapshot a first run builds
    completed = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "flows.cli",
            "compare",
            "--datasets",
            "wisconsn,pima",
            "--methods",
            "adaboots",
            "--folds",
            "1",
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )
    assert completed.returncode == 2
    messages = [line for line in completed.stderr.splitlines() if not line.startswith("import time:")]
    assert messages == [
        "cslearn compare: invalid configuration",
        "  --datasets: unknown dataset 'wisconsn'; did you mean 'wisconsin'? (`cslearn datasets list` shows "
        "them all)",
        "  --methods: unknown method 'adaboots'; did you mean 'adaboost'? (`cslearn methods list` shows them "
        "all)",
        "  --folds: input should be greater than or equal to 2 (got 1)",
    ]
    imported = {
        line.split("|")[-1].strip() for line in completed.stderr.splitlines() if "import time:" in line
    }
    assert not {"sklearn", "pandas", "prefect", "mlflow", "algorithms", "tasks.datasets"} & imported


def test_protocol_errors_are_explained_before_any_work(tmp_path, capsys):
    cells = state_home() / "test-cells" / tmp_path.name
    assert main(["compare", "--datasets", "haberman", "--folds", "90", "--cell-store", str(cells)]) == 2
    assert capsys.readouterr().err.splitlines()[1] == (
        "  90 folds are more than the 81 rows of haberman's smaller class: stratified 90-fold CV needs 90 "
        "rows of each class; use 81 folds or fewer"
    )
    assert (
        main(["compare", "--datasets", "haberman,pima", "--repeats", "1000", "--cell-store", str(cells)]) == 2
    )
    methods = len(name_index().methods)  # every registered method
    assert (
        f"the run has {2 * methods * 5000:,} cells (2 datasets x {methods} methods x 1000 repeats x 5 folds)"
        in capsys.readouterr().err
    )
    assert main(["compare", "--repeats", "1000000000", "--n-estimators", "25,99999999999999999999"]) == 2
    assert capsys.readouterr().err.splitlines()[1:] == [
        "  --repeats: input should be less than or equal to 1000 (got 1000000000)",
        "  --n-estimators (item 2): input should be less than or equal to 10000 (got 99999999999999999999)",
    ]
    assert not cells.exists()


def test_environment_defaults_fill_only_what_the_user_left_unset(monkeypatch):
    for name in ENVIRONMENT_DEFAULTS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "300")
    apply_environment_defaults()
    assert os.environ["PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"] == "300"
    assert os.environ["DO_NOT_TRACK"] == "true" and os.environ["MLFLOW_DISABLE_TELEMETRY"] == "true"
    assert os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"


def test_prefect_state_goes_to_one_place_by_hand_and_under_make(monkeypatch, tmp_path):
    """`cslearn` by hand and the scripts of `make run` / `make deploy` keep Prefect's history in one folder:
    $CSLEARN_HOME/prefect, unless PREFECT_HOME is set."""
    monkeypatch.setenv("CSLEARN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PREFECT_HOME")
    apply_environment_defaults()
    assert os.environ["PREFECT_HOME"] == str((tmp_path / "home" / "prefect").resolve())
    monkeypatch.delenv("PREFECT_HOME")
    script = 'PROJECT_DIR="$1"; source "$1/scripts/_environment.sh"; echo "$PREFECT_HOME"'
    project = str(Path(__file__).resolve().parents[2])
    env = {key: value for key, value in os.environ.items() if key != "PREFECT_HOME"}
    shown = subprocess.run(
        ["bash", "-c", script, "bash", project], env=env, capture_output=True, text=True, check=True
    )
    assert Path(shown.stdout.strip()) == (tmp_path / "home" / "prefect").resolve()
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path / "mine"))
    apply_environment_defaults()
    assert os.environ["PREFECT_HOME"] == str(tmp_path / "mine")  # the user's choice stands


def test_a_reader_that_stops_early_gets_no_traceback():
    process = subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "datasets", "list", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first_line = process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    stderr = process.stderr.read().decode()
    process.wait(timeout=120)

    assert first_line.startswith(b'{"name": ')
    assert "Traceback" not in stderr, stderr
    assert process.returncode in (0, 141)


def test_compare_takes_a_training_set_and_method_params_as_json(capsys):
    from flows.cli.compare import params_from_args

    args = build_parser().parse_args(
        ["compare", "--training-set", "over", "--method-params", '{"csdt": {"pruning": null}}']
    )
    assert params_from_args(args) == {"training_set": "over", "method_params": {"csdt": {"pruning": None}}}
    for bad in ("[1]", "{x"):
        with pytest.raises(SystemExit) as exited:
            build_parser().parse_args(["compare", "--method-params", bad])
        assert (
            exited.value.code == 2 and "--method-params: invalid JSON object value" in capsys.readouterr().err
        )


def test_a_compare_without_repeats_says_how_many_cells_it_fits_before_starting(monkeypatch, capsys):
    from tests.servers import free_port

    monkeypatch.setenv("PREFECT_API_URL", f"http://127.0.0.1:{free_port()}/api")  # nothing answers: exit 1
    arguments = ["compare", "--datasets", "pima", "haberman", "--methods", "adaboost,dt"]
    assert main(arguments) == 1
    first, second = capsys.readouterr().err.splitlines()[:2]
    assert first == (
        "cslearn compare: 200 cells to fit (2 datasets x 2 methods x 10 repeats x 5 folds: the papers' 10 "
        "repeats of cv, as --repeats was not given); --repeats 1 fits 20, and fewer --methods or --datasets "
        "fewer still"
    )
    assert "does not answer" in second  # said before Prefect is even reached
    assert main([*arguments, "--repeats", "2"]) == 1
    assert "cells to fit" not in capsys.readouterr().err
