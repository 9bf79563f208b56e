"""Start-up of a small ``cslearn compare``: where the seconds before the first cell go (issue 13, point 6).

Three ways of running the same small comparison (wisconsin, one method, 2 folds), each in a fresh process,
interleaved and repeated, timed from the process start to its first progress line ("cells 1/2") and to its
exit:

- ``sequential``: what the command did before: import the flow, then call it; Prefect starts its temporary
  server when the flow starts, so server start-up follows the imports;
- ``cslearn compare``: the command now: the configuration checked against the snapshot of known names,
  Prefect's temporary server started at once (before Prefect is imported), the flow's imports overlapping its
  start-up, and the flow talking to it as to a configured server (no server code imported by the command);
- ``cslearn compare`` with ``PREFECT_API_URL`` set to a server already running (``make deploy``'s, or
  ``prefect server start``): no server start at all.

Also timed on their own, in fresh processes: rejecting a mistyped dataset; importing the flow module; the
temporary server's start-up (from ``SubprocessASGIServer.start()`` to a healthy API). Every run shares one
Prefect home and one MLflow store, created by an untimed warm-up run of each mode.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._report import write_section

BIN = Path(sys.executable).parent
QUIET = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    "DO_NOT_TRACK": "true",
    "MLFLOW_DISABLE_TELEMETRY": "true",
}
ARGUMENTS = ["--datasets", "wisconsin", "--methods", "dt", "--folds", "2", "--repeats", "1"]

_SEQUENTIAL = """
import sys
from flows.compare import run_compare
run_compare({"datasets": ["wisconsin"], "methods": ["dt"], "folds": 2, "repeats": 1,
             "seed": int(sys.argv[1]), "cell_store": sys.argv[2]})
"""

_SERVER_ALONE = """
import time
from prefect.server.api.server import SubprocessASGIServer
started = time.perf_counter()
server = SubprocessASGIServer()
server.start()
print(time.perf_counter() - started)
server.stop()
"""


def _timed(command: list[str], environment: dict) -> tuple[float, float]:
    """Seconds from start to the first progress line on stderr (NaN if none) and to the exit."""
    started = time.perf_counter()
    first_cell = float("nan")
    with subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    ) as process:
        for line in process.stderr:
            if first_cell != first_cell and " - cells 1/" in line:
                first_cell = time.perf_counter() - started
        process.wait()
    if process.returncode != 0:
        raise RuntimeError(f"{command[:3]} exited with {process.returncode}")
    return first_cell, time.perf_counter() - started


def _wall(command: list[str], environment: dict) -> float:
    started = time.perf_counter()
    subprocess.run(command, env=environment, capture_output=True, check=False)
    return time.perf_counter() - started


def _start_server(environment: dict, port: int) -> subprocess.Popen:
    import httpx

    process = subprocess.Popen(
        [str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    for _ in range(480):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.5)
    raise RuntimeError("the Prefect server did not start in 4 minutes")


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main(quick: bool = False) -> None:
    repeats = 1 if quick else 3
    with tempfile.TemporaryDirectory(prefix="cslearn-bench-startup-") as folder:
        root = Path(folder)
        base = {
            **os.environ,
            **QUIET,
            "CSLEARN_HOME": str(root / "home"),
            "PREFECT_HOME": str(root / "prefect"),
        }
        base.pop("PREFECT_API_URL", None)
        port = _free_port()
        server = _start_server(base, port)
        try:
            running = {**base, "PREFECT_API_URL": f"http://127.0.0.1:{port}/api"}

            def sequential(seed: int) -> list[str]:
                return [sys.executable, "-c", _SEQUENTIAL, str(seed), f"cells-{seed}"]  # in CSLEARN_HOME

            def command_line(seed: int) -> list[str]:
                cells = f"cells-{seed}"  # a cell store lives inside the state folder (CSLEARN_HOME)
                return [
                    str(BIN / "cslearn"),
                    "compare",
                    *ARGUMENTS,
                    "--seed",
                    str(seed),
                    "--cell-store",
                    cells,
                ]

            modes = {
                "sequential (before): import the flow, then Prefect starts its server": (sequential, base),
                "cslearn compare: temporary server started first, imports overlap it": (command_line, base),
                "cslearn compare with PREFECT_API_URL (a running server)": (command_line, running),
            }
            for index, (command, environment) in enumerate(modes.values()):  # untimed: create the stores
                _timed(command(1000 + index), environment)
            times = {name: [] for name in modes}
            parts = {"typo": [], "imports": [], "server": []}
            seed = 0
            for _ in range(repeats):
                for name, (command, environment) in modes.items():
                    seed += 1
                    times[name].append(_timed(command(seed), environment))
                parts["typo"].append(_wall([str(BIN / "cslearn"), "compare", "--datasets", "wisconsn"], base))
                parts["imports"].append(_wall([sys.executable, "-c", "import flows.compare"], base))
                alone = subprocess.run(
                    [sys.executable, "-c", _SERVER_ALONE],
                    env=base,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                parts["server"].append(float(alone.stdout.split()[-1]))
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=60)
        load = os.getloadavg()

    baseline = statistics.median(first for first, _ in times[next(iter(times))])
    lines = [
        "A small `cslearn compare` (" + " ".join(ARGUMENTS) + "), each run a fresh process; median of "
        f"{repeats} interleaved runs; load average at the end {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}.",
        "",
        "| how it runs | to the first cell, s | x sequential | to exit, s |",
        "|---|---:|---:|---:|",
    ]
    for name, runs in times.items():
        first = statistics.median(first for first, _ in runs)
        total = statistics.median(total for _, total in runs)
        lines.append(f"| {name} | {first:.1f} | {first / baseline:.2f} | {total:.1f} |")
    lines += [
        "",
        "What the seconds are made of (each in a fresh process, median):",
        "",
        "| part | s |",
        "|---|---:|",
        f"| reject a mistyped dataset (`cslearn compare --datasets wisconsn`, whole process) | "
        f"{statistics.median(parts['typo']):.2f} |",
        f"| `import flows.compare` (Prefect, MLflow, scikit-learn, pandas, the report) | "
        f"{statistics.median(parts['imports']):.1f} |",
        f"| Prefect's temporary server: start to healthy API | {statistics.median(parts['server']):.1f} |",
    ]
    body = "\n".join(lines)
    print(body)
    write_section(
        "startup",
        "Start-up of a small comparison (Prefect server, imports)",
        body,
        "python -m benchmarks startup",
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
