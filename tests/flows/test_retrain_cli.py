"""``cslearn retrain``: a bad configuration exits 2 before any work; ``--json`` and the table report a run."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from mlflow import MlflowClient

from flows.cli import main
from flows.cli.retrain import format_candidates

pytestmark = pytest.mark.servers

CSLEARN = str(Path(sys.executable).parent / "cslearn")


def test_a_bad_configuration_exits_2_naming_the_problem(capsys):
    assert main(["retrain", "wisconsin", "--max-rows", "3", "--candidates", "csdt,bmr-lrr"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "cslearn retrain: invalid configuration",
        "  DATASET: dataset 'wisconsin' is not a business dataset (one with example-dependent costs: a cost "
        "model or cost columns); choose one of: card-fraud, card-fraud-dedup, credit-pakdd, credit-scoring, "
        "direct-marketing",
        "  --candidates: unknown method 'bmr-lrr'; did you mean 'bmr-lr'? (`cslearn methods list` shows them "
        "all)",
        "  --max-rows: input should be greater than or equal to 20 (got 3)",
    ]


def test_json_reports_candidates_registry_decision_and_parent_run(prefect_server, mlflow_server, capsys):
    model_name = f"cli-dm-{uuid.uuid4().hex[:8]}"
    # csdt saves 0.61 on this holdout (a plain decision tree loses money there and is never promoted)
    argv = ["retrain", "direct-marketing", "--candidates", "csdt", "--max-rows", "1500", "--seed", "3"]
    argv += ["--tracking-uri", mlflow_server, "--model-name", model_name, "--json"]
    assert main(argv) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["best"] == "csdt" and set(outcome["candidates"]) == {"csdt"}
    assert (outcome["model_name"], outcome["version"], outcome["alias"]) == (model_name, "1", "champion")
    assert outcome["metrics"]["csdt"]["savings"] == pytest.approx(outcome["candidates"]["csdt"])
    assert outcome["warnings"] == []  # 57 positives in the holdout
    run = MlflowClient(mlflow_server).get_run(outcome["parent_run_id"])
    assert run.info.status == "FINISHED" and run.data.params["max_rows"] == "1500"


def test_the_table_lists_the_best_candidate_first_and_the_verdict():
    outcome = {
        "best": "csdt",
        "candidates": {"dt": 0.1, "csdt": 0.35},
        "metrics": {
            "dt": {
                "savings": 0.1,
                "cost": 1200.0,
                "f1": 0.2,
                "tpr": 0.3,
                "tnr": 0.9,
                "auc": 0.7,
                "fit_seconds": 0.5,
            },
            "csdt": {
                "savings": 0.35,
                "cost": 800.0,
                "f1": 0.25,
                "tpr": 0.6,
                "tnr": 0.8,
                "auc": float("nan"),
                "fit_seconds": 1.5,
            },
        },
        "model_name": "cslearn-credit-scoring",
        "version": "3",
        "alias": "challenger",
        "previous_champion_version": "2",
        "previous_champion_savings": 0.4,
        "parent_run_id": "abc123",
    }
    lines = format_candidates(outcome).splitlines()
    assert lines[0].split() == ["method", "savings", "cost", "f1", "tpr", "tnr", "auc", "fit_seconds"]
    assert lines[1].split() == [
        "csdt",
        "*",
        "0.3500",
        "800.0000",
        "0.2500",
        "0.6000",
        "0.8000",
        "-",
        "1.5000",
    ]
    assert lines[2].split()[0] == "dt"
    assert lines[-3] == (
        "cslearn-credit-scoring v3 (csdt) is now 'challenger'; champion v2 scored 0.4000 on the same holdout"
    )
    assert lines[-2] == "MLflow parent run: abc123"
    assert lines[-1] == "no HTML report (nothing to report); once cells succeed: cslearn report abc123"


def test_the_table_says_when_nothing_was_registered():
    outcome = {
        "best": "dt",
        "candidates": {"dt": 0.1},
        "metrics": {"dt": {"savings": 0.1}},
        "model_name": "cslearn-direct-marketing",
        "registered": False,
        "version": None,
        "alias": None,
        "reason": "nothing registered: dt (savings 0.1000) repeats champion v3: same method, data"
        " fingerprint, code commit abc, holdout and score",
        "previous_champion_version": "3",
        "previous_champion_savings": 0.1,
        "parent_run_id": "abc123",
    }
    assert format_candidates(outcome).splitlines()[-3] == (
        "cslearn-direct-marketing: nothing registered: dt (savings 0.1000) repeats champion v3: same method,"
        " data fingerprint, code commit abc, holdout and score"
    )


def test_the_verdict_comes_first():
    outcome = {
        "best": "dt",
        "candidates": {"dt": 0.1},
        "metrics": {"dt": {"savings": 0.1}},
        "model_name": "cslearn-direct-marketing",
        "version": "4",
        "alias": "challenger",
        "previous_champion_version": "3",
        "previous_champion_savings": 0.2,
        "parent_run_id": "abc123",
        "verdict": "champion kept: v3 bmr-lr 0.200; best new dt 0.100 (-0.100), registered as challenger v4",
    }
    lines = format_candidates(outcome).splitlines()
    assert lines[0] == (
        "Registry: champion kept: v3 bmr-lr 0.200; best new dt 0.100 (-0.100), registered as challenger v4"
    )
    assert lines[1] == "" and lines[2].split()[:2] == ["method", "savings"]


def test_a_first_model_that_loses_money_is_not_promoted_and_says_why(prefect_server, mlflow_server, capsys):
    """Issue 25: ``--max-rows 20`` made csdt (savings -1.82, one positive in the holdout) "the first
    champion", without a word."""
    model_name = f"cli-losing-{uuid.uuid4().hex[:8]}"
    argv = ["retrain", "direct-marketing", "--candidates", "csdt", "--max-rows", "20"]
    assert main([*argv, "--tracking-uri", mlflow_server, "--model-name", model_name]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "Registry: not promoted: best new csdt -1.821 saves nothing on the holdout (savings not positive),"
        f" registered as challenger v1; {model_name} has no champion yet"
    )
    assert (
        f"{model_name} v1 (csdt) is now 'challenger': v1 is not promoted: its holdout savings -1.8213 are not"
        " positive: it saves nothing over the cheaper of flagging every row or none; the model has no"
        " champion yet" in lines
    )
    assert (
        "warning: the holdout has 1 positive row (fewer than 30): its savings are too noisy to tell a good"
        " model from a lucky one; retrain with more rows (--max-rows) or a larger --holdout-fraction" in lines
    )
    client = MlflowClient(mlflow_server)
    assert client.get_registered_model(model_name).aliases == {"challenger": "1"}
    description = client.get_model_version(model_name, "1").description
    assert "Not promoted: its holdout savings -1.8213" in description


def test_every_candidate_failing_ends_in_one_line_and_exit_1(prefect_server, mlflow_server):
    """Issue 25: when every candidate failed, ``cslearn retrain`` printed 8 tracebacks ending
    ``RuntimeError``.

    With 20 rows the holdout leaves two positives to train on, and both calibrated candidates refuse them.
    The command runs as a real process (its stderr is what a user reads, Prefect's log included).
    """
    model_name = f"cli-all-fail-{uuid.uuid4().hex[:8]}"
    command = [CSLEARN, "retrain", "direct-marketing", "--candidates", "bmr-lr,bmr-hgb", "--max-rows", "20"]
    command += ["--tracking-uri", mlflow_server, "--model-name", model_name]
    completed = subprocess.run(command, capture_output=True, text=True, env=os.environ, timeout=600)

    assert completed.returncode == 1 and completed.stdout == ""
    assert "Traceback" not in completed.stderr
    said = re.fullmatch(
        r"cslearn retrain: every candidate failed on direct-marketing: (.+)\. Nothing was registered and the"
        r" champion stays; MLflow run ([0-9a-f]{32}) is FAILED",
        completed.stderr.splitlines()[-1],
    )
    assert said is not None, completed.stderr[-2000:]
    errors, run_id = said.groups()
    assert errors.startswith("bmr-lr: ValueError: calibration with cv=3")  # in the order asked
    assert "; bmr-hgb: ValueError: calibration with cv=3" in errors
    client = MlflowClient(mlflow_server)
    run = client.get_run(run_id)
    assert run.info.status == "FAILED" and run.data.tags["cslearn.dataset"] == "direct-marketing"
    children = client.search_runs(
        [run.info.experiment_id], filter_string=f"tags.mlflow.parentRunId = '{run_id}'"
    )
    assert sorted(child.info.status for child in children) == ["FAILED", "FAILED"]
    assert client.search_registered_models(f"name='{model_name}'") == []
