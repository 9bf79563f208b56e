"""Real compare cells (three datasets, four methods, two folds) and the run record MLflow would hold for
them."""

from __future__ import annotations

import pandas as pd
import pytest

from schemas.flow_params import CompareParams
from tasks.compare.cell_compute import compute_cell, describe_dataset
from tasks.compare.cells import plan_cells
from tasks.compare.child_runs import child_run_payload
from tasks.fitting.split_scores import split_scores_frame
from tasks.report.results import ROUND_PREFIX, results_frame
from tasks.report.source import ChildRun, RunRecord

DATASETS = ("wisconsin", "pima", "direct-marketing")
METHODS = ("adaboost", "adacc1", "dt", "bmr-lr")


@pytest.fixture(scope="session")
def real_cells():
    """Every cell of a 1 x 2-fold comparison with T in {3, 6}, computed for real (no store)."""
    params = CompareParams(datasets=DATASETS, methods=METHODS, repeats=1, folds=2, n_estimators=(3, 6))
    infos = [describe_dataset(name) for name in DATASETS]
    results = [compute_cell(spec) for spec in plan_cells(params, infos, METHODS)]
    assert all(result["status"] == "ok" for result in results), [
        r["traceback"] for r in results if r["traceback"]
    ]
    return params, infos, results


def record_from_cells(params, infos, results) -> RunRecord:
    """The run record of these cells as ``load_run`` reads it back: what the compare flow logs to MLflow."""
    children = []
    frame = pd.DataFrame(
        {"dataset": [r["dataset"] for r in results], "method": [r["method"] for r in results]}
    )
    for (dataset, method), rows in frame.groupby(["dataset", "method"], sort=True):
        payload = child_run_payload([results[index] for index in rows.index])
        children.append(
            ChildRun(
                run_id=f"{dataset}-{method}",
                name=f"{dataset} / {method}",
                dataset=dataset,
                method=method,
                status="FINISHED",
                params={key: str(value) for key, value in payload["params"].items()},
                metrics=payload["metrics"],
                tags={"dataset": dataset, "method": method},
                curves={key.removeprefix(ROUND_PREFIX): values for key, values in payload["curves"].items()},
            )
        )
    return RunRecord(
        run_id="0" * 32,
        run_name="compare quiet-test",
        experiment_name="cslearn-tests",
        purpose="compare",
        status="FINISHED",
        start_time=1_700_000_000_000,
        params={key: str(value) for key, value in sorted(params.model_dump().items())},
        tags={
            "git.commit": "f" * 40,
            **{f"dataset.{info.name}.fingerprint": info.fingerprint for info in infos},
        },
        metrics={},
        results=results_frame(results),
        split_scores=split_scores_frame(results),
        children=tuple(children),
    )


@pytest.fixture(scope="session")
def real_record(real_cells):
    return record_from_cells(*real_cells)
