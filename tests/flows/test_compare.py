"""The compare flow on real Prefect and MLflow servers: run tree, metrics, artifacts, resume, failures."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pandas as pd
import pytest
from mlflow import MlflowClient
from pydantic import ValidationError
from sklearn.tree import DecisionTreeClassifier

from algorithms import METHODS
from flows.cli import main
from flows.compare import run_compare
from tasks.storage import state_home

pytestmark = pytest.mark.servers


#: Environment variable naming the file where ``CountingTree`` records its fits.
FIT_LOG = "CSLEARN_TEST_FIT_LOG"


class CountingTree(DecisionTreeClassifier):
    """A real depth-2 tree that counts its fits (to see which cells a rerun skips).

    Cells fit in worker processes, which get this class from the parent (``tasks.fitting.fit_pool``) and the
    log file's name from the environment they inherit: each fit appends one line to that file.
    """

    def __init__(self, max_depth=2, random_state=None):
        super().__init__(max_depth=max_depth, random_state=random_state)

    def fit(self, X, y, sample_weight=None, check_input=True):
        with open(os.environ[FIT_LOG], "a") as log:  # one short append: atomic across processes
            log.write(f"{os.getpid()} {len(y)}\n")
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


def fit_count() -> int:
    """Fits of ``CountingTree`` so far, in any process."""
    return len(Path(os.environ[FIT_LOG]).read_text().splitlines())


class ExplodingTree(DecisionTreeClassifier):
    """A method whose fit always fails."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        raise FloatingPointError("weights overflowed in round 3")


@pytest.fixture
def test_methods(monkeypatch, tmp_path):
    monkeypatch.setitem(METHODS, "counting-tree", CountingTree)
    monkeypatch.setitem(METHODS, "exploding-tree", ExplodingTree)
    fit_log = tmp_path / "fits.log"
    fit_log.touch()
    monkeypatch.setenv(FIT_LOG, str(fit_log))


def _store(tmp_path):
    """A cell store of this test inside the state folder (``$CSLEARN_HOME``), as an absolute path."""
    return state_home() / "test-cells" / tmp_path.name


def _params(tracking_uri, tmp_path, **changes):
    return {
        "datasets": ["wisconsin"],
        "methods": ["adaboost", "counting-tree", "exploding-tree"],
        "protocol": "cv",
        "repeats": 1,
        "folds": 2,
        "n_estimators": [3, 6],
        "tracking_uri": tracking_uri,
        "experiment": f"compare-{tmp_path.name}",
        "cell_store": str(_store(tmp_path)),
        **changes,
    }


def test_run_tree_metrics_artifacts_resume_and_failures(
    prefect_server, mlflow_server, tmp_path, test_methods
):
    first = run_compare(_params(mlflow_server, tmp_path))
    assert first["cells"] == {"total": 6, "resumed": 0, "computed": 6, "failed": 2}
    assert fit_count() == 2

    client = MlflowClient(mlflow_server)
    parent = client.get_run(first["parent_run_id"])
    assert parent.info.status == "FINISHED"
    assert parent.info.run_name == "compare 1 dataset x 3 methods cv 1x2"
    assert parent.data.tags["cslearn.purpose"] == "compare"
    assert len(parent.data.tags["git.commit"]) == 40
    fingerprint = parent.data.tags["dataset.wisconsin.fingerprint"]
    assert len(fingerprint) == 64 and len(parent.data.tags["cslearn.config_hash"]) == 64
    assert parent.data.params["protocol"] == "cv" and parent.data.params["n_estimators"] == "3, 6"
    assert parent.data.params["methods"] == "adaboost, counting-tree, exploding-tree"
    assert parent.data.metrics["cells/failed"] == 2 and parent.data.metrics["cells/ok"] == 4
    assert not any("'" in value or value.startswith(("(", "[")) for value in parent.data.params.values())
    [logged] = parent.inputs.dataset_inputs
    assert logged.dataset.name == "wisconsin" and logged.dataset.digest == fingerprint[:36]
    assert "pypi.org" in logged.dataset.source or "scikit-learn" in logged.dataset.source

    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as prefect:
        flow_run = prefect.read_flow_run(parent.data.tags["prefect.flow_run_id"])
    assert flow_run.state.is_completed()

    children = client.search_runs(
        [first["experiment_id"]], filter_string=f"tags.mlflow.parentRunId = '{first['parent_run_id']}'"
    )
    by_method = {run.data.tags["method"]: run for run in children}
    assert set(by_method) == {"adaboost", "counting-tree", "exploding-tree"}
    assert by_method["exploding-tree"].info.status == "FAILED"
    assert (
        by_method["exploding-tree"].data.tags["error"] == "FloatingPointError: weights overflowed in round 3"
    )

    boosted = by_method["adaboost"]
    assert boosted.info.status == "FINISHED"
    assert boosted.data.params["n_estimators"] == "6" and boosted.data.params["protocol"] == "cv"
    assert boosted.data.params["ensemble_sizes"] == "3, 6"
    metrics = boosted.data.metrics
    assert {"mean/f1", "std/f1", "T3/auc", "T6/auc", "mean/opm", "cells/ok", "mean/fit_seconds"} <= set(
        metrics
    )
    groups = {name.split("/")[0] for name in metrics}
    assert groups == {"mean", "std", "T3", "T6", "by_T", "round", "cells"}, groups
    folds = pd.read_csv(client.download_artifacts(boosted.info.run_id, "results/folds.csv", str(tmp_path)))
    assert folds["fold"].tolist() == [0, 1] and set(folds["n_estimators"]) == {6}
    assert metrics["mean/f1"] == pytest.approx(folds["f1"].mean())
    staged = client.get_metric_history(boosted.info.run_id, "by_T/f1")
    assert sorted(metric.step for metric in staged) == [3, 6]
    rounds = [name for name in metrics if name.startswith("round/")]
    assert "round/train_tpr" in rounds, "boosting child runs carry per-round curves"
    history = client.get_metric_history(boosted.info.run_id, "round/train_tpr")
    assert [metric.step for metric in sorted(history, key=lambda m: m.step)][:3] == [1, 2, 3]
    figures = {item.path for item in client.list_artifacts(boosted.info.run_id, "figures")}
    assert figures == {"figures/summary.png"}  # one small figure per child run
    assert not client.list_artifacts(by_method["exploding-tree"].info.run_id, "figures")

    # A child run's start and end are those of its cells (fit time), not the time it was logged.
    records = [json.loads(path.read_text()) for path in Path(_store(tmp_path)).rglob("*.json")]
    adaboost_cells = [record for record in records if record["method"] == "adaboost"]
    assert boosted.info.start_time == int(min(r["started_at"] for r in adaboost_cells) * 1000)
    assert boosted.info.end_time == int(max(r["ended_at"] for r in adaboost_cells) * 1000)

    artifacts = {item.path for item in client.list_artifacts(first["parent_run_id"], "results")}
    assert {
        "results/results.csv",
        "results/results.parquet",
        "results/summary.csv",
        "results/overall.csv",
        "results/split_scores.parquet",
    } <= artifacts
    local = client.download_artifacts(first["parent_run_id"], "results/results.parquet", str(tmp_path))
    table = pd.read_parquet(local)
    assert len(table) == 2 * 2 + 2 + 2  # adaboost x (T=3, 6), the tree once per fold, two failed rows
    assert set(table.loc[table["status"] == "failed", "method"]) == {"exploding-tree"}
    adaboost_final = table[(table["method"] == "adaboost") & (table["n_estimators"] == 6)]
    assert adaboost_final["f1"].mean() == pytest.approx(metrics["mean/f1"])

    second = run_compare(_params(mlflow_server, tmp_path))  # the failed cells run again: a new parent run
    assert second["cells"] == {"total": 6, "resumed": 4, "computed": 2, "failed": 2}
    assert fit_count() == 2  # no tree was refit
    assert second["parent_run_id"] != first["parent_run_id"] and not second["reused_run"]
    resumed = client.get_run(second["parent_run_id"]).data.tags
    assert resumed["cslearn.resumes_run_id"] == first["parent_run_id"]
    assert resumed["cslearn.config_hash"] == parent.data.tags["cslearn.config_hash"]
    assert [r for r in second["summary"] if r["method"] == "adaboost"] == [
        r for r in first["summary"] if r["method"] == "adaboost"
    ]

    third = run_compare(_params(mlflow_server, tmp_path, seed=1, methods=["counting-tree"]))
    assert third["cells"]["computed"] == 2 and fit_count() == 4  # a new seed is a new cell
    assert "cslearn.resumes_run_id" not in client.get_run(third["parent_run_id"]).data.tags


def test_a_pure_resume_reuses_the_finished_run(prefect_server, mlflow_server, tmp_path, test_methods):
    params = _params(mlflow_server, tmp_path, methods=["counting-tree", "dt"])
    first = run_compare(params)
    again = run_compare(params)
    assert again["reused_run"] and again["parent_run_id"] == first["parent_run_id"]
    assert again["cells"] == {"total": 4, "resumed": 4, "computed": 0, "failed": 0}
    assert again["child_runs"] == first["child_runs"] and again["summary"] == first["summary"]
    assert again["report"]["uri"] == first["report"]["uri"]
    client = MlflowClient(mlflow_server)
    runs = client.search_runs([first["experiment_id"]])
    assert len(runs) == 3  # one parent and two children: nothing new was logged
    tags = client.get_run(first["parent_run_id"]).data.tags
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as prefect:
        reusing = prefect.read_flow_run(tags["cslearn.reused_by_flow_run"])
    assert reusing.state.is_completed() and str(reusing.id) != tags["prefect.flow_run_id"]


def test_bad_configuration_fails_before_any_work(mlflow_server, tmp_path, test_methods, capsys):
    for bad in (
        {"methods": ["no-such-method"]},
        {"datasets": ["no-such-data"]},
        {"folds": 1},
        {"protocol": "loo"},
        {"n_estimators": [25, 25]},
        {"typo_field": 1},
    ):
        with pytest.raises(ValidationError):
            run_compare(_params(mlflow_server, tmp_path, **bad))
    for bad, message in (
        ({"methods": None, "method_params": {"no-such-method": {"depth": 1}}}, "unknown methods"),
        ({"method_params": {"adaboost": {"max_dept": 2}}}, r"unknown parameter\(s\) \['max_dept'\]"),
    ):
        with pytest.raises(ValidationError, match=message):
            run_compare(_params(mlflow_server, tmp_path, **bad))
    assert fit_count() == 0
    assert MlflowClient(mlflow_server).get_experiment_by_name(f"compare-{tmp_path.name}") is None
    assert not (_store(tmp_path)).exists()

    status = main(
        [
            "compare",
            "--methods",
            "no-such-method",
            "--folds",
            "1",
            "--cell-store",
            str(_store(tmp_path) / "c"),
        ]
    )
    assert status == 2
    assert capsys.readouterr().err.splitlines() == [
        "cslearn compare: invalid configuration",
        "  --methods: unknown method 'no-such-method' (`cslearn methods list` shows them all)",
        "  --folds: input should be greater than or equal to 2 (got 1)",
    ]
    assert not (_store(tmp_path) / "c").exists()


def test_cli_json_prints_the_summary_and_parent_run(
    prefect_server, mlflow_server, tmp_path, test_methods, capsys, caplog
):
    arguments = [
        "compare",
        "--datasets",
        "wisconsin",
        "--methods",
        "counting-tree",
        "--protocol",
        "holdout",
        "--repeats",
        "2",
        "--tracking-uri",
        mlflow_server,
        "--experiment",
        f"cli-{tmp_path.name}",
        "--cell-store",
        str(_store(tmp_path)),
    ]
    status = main([*arguments, "--json"])
    captured = capsys.readouterr()
    assert status == 0
    document = json.loads(captured.out)
    assert document["cells"] == {"total": 2, "resumed": 0, "computed": 2, "failed": 0}
    assert document["failed_cells"] == []
    assert MlflowClient(mlflow_server).get_run(document["parent_run_id"]).info.status == "FINISHED"
    [row] = document["summary"]
    assert row["method"] == "counting-tree" and row["folds"] == 2 and row["n_estimators"] is None
    progress = [record.getMessage() for record in caplog.records if record.getMessage().startswith("cells ")]
    assert progress[-1].startswith("cells 2/2 (0 resumed, 0 failed) elapsed ")

    assert document["report"]["artifact"] == "report/report.html"
    assert document["report"]["uri"].endswith(f"{document['parent_run_id']}/artifacts/report/report.html")

    assert main(arguments) == 0  # the same command again, as text: every cell is resumed, the run reused
    text = capsys.readouterr().out
    assert "cells: 2 total, 2 resumed, 0 computed, 0 failed" in text
    assert f"MLflow parent run {document['parent_run_id']} (reused: every cell was already done)" in text
    run = MlflowClient(mlflow_server).get_run(document["parent_run_id"])
    view = f"#/experiments/{run.info.experiment_id}/runs/{run.info.run_id}/artifacts/report/report.html"
    assert f"HTML report: {mlflow_server}/{view}?workflowType=machine_learning" in text  # opens in the UI
    assert "HTML report file:" not in text  # a tracking server: no local file to name
    assert fit_count() == 2


def test_cli_text_summary_ranks_tests_in_words_and_a_failed_cell_exits_1(
    prefect_server, mlflow_server, tmp_path, test_methods, capsys
):
    status = main(
        [
            "compare",
            "--datasets",
            "wisconsin,haberman",
            "--methods",
            "counting-tree",
            "adaboost",
            "dt",
            "exploding-tree",
            "--folds",
            "2",
            "--repeats",
            "1",
            "--n-estimators",
            "3,6",
            "--tracking-uri",
            mlflow_server,
            "--experiment",
            f"cli-text-{tmp_path.name}",
            "--cell-store",
            str(_store(tmp_path)),
        ]
    )
    captured = capsys.readouterr()
    assert status == 1
    lines = captured.out.splitlines()
    assert lines[0].startswith("Leaderboard: ranked by OPM per dataset at the largest T, over 2 datasets")
    header = lines[1].split()
    assert header[:6] == ["#", "method", "mean", "rank", "wins", "OPM"] and header[-2:] == ["failed", "cells"]
    board = {line.split()[1]: line.split() for line in lines[2:6]}
    assert set(board) == {"counting-tree", "adaboost", "dt", "exploding-tree"}
    assert board["exploding-tree"][-1] == "2"  # failed cells
    assert re.search(  # the verdict first: the best mean rank, said insignificant when Friedman says so
        r"\nRanked by OPM \(largest T\): best mean rank |\nNo method is significantly better \(p = [\d.]+\); "
        r"[\w-]+ has the best mean rank by OPM",
        captured.out,
    )
    assert "Friedman test over 2 datasets and 4 methods: chi-square = " in captured.out
    assert "cells: 16 total, 0 resumed, 16 computed, 4 failed" in captured.out
    assert (
        "cslearn compare: 4 of 16 cells failed: exploding-tree on haberman, wisconsin (4 cells): "
        "FloatingPointError: weights overflowed in round 3 (see the FAILED child runs in MLflow)"
    ) in captured.err.splitlines()


class InterruptedTree(DecisionTreeClassifier):
    """A method whose fit is interrupted (as by Ctrl-C) in the middle of the run."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        raise KeyboardInterrupt


def test_an_interrupted_run_is_marked_killed(prefect_server, mlflow_server, tmp_path, monkeypatch):
    monkeypatch.setitem(METHODS, "interrupted-tree", InterruptedTree)
    params = _params(mlflow_server, tmp_path, methods=["dt", "interrupted-tree"])
    with pytest.raises(KeyboardInterrupt):
        run_compare(params)
    client = MlflowClient(mlflow_server)
    experiment = client.get_experiment_by_name(params["experiment"])
    runs = client.search_runs([experiment.experiment_id])
    [parent] = [run for run in runs if "mlflow.parentRunId" not in run.data.tags]
    assert parent.info.status == "KILLED"
    # A child run is logged only once all its cells are done: at most the finished dt, never a RUNNING one.
    children = [(run.data.tags["method"], run.info.status) for run in runs if run is not parent]
    assert set(children) <= {("dt", "FINISHED")}
