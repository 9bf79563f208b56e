"""A password given as a query parameter of the tracking URI (``...?user=alice&password=s3cret``, the form
libpq and some proxies use) is never shown: the command line prints the URI through
``tasks.redaction.redact_uri`` (issue 25, part 3).

The store is a real sqlite MLflow store, whose driver ignores the two parameters (with a warning), so the
commands work while the URI carries them, as they would against a PostgreSQL store that reads them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from flows.cli import main
from tasks.storage import state_home
from tasks.tracking.mlflow_runs import tracking_client
from tests import conftest

PROJECT = Path(__file__).resolve().parents[2]
SECRET = "s3cret"


def _uri(folder: Path) -> str:
    return f"sqlite:///{folder / 'mlflow.db'}?user=alice&password={SECRET}"


def test_report_names_the_store_without_the_password(tmp_path, capsys):
    assert main(["report", "0" * 32, "--tracking-uri", _uri(tmp_path)]) == 2

    err = capsys.readouterr().err
    assert f"no MLflow run '{'0' * 32}' in sqlite:///{tmp_path / 'mlflow.db'}?user=alice&password=***:" in err
    assert SECRET not in err


def test_runs_cleanup_names_the_store_without_the_password(tmp_path, capsys):
    assert main(["runs", "cleanup", "--experiment", "nowhere", "--tracking-uri", _uri(tmp_path)]) == 2

    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (  # after MLflow's lines on creating the store
        f"cslearn runs cleanup: no MLflow experiment 'nowhere' in sqlite:///{tmp_path / 'mlflow.db'}"
        "?user=alice&password=***"
    )
    assert SECRET not in err


@pytest.mark.slow
@pytest.mark.servers
def test_compare_shows_the_tracking_uri_without_the_password(prefect_server, tmp_path):
    uri = _uri(tmp_path)
    experiment = f"query-secret-{uuid.uuid4().hex[:8]}"
    arguments = ["compare", "--datasets", "haberman", "--methods", "dt", "--repeats", "1", "--folds", "2"]
    arguments += ["--tracking-uri", uri, "--experiment", experiment, "--no-progress"]
    arguments += ["--cell-store", str(state_home() / f"test-cells/query-{uuid.uuid4().hex[:8]}")]
    env = {key: value for key, value in os.environ.items() if not key.startswith("MLFLOW_TRACKING_")}
    env["PREFECT_API_URL"] = prefect_server
    shown = {}
    for extra in (["--json"], []):
        completed = subprocess.run(
            [sys.executable, "-m", "flows.cli", *arguments, *extra],
            cwd=PROJECT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert completed.returncode == 0, completed.stderr[-4000:]
        assert SECRET not in completed.stdout + completed.stderr
        shown[bool(extra)] = completed.stdout

    redacted = f"sqlite:///{tmp_path / 'mlflow.db'}?user=alice&password=***"
    document = json.loads(shown[True])
    assert document["tracking_uri"] == redacted
    assert f"in {redacted}" in shown[False]  # "MLflow parent run ID in URI" of the text summary
    client = tracking_client(f"sqlite:///{tmp_path / 'mlflow.db'}")
    runs = client.search_runs([client.get_experiment_by_name(experiment).experiment_id])
    assert runs and all(SECRET not in json.dumps([run.data.params, run.data.tags]) for run in runs)
    conftest._flush_prefect_logs()  # the flow runs' parameters and log lines, in Prefect's database
    files = [path for path in conftest._servers["prefect"].log_path.parent.rglob("*") if path.is_file()]
    assert any(path.suffix == ".db" for path in files)
    for path in files:
        if path.name != "server.log":
            assert SECRET.encode() not in path.read_bytes(), f"{SECRET!r} found in {path}"
