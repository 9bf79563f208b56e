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
    Paragraphs,
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
    cost_unit_of,
    curves_section,
    failures_section,
    leaderboard_section,
    money,
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
from tasks.report.text import best_method_verdict, describe_comparison

__all__ = ["build_report", "retrain_verdict"]


def _page(record: RunRecord, title: str, facts, sections, *details: str, headline: str = "") -> str:
    """The page of a run: its title, a subtitle naming the run, the verdict, the key facts and the non-empty
    sections."""
    subtitle = " · ".join(
        [
            f"MLflow run {record.run_id}",
            f"experiment {record.experiment_name}",
            f"started {started_text(record)}",
        ]
        + list(details)
    )
    shown = [section for section in sections if section is not None]
    return render_page(title=title, subtitle=subtitle, facts=facts, sections=shown, headline=headline)


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
        curves_section(
            record,
            figures,
            ranking=list(comparison.mean_ranks.index),
            control=comparison.control,
            ranked_by=f"mean rank of {metric_label(metric)}",
        ),
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
        ("best mean rank by " + metric_label(metric), best_method_verdict(comparison)),
        ("failed cells", f"{int((cells['status'] != 'ok').sum())} of {len(cells)}"),
        ("commit", (record.commit or "unknown")[:12]),
    ]
    title = f"Method comparison: {record.run_name}"
    headline = describe_comparison(comparison).splitlines()[0]
    html = _page(record, title, facts, sections, f"datasets: {', '.join(datasets)}", headline=headline)
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


def retrain_verdict(record: RunRecord) -> str:
    """The registry decision of a retrain in one line (tag ``cslearn.registry.verdict``, logged by
    ``tasks.model_registry.retrain_answer``; the decision's reason for a run logged before it)."""
    verdict = record.tags.get("cslearn.registry.verdict") or record.tags.get("cslearn.registry.reason")
    return verdict or "no registry decision recorded (the retrain did not get that far)"


def _champion_reference(record: RunRecord) -> tuple[str, float] | None:
    """``(label, savings)`` of the champion the retrain competed against, re-scored on its holdout."""
    savings = record.metrics.get("champion/savings")
    if savings is None or not np.isfinite(savings):
        return None
    label = record.tags.get("cslearn.registry.champion", "champion")
    return f"champion {label}", float(savings)


def _holdout_baseline(candidates: pd.DataFrame) -> float | None:
    """The holdout's cost without a model, ``cost / (1 - savings)`` of any scored candidate (CSDT Eq. 4:
    savings = 1 - cost / Cost_l; every candidate is scored on the same holdout)."""
    scored = candidates[np.isfinite(candidates["cost"]) & np.isfinite(candidates["savings"])]
    scored = scored[scored["savings"] < 1]
    return None if scored.empty else float(scored["cost"].iloc[0] / (1 - scored["savings"].iloc[0]))


def _registry_section(record: RunRecord, unchanged: bool) -> Section:
    blocks: list = [Paragraphs([f"Registry: {retrain_verdict(record)}."], css="verdict")]
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
        blocks.append(
            HtmlTable(
                id="model-versions",
                head=[
                    [Cell("registered model"), Cell("version", "num"), Cell("aliases now"), Cell("method")]
                ],
                body=versions,
                caption="Versions registered by this retrain",
                note="Aliases as they are when the report is built.",
            )
        )
    intro = (
        "Nothing was registered: the best candidate repeats the champion (same method, data, code and "
        "holdout, same score)."
        if unchanged
        else "The best candidate by savings is registered; it becomes champion only if it beats the current "
        "champion re-scored on the same holdout, else challenger."
    )
    return Section(id="registry", title="Model registry", intro=intro, blocks=blocks)


def _retrain_report(record: RunRecord) -> Report:
    candidates = _candidates_frame(record)
    if candidates.empty:
        raise ValueError(f"retrain run {record.run_id} has no candidate child runs: nothing to report")
    dataset = record.params.get("dataset") or record.tags.get("cslearn.dataset", "?")
    unit = cost_unit_of(record, dataset)
    unchanged = record.tags.get("cslearn.registry.outcome") == "unchanged"
    figures = FigureCollector()
    scored = candidates[candidates["savings"].notna()]
    champion = _champion_reference(record)
    baseline = _holdout_baseline(candidates)
    columns = {
        "method": "candidate",
        **metric_columns(VIEWS["retrain_report"]),
        "status": "run",
        **({} if unchanged else {"registered": "registered as"}),
    }
    if "cost" in columns:
        columns["cost"] = f"{metric_label('cost')} ({unit})"
    costs = (
        f" Costs in {unit}; cost without a model on the holdout (the cheaper of flagging no case or every "
        f"case): {money(baseline, unit)}; savings = 1 - cost / that."
        if baseline is not None
        else f" Costs in {unit}."
    )
    blocks: list = [
        frame_table(
            candidates,
            id="leaderboard",
            columns=columns,
            measures=VIEWS["retrain_report"],
            note="Every candidate is fit on the training rows with their example-dependent costs and "
            "scored on the same holdout; the best by savings is registered and becomes champion only if it "
            "beats the current champion re-scored on that holdout." + costs,
        )
    ]
    if not scored.empty:
        blocks.append(
            figures.add(
                "candidates",
                "Holdout savings and F1 per candidate",
                lambda: candidates_figure(
                    scored, title=f"{dataset}: candidates on the holdout", champion=champion
                ),
                caption="Each candidate in its method's colour"
                + (
                    f"; the dashed line is the {champion[0]} re-scored on the same holdout "
                    f"({format_value('savings', champion[1])})."
                    if champion
                    else "."
                ),
            )
        )
    sections = [Section(id="leaderboard-section", title="Candidates", blocks=blocks)]
    if record.split_scores is not None and not record.split_scores.empty:
        curves = curves_section(
            record, figures, ranking=list(candidates["method"]), ranked_by="holdout savings"
        )
        if curves is not None:
            sections.append(curves)
    sections.append(_registry_section(record, unchanged))
    sections.append(provenance_section(record))
    best = candidates.iloc[0]
    facts = [
        ("dataset", str(dataset)),
        ("registry", record.tags.get("cslearn.registry.outcome", "–")),
        ("candidates", str(len(candidates))),
        ("best by savings", f"{best['method']} ({format_value('savings', best['savings'])})"),
        ("holdout rows", record.params.get("holdout_rows", "–")),
        ("cost model", record.params.get("cost_model", "–")),
        ("commit", (record.commit or "unknown")[:12]),
    ]
    title = f"Retrain: {record.run_name}"
    html = _page(record, title, facts, sections, headline=retrain_verdict(record))
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
