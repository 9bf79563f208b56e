"""Results tables, mean ± std summaries and ranks (tasks.report)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tasks.report import (
    CELL_MEASURES,
    average_over_datasets,
    rank_methods,
    results_frame,
    summarize,
    summary_records,
)


def test_results_frame_has_a_row_per_cell_and_size(cell_results):
    frame = results_frame(cell_results)
    assert len(frame) == 2 + 2 + 1 + 1
    assert list(frame.columns[:5]) == ["dataset", "method", "repeat", "fold", "n_estimators"]
    failed = frame[frame["status"] == "failed"]
    assert (
        len(failed) == 1 and failed["error"].iloc[0] == "ValueError: boom" and pd.isna(failed["f1"].iloc[0])
    )


def test_summary_mean_and_std_over_folds(cell_results):
    summary = summarize(results_frame(cell_results), measures=CELL_MEASURES)
    boost4 = summary[(summary["method"] == "boost") & (summary["n_estimators"] == 4)].iloc[0]
    assert boost4["f1_mean"] == pytest.approx(0.7)
    assert boost4["f1_std"] == pytest.approx(np.std([0.6, 0.8], ddof=1))
    assert boost4["folds"] == 2 and boost4["failed"] == 0
    tree = summary[summary["method"] == "tree"].iloc[0]
    assert tree["folds"] == 1 and tree["failed"] == 1 and tree["f1_mean"] == pytest.approx(0.5)
    assert tree["tree_nodes_mean"] == 7 and boost4["fit_seconds_mean"] == pytest.approx(1.5)
    assert pd.isna(boost4["tree_nodes_mean"])
    assert "fit_seconds_mean" not in summarize(results_frame(cell_results))  # timings vary run to run
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
