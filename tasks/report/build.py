"""Build the HTML report of a ``compare`` or ``retrain`` run from its :class:`~tasks.report.source.RunRecord`.

:func:`build_report` is a pure function of the record (plus the chosen metric, control and alpha): the same
run read back from MLflow always gives the same bytes. The page holds the leaderboard, the statistics, the
papers' tables, the figures, the exact configuration, the dataset fingerprints and the code commit; its
sections come from :mod:`tasks.report.sections`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from algorithms.metrics import VIEWS, computed_metrics, metric_label
from tasks.report.figures import candidates_figure
from tasks.report.html import (
    Cell,
    HtmlTable,
    Report,
    Section,
    format_value,
    frame_table,
    metric_columns,
    render_page,
)
from tasks.report.results import CELL_MEASURES, summarize
from tasks.report.sections import (
    FigureCollector,
    by_size_section,
    cost_section,
    curves_section,
    failures_section,
    leaderboard_section,
    per_dataset_section,
    provenance_section,
    ranks_section,
    started_text,
    statistics_section,
    training_section,
)
from tasks.report.source import RunRecord
from tasks.report.statistics import compare_methods
from tasks.report.tables import leaderboard, per_dataset_table, rank_table, table_by_size

__all__ = ["build_report"]


def _page(record: RunRecord, title: str, facts, sections, *details: str) -> str:
    """The page of a run: its title, a subtitle naming the run, the key facts and the non-empty sections."""
    subtitle = " · ".join(
        [
            f"MLflow run {record.run_id}",
            f"experiment {record.experiment_name}",
            f"started {started_text(record)}",
        ]
        + list(details)
    )
    shown = [section for section in sections if section is not None]
    return render_page(title=title, subtitle=subtitle, facts=facts, sections=shown)


def _protocol_text(protocol: str, cells: pd.DataFrame) -> str:
    repeats = cells["repeat"].nunique()
    text = f"{protocol} · {repeats} repeat{'s' * (repeats != 1)}"
    if protocol == "cv":
        text += f" × {cells['fold'].nunique()} folds"
    return text


def _compare_report(record: RunRecord, metric: str, control: str | None, alpha: float) -> Report:
    results = record.results
    if results is None:
        raise ValueError(
            f"run {record.run_id} has no results/results.parquet artifact (status {record.status}): it did "
            "not finish its cells, so there is nothing to report"
        )
    summary = summarize(results, measures=CELL_MEASURES)
    available = [
        name
        for name in computed_metrics()
        if f"{name}_mean" in summary and summary[f"{name}_mean"].notna().any()
    ]
    if metric not in available:
        raise ValueError(f"metric {metric!r} has no values in run {record.run_id}; available: {available}")
    comparison = compare_methods(summary, metric, control=control, alpha=alpha)
    board = leaderboard(summary, comparison)
    figures = FigureCollector()
    datasets = sorted(results["dataset"].unique())
    sections = [
        leaderboard_section(board, comparison, len(datasets)),
        statistics_section(comparison, figures),
        ranks_section(comparison),
        by_size_section(summary),
        per_dataset_section(summary),
        cost_section(summary, record, figures),
        curves_section(record, figures),
        training_section(record, figures),
        failures_section(results),
        provenance_section(record),
    ]
    cells = results.drop_duplicates(["dataset", "method", "repeat", "fold"])
    sizes = sorted(int(size) for size in results["n_estimators"].dropna().unique())
    facts = [
        ("datasets", str(len(datasets))),
        ("methods", str(results["method"].nunique())),
        ("protocol", _protocol_text(record.params.get("protocol", "?"), cells)),
        ("ensemble sizes T", ", ".join(map(str, sizes)) or "–"),
        ("best by " + metric_label(metric), str(comparison.mean_ranks.index[0])),
        ("failed cells", f"{int((cells['status'] != 'ok').sum())} of {len(cells)}"),
        ("commit", (record.commit or "unknown")[:12]),
    ]
    title = f"Method comparison: {record.run_name}"
    html = _page(record, title, facts, sections, f"datasets: {', '.join(datasets)}")
    tables = {
        "leaderboard": board,
        "summary": summary,
        "by_size": table_by_size(summary),
        "ranks": rank_table(comparison).reset_index(),
        "per_dataset": per_dataset_table(summary),
    }
    return Report(title=title, html=html, figures=figures.png, tables=tables)


# ------------------------------------------------------------------------------------------------ retrain


def _candidates_frame(record: RunRecord) -> pd.DataFrame:
    registered = {version["run_id"]: version for version in record.model_versions}
    rows = []
    for child in record.children:
        version = registered.get(child.run_id)
        row = {
            "method": child.method or child.name,
            "status": child.status,
            **{name: child.metrics.get(name, np.nan) for name in VIEWS["retrain_report"]},
            "registered": "–"
            if version is None
            else f"v{version['version']}"
            + (f" ({', '.join(version['aliases'])})" if version["aliases"] else ""),
        }
        rows.append(row)
    frame = pd.DataFrame(rows, columns=["method", "status", *VIEWS["retrain_report"], "registered"])
    return frame.sort_values("savings", ascending=False, na_position="last", kind="stable", ignore_index=True)


def _retrain_report(record: RunRecord) -> Report:
    candidates = _candidates_frame(record)
    if candidates.empty:
        raise ValueError(f"retrain run {record.run_id} has no candidate child runs: nothing to report")
    dataset = record.params.get("dataset") or record.tags.get("cslearn.dataset", "?")
    figures = FigureCollector()
    scored = candidates[candidates["savings"].notna()]
    blocks: list = [
        frame_table(
            candidates,
            id="leaderboard",
            columns={
                "method": "candidate",
                **metric_columns(VIEWS["retrain_report"]),
                "status": "run",
                "registered": "registered as",
            },
            measures=VIEWS["retrain_report"],
            note="Every candidate is fit on the training rows with their example-dependent costs and "
            "scored on the same holdout; the best by savings is registered and becomes champion only if it "
            "beats the current champion re-scored on that holdout.",
        )
    ]
    if not scored.empty:
        blocks.append(
            figures.add(
                "candidates",
                "Holdout savings and F1 per candidate",
                lambda: candidates_figure(scored, title=f"{dataset}: candidates on the holdout"),
            )
        )
    sections = [Section(id="leaderboard-section", title="Candidates", blocks=blocks)]
    if record.split_scores is not None and not record.split_scores.empty:
        curves = curves_section(record, figures)
        if curves is not None:
            sections.append(curves)
    versions = [
        [
            Cell(v["name"]),
            Cell(f"v{v['version']}", "num"),
            Cell(", ".join(v["aliases"]) or "–"),
            Cell(v["method"] or "–"),
        ]
        for v in record.model_versions
    ]
    if versions:
        sections.append(
            Section(
                id="registry",
                title="Model registry",
                blocks=[
                    HtmlTable(
                        id="model-versions",
                        head=[
                            [
                                Cell("registered model"),
                                Cell("version", "num"),
                                Cell("aliases now"),
                                Cell("method"),
                            ]
                        ],
                        body=versions,
                        note="Aliases as they are when the report is built.",
                    )
                ],
            )
        )
    sections.append(provenance_section(record))
    best = candidates.iloc[0]
    facts = [
        ("dataset", str(dataset)),
        ("candidates", str(len(candidates))),
        ("best by savings", f"{best['method']} ({format_value('savings', best['savings'])})"),
        ("holdout rows", record.params.get("holdout_rows", "–")),
        ("cost model", record.params.get("cost_model", "–")),
        ("commit", (record.commit or "unknown")[:12]),
    ]
    title = f"Retrain: {record.run_name}"
    html = _page(record, title, facts, sections)
    return Report(title=title, html=html, figures=figures.png, tables={"candidates": candidates})


def build_report(
    record: RunRecord, *, metric: str = "opm", control: str | None = None, alpha: float = 0.05
) -> Report:
    """The report of a run: a comparison (leaderboard, statistics, tables, figures) or a retrain (candidates).

    Parameters
    ----------
    record : RunRecord
        The run read back from MLflow (:func:`tasks.report.source.load_run`).
    metric : str
        Metric the methods of a comparison are ranked and tested on.
    control : str, optional
        Control method of the Bonferroni-Dunn test (default: the best-ranked method).
    alpha : float
        Significance level.

    Raises
    ------
    ValueError
        When the run holds no results, the metric has no values, or the control is not a compared method.
    """
    if record.purpose == "retrain":
        return _retrain_report(record)
    return _compare_report(record, metric, control, alpha)
