"""Results tables, mean ± std summaries, ranks, child-run payloads and progress lines (tasks.report)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tasks.report import (
    CELL_MEASURES,
    Progress,
    average_over_datasets,
    child_run_payload,
    format_overall,
    format_summary,
    rank_methods,
    results_frame,
    summarize,
    summary_records,
)


def _cell(dataset, method, fold, rows, status="ok", curves=None, negative_cost=None):
    return {
        "dataset": dataset,
        "method": method,
        "repeat": 0,
        "fold": fold,
        "status": status,
        "error": None if status == "ok" else "ValueError: boom",
        "rows": rows,
        "curves": curves or {},
        "negative_cost": negative_cost,
        "fit_seconds": 1.0 + fold,
        "tree_nodes": None if method == "boost" else 7,
        "params": {"n_estimators": "4"},
    }


@pytest.fixture
def results():
    return [
        _cell(
            "d1",
            "boost",
            0,
            [{"n_estimators": 2, "f1": 0.4, "opm": 0.5}, {"n_estimators": 4, "f1": 0.6, "opm": 0.7}],
            curves={"alpha": [1.0, 2.0, 3.0]},
            negative_cost=0.3,
        ),
        _cell(
            "d1",
            "boost",
            1,
            [{"n_estimators": 2, "f1": 0.6, "opm": 0.5}, {"n_estimators": 4, "f1": 0.8, "opm": 0.9}],
            curves={"alpha": [3.0, 4.0]},
            negative_cost=0.5,
        ),
        _cell("d1", "tree", 0, [{"n_estimators": None, "f1": 0.5, "opm": 0.6}]),
        _cell("d1", "tree", 1, [], status="failed"),
    ]


def test_results_frame_has_a_row_per_cell_and_size(results):
    frame = results_frame(results)
    assert len(frame) == 2 + 2 + 1 + 1
    assert list(frame.columns[:5]) == ["dataset", "method", "repeat", "fold", "n_estimators"]
    failed = frame[frame["status"] == "failed"]
    assert (
        len(failed) == 1 and failed["error"].iloc[0] == "ValueError: boom" and pd.isna(failed["f1"].iloc[0])
    )


def test_summary_mean_and_std_over_folds(results):
    summary = summarize(results_frame(results), measures=CELL_MEASURES)
    boost4 = summary[(summary["method"] == "boost") & (summary["n_estimators"] == 4)].iloc[0]
    assert boost4["f1_mean"] == pytest.approx(0.7)
    assert boost4["f1_std"] == pytest.approx(np.std([0.6, 0.8], ddof=1))
    assert boost4["folds"] == 2 and boost4["failed"] == 0
    tree = summary[summary["method"] == "tree"].iloc[0]
    assert tree["folds"] == 1 and tree["failed"] == 1 and tree["f1_mean"] == pytest.approx(0.5)
    assert tree["tree_nodes_mean"] == 7 and boost4["fit_seconds_mean"] == pytest.approx(1.5)
    assert pd.isna(boost4["tree_nodes_mean"])
    assert "fit_seconds_mean" not in summarize(results_frame(results))  # timings vary run to run
    text = format_summary(summary, metrics=("f1",))
    assert "0.700 ± 0.141" in text and "1 (1 failed)" in text
    records = summary_records(summary)
    assert records[0]["n_estimators"] == 2 and records[-1]["n_estimators"] is None
    assert records[-1]["f1_std"] is None  # one fold: no std


def test_average_over_datasets_of_the_fold_means():
    summary = pd.DataFrame(
        {
            "dataset": ["a", "b", "a", "b"],
            "method": ["x", "x", "y", "y"],
            "n_estimators": pd.array([50, 50, None, None], dtype="Int64"),
            "f1_mean": [0.2, 0.6, 0.5, None],
            "f1_std": [0.1, 0.1, 0.1, None],
        }
    )
    overall = average_over_datasets(summary)
    assert overall.columns.tolist() == ["method", "n_estimators", "datasets", "f1"]
    assert overall["f1"].tolist() == pytest.approx([0.4, 0.5])
    assert overall["datasets"].tolist() == [2, 2]
    lines = format_overall(overall, metrics=("f1",)).splitlines()
    assert lines[0].split() == ["method", "T", "datasets", "f1"]
    assert lines[1].split() == ["y", "-", "2", "0.500"] and lines[2].split() == ["x", "50", "2", "0.400"]


def test_ranks_use_the_largest_size_and_share_ties():
    summary = pd.DataFrame(
        {
            "dataset": ["a", "a", "a", "a", "b", "b", "b"],
            "method": ["x", "x", "y", "z", "x", "y", "z"],
            "n_estimators": pd.array([25, 50, None, None, 50, None, None], dtype="Int64"),
            "opm_mean": [0.1, 0.9, 0.8, 0.8, 0.5, 0.7, 0.6],
            "cost_mean": [9.0, 1.0, 2.0, 3.0, 5.0, 4.0, 6.0],
        }
    )
    ranks = rank_methods(summary, "opm")
    assert ranks.loc["a"].to_dict() == {"x": 1.0, "y": 2.5, "z": 2.5}  # y and z tie for second
    assert ranks.loc["b"].to_dict() == {"x": 3.0, "y": 1.0, "z": 2.0}
    assert ranks.loc["mean rank"].to_dict() == {"x": 2.0, "y": 1.75, "z": 2.25}
    cost_ranks = rank_methods(summary, "cost")  # lower is better
    assert cost_ranks.loc["a"].to_dict() == {"x": 1.0, "y": 2.0, "z": 3.0}
    with pytest.raises(
        ValueError, match=r"metric 'savings' is not in the summary; available: \['cost', 'opm'\]"
    ):
        rank_methods(summary, "savings")


def test_child_run_payload_groups_metric_names_and_keeps_folds_in_a_table(results):
    results[0] |= {"started_at": 100.0, "ended_at": 103.5, "params": {"n_estimators": "4", "algo": "'SAMME'"}}
    results[1] |= {"started_at": 101.0, "ended_at": 102.0}
    payload = child_run_payload(results[:2])
    assert payload["metrics"]["mean/f1"] == pytest.approx(0.7)
    assert payload["metrics"]["std/f1"] == pytest.approx(np.std([0.6, 0.8], ddof=1))
    assert payload["metrics"]["T2/f1"] == pytest.approx(0.5)
    assert payload["metrics"]["cells/ok"] == 2 and payload["metrics"]["cells/failed"] == 0
    assert payload["metrics"]["mean/fit_seconds"] == pytest.approx(1.5)
    assert not any(name.startswith("fold") for name in payload["metrics"])
    folds = payload["folds"]
    assert folds["f1"].tolist() == pytest.approx([0.6, 0.8]) and folds["fold"].tolist() == [0, 1]
    assert folds["negative_cost"].tolist() == [0.3, 0.5] and set(folds["n_estimators"]) == {4}
    assert payload["staged"]["by_T/f1"] == pytest.approx({2: 0.5, 4: 0.7})
    assert payload["curves"]["round/alpha"] == pytest.approx([2.0, 3.0, 3.0])  # mean over folds per round
    assert payload["params"] == {"n_estimators": 4, "algo": "SAMME"}  # plain values, not reprs
    assert payload["times"] == (100_000, 103_500)  # first cell's start, last cell's end
    failed_only = child_run_payload(results[3:])
    assert failed_only["metrics"] == {"cells/ok": 0.0, "cells/failed": 1.0}
    assert failed_only["times"] is None  # cells stored before they recorded their times


def test_progress_counts_and_estimates_the_time_left():
    now = [100.0]
    progress = Progress(total=10, skipped=4, clock=lambda: now[0])
    assert progress.line() == "cells 4/10 (4 resumed, 0 failed) elapsed 00:00 ETA --:--"
    now[0] = 130.0
    assert progress.update({"status": "ok"}) == "cells 5/10 (4 resumed, 0 failed) elapsed 00:30 ETA 02:30"
    now[0] = 160.0
    assert progress.update({"status": "failed"}) == "cells 6/10 (4 resumed, 1 failed) elapsed 01:00 ETA 02:00"
