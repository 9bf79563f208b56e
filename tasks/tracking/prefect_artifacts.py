"""What a flow run shows on its Prefect page: the leaderboard, links to the MLflow run and its report,
the progress.

Artifacts go on the top flow run the user started (``method-comparison``, ``retrain``), also when created from
a subflow (``method-comparison-cells``), so one page holds them all:

- :class:`ProgressArtifact`: a progress artifact (percent of cells or candidates done) updated while the work
  runs, at most once per second (and always at the end);
- :func:`publish_flow_artifacts`: a markdown artifact with the leaderboard (the MLflow run's description),
  a link artifact to the MLflow run and one to its HTML report, keyed by what the run is about (a retrain's
  dataset), so that one key's history is one model's.

Links come from the published report (``tasks.report.publish``) and open from an http page: the run's page
and the report's artifact view in the MLflow UI (the tracking server's, or ``make ui``'s for a local store,
whose report file's path the artifact's description adds).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from uuid import UUID

from prefect.artifacts import LinkArtifact, MarkdownArtifact, update_progress_artifact
from prefect.artifacts import ProgressArtifact as _PrefectProgress
from prefect.runtime import flow_run

from tasks.tracking.mlflow_runs import ParentRun
from tasks.tracking.mlflow_urls import mlflow_run_url

__all__ = [
    "ProgressArtifact",
    "artifact_key",
    "publish_flow_artifacts",
    "publish_run_artifacts",
    "top_flow_run_id",
]

#: Fewest seconds between two updates of a progress artifact.
MIN_UPDATE_SECONDS = 1.0


def top_flow_run_id() -> str | None:
    """The flow run the user started: this flow run's parent when it is a subflow, else itself."""
    return flow_run.get_parent_flow_run_id() or flow_run.get_id()


class ProgressArtifact:
    """A Prefect progress artifact on the top flow run, updated at most once per ``min_interval`` seconds.

    Parameters
    ----------
    total : int
        Units of work (cells, candidates).
    done : int
        Units already done (resumed cells) when it is created.
    description : str
        What is counted, shown beside the bar.
    clock : callable
        Monotonic seconds (injectable for tests).
    """

    def __init__(
        self,
        total: int,
        *,
        done: int = 0,
        description: str,
        min_interval: float = MIN_UPDATE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.total = max(total, 1)
        self.done = done
        self.description = description
        self.min_interval = min_interval
        self.updates = 0
        self._clock = clock
        self._last = clock()
        self._shown = self.percent
        self.id: UUID = (
            _PrefectProgress(progress=self.percent, description=description, flow_run_id=top_flow_run_id())
            .create(_sync=True)
            .id
        )

    @property
    def percent(self) -> float:
        return round(100.0 * self.done / self.total, 1)

    def update(self, done: int, *, force: bool = False) -> bool:
        """Record ``done`` units; send it when ``min_interval`` has passed (or ``force``). True if sent."""
        self.done = done
        now = self._clock()
        if self.percent == self._shown or (not force and now - self._last < self.min_interval):
            return False
        update_progress_artifact(self.id, self.percent, description=self.description)
        self._last, self._shown = now, self.percent
        self.updates += 1
        return True

    def finish(self) -> None:
        """Send the final count whatever the time since the last update."""
        self.update(self.done, force=True)


def artifact_key(*parts: str) -> str:
    """A Prefect artifact key from ``parts`` (``"retrain", "direct-marketing", "report"``): lowercase
    letters, digits and dashes, which is all Prefect allows."""
    text = "-".join(parts).lower()
    return re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9-]", "-", text)).strip("-")


def publish_flow_artifacts(
    *,
    purpose: str,
    subject: str,
    markdown: str,
    run_url: str,
    run_name: str,
    report_link: str | None,
    report_path: str | None = None,
) -> list[UUID]:
    """The markdown leaderboard and the links to the MLflow run and its report on the top flow run.

    Keys are ``<purpose>-<subject>-leaderboard``, ``-mlflow-run`` and ``-report`` (:func:`artifact_key`):
    Prefect versions artifacts of one key across runs, so with the dataset as the subject of a retrain one
    key's history is one model's. ``report_path`` (a local store's report file) is named in the report
    link's description. Returns the artifact ids.
    """
    target = top_flow_run_id()
    artifacts = [
        MarkdownArtifact(
            key=artifact_key(purpose, subject, "leaderboard"),
            markdown=markdown,
            description=f"Leaderboard of MLflow run {run_name}",
            flow_run_id=target,
        ),
        LinkArtifact(
            key=artifact_key(purpose, subject, "mlflow-run"),
            link=run_url,
            link_text=f"MLflow run: {run_name}",
            description="The MLflow parent run: description, parameters, metrics, child runs, artifacts",
            flow_run_id=target,
        ),
    ]
    if report_link is not None:
        where = f"; its file: {report_path}" if report_path else ""
        artifacts.append(
            LinkArtifact(
                key=artifact_key(purpose, subject, "report"),
                link=report_link,
                link_text="HTML report (leaderboard, statistics, figures)",
                description=f"The self-contained HTML report logged to the MLflow run{where}",
                flow_run_id=target,
            )
        )
    return [artifact.create(_sync=True).id for artifact in artifacts]


def publish_run_artifacts(
    purpose: str, subject: str, run: ParentRun, published: Mapping | None
) -> list[UUID]:
    """:func:`publish_flow_artifacts` for a parent run and its published report
    (``tasks.report.publish.PublishedReport.as_dict``, ``None`` when no report could be built); ``subject``
    is what the run is about (a retrain's dataset, a comparison's experiment)."""
    run_name = published["run_name"] if published else run.run_id
    markdown = (
        published["description"]
        if published
        else f"MLflow run {run.run_id} has no report: no cell succeeded (see its FAILED child runs)."
    )
    return publish_flow_artifacts(
        purpose=purpose,
        subject=subject,
        markdown=markdown,
        run_url=mlflow_run_url(run.tracking_uri, run.experiment_id, run.run_id),
        run_name=run_name,
        report_link=None if published is None else published["url"],
        report_path=None if published is None else published.get("path"),
    )
