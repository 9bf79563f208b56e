"""``cslearn retrain``: a bad configuration exits 2 before any work; ``--json`` and the table report a run."""

from __future__ import annotations

import json
import uuid

import pytest
from mlflow import MlflowClient

from flows.cli import main
from flows.cli.retrain import format_candidates

pytestmark = pytest.mark.servers


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
    argv = ["retrain", "direct-marketing", "--candidates", "dt", "--max-rows", "1500", "--seed", "3"]
    argv += ["--tracking-uri", mlflow_server, "--model-name", model_name, "--json"]
    assert main(argv) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["best"] == "dt" and set(outcome["candidates"]) == {"dt"}
    assert (outcome["model_name"], outcome["version"], outcome["alias"]) == (model_name, "1", "champion")
    assert outcome["metrics"]["dt"]["savings"] == pytest.approx(outcome["candidates"]["dt"])
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
