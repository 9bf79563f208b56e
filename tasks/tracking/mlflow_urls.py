"""Where a browser opens what a run logged: the run's page in the MLflow UI and an artifact's URL.

A tracking server serves both; a local store (sqlite or files) is browsed through ``make ui``'s MLflow UI on
127.0.0.1 (``MLFLOW_UI_PORT``, default 5000), and its artifacts are files.
"""

from __future__ import annotations

import os
import urllib.parse

__all__ = ["REPORT_ARTIFACT", "is_tracking_server", "mlflow_run_url", "report_url"]

#: Where the report lives among the parent run's artifacts.
REPORT_ARTIFACT = "report/report.html"


def is_tracking_server(tracking_uri: str) -> bool:
    """Whether ``tracking_uri`` is an MLflow tracking server (http or https), not a local store."""
    return tracking_uri.startswith(("http://", "https://"))


def mlflow_run_url(tracking_uri: str, experiment_id: str, run_id: str) -> str:
    """The run's page in the MLflow UI: on the tracking server, or on ``make ui`` for a local store."""
    base = (
        tracking_uri
        if is_tracking_server(tracking_uri)
        else f"http://127.0.0.1:{os.environ.get('MLFLOW_UI_PORT', '5000')}"
    )
    return f"{base.rstrip('/')}/#/experiments/{experiment_id}/runs/{run_id}"


def report_url(tracking_uri: str, run_id: str, uri: str, artifact: str = REPORT_ARTIFACT) -> str:
    """Where a browser opens the run's artifact ``artifact`` (stored at ``uri``): the tracking server's
    ``get-artifact`` URL, or the file itself in a local artifact store."""
    if is_tracking_server(tracking_uri):
        query = urllib.parse.urlencode({"path": artifact, "run_uuid": run_id})
        return f"{tracking_uri.rstrip('/')}/get-artifact?{query}"
    return uri
