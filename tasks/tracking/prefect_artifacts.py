"""What a flow run shows on its Prefect page: the leaderboard, links to the MLflow run and its report,
the progress.

Artifacts go on the top flow run the user started (``method-comparison``, ``retrain``), also when created from
a subflow (``method-comparison-cells``), so one page holds them all:

- :class:`ProgressArtifact`: a progress artifact (percent of cells or candidates done) updated while the work
  runs, at most once per second (and always at the end);
- :func:`publish_flow_artifacts`: a markdown artifact with the leaderboard (the MLflow run's description),
  a link artifact to the MLflow run and one to its HTML report.

Links come from the published report (``tasks.report.publish``): a tracking server's run page and
``get-artifact`` URL; for a local store, the run page of ``make ui`` and the report's ``file://`` URI.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from uuid import UUID

from prefect.artifacts import LinkArtifact, MarkdownArtifact, update_progress_artifact
from prefect.artifacts import ProgressArtifact as _PrefectProgress
from prefect.runtime import flow_run

from tasks.tracking.mlflow_runs import ParentRun
from tasks.tracking.mlflow_urls import mlflow_run_url

__all__ = ["ProgressArtifact", "publish_flow_artifacts", "publish_run_artifacts", "top_flow_run_id"]

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


def publish_flow_artifacts(
    *, purpose: str, markdown: str, run_url: str, run_name: str, report_link: str | None
) -> list[UUID]:
    """The markdown leaderboard and the links to the MLflow run and its report on the top flow run.

    Keys are ``<purpose>-leaderboard``, ``<purpose>-mlflow-run`` and ``<purpose>-report`` (Prefect versions
    artifacts of one key across runs). Returns the artifact ids.
    """
    target = top_flow_run_id()
    artifacts = [
        MarkdownArtifact(
            key=f"{purpose}-leaderboard",
            markdown=markdown,
            description=f"Leaderboard of MLflow run {run_name}",
            flow_run_id=target,
        ),
        LinkArtifact(
            key=f"{purpose}-mlflow-run",
            link=run_url,
            link_text=f"MLflow run: {run_name}",
            description="The MLflow parent run: parameters, metrics, child runs, artifacts",
            flow_run_id=target,
        ),
    ]
    if report_link is not None:
        artifacts.append(
            LinkArtifact(
                key=f"{purpose}-report",
                link=report_link,
                link_text="HTML report (leaderboard, statistics, figures)",
                description="The self-contained HTML report logged to the MLflow run",
                flow_run_id=target,
            )
        )
    return [artifact.create(_sync=True).id for artifact in artifacts]


def publish_run_artifacts(purpose: str, run: ParentRun, published: Mapping | None) -> list[UUID]:
    """:func:`publish_flow_artifacts` for a parent run and its published report
    (``tasks.report.publish.PublishedReport.as_dict``, ``None`` when no report could be built)."""
    run_name = published["run_name"] if published else run.run_id
    markdown = (
        published["description"]
        if published
        else f"MLflow run {run.run_id} has no report: no cell succeeded (see its FAILED child runs)."
    )
    return publish_flow_artifacts(
        purpose=purpose,
        markdown=markdown,
        run_url=mlflow_run_url(run.tracking_uri, run.experiment_id, run.run_id),
        run_name=run_name,
        report_link=None if published is None else published["url"],
    )
