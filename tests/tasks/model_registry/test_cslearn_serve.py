"""``cslearn serve`` against the real MLflow server of the fixtures (issue 25, part 3).

- A champion whose folder in the artifact store was given a planted loader (``MLmodel``'s ``loader_module``
  and a ``code/`` folder, as anyone who can write to the store could do) is refused in one line before any
  server starts, and the planted code never runs; MLflow's own pyfunc loading (what ``mlflow models serve``
  does) runs it, which is why the documented path is ``cslearn serve``.
- A damaged ``model.skops`` is refused in one line naming it.
- A served model answers a refused request with HTTP 400, MLflow's ``INVALID_PARAMETER_VALUE`` and cslearn's
  message, with no traceback and no path of the server; an empty batch with an empty table.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from mlflow import MlflowClient

from tasks.model_registry import fit_and_log_candidate, register_and_promote
from tasks.tracking.mlflow_runs import ensure_experiment, start_run
from tests.servers import launch_cslearn_server

pytestmark = pytest.mark.servers

PROJECT = Path(__file__).resolve().parents[3]


def _champion(mlflow_server: str, data, method: str = "bmr-lr") -> tuple[str, Path]:
    """A freshly logged candidate registered as champion of ``cslearn-<dataset>``: (dataset, its folder in
    the artifact store)."""
    client = MlflowClient(mlflow_server)
    experiment_id = ensure_experiment(client, f"serve-{uuid.uuid4().hex[:8]}")
    parent = start_run(client, experiment_id, run_name="retrain")
    candidate = fit_and_log_candidate(
        data, method, tracking_uri=mlflow_server, experiment_id=experiment_id, parent_run_id=parent
    )
    dataset = f"served-{uuid.uuid4().hex[:8]}"
    register_and_promote(client, f"cslearn-{dataset}", candidate, data)
    location = client.get_logged_model(candidate.model_id).artifact_location
    return dataset, Path(location.removeprefix("file://"))


def _serve(dataset: str, mlflow_server: str) -> subprocess.CompletedProcess:
    """``cslearn serve DATASET`` as a user runs it; it must stop by itself (a refusal) within the timeout."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MLFLOW_")}
    return subprocess.run(
        [sys.executable, "-m", "flows.cli", "serve", dataset, "--tracking-uri", mlflow_server, "--port", "1"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_planted_loader_in_the_artifact_store_never_runs(mlflow_server, retrain_data, tmp_path):
    dataset, folder = _champion(mlflow_server, retrain_data)
    marker = tmp_path / "planted-code-ran"
    (folder / "code").mkdir()
    (folder / "code" / "planted_loader.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\nfrom tasks.model_registry.serving import _load_pyfunc\n"
    )
    mlmodel = (folder / "MLmodel").read_text()
    (folder / "MLmodel").write_text(
        mlmodel.replace(
            "loader_module: tasks.model_registry.serving", "loader_module: planted_loader\n    code: code"
        )
    )

    refused = _serve(dataset, mlflow_server)

    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1] == (
        f"cslearn serve: models:/cslearn-{dataset}@champion cannot be served: the model's MLmodel asks for"
        " the loader 'planted_loader' and bundled code (python_function.code), not cslearn's loader"
        " tasks.model_registry.serving: it was not logged by cslearn's retrain, or it was edited in the"
        " artifact store. cslearn serves only the models it logs and never runs code a model folder names;"
        " retrain to log a new version"
    )
    assert "Traceback" not in refused.stderr and not marker.exists()
    # What `mlflow models serve -m models:/...` does with the same champion: it runs the planted loader.
    mlflow_loads = f"import mlflow.pyfunc; mlflow.pyfunc.load_model('models:/cslearn-{dataset}@champion')"
    subprocess.run(
        [sys.executable, "-c", mlflow_loads],
        env={**os.environ, "MLFLOW_TRACKING_URI": mlflow_server},
        check=True,
        capture_output=True,
        timeout=600,
    )
    assert marker.read_text() == "ran"


def test_a_damaged_model_file_is_named_in_one_line(mlflow_server, retrain_data):
    dataset, folder = _champion(mlflow_server, retrain_data)
    (folder / "model.skops").write_bytes((folder / "model.skops").read_bytes()[:1000])

    refused = _serve(dataset, mlflow_server)

    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1] == (
        f"cslearn serve: models:/cslearn-{dataset}@champion cannot be served: the model's estimator file"
        " model.skops is damaged: it is not a complete skops archive (BadZipFile: File is not a zip file), so"
        " the model cannot be loaded; serve or load another version, or retrain to log a new one"
    )
    assert "Traceback" not in refused.stderr


def _post(url: str, columns: list[str], rows: list[list]) -> httpx.Response:
    body = {"dataframe_split": {"columns": columns, "data": rows}}
    return httpx.post(f"{url}/invocations", json=body, timeout=300)


def test_refused_requests_get_400_with_cslearns_message_and_no_trace(
    logged_candidates, mlflow_server, tmp_path
):
    data, _, _, _, results = logged_candidates
    server = launch_cslearn_server(f"models:/{results['adaboost'].model_id}", mlflow_server, tmp_path)
    columns = list(data.holdout_features.columns)  # V1, V2, Amount
    row = [float(value) for value in data.holdout_features.iloc[0]]
    try:
        server.wait_until_healthy()
        decided = _post(server.url, columns, [row])
        empty = _post(server.url, columns, [])
        negative = _post(server.url, columns, [[row[0], row[1], -5.0]])
        huge = _post(server.url, columns, [[1e300, row[1], row[2]]])
        missing = _post(server.url, ["V1", "Amount"], [[row[0], row[2]]])
    finally:
        server.stop()

    assert decided.status_code == 200 and len(decided.json()["predictions"]) == 1
    assert (empty.status_code, empty.json()) == (200, {"predictions": []})
    for refused, message in (
        (
            negative,
            "column 'Amount' (transaction amount) has negative values; expected >= 0 at 1 row(s): [0]",
        ),
        (huge, "AdaBoost cannot use feature values this large: column 0 ('V1') holds 1e+300 at row 0"),
        (missing, "Model is missing inputs ['V2']"),
    ):
        assert refused.status_code == 400, refused.text
        answer = refused.json()
        assert answer["error_code"] == "INVALID_PARAMETER_VALUE" and message in answer["message"]
        assert "stack_trace" not in answer
        assert "Traceback" not in refused.text and "site-packages" not in refused.text
        assert str(PROJECT) not in refused.text
