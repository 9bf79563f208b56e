"""Session-wide test set-up: a quiet, local environment and real Prefect / MLflow servers on 127.0.0.1.

* On import (before any test module imports Prefect or MLflow) the settings of ``docs/environment.md`` are
  exported, ``PREFECT_HOME`` and ``CSLEARN_HOME`` (the default MLflow store and cell store) point at
  throw-away folders, and any ``PREFECT_API_URL`` / ``MLFLOW_TRACKING_URI`` inherited from the shell is
  dropped, so no test talks to a developer's servers or writes into their runs.
* ``CSLEARN_CACHE`` points at a session copy of the developer's dataset cache without their own ingested
  datasets (``datasets/user``): the built-in datasets and the downloaded wheels are reused (hard links, and
  the shared ``downloads`` folder), but a dataset a developer ingested never shows up in a test's registry.
* ``prefect_server`` and ``mlflow_server`` are session fixtures backed by real server processes
  (:mod:`tests.servers`). Both are launched together as soon as collection shows a selected test needs
  them, so they boot in parallel while pytest sets up; the fixtures only wait for health.
* Servers are stopped by process group at the end of the session, also when pytest is interrupted (Ctrl-C,
  or SIGTERM, which the session turns into an interrupt), and at interpreter exit. Their logs stay on disk
  when the session fails; a failing test that used a server gets the end of the server's log in its report.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile
from pathlib import Path

import platformdirs
import pytest

from tests.servers import QUIET_ENVIRONMENT, ServerProcess, launch_mlflow_server, launch_prefect_server

os.environ.update(QUIET_ENVIRONMENT)
os.environ.pop("PREFECT_API_URL", None)
os.environ.pop("MLFLOW_TRACKING_URI", None)
_SESSION_ROOT = Path(tempfile.mkdtemp(prefix="cslearn-tests-"))
os.environ["PREFECT_HOME"] = str(_SESSION_ROOT / "prefect-home")
os.environ["CSLEARN_HOME"] = str(_SESSION_ROOT / "cslearn-home")


def _session_dataset_cache(developer_cache: Path, session_cache: Path) -> Path:
    """``session_cache`` holding the built-in entries of ``developer_cache`` and sharing its downloads.

    The entries are hard links (copies across file systems): cslearn replaces files by renaming, so a test
    that re-ingests one never changes the developer's. Top-level files (the recorded checksums of the
    downloads) are copied, as they describe the shared downloads; ``datasets/user`` is left out.
    """
    session_cache.mkdir(parents=True)
    if developer_cache.is_dir():
        for entry in developer_cache.iterdir():
            if entry.is_file() and not entry.is_symlink():
                shutil.copy2(entry, session_cache / entry.name)
    (developer_cache / "downloads").mkdir(parents=True, exist_ok=True)
    (session_cache / "downloads").symlink_to(developer_cache / "downloads", target_is_directory=True)
    (session_cache / "datasets").mkdir()
    developer_datasets = developer_cache / "datasets"
    for entry in developer_datasets.iterdir() if developer_datasets.is_dir() else ():
        if entry.is_file() and not entry.is_symlink():
            try:
                os.link(entry, session_cache / "datasets" / entry.name)
            except OSError:  # another file system
                shutil.copy2(entry, session_cache / "datasets" / entry.name)
    return session_cache


os.environ["CSLEARN_CACHE"] = str(
    _session_dataset_cache(
        Path(os.environ.get("CSLEARN_CACHE") or platformdirs.user_cache_dir("cslearn")).expanduser(),
        _SESSION_ROOT / "dataset-cache",
    )
)

_SERVER_FIXTURES = {"prefect_server": "prefect", "mlflow_server": "mlflow"}
_servers: dict[str, ServerProcess] = {}


def _launch(kind: str) -> ServerProcess:
    if kind not in _servers:
        if kind == "prefect":
            _servers[kind] = launch_prefect_server(_SESSION_ROOT / "prefect-server")
        else:
            _servers[kind] = launch_mlflow_server(_SESSION_ROOT / "mlflow-server")
    return _servers[kind]


def _stop_all() -> None:
    for server in list(_servers.values()):
        server.stop()


atexit.register(_stop_all)


def _interrupt_on_sigterm(signum, frame):
    raise KeyboardInterrupt(f"received signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    """Turn SIGTERM into an interrupt so pytest still finishes the session and stops the servers."""
    signal.signal(signal.SIGTERM, _interrupt_on_sigterm)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Launch, without waiting, every server that a selected test needs, so they boot in parallel."""
    if session.config.option.collectonly:
        return
    needed = {fixture for item in session.items for fixture in getattr(item, "fixturenames", ())}
    for fixture_name, kind in _SERVER_FIXTURES.items():
        if fixture_name in needed:
            _launch(kind)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _stop_all()
    if exitstatus == 0:
        shutil.rmtree(_SESSION_ROOT, ignore_errors=True)
    elif _servers:
        session.config.get_terminal_writer().line(f"server logs and state kept in {_SESSION_ROOT}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.failed:
        for fixture_name, kind in _SERVER_FIXTURES.items():
            if fixture_name in getattr(item, "fixturenames", ()) and kind in _servers:
                server = _servers[kind]
                report.sections.append((f"{kind} server log ({server.log_path})", server.log_tail()))
    return report


@pytest.fixture(scope="session")
def prefect_server():
    """A real Prefect server on 127.0.0.1 with its own ``PREFECT_HOME``; yields its API URL.

    For the session, ``PREFECT_API_URL`` is exported (so subprocesses such as workers and ``prefect deploy``
    use it) and set in Prefect's settings context (so already-imported Prefect code uses it too).
    """
    api_url = _launch("prefect").wait_until_healthy()
    from prefect.settings import PREFECT_API_URL, temporary_settings

    os.environ["PREFECT_API_URL"] = api_url
    try:
        with temporary_settings(updates={PREFECT_API_URL: api_url}):
            yield api_url
            _flush_prefect_logs()
    finally:
        os.environ.pop("PREFECT_API_URL", None)


def _flush_prefect_logs() -> None:
    """Send buffered logs and events while the server is up (else Prefect reports a failed flush at exit)."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    APILogWorker.drain_all(timeout=10)
    EventsWorker.drain_all(timeout=10)


@pytest.fixture(scope="session")
def mlflow_server():
    """A real MLflow tracking server on 127.0.0.1 (sqlite store, file artifacts); yields its tracking URI.

    The URI is not made the global default: pass it explicitly (flows take ``tracking_uri``).
    """
    return _launch("mlflow").wait_until_healthy()


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server on 127.0.0.1 (its own folder, a password user ``cslearn``) for the session."""
    from tests.servers import launch_postgres_server

    server = launch_postgres_server(_SESSION_ROOT / "postgres")
    try:
        yield server
    finally:
        server.stop()
