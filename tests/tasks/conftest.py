"""Fixtures shared by the tests of tasks' rooms."""

from __future__ import annotations

import pytest


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
def cell_results():
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
