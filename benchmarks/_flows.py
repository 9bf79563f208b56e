"""Shared by the runner benchmarks: one small comparison timed under a given task runner, and a loopback Dask
cluster of real ``dask scheduler`` / ``dask worker`` processes."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from flows.cli._environment import apply_environment_defaults

BIN = Path(sys.executable).parent

# Before Prefect is imported: the quiet settings, the start-up timeout and Prefect's home of the command line.
apply_environment_defaults()

#: The small comparison every runner runs: 2 datasets x 3 methods x 5 folds = 30 cells.
SMALL_COMPARE = {
    "datasets": ["wisconsin", "pima"],
    "methods": ["adaboost", "adacc1", "dt"],
    "protocol": "cv",
    "repeats": 1,
    "folds": 5,
    "n_estimators": [50],
    "cost_selection": "none",
}
SMALL_COMPARE_TEXT = "wisconsin + pima, adaboost / adacc1 / dt, 1 x 5-fold CV, T = 50 (30 cells)"


@contextlib.contextmanager
def bench_home() -> Iterator[None]:
    """A throw-away ``$CSLEARN_HOME`` (cell stores, MLflow store) for the block, inherited by every worker
    started in it."""
    previous = os.environ.get("CSLEARN_HOME")
    with tempfile.TemporaryDirectory(prefix="cslearn-bench-home-") as folder:
        os.environ["CSLEARN_HOME"] = folder
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop("CSLEARN_HOME", None)
            else:
                os.environ["CSLEARN_HOME"] = previous


@contextlib.contextmanager
def prefect_api() -> Iterator[None]:
    """The command line's temporary Prefect server (``flows.cli._environment.PrefectApi``) for the block."""
    from flows.cli._environment import PrefectApi

    api = PrefectApi()
    api.start()
    try:
        api.wait()
        with api.settings():
            yield
    finally:
        api.close()


def time_compare(runner, label: str) -> float:
    """Wall seconds of :data:`SMALL_COMPARE` on ``runner`` with a fresh cell store (runner start included),
    recorded in the state folder (``$CSLEARN_HOME``: see :func:`bench_home`)."""
    from flows.compare import compare_cells

    params = {**SMALL_COMPARE, "cell_store": f"cells-{label}-{time.time_ns()}", "experiment": "bench-runners"}
    started = time.perf_counter()
    outcome = compare_cells.with_options(task_runner=runner)(params=params)
    seconds = time.perf_counter() - started
    if outcome["cells"]["failed"] or outcome["cells"]["computed"] != 30:
        raise RuntimeError(f"{label}: unexpected cells {outcome['cells']}")
    return seconds


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def dask_cluster(n_workers: int = 2) -> Iterator[str]:
    """``dask scheduler`` and ``n_workers`` one-thread ``dask worker`` processes on 127.0.0.1; the address."""
    from distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = Path(tempfile.mkdtemp(prefix="cslearn-bench-dask-"))
    commands = [
        [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
    ]
    commands += [
        [str(BIN / "dask"), "worker", address, "--host", "127.0.0.1", "--nworkers", "1", "--nthreads", "1",
         "--no-dashboard"]
        for _ in range(n_workers)
    ]  # fmt: skip
    processes = []
    try:
        for index, command in enumerate(commands):
            with (logs / f"{index}.log").open("w") as log:
                processes.append(
                    subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
                )
        with Client(address, timeout=120) as client:
            client.wait_for_workers(n_workers, timeout=180)
        yield address
    finally:
        for process in reversed(processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
