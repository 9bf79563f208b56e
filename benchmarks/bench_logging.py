"""What tracking a comparison costs per child run, and what the published report costs per run (issue 9).

``make run`` logs 120 child runs (4 datasets x 30 methods); an earlier version that drew three PNGs per child
took it from 11.5 to 33 minutes. Real cells of a small comparison (wisconsin, six methods with boosting and
trees, 2 folds, T in {25, 50}) are computed once; then, against one sqlite store, interleaved and repeated:

- ``metrics only``: the child run's parameters, grouped metrics, per-T and per-round histories, no files
  (what a child run held before it had a table and a figure);
- ``with folds.csv and figure``: the child run as ``log_method_run_task`` logs it now (plus
  ``results/folds.csv`` and the 60-dpi ``figures/summary.png``, uploaded together);
- ``figure alone``: drawing and encoding that one PNG.

And once per run: ``publish_report`` (read the run back, build the HTML report with its figures, log it and
the description) on the parent of those children. The section reports the median milliseconds per child, the
extra seconds projected on ``make run``'s 120 children, and the report's seconds.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time

from benchmarks._report import write_section

METHODS = ("adaboost", "adacc1", "adacost", "dt", "bmr-lr", "smote-dt")
MAKE_RUN_CHILDREN = 120


def _cells():
    from schemas.flow_params import CompareParams
    from tasks.compare.cell_compute import compute_cell, describe_dataset
    from tasks.compare.cells import plan_cells

    params = CompareParams(
        datasets=("wisconsin",), methods=METHODS, repeats=1, folds=2, n_estimators=(25, 50)
    )
    info = describe_dataset("wisconsin")
    return params, info, [compute_cell(spec) for spec in plan_cells(params, [info], METHODS)]


def main(quick: bool = False) -> None:
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    from tasks.compare.child_runs import child_run_payload
    from tasks.compare.comparison_runs import _child_files, log_method_run_task
    from tasks.report.publish import publish_report
    from tasks.tracking.mlflow_runs import (
        ParentRun,
        ensure_experiment,
        log_child_run,
        tracked_run,
        tracking_client,
    )

    load = os.getloadavg()[0]
    params, info, cells = _cells()
    groups = {method: [cell for cell in cells if cell["method"] == method] for method in METHODS}
    rounds = 1 if quick else 3
    timings = {"metrics only": [], "with folds.csv and figure": [], "figure alone": []}
    with tempfile.TemporaryDirectory(prefix="cslearn-bench-logging-") as folder:
        uri = f"sqlite:///{folder}/mlflow.db"
        client = tracking_client(uri)
        experiment_id = ensure_experiment(client, "bench-logging")
        with tracked_run(client, experiment_id, run_name="bench parent") as parent_id:
            run = ParentRun(uri, experiment_id, parent_id)
            for _ in range(rounds):
                for method, group in groups.items():
                    payload = child_run_payload(group)
                    started = time.perf_counter()
                    log_child_run(
                        uri,
                        experiment_id,
                        parent_id,
                        run_name=f"metrics only {method}",
                        params=payload["params"],
                        metrics=payload["metrics"],
                        curves=payload["curves"],
                        step_metrics=payload["staged"],
                        times=payload["times"],
                    )
                    timings["metrics only"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    _child_files(payload, group, f"wisconsin / {method}")
                    timings["figure alone"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    log_method_run_task.fn(run, params, info, method, group)
                    timings["with folds.csv and figure"].append(time.perf_counter() - started)
        # The report reads every child run back; build it for a parent holding one set of children.
        with tracked_run(client, experiment_id, run_name="bench report") as report_parent:
            from tasks.compare.summary import summarize_task
            from tasks.tracking.mlflow_runs import log_table

            run = ParentRun(uri, experiment_id, report_parent)
            for method, group in groups.items():
                log_method_run_task.fn(run, params, info, method, group)
            report = summarize_task.fn(cells)
            log_table(client, report_parent, report["frame"], "results")
            log_table(client, report_parent, report["split_scores"], "split_scores")
            started = time.perf_counter()
            published = publish_report(uri, report_parent)
            report_seconds = time.perf_counter() - started
    medians = {name: statistics.median(values) * 1000 for name, values in timings.items()}
    extra = (medians["with folds.csv and figure"] - medians["metrics only"]) / 1000 * MAKE_RUN_CHILDREN
    lines = [
        "| per child run | median ms |",
        "|---|---|",
        *(f"| {name} | {value:.0f} |" for name, value in medians.items()),
        "",
        f"Extra time of the table and figure on `make run`'s {MAKE_RUN_CHILDREN} child runs: about "
        f"{extra:.0f} s (the child runs are logged while the remaining cells run, so part of it overlaps).",
        f"`publish_report` on a parent with {len(groups)} children ({len(published.figures)} figures): "
        f"{report_seconds:.1f} s.",
        f"{len(cells)} cells of wisconsin x {len(METHODS)} methods, {rounds} round(s) of each mode, "
        f"interleaved; load average before: {load:.1f}" + (" (not quiet)" if load > 1.5 else "") + ".",
    ]
    body = "\n".join(lines)
    print(body)
    write_section(
        "logging", "Tracking cost per child run and per report", body, "python -m benchmarks logging"
    )
