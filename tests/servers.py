"""Real Prefect and MLflow servers on 127.0.0.1 for the tests that need them.

A server is launched with :func:`launch_prefect_server` or :func:`launch_mlflow_server`, which return at once
(so both can boot in parallel), then :meth:`ServerProcess.wait_until_healthy` blocks until its health endpoint
answers. Each server runs in its own process group (``start_new_session=True``): Prefect turns SIGTERM into
SIGINT, which background jobs ignore, so :meth:`ServerProcess.stop` signals the whole group by its id and
escalates to SIGKILL. Output goes to a log file that is kept for failures (``ServerProcess.log_tail``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

__all__ = [
    "QUIET_ENVIRONMENT",
    "ServerProcess",
    "ServerStartError",
    "free_port",
    "launch_mlflow_server",
    "launch_cslearn_server",
    "launch_model_server",
    "launch_prefect_server",
]

#: Settings that keep Prefect and MLflow local and quiet (``docs/environment.md``).
QUIET_ENVIRONMENT = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    "DO_NOT_TRACK": "true",
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
}

#: Seconds a server may take to become healthy; 15-45 s is typical, more on a shared, loaded machine.
HEALTH_TIMEOUT_SECONDS = 240.0

_BIN = Path(sys.executable).parent


class ServerStartError(RuntimeError):
    """A server exited or did not become healthy in time; the message carries the end of its log."""


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class ServerProcess:
    """A server started in its own process group, its base URL, health URL and log file."""

    name: str
    process: subprocess.Popen
    url: str
    health_url: str
    log_path: Path
    _log_file: object = field(repr=False, default=None)

    def log_tail(self, n_lines: int = 40) -> str:
        """Return the last ``n_lines`` lines the server wrote."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return "(no log written)"
        return "\n".join(lines[-n_lines:])

    def wait_until_healthy(self, timeout: float = HEALTH_TIMEOUT_SECONDS) -> str:
        """Poll the health endpoint until it answers 200; return :attr:`url`.

        Raises
        ------
        ServerStartError
            When the process exits first or ``timeout`` seconds pass; the server is stopped.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.stop()
                raise ServerStartError(
                    f"{self.name} server exited with code {self.process.returncode} before becoming healthy;"
                    f" log {self.log_path}:\n{self.log_tail()}"
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.health_url, timeout=2.0).status_code == 200:
                    return self.url
            time.sleep(0.5)
        self.stop()
        raise ServerStartError(
            f"{self.name} server not healthy at {self.health_url} after {timeout:.0f} s;"
            f" log {self.log_path}:\n{self.log_tail()}"
        )

    def stop(self, grace_seconds: float = 15.0) -> None:
        """Terminate the server's process group (SIGTERM, then SIGKILL after ``grace_seconds``)."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=grace_seconds)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=grace_seconds)
        # Children (uvicorn workers) share the group: clear any that outlived the leader.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None


def _launch(name: str, command: list[str], env: dict[str, str], log_path: Path, url: str, health_url: str):
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_file = open(log_path, "wb")  # noqa: SIM115 - closed by ServerProcess.stop
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    return ServerProcess(name, process, url, health_url, log_path, log_file)


def _server_environment(**overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PREFECT_", "MLFLOW_"))}
    env.update(QUIET_ENVIRONMENT)
    env.update(overrides)
    return env


def launch_prefect_server(home: Path, *, port: int | None = None) -> ServerProcess:
    """Start ``prefect server start`` on 127.0.0.1 with ``PREFECT_HOME=home`` (its own sqlite database).

    The UI is off (tests use the API only). Returns without waiting: call
    :meth:`ServerProcess.wait_until_healthy`. ``ServerProcess.url`` is the API URL (``.../api``).
    """
    port = port or free_port()
    home = Path(home)
    home.mkdir(parents=True, exist_ok=True)
    command = [str(_BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)]
    command.append("--no-ui")
    env = _server_environment(PREFECT_HOME=str(home))
    api_url = f"http://127.0.0.1:{port}/api"
    return _launch("prefect", command, env, home / "server.log", api_url, f"{api_url}/health")


def launch_mlflow_server(
    root: Path, *, port: int | None = None, admin: tuple[str, str] | None = None
) -> ServerProcess:
    """Start ``mlflow server`` on 127.0.0.1 over ``sqlite:///root/mlflow.db`` and ``file://root/artifacts``.

    With ``admin = (user, password)`` the server runs MLflow's basic-auth app (``--app-name basic-auth``,
    users in ``root/basic_auth.db``): that user is its administrator, every other request is refused (401).
    Returns without waiting: call :meth:`ServerProcess.wait_until_healthy`. ``ServerProcess.url`` is the
    tracking URI.
    """
    port = port or free_port()
    root = Path(root).resolve()
    (root / "artifacts").mkdir(parents=True, exist_ok=True)
    command = [
        str(_BIN / "mlflow"),
        "server",
        "--backend-store-uri",
        f"sqlite:///{root / 'mlflow.db'}",
        "--default-artifact-root",
        (root / "artifacts").as_uri(),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "1",
    ]
    url = f"http://127.0.0.1:{port}"
    env = _server_environment()
    if admin is not None:
        config = root / "basic_auth.ini"
        config.write_text(
            "[mlflow]\ndefault_permission = NO_PERMISSIONS\n"
            f"database_uri = sqlite:///{root / 'basic_auth.db'}\n"
            f"admin_username = {admin[0]}\nadmin_password = {admin[1]}\n"
            "authorization_function = mlflow.server.auth:authenticate_request_basic_auth\n"
        )
        command += ["--app-name", "basic-auth"]
        env["MLFLOW_AUTH_CONFIG_PATH"] = str(config)
        env["MLFLOW_FLASK_SERVER_SECRET_KEY"] = os.urandom(16).hex()  # CSRF key of the auth app
    return _launch("mlflow", command, env, root / "server.log", url, f"{url}/health")


def launch_model_server(model_uri: str, tracking_uri: str, log_dir: Path, *, port: int | None = None):
    """Start ``mlflow models serve -m model_uri --env-manager local`` on 127.0.0.1 (the scoring server).

    ``model_uri`` (e.g. ``models:/<name>@champion``) is resolved in ``tracking_uri``'s registry. The server
    runs in this interpreter's environment (uvicorn from its ``bin`` folder). Returns without waiting: call
    :meth:`ServerProcess.wait_until_healthy`; ``ServerProcess.url`` is the base URL (``/invocations``).
    """
    port = port or free_port()
    command = [str(_BIN / "mlflow"), "models", "serve", "-m", model_uri, "--env-manager", "local"]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    env = _server_environment(
        MLFLOW_TRACKING_URI=tracking_uri, PATH=f"{_BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    )
    url = f"http://127.0.0.1:{port}"
    return _launch("model", command, env, Path(log_dir) / "model-server.log", url, f"{url}/ping")


def launch_cslearn_server(model_uri: str, tracking_uri: str, log_dir: Path, *, port: int | None = None):
    """Start ``cslearn serve --model model_uri`` on 127.0.0.1: cslearn's loader, MLflow's scoring app.

    Runs ``python -m flows.cli`` of this interpreter with this process's environment (``PYTHONPATH``
    included). Returns without waiting: call :meth:`ServerProcess.wait_until_healthy`; ``ServerProcess.url``
    is the base URL (``/invocations``).
    """
    port = port or free_port()
    command = [sys.executable, "-m", "flows.cli", "serve", "served", "--model", model_uri]
    command += ["--tracking-uri", tracking_uri, "--host", "127.0.0.1", "--port", str(port)]
    url = f"http://127.0.0.1:{port}"
    return _launch(
        "cslearn-serve",
        command,
        _server_environment(),
        Path(log_dir) / "cslearn-serve.log",
        url,
        f"{url}/ping",
    )


def postgres_binaries() -> Path | None:
    """The folder of Debian's PostgreSQL server binaries (``initdb``, ``pg_ctl``), newest version; or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda path: path.parts[-3])
    return found[-1].parent if found else None


@dataclass
class PostgresServer:
    """A PostgreSQL server on 127.0.0.1 in a folder of its own, with a password user; stopped by ``stop``."""

    binaries: Path
    data: Path
    port: int
    user: str
    password: str
    database: str

    def url(self, *, with_password: bool = True) -> str:
        credentials = f"{self.user}:{self.password}" if with_password else self.user
        return f"postgresql+psycopg://{credentials}@127.0.0.1:{self.port}/{self.database}"

    def stop(self) -> None:
        subprocess.run(
            [str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )


def launch_postgres_server(root: Path) -> PostgresServer:
    """``initdb`` a cluster under ``root`` (scram-sha-256 passwords, TCP on 127.0.0.1 only, its socket in the
    folder) and start it with ``pg_ctl``; returns when it accepts connections. Run as root, the server runs
    as the ``nobody`` user (PostgreSQL refuses root).

    Raises
    ------
    ServerStartError
        No PostgreSQL binaries, or the server did not start (the message carries its log).
    """
    binaries = postgres_binaries()
    if binaries is None:
        raise ServerStartError("PostgreSQL is not installed (make postgres installs Debian's package)")
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    data, log = root / "data", root / "postgres.log"
    password = os.urandom(8).hex()
    (root / "password").write_text(password)
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb and postgres refuse to run as root
        import pwd

        nobody = pwd.getpwnam("nobody")
        temporary = Path(tempfile.gettempdir()).resolve()
        for folder in root.resolve().parents:  # the temporary folders above it: traversable by nobody
            if folder == temporary or not folder.is_relative_to(temporary):
                break
            folder.chmod(folder.stat().st_mode | 0o011)
        os.chown(root, nobody.pw_uid, nobody.pw_gid)
        os.chown(root / "password", nobody.pw_uid, nobody.pw_gid)
        prefix = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]
    env = {**os.environ, "LC_ALL": "C"}
    initialized = subprocess.run(
        [
            *prefix,
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-U",
            "cslearn",
            "--auth=scram-sha-256",
            f"--pwfile={root / 'password'}",
            "-E",
            "UTF8",
        ],
        capture_output=True,
        timeout=300,
        env=env,
        text=True,
    )
    if initialized.returncode != 0:
        raise ServerStartError(f"initdb failed: {initialized.stderr}")
    port = free_port()
    started = subprocess.run(
        [
            *prefix,
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(log),
            "-w",
            "-t",
            "120",
            "-o",
            f"-h 127.0.0.1 -p {port} -k {root}",
            "start",
        ],
        capture_output=True,
        timeout=300,
        env=env,
        text=True,
    )
    if started.returncode != 0:
        raise ServerStartError(
            f"PostgreSQL did not start: {started.stderr}\n{log.read_text() if log.exists() else ''}"
        )
    return PostgresServer(binaries, data, port, "cslearn", password, "postgres")
