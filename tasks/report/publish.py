"""Publish a run's report where users look: the HTML report and its figures as artifacts of the MLflow
parent run, and the leaderboard as the run's description.

:func:`publish_report` reads the parent run back from MLflow and builds its report with exactly the code of
``cslearn report RUN_ID`` (:func:`tasks.report.source.load_run`, :func:`tasks.report.build.build_report`),
so the logged ``report/report.html`` and ``figures/*.png`` are byte-identical to what that command writes.
The description (tag ``mlflow.note.content``, markdown, at most 8,000 characters) is the leaderboard with
the tests in words (a comparison) or the candidates table (a retrain), and points to the report.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import pandas as pd
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from algorithms.metrics import VIEWS, metric_label
from tasks.report.build import build_report, retrain_verdict
from tasks.report.html import Report
from tasks.report.source import RunRecord, load_run
from tasks.report.statistics import compare_methods
from tasks.report.text import leaderboard_markdown, plain_number
from tasks.tracking.mlflow_runs import ParentRun, log_run_files, tracking_client
from tasks.tracking.mlflow_urls import REPORT_ARTIFACT, mlflow_run_url, report_location

__all__ = [
    "DESCRIPTION_LIMIT",
    "REPORT_ARTIFACT",
    "PublishedReport",
    "publish_report",
    "publish_report_task",
    "published_report",
    "report_artifacts",
    "run_description",
]

#: Longest description kept (MLflow shows the ``mlflow.note.content`` tag as the run's description).
DESCRIPTION_LIMIT = 8000


@dataclass(frozen=True)
class PublishedReport:
    """Where a published report is: its artifact path, its URI in the artifact store, the URL a browser
    opens it at (its artifact view in the MLflow UI), its download URL and, in a local store, its file
    (:func:`~tasks.tracking.mlflow_urls.report_location`), the run's page
    (:func:`~tasks.tracking.mlflow_urls.mlflow_run_url`), the figures logged beside it and the description set
    on the run."""

    run_id: str
    run_name: str
    artifact: str
    uri: str
    url: str
    download: str
    path: str | None
    run_url: str
    figures: tuple[str, ...]
    description: str

    def as_dict(self) -> dict:
        return {**asdict(self), "figures": list(self.figures)}


def report_artifacts(report: Report) -> dict[str, bytes]:
    """The files of a report as ``cslearn report`` writes them: ``report/report.html`` (UTF-8) and
    ``figures/<name>.png``."""
    return {
        REPORT_ARTIFACT: report.html.encode("utf-8"),
        **{f"figures/{name}.png": png for name, png in sorted(report.figures.items())},
    }


def _fit(head: list[str], rows: list[str], tail: list[str], limit: int) -> str:
    """``head``, ``rows`` and ``tail`` as one text of at most ``limit`` characters: rows are dropped from the
    bottom (and counted in a note) until it fits."""
    for kept in range(len(rows), -1, -1):
        note = [f"| … {len(rows) - kept} more in the report |"] if kept < len(rows) else []
        text = "\n".join([*head, *rows[:kept], *note, *tail])
        if len(text) <= limit:
            return text
    return text[:limit]


def run_description(
    record: RunRecord, report: Report, *, metric: str = "opm", limit: int = DESCRIPTION_LIMIT
):
    """The run's description in markdown: a title line, the verdict (a comparison: the Friedman test's, in
    bold; a retrain: the registry's), the leaderboard (ranks, wins and the main metrics, then the tests in
    words) or the candidates, and where the full report is; MLflow's run page shows its first lines. Rows
    are dropped from the bottom to keep it within ``limit`` characters."""
    head = [f"### {record.run_name}", ""]
    tail = ["", f"Full report with every table and figure: artifact `{REPORT_ARTIFACT}` of this run."]
    if record.purpose == "retrain":
        head += [f"Registry: {retrain_verdict(record)}.", ""]  # the verdict first
        candidates: pd.DataFrame = report.tables["candidates"]
        shown = [name for name in VIEWS["retrain_description"] if name in candidates]
        header = ["#", "candidate", *(metric_label(name) for name in shown), "registered"]
        rows = [
            "| "
            + " | ".join(
                [
                    str(position),
                    str(row["method"]),
                    *(plain_number(row[name]) for name in shown),
                    row["registered"],
                ]
            )
            + " |"
            for position, row in enumerate(candidates.to_dict(orient="records"), start=1)
        ]
        head += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return _fit(head, rows, tail, limit)
    comparison = compare_methods(report.tables["summary"], metric)
    table, _, words = leaderboard_markdown(report.tables["leaderboard"], comparison).partition("\n\n")
    header, rule, *rows = table.splitlines()
    verdict, *tests = words.splitlines()
    return _fit([*head, f"**{verdict}**", "", header, rule], rows, ["", *tests, *tail], limit)


def publish_report(tracking_uri: str | None, run_id: str, *, metric: str = "opm") -> PublishedReport:
    """Build the report of the parent run ``run_id`` as ``cslearn report`` does, log it and its figures as
    artifacts of that run and set the run's description; returns where it is."""
    record = load_run(run_id, tracking_uri)
    report = build_report(record, metric=metric)
    client = tracking_client(tracking_uri)
    files = report_artifacts(report)
    log_run_files(client, run_id, files)
    description = run_description(record, report, metric=metric)
    client.set_tag(run_id, "mlflow.note.content", description)
    return _published(client, client.get_run(run_id), tuple(p for p in files if p.startswith("figures/")))


def _published(client, run, figures: tuple[str, ...]) -> PublishedReport:
    uri = f"{run.info.artifact_uri.rstrip('/')}/{REPORT_ARTIFACT}"
    return PublishedReport(
        run_id=run.info.run_id,
        run_name=run.info.run_name or run.info.run_id,
        artifact=REPORT_ARTIFACT,
        uri=uri,
        **report_location(client.tracking_uri, run.info.experiment_id, run.info.run_id, uri),
        run_url=mlflow_run_url(client.tracking_uri, run.info.experiment_id, run.info.run_id),
        figures=figures,
        description=run.data.tags.get("mlflow.note.content", ""),
    )


def published_report(tracking_uri: str | None, run_id: str) -> dict | None:
    """What :func:`publish_report` left on an earlier run (:meth:`PublishedReport.as_dict`), or ``None`` when
    that run has no report."""
    client = tracking_client(tracking_uri)
    if REPORT_ARTIFACT not in {item.path for item in client.list_artifacts(run_id, "report")}:
        return None
    figures = tuple(sorted(item.path for item in client.list_artifacts(run_id, "figures")))
    return _published(client, client.get_run(run_id), figures).as_dict()


@task(name="publish_report", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=2)
def publish_report_task(run: ParentRun, metric: str = "opm") -> dict | None:
    """Build the run's HTML report and log it, its figures and its description to the parent run
    (:func:`publish_report`); returns :meth:`PublishedReport.as_dict`, or ``None`` (with a warning) when
    the run holds nothing to report (no cell succeeded)."""
    try:
        return publish_report(run.tracking_uri, run.run_id, metric=metric).as_dict()
    except ValueError as error:
        get_run_logger().warning("no report for MLflow run %s: %s", run.run_id, error)
        return None
