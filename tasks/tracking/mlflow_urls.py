"""Where a browser opens what a run logged: MLflow UI pages in the training layout, and the report.

Every MLflow UI address the project prints or links is built here. A tracking server serves its own UI; a
local store (sqlite or files) is browsed through ``make ui``'s MLflow UI on 127.0.0.1 (``MLFLOW_UI_PORT``,
default 5000), which serves the same store and its artifacts.

MLflow 3's UI has two layouts. Without a hint it opens the GenAI one (traces, latency, no model registry in
the sidebar); the query parameter ``workflowType=machine_learning`` selects the training one
(:data:`TRAINING_LAYOUT`), and an experiment tagged ``mlflow.experimentKind = custom_model_development``
(:data:`EXPERIMENT_KIND_TAG`, :data:`MODEL_DEVELOPMENT`) makes the UI's own navigation choose it too: the
experiment page reads the tag when the address has no ``workflowType``. Both names are those of MLflow's UI
bundle (``mlflow/server/js``: ``workflowType`` ``"machine_learning"``, experiment kind
``"custom_model_development"``, shown as "Machine learning").

The report is linked as the MLflow UI shows it, in the run's artifact view
(``#/experiments/<id>/runs/<run>/artifacts/report/report.html``): it opens from an http page (a Prefect
artifact, the MLflow UI) and from another machine, where a ``file://`` link does neither. MLflow's own
download endpoint (``get-artifact``) sends the file as an attachment, so it is the download link; for a local
store the file's path is given beside it (:func:`report_location`).
"""

from __future__ import annotations

import os
import urllib.parse

__all__ = [
    "EXPERIMENT_KIND_TAG",
    "MODEL_DEVELOPMENT",
    "REPORT_ARTIFACT",
    "TRAINING_LAYOUT",
    "artifact_download_url",
    "artifact_view_url",
    "is_tracking_server",
    "mlflow_experiment_url",
    "mlflow_home_url",
    "mlflow_run_url",
    "mlflow_ui_base",
    "report_location",
]

#: Where the report lives among the parent run's artifacts.
REPORT_ARTIFACT = "report/report.html"

#: The query that opens MLflow 3's UI in its training layout (else it opens the GenAI layout).
TRAINING_LAYOUT = {"workflowType": "machine_learning"}

#: The experiment tag MLflow's UI reads to choose an experiment's layout, and the value of model development.
EXPERIMENT_KIND_TAG = "mlflow.experimentKind"
MODEL_DEVELOPMENT = "custom_model_development"


def is_tracking_server(tracking_uri: str) -> bool:
    """Whether ``tracking_uri`` is an MLflow tracking server (http or https), not a local store."""
    return tracking_uri.startswith(("http://", "https://"))


def mlflow_ui_base(tracking_uri: str) -> str:
    """The MLflow UI over ``tracking_uri``: the tracking server itself, or ``make ui`` for a local store."""
    if is_tracking_server(tracking_uri):
        return tracking_uri.rstrip("/")
    return f"http://127.0.0.1:{os.environ.get('MLFLOW_UI_PORT', '5000')}"


def _page(tracking_uri: str, route: str) -> str:
    return f"{mlflow_ui_base(tracking_uri)}/#/{route}?{urllib.parse.urlencode(TRAINING_LAYOUT)}"


def mlflow_home_url(tracking_uri: str) -> str:
    """The MLflow UI's list of experiments, in the training layout (``make ui``'s front page)."""
    return _page(tracking_uri, "experiments")


def mlflow_experiment_url(tracking_uri: str, experiment_id: str) -> str:
    """An experiment's runs in the MLflow UI, in the training layout."""
    return _page(tracking_uri, f"experiments/{experiment_id}")


def mlflow_run_url(tracking_uri: str, experiment_id: str, run_id: str) -> str:
    """The run's page in the MLflow UI (description, parameters, metrics), in the training layout."""
    return _page(tracking_uri, f"experiments/{experiment_id}/runs/{run_id}")


def artifact_view_url(
    tracking_uri: str, experiment_id: str, run_id: str, artifact: str = REPORT_ARTIFACT
) -> str:
    """The run's artifact view in the MLflow UI, opened at ``artifact`` (an HTML file is shown rendered)."""
    path = urllib.parse.quote(artifact)
    return _page(tracking_uri, f"experiments/{experiment_id}/runs/{run_id}/artifacts/{path}")


def artifact_download_url(tracking_uri: str, run_id: str, artifact: str = REPORT_ARTIFACT) -> str:
    """The file ``artifact`` of the run as MLflow's server sends it (a download)."""
    query = urllib.parse.urlencode({"path": artifact, "run_uuid": run_id})
    return f"{mlflow_ui_base(tracking_uri)}/get-artifact?{query}"


def report_location(
    tracking_uri: str, experiment_id: str, run_id: str, uri: str, artifact: str = REPORT_ARTIFACT
) -> dict[str, str | None]:
    """Where the report of a run opens: ``url`` (its artifact view in the MLflow UI: the tracking server's,
    or ``make ui``'s for a local store), ``download`` (MLflow's download endpoint) and ``path`` (the file, for
    a local store; ``None`` with a tracking server, whose files are its own). ``uri`` is the artifact's URI in
    the store."""
    local = None
    if is_tracking_server(tracking_uri):
        local = None
    elif uri.startswith("file://"):
        local = urllib.parse.unquote(urllib.parse.urlsplit(uri).path)
    elif "://" not in uri:
        local = uri
    return {
        "url": artifact_view_url(tracking_uri, experiment_id, run_id, artifact),
        "download": artifact_download_url(tracking_uri, run_id, artifact),
        "path": local,
    }
