"""The environment the command line runs flows in, when nothing else set it up (``make`` or not).

- :func:`apply_environment_defaults`: the settings that keep Prefect and MLflow local and quiet
  (``docs/environment.md``), a start-up timeout for Prefect's temporary server that a loaded machine can meet,
  and Prefect's state folder, ``$CSLEARN_HOME/prefect`` (``tasks.storage.prefect_home``, where ``make run``
  and ``make deploy`` keep it too); each applies only when the user has not set that variable (``make`` sets
  the same values).
- :class:`PrefectApi`: the Prefect API a flow will talk to, made ready while the caller imports the flow.
  With ``PREFECT_API_URL`` set (environment or Prefect profile), that server is checked for health and
  reused. Otherwise the command starts Prefect's temporary server itself, the way Prefect does (``uvicorn``
  serving ``prefect.server.api.server:create_app`` as an ephemeral server without UI, on a free loopback
  port), but at once, before Prefect is even imported, so its start-up overlaps the seconds the flow's
  imports take, and the flow then talks to it as to a configured server, which spares this process
  importing Prefect's server code. When the flow is done, Prefect's log and event queues are drained and the
  server stopped; it also stops when this process ends any other way, even killed (Linux: the server asks
  for SIGTERM on its parent's death). Its output (including what its services print when stopped) goes to
  ``$PREFECT_HOME/temporary-server.log`` instead of the terminal.
- What a command checks before any work, so that a setting that cannot work ends in one line and exit status
  2 within seconds instead of minutes of retries and tracebacks: :func:`folder_setting_problems` (a
  ``CSLEARN_HOME`` or ``CSLEARN_CACHE`` that cannot be a folder), :func:`tracking_server_problem` (an MLflow
  tracking server that does not answer) and :func:`dask_scheduler_problem` (no Dask scheduler listening).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "ENVIRONMENT_DEFAULTS",
    "FOLDER_SETTINGS",
    "PrefectApi",
    "PrefectUnavailableError",
    "apply_environment_defaults",
    "dask_scheduler_problem",
    "folder_setting_problems",
    "tracking_server_problem",
]

#: Variables set for flows run from the command line unless the user set them (``docs/environment.md``).
ENVIRONMENT_DEFAULTS = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    "DO_NOT_TRACK": "true",
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
    "MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR": "false",  # the flows upload and read back report artifacts
}

#: Seconds a configured Prefect server has to answer its health check.
HEALTH_TIMEOUT_SECONDS = 10.0

#: Seconds an MLflow tracking server or a Dask scheduler has to answer before a run is refused.
ANSWER_TIMEOUT_SECONDS = 5.0

#: The folders cslearn writes to that a variable moves: the variable, what cslearn keeps there, and the
#: ``platformdirs`` function of its default.
FOLDER_SETTINGS = {
    "CSLEARN_HOME": ("its MLflow store, compare cells and Prefect history", "user_data_dir"),
    "CSLEARN_CACHE": ("its datasets", "user_cache_dir"),
}


def apply_environment_defaults() -> None:
    """Set each of :data:`ENVIRONMENT_DEFAULTS` the user has not set, and ``PREFECT_HOME`` to
    ``$CSLEARN_HOME/prefect`` when unset (before Prefect or MLflow imports)."""
    from tasks.storage import prefect_home

    for name, value in ENVIRONMENT_DEFAULTS.items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("PREFECT_HOME", str(prefect_home()))


def folder_setting_problems() -> list[str]:
    """One sentence per variable of :data:`FOLDER_SETTINGS` that names a path which cannot be a folder
    (``tasks.storage.unusable_folder``), saying what cslearn keeps there and the way out; empty when all
    can."""
    import platformdirs

    from tasks.storage import unusable_folder

    problems = []
    for variable, (contents, default) in FOLDER_SETTINGS.items():
        value = os.environ.get(variable)
        problem = unusable_folder(value) if value else None
        if problem:
            default_folder = getattr(platformdirs, default)("cslearn")
            problems.append(
                f"{variable}={value}: {problem}; cslearn keeps {contents} in that folder: point {variable} "
                f"at a folder (created if missing) or unset it for the default, {default_folder}"
            )
    return problems


def tracking_server_problem(uri: str, source: str) -> str | None:
    """Why the MLflow tracking server at ``uri`` cannot be used, when nothing answers there within
    :data:`ANSWER_TIMEOUT_SECONDS`; ``None`` when something answers or ``uri`` is not an http(s) URI.

    MLflow's own client would retry for minutes before failing with a traceback; any HTTP answer to
    ``/health`` (unprotected even with MLflow's authentication) counts, whatever its status. ``source`` says
    where the URI came from (``--tracking-uri``, ``MLFLOW_TRACKING_URI``). TLS is checked as MLflow would
    (``MLFLOW_TRACKING_INSECURE_TLS``, ``MLFLOW_TRACKING_SERVER_CERT_PATH``).
    """
    from urllib.parse import urlsplit

    if urlsplit(uri).scheme not in ("http", "https"):
        return None
    import httpx

    verify: bool | str = os.environ.get("MLFLOW_TRACKING_SERVER_CERT_PATH") or True
    if os.environ.get("MLFLOW_TRACKING_INSECURE_TLS", "").lower() in ("1", "true"):
        verify = False
    try:
        httpx.get(f"{uri.rstrip('/')}/health", timeout=ANSWER_TIMEOUT_SECONDS, verify=verify)
    except httpx.TransportError as error:
        how = "unset MLFLOW_TRACKING_URI" if source == "MLFLOW_TRACKING_URI" else f"leave {source} out"
        reason = str(error) or type(error).__name__
        return (
            f"the MLflow tracking server at {uri} ({source}) does not answer ({reason}): start it "
            f"(`mlflow server --host 127.0.0.1 --port PORT`, or `make ui` for the local store) or {how} "
            "to use the local store in $CSLEARN_HOME"
        )
    return None


def dask_scheduler_problem(address: str) -> str | None:
    """Why no Dask scheduler can be reached at ``address`` (``tcp://`` or ``tls://HOST:PORT``): nothing
    accepts a connection there within :data:`ANSWER_TIMEOUT_SECONDS`; ``None`` when something does.

    Dask's client would wait 30 s and more before failing with tracebacks.
    """
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is not a number
        host = port = None
    if not host or port is None:
        return f"--dask-address {address} is not a scheduler address: use tcp://HOST:PORT or tls://HOST:PORT"
    try:
        socket.create_connection((host, port), timeout=ANSWER_TIMEOUT_SECONDS).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        return (
            f"no Dask scheduler answers at {address} ({reason.lower()}): start one (`dask scheduler --host "
            f"{host} --port {port}`, then `dask worker {parts.scheme}://{host}:{port} --nthreads 1` per "
            "core; docs/usage.md: Running on a Dask cluster) or leave --dask-address out to run the cells on "
            "this machine"
        )
    return None


class PrefectUnavailableError(RuntimeError):
    """The configured Prefect server does not answer, or the temporary one did not start; the message says
    what to do."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _prefect_home() -> Path:
    """``PREFECT_HOME``, default ``$CSLEARN_HOME/prefect`` (:func:`apply_environment_defaults` sets it)."""
    from tasks.storage import prefect_home

    return prefect_home()


#: What the temporary server's process runs: ask for SIGTERM when the command's process ends, however it ends
#: (even killed; Linux ``PR_SET_PDEATHSIG``), so the server never outlives its command, then run
#: ``python -m uvicorn`` with the remaining arguments (Prefect's own command line for its ephemeral server).
_SERVER_BOOTSTRAP = """
import ctypes, os, runpy, signal, sys
parent = int(sys.argv.pop(1))
if sys.platform == "linux":
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)
if os.getppid() != parent:
    sys.exit(0)
runpy.run_module("uvicorn", run_name="__main__", alter_sys=True)
"""

#: Exit status of uvicorn when its port is taken (Prefect retries on another port too).
_PORT_TAKEN = 3


class PrefectApi:
    """The Prefect API of the flows this process runs: :meth:`start` early, :meth:`wait` before the flow,
    :meth:`settings` around it, :meth:`close` after it (see the module docstring)."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.temporary = False
        self.log_path = _prefect_home() / "temporary-server.log"
        self._process: subprocess.Popen | None = None

    def start(self) -> None:
        """Check the server ``PREFECT_API_URL`` names, or start the temporary one in the background.

        Raises
        ------
        PrefectUnavailableError
            ``PREFECT_API_URL`` is set but its server does not answer ``/health``.
        """
        configured = os.environ.get("PREFECT_API_URL")
        if configured:
            self.url = configured
            self._check_health(configured)
            return
        self.temporary = True
        self._launch()
        atexit.register(self._stop_process)  # before Prefect registers its own exit handlers: runs after them

    def _launch(self) -> None:
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}/api"
        prefect_folder = Path(importlib.util.find_spec("prefect").submodule_search_locations[0])
        command = [
            sys.executable, "-c", _SERVER_BOOTSTRAP, str(os.getpid()),
            "--app-dir", str(prefect_folder.parent), "--factory", "prefect.server.api.server:create_app",
            "--host", "127.0.0.1", "--port", str(port), "--log-level", "error", "--lifespan", "on",
        ]  # fmt: skip
        server_settings = {
            "PREFECT_UI_ENABLED": "0",
            "PREFECT__SERVER_EPHEMERAL": "1",
            "PREFECT__SERVER_FINAL": "1",
        }
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self._process = subprocess.Popen(
                command,
                env={**os.environ, **server_settings},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,  # Ctrl-C reaches the command, which stops the server after use
            )

    def _check_health(self, url: str, timeout: float = HEALTH_TIMEOUT_SECONDS) -> None:
        import httpx

        try:
            response = httpx.get(f"{url.rstrip('/')}/health", timeout=timeout)
            response.raise_for_status()
        except httpx.HTTPError as error:
            raise PrefectUnavailableError(
                f"the Prefect server at {url} (PREFECT_API_URL) does not answer: {error}; start it "
                "(`make deploy`, or `prefect server start --host 127.0.0.1`) or unset PREFECT_API_URL to let "
                "cslearn start a temporary one"
            ) from None

    def wait(self) -> str:
        """Block until the API answers; return its URL. A server configured in the Prefect profile (not the
        environment) replaces a temporary one started before the profile could be read.

        Raises
        ------
        PrefectUnavailableError
            The configured server does not answer, or the temporary one did not start in
            ``PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS`` (the message ends with its log).
        """
        from prefect.settings import get_current_settings

        settings = get_current_settings()
        if self.temporary and settings.api.url:
            self._stop_process()
            self.temporary, self.url = False, settings.api.url
            self._check_health(self.url)
        if not self.temporary:
            return self.url
        import httpx

        deadline = time.monotonic() + settings.server.ephemeral.startup_timeout_seconds
        while time.monotonic() < deadline:
            if self._process.poll() == _PORT_TAKEN:
                self._launch()
            elif self._process.poll() is not None:
                break
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/health", timeout=5).status_code == 200:
                    return self.url
            time.sleep(0.1)
        self._stop_process()
        timeout = settings.server.ephemeral.startup_timeout_seconds
        raise PrefectUnavailableError(
            f"Prefect's temporary server did not start in {timeout:g} s "
            f"(PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS); end of its log ({self.log_path}):\n"
            f"{self._log_tail()}"
        )

    @contextlib.contextmanager
    def settings(self) -> Iterator[None]:
        """Prefect's settings while the flow runs: the temporary server's URL as ``PREFECT_API_URL``, and no
        UI links (the temporary server has no UI and stops with the command)."""
        if not self.temporary:
            yield
            return
        from prefect.settings import PREFECT_API_URL, PREFECT_UI_URL, temporary_settings

        with temporary_settings(updates={PREFECT_API_URL: self.url, PREFECT_UI_URL: ""}):
            yield

    def close(self) -> None:
        """Send Prefect's queued logs and events, then stop the temporary server this object started."""
        if self._process is None:
            return
        if "prefect" in sys.modules:
            from prefect.events.worker import EventsWorker
            from prefect.logging.handlers import APILogWorker

            APILogWorker.drain_all(timeout=10)
            EventsWorker.drain_all(timeout=10)
        self._stop_process()

    def _stop_process(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def _log_tail(self, n_lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n_lines:])
        except OSError:
            return "(no log)"
