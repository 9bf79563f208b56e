"""``cslearn compare --dask-address`` against a real cluster: a ``dask scheduler`` and two ``dask worker``
processes on 127.0.0.1, started here and stopped after; the cells run on both workers."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from distributed import Client

from tasks.storage import state_home
from tests.servers import free_port

pytestmark = pytest.mark.servers

BIN = Path(sys.executable).parent


class DaskCluster:
    """``dask scheduler`` + ``n_workers`` single-threaded ``dask worker`` processes, loopback only.

    The workers inherit this environment (``CSLEARN_HOME``, the dataset cache), with ``worker_env`` on top:
    by default they load each cell's dataset by name from the same cache folder and write its result to the
    same cell store as the client.
    """

    def __init__(self, log_dir: Path, n_workers: int = 2, worker_env: dict[str, str] | None = None):
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.processes: list[subprocess.Popen] = []
        self.log_dir = log_dir
        self.worker_env = {**os.environ, **(worker_env or {})}
        self._start(
            "scheduler",
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
             "--no-dashboard", "--no-show"],
        )  # fmt: skip
        for index in range(n_workers):
            self._start(
                f"worker-{index}",
                [str(BIN / "dask"), "worker", self.address, "--host", "127.0.0.1", "--nworkers", "1",
                 "--nthreads", "1", "--no-dashboard", "--name", f"worker-{index}"],
                env=self.worker_env,
            )  # fmt: skip
        with Client(self.address, timeout=120) as client:
            client.wait_for_workers(n_workers, timeout=180)

    def _start(self, name: str, command: list[str], env: dict[str, str] | None = None) -> None:
        with (self.log_dir / f"{name}.log").open("w") as log:
            self.processes.append(
                subprocess.Popen(
                    command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env
                )
            )

    def executed(self) -> dict[str, int]:
        """Tasks each worker has executed, by worker name."""
        with Client(self.address, timeout=60) as client:
            counts = client.run(lambda dask_worker: (dask_worker.name, dask_worker.state.executed_count))
        return dict(counts.values())

    def blas_threads(self) -> dict[str, list[int]]:
        """The thread counts of the BLAS / OpenMP pools numpy and scikit-learn use, in each worker."""

        def pools(dask_worker):
            import numpy  # noqa: F401  (loads OpenBLAS)
            from threadpoolctl import threadpool_info

            return dask_worker.name, [pool["num_threads"] for pool in threadpool_info()]

        with Client(self.address, timeout=60) as client:
            return dict(client.run(pools).values())

    def logs(self) -> str:
        return "\n".join(path.read_text()[-1500:] for path in sorted(self.log_dir.glob("*.log")))

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture
def dask_cluster(tmp_path):
    log_dir = tmp_path / "dask-logs"
    log_dir.mkdir()
    cluster = DaskCluster(log_dir)
    try:
        yield cluster
    finally:
        cluster.stop()
    assert all(process.poll() is not None for process in cluster.processes)


def test_compare_runs_its_cells_on_two_dask_workers(dask_cluster, prefect_server, mlflow_server, tmp_path):
    cells = state_home() / "test-cells" / tmp_path.name
    command = [
        str(BIN / "cslearn"), "compare", "--datasets", "wisconsin", "--methods", "adaboost,dt",
        "--folds", "2", "--repeats", "2", "--n-estimators", "5", "--dask-address", dask_cluster.address,
        "--tracking-uri", mlflow_server, "--experiment", f"dask-cluster-{tmp_path.name}",
        "--cell-store", str(cells), "--json",
    ]  # fmt: skip
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:] + dask_cluster.logs()
    document = json.loads(completed.stdout)
    assert document["cells"] == {"total": 8, "resumed": 0, "computed": 8, "failed": 0}
    executed = dask_cluster.executed()
    assert set(executed) == {"worker-0", "worker-1"}
    assert sum(executed.values()) >= 8 and min(executed.values()) >= 1, executed  # both workers fitted
    assert len(list(cells.rglob("*.json"))) == 8  # the workers wrote the shared cell store
    assert "without TLS" not in completed.stderr  # a loopback cluster needs no warning
    # two single-threaded workers on two cores: Dask's nanny starts each with OPENBLAS/OMP/MKL_NUM_THREADS=1
    # (distributed's pre-spawn-environ), so a fit's BLAS never oversubscribes the machine (issue 13 point 0)
    threads = dask_cluster.blas_threads()
    assert set(threads) == {"worker-0", "worker-1"} and all(threads.values()), threads
    assert all(count == 1 for counts in threads.values() for count in counts), threads


@pytest.mark.slow
def test_a_worker_without_a_user_dataset_says_which_dataset_and_how_to_provide_it(
    prefect_server, mlflow_server, tmp_path
):
    """The command's cache holds the user dataset ``payments``; the worker's is another folder, without it."""
    from tasks.datasets import ingest_file
    from tests.user_data import write_payments_csv

    client_cache, worker_cache = tmp_path / "client-cache", tmp_path / "worker-cache"
    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("CSLEARN_CACHE", str(client_cache))
        ingest_file(write_payments_csv(tmp_path / "payments.csv"), target="fraud", positive="yes")
    log_dir = tmp_path / "dask-logs"
    log_dir.mkdir()
    cluster = DaskCluster(log_dir, n_workers=1, worker_env={"CSLEARN_CACHE": str(worker_cache)})
    try:
        completed = subprocess.run(
            [
                str(BIN / "cslearn"), "compare", "--datasets", "payments", "--methods", "dt", "--folds", "2",
                "--repeats", "1", "--dask-address", cluster.address, "--tracking-uri", mlflow_server,
                "--experiment", f"dask-missing-{tmp_path.name}", "--no-progress",
                "--cell-store", str(state_home() / "test-cells" / tmp_path.name),
            ],
            env={**os.environ, "CSLEARN_CACHE": str(client_cache)},
            capture_output=True,
            text=True,
            timeout=600,
        )  # fmt: skip
    finally:
        cluster.stop()
    assert completed.returncode == 1, completed.stderr[-3000:] + cluster.logs()
    assert "Traceback" not in completed.stderr and "KeyError" not in completed.stderr, completed.stderr[
        -3000:
    ]
    line = completed.stderr.strip().splitlines()[-1]
    said = re.fullmatch(
        r"cslearn compare: 2 of 2 cells failed: dt on payments \(2 cells\): DatasetUnavailableError: dataset "
        r"'payments' is not in the dataset cache of Dask worker tcp://127\.0\.0\.1:\d+ \((?P<cache>.+) on "
        r"(?P<host>\S+)\): ingest it on every worker machine \(`cslearn datasets ingest FILE --target COLUMN "
        r"--name payments`\) or point CSLEARN_CACHE at a folder all workers share, then rerun "
        r"\(docs/usage\.md: Running on a Dask cluster\) \(see the FAILED child runs in MLflow\)",
        line,
    )
    assert said, line
    assert said["cache"] == str(worker_cache) and said["host"] == socket.gethostname()
