"""The MLflow content of one (dataset, method) child run (tasks.compare.child_runs)."""

from __future__ import annotations

import numpy as np
import pytest

from tasks.compare.child_runs import child_run_payload


def test_child_run_payload_groups_metric_names_and_keeps_folds_in_a_table(cell_results):
    cell_results[0] |= {
        "started_at": 100.0,
        "ended_at": 103.5,
        "params": {"n_estimators": "4", "algo": "'SAMME'"},
    }
    cell_results[1] |= {"started_at": 101.0, "ended_at": 102.0}
    payload = child_run_payload(cell_results[:2])
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
    failed_only = child_run_payload(cell_results[3:])
    assert failed_only["metrics"] == {"cells/ok": 0.0, "cells/failed": 1.0}
    assert failed_only["times"] is None  # cells stored before they recorded their times


def test_one_fold_logs_no_standard_deviation_as_the_report_shows_none(cell_results):
    """The child run's ``mean/`` and ``std/`` are the report's summary: one fold has no std, in either."""
    from tasks.report.results import results_frame, summarize

    one_fold = cell_results[:1]
    payload = child_run_payload(one_fold)
    summary = summarize(results_frame(one_fold))
    final = summary[summary["n_estimators"] == 4].iloc[0]
    assert payload["metrics"]["mean/f1"] == final["f1_mean"] == pytest.approx(0.6)
    assert np.isnan(final["f1_std"]) and "std/f1" not in payload["metrics"]
