"""A failing MLflow store named in one line (``tasks.tracking.store_errors``), against real stores: a sqlite
store whose file is deleted, emptied or made unwritable, and a tracking server that does not answer."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
from pathlib import Path

import pytest
from mlflow import MlflowClient

from tasks.tracking.store_errors import (
    TrackingStoreError,
    is_store_failure,
    store_failure,
    store_failures_named,
)
from tests.servers import free_port


@pytest.fixture(scope="module")
def template_store(tmp_path_factory):
    """A real sqlite store with one experiment, created once (MLflow's migrations take seconds)."""
    database = tmp_path_factory.mktemp("template") / "mlflow.db"
    experiment = MlflowClient(f"sqlite:///{database}").create_experiment("probe")
    return database, experiment


@pytest.fixture
def sqlite_store(template_store, tmp_path):
    """A copy of the template store: ``(uri, database file, client, experiment id)``."""
    database = tmp_path / "store" / "mlflow.db"
    database.parent.mkdir()
    shutil.copyfile(template_store[0], database)
    uri = f"sqlite:///{database}"
    return uri, database, MlflowClient(uri), template_store[1]


def _error_of(call) -> Exception:
    with pytest.raises(Exception) as raised:
        call()
    return raised.value


def test_a_deleted_store_is_named(sqlite_store):
    uri, database, client, experiment = sqlite_store
    shutil.rmtree(database.parent)
    failure = store_failure(_error_of(lambda: client.create_run(experiment)), uri)
    assert str(failure) == (
        f"the MLflow store {uri} failed: its database file {database} no longer exists "
        "(deleted during the run?)"
    )


def test_a_deleted_database_file_that_sqlite_creates_again_is_named(sqlite_store):
    uri, database, client, experiment = sqlite_store
    database.unlink()  # the next connection creates an empty file in its place
    failure = store_failure(_error_of(lambda: client.create_run(experiment)), uri)
    assert (
        failure.reason == f"its database file {database} is empty (deleted and created again during the run?)"
    )


def _unwritable(database: Path):
    if os.geteuid() == 0:  # root writes through permissions: make the file immutable
        if subprocess.run(["chattr", "+i", str(database)], capture_output=True).returncode != 0:
            pytest.skip("this file system cannot make a file immutable")
        return lambda: subprocess.run(["chattr", "-i", str(database)], check=True)
    database.chmod(0o444)
    database.parent.chmod(0o555)
    return lambda: (database.parent.chmod(0o755), database.chmod(0o644))


def test_an_unwritable_database_file_is_named_without_sql(sqlite_store):
    uri, database, client, experiment = sqlite_store
    undo = _unwritable(database)
    try:
        error = _error_of(lambda: client.create_run(experiment))
        failure = store_failure(error, uri)
    finally:
        undo()
    assert "(sqlite3.OperationalError)" in str(error)  # what MLflow says, and logs with tracebacks
    assert failure.reason.startswith(f"its database file {database} cannot be written (")
    assert "sqlite3" not in str(failure) and "\n" not in str(failure)


def test_a_tracking_server_that_went_away_is_named(monkeypatch):
    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_MAX_RETRIES", "0")
    uri = f"http://127.0.0.1:{free_port()}"
    error = _error_of(lambda: MlflowClient(uri).search_experiments())
    assert str(store_failure(error, uri)) == f"the MLflow store {uri} failed: [Errno 111] Connection refused"


def test_errors_that_are_not_the_store_s_pass_through(sqlite_store, tmp_path):
    uri, _, client, _ = sqlite_store
    unknown_run = _error_of(lambda: client.get_run("0" * 32))  # the store works; the run does not exist
    assert store_failure(unknown_run, uri) is None and not is_store_failure(unknown_run)
    missing_file = _error_of(lambda: (tmp_path / "dataset.csv").read_text())  # not raised through MLflow
    assert store_failure(missing_file, uri) is None
    with pytest.raises(ValueError, match="a bug"), store_failures_named(uri):
        raise ValueError("a bug of the caller's")


def test_a_failure_is_raised_named_with_mlflow_s_error_as_its_cause(sqlite_store):
    uri, database, client, experiment = sqlite_store
    shutil.rmtree(database.parent)
    with pytest.raises(TrackingStoreError) as raised, store_failures_named(uri):
        client.create_run(experiment)
    assert raised.value.__cause__ is not None and is_store_failure(raised.value)
    copy = pickle.loads(pickle.dumps(raised.value))  # Prefect keeps a failed state's exception
    assert str(copy) == str(raised.value)


def test_credentials_never_show():
    failure = TrackingStoreError("http://alice:s3cret@127.0.0.1:5000", "[Errno 111] Connection refused")
    assert "s3cret" not in str(failure) and "s3cret" not in repr(failure)
