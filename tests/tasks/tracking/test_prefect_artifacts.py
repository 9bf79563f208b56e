"""Prefect artifacts of a flow run on a real Prefect server: throttled progress, leaderboard and links."""

from __future__ import annotations

import pytest
from prefect import flow

from tasks.tracking.prefect_artifacts import ProgressArtifact, publish_flow_artifacts

pytestmark = pytest.mark.servers


def test_progress_is_sent_at_most_once_per_second_and_always_at_the_end(prefect_server):
    now = [0.0]

    @flow
    def counting():
        bar = ProgressArtifact(10, description="cells done", clock=lambda: now[0])
        sent = []
        for done in range(1, 11):
            now[0] += 0.3
            sent.append(bar.update(done))
        bar.finish()
        return bar.id, sent, bar.updates

    artifact_id, sent, updates = counting()
    assert sent == [False, False, False, True, False, False, False, True, False, False]
    assert updates == 3  # two throttled updates, then the final one

    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as prefect:
        artifact = prefect.read_artifacts(limit=200)
    [stored] = [item for item in artifact if item.id == artifact_id]
    assert stored.data == 100.0 and stored.description == "cells done"


def test_leaderboard_and_links_go_on_the_top_flow_run(prefect_server):
    @flow
    def inner():
        return publish_flow_artifacts(
            purpose="test",
            subject="direct_marketing",
            markdown="| # | method |\n|---|---|\n| 1 | adacc1 |",
            run_url="http://127.0.0.1:5000/#/experiments/1/runs/abc?workflowType=machine_learning",
            run_name="compare 1 dataset x 1 method cv 1x2",
            report_link="http://127.0.0.1:5000/#/experiments/1/runs/abc/artifacts/report/report.html",
            report_path="/tmp/report.html",
        )

    @flow
    def outer():
        from prefect.runtime import flow_run

        return flow_run.get_id(), inner()

    outer_id, ids = outer()
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as prefect:
        stored = {item.id: item for item in prefect.read_artifacts(limit=200) if item.id in set(ids)}
    assert len(stored) == 3
    assert {str(item.flow_run_id) for item in stored.values()} == {str(outer_id)}
    by_key = {item.key: item for item in stored.values()}  # one key's history is one dataset's
    assert by_key["test-direct-marketing-leaderboard"].data.endswith("| 1 | adacc1 |")
    assert (
        "/#/experiments/1/runs/abc?workflowType=machine_learning"
        in by_key["test-direct-marketing-mlflow-run"].data
    )
    report = by_key["test-direct-marketing-report"]
    assert "/#/experiments/1/runs/abc/artifacts/report/report.html" in report.data
    assert report.description.endswith("its file: /tmp/report.html")
