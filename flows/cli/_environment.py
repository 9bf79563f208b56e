"""The environment the command line runs flows in, when nothing else set it up (``make`` or not).

- :func:`apply_environment_defaults`: the settings of ``../shared/spec/stack.md`` that keep Prefect and MLflow
  local and quiet, and a start-up timeout for Prefect's temporary server that a loaded machine can meet; each
  applies only when the user has not set that variable (``make`` sets the same values).
- :class:`PrefectApi`: the Prefect API a flow will talk to, made ready while the caller imports the flow. With
  ``PREFECT_API_URL`` set (environment or Prefect profile), that server is checked for health and reused;
  otherwise ONE temporary server is started in the background at once (its start-up, 5-15 s, overlaps the
  seconds the flow's imports take) and Prefect's flows use it: Prefect keeps one temporary server per process
  and stops it at exit. The server's own output (including the tracebacks it prints when stopped while still
  recording events) goes to ``$PREFECT_HOME/temporary-server.log`` instead of the terminal.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

__all__ = ["ENVIRONMENT_DEFAULTS", "PrefectApi", "PrefectUnavailableError", "apply_environment_defaults"]

#: Variables set for flows run from the command line unless the user set them (see ``stack.md``).
ENVIRONMENT_DEFAULTS = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    "DO_NOT_TRACK": "true",
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
}

#: Seconds a configured Prefect server has to answer its health check.
HEALTH_TIMEOUT_SECONDS = 10.0


def apply_environment_defaults() -> None:
    """Set each of :data:`ENVIRONMENT_DEFAULTS` the user has not set (before Prefect or MLflow imports)."""
    for name, value in ENVIRONMENT_DEFAULTS.items():
        os.environ.setdefault(name, value)


class PrefectUnavailableError(RuntimeError):
    """The configured Prefect server does not answer, or the temporary one did not start; the message says
    what to do."""


@contextlib.contextmanager
def _output_to(log_path: Path) -> Iterator[None]:
    """Point file descriptors 1 and 2 at ``log_path`` while a child process is started (it inherits them)."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        saved = [os.dup(1), os.dup(2)]
        try:
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
            yield
        finally:
            for descriptor, copy in zip((1, 2), saved, strict=True):
                os.dup2(copy, descriptor)
                os.close(copy)


def _temporary_server_class():
    from prefect.server.api.server import SubprocessASGIServer

    class LoggedTemporaryServer(SubprocessASGIServer):
        """Prefect's temporary server with its output in a log file."""

        log_path: Path

        def _run_uvicorn_command(self):
            with _output_to(self.log_path):
                return super()._run_uvicorn_command()

    return SubprocessASGIServer, LoggedTemporaryServer


class PrefectApi:
    """The Prefect API of the flows this process runs: :meth:`start` early, :meth:`wait` before the flow."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.temporary = False
        self.log_path: Path | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def start(self) -> None:
        """Check the configured server, or start the temporary one in the background.

        Raises
        ------
        PrefectUnavailableError
            ``PREFECT_API_URL`` is set but its server does not answer ``/health``.
        """
        from prefect.settings import get_current_settings

        settings = get_current_settings()
        self.url = settings.api.url
        if self.url:
            self._check_health(self.url)
            return
        base, logged = _temporary_server_class()
        existing = base._instances.get(None)
        if existing is not None and existing.running:  # this process already has one: Prefect reuses it
            self.url = existing.api_url
            return
        server = logged()
        server.log_path = self.log_path = Path(settings.home) / "temporary-server.log"
        self.temporary = True
        self._thread = threading.Thread(target=self._run, args=(server,), name="prefect-start", daemon=True)
        self._thread.start()
        self._server = server

    def _run(self, server) -> None:
        try:
            server.start()
        except BaseException as error:  # reported by wait()
            self._error = error

    def _check_health(self, url: str) -> None:
        import httpx

        try:
            response = httpx.get(f"{url.rstrip('/')}/health", timeout=HEALTH_TIMEOUT_SECONDS)
            response.raise_for_status()
        except httpx.HTTPError as error:
            raise PrefectUnavailableError(
                f"the Prefect server at {url} (PREFECT_API_URL) does not answer: {error}; start it "
                "(`make deploy`, or `prefect server start --host 127.0.0.1`) or unset PREFECT_API_URL to let "
                "cslearn start a temporary one"
            ) from None

    def wait(self) -> str:
        """Block until the API answers; return its URL.

        Raises
        ------
        PrefectUnavailableError
            The temporary server did not start (the message carries the end of its log).
        """
        if self._thread is not None:
            self._thread.join()
            self._thread = None
            if self._error is not None:
                raise PrefectUnavailableError(
                    f"Prefect's temporary server did not start: {self._error}\nend of its log "
                    f"({self.log_path}):\n{self._log_tail()}"
                ) from self._error
            self.url = self._server.api_url
        return self.url

    def close(self) -> None:
        """Stop the temporary server this object started, if any (for runs that end before their flow)."""
        server = getattr(self, "_server", None)
        if self.temporary and server is not None and server.server_process is not None:
            server.stop()

    def _log_tail(self, n_lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n_lines:])
        except OSError:
            return "(no log)"
