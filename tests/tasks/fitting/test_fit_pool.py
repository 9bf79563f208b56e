"""The worker-process pool of the fits: results, capped BLAS, SIGINT ignored, killed at once, no orphans."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest
from sklearn.tree import DecisionTreeClassifier

from algorithms import METHODS
from tasks.fitting import cost_selection, fit_pool
from tasks.fitting.estimators import build_estimator
from tasks.fitting.fit_pool import ACTIVE_POOL, FitPool, FitPoolStopped


def _ended(pids: list[int], timeout: float) -> bool:
    """Whether every process of ``pids`` has ended (or is a zombie) within ``timeout`` seconds."""

    def alive(pid):
        try:
            return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    deadline = time.monotonic() + timeout
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _spin(seconds: float) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass
    return os.getpid()


def _blas_threads() -> list[int]:
    import numpy  # noqa: F401  (loads its BLAS)
    from threadpoolctl import threadpool_info

    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


class RuntimeTree(DecisionTreeClassifier):
    """A method registered while the parent runs (not in the worker's registry at import)."""


def _estimator_class(method: str) -> str:
    return type(build_estimator(method)).__qualname__


@pytest.fixture(scope="module")
def pool():
    opened = FitPool(2, warm_module=cost_selection.__name__)
    yield opened
    opened.close()


def test_calls_run_in_workers_with_one_blas_thread_each(pool):
    assert pool.blas_threads == max(1, (os.cpu_count() or 1) // 2)
    assert pool.run(_spin, 0.0) != os.getpid()
    assert set(pool.run(_blas_threads)) <= {pool.blas_threads}
    token = ACTIVE_POOL.set(pool)
    try:
        assert fit_pool.call(_spin, 0.0) != os.getpid()
    finally:
        ACTIVE_POOL.reset(token)
    assert fit_pool.call(_spin, 0.0) == os.getpid()  # no pool in this context: here


def test_workers_ignore_sigint(pool):
    pool.run(_spin, 0.0)
    for pid in pool.worker_pids():
        os.kill(pid, signal.SIGINT)
    time.sleep(0.5)
    assert len(pool.worker_pids()) == 2
    assert pool.run(_spin, 0.0) in pool.worker_pids()


def test_a_method_registered_at_run_time_reaches_the_workers(pool, monkeypatch):
    monkeypatch.setitem(METHODS, "runtime-tree", RuntimeTree)
    with pytest.raises(ValueError, match="unknown method 'runtime-tree'"):
        pool.run(_estimator_class, "runtime-tree")  # not shipped: the worker does not know it
    assert pool.run(_estimator_class, "runtime-tree", methods=["runtime-tree"]) == "RuntimeTree"


def test_killing_the_pool_stops_a_running_fit_at_once():
    pool = FitPool(1)
    pool.run(_spin, 0.0)
    [worker] = pool.worker_pids()
    outcome = []

    def wait_for_long_fit():
        try:
            pool.run(_spin, 300.0)
        except BaseException as error:
            outcome.append(error)

    waiter = threading.Thread(target=wait_for_long_fit)
    waiter.start()
    time.sleep(1.0)
    started = time.monotonic()
    pool.close(kill=True)
    waiter.join(timeout=10)
    assert not waiter.is_alive() and time.monotonic() - started < 5
    assert isinstance(outcome[0], FitPoolStopped)
    assert _ended([worker], timeout=5)
    with pytest.raises(FitPoolStopped):
        pool.run(_spin, 0.0)


_KILLED_PARENT = """
import os, signal, sys, time
sys.path.insert(0, sys.argv[1])
from tasks.fitting.fit_pool import FitPool
from tests.tasks.fitting.test_fit_pool import _spin
pool = FitPool(2)
futures = [pool.submit(_spin, 300.0) for _ in range(2)]
while len(pool.worker_pids()) < 2:
    time.sleep(0.1)
print(*pool.worker_pids(), flush=True)
time.sleep(1.0)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_workers_exit_when_their_parent_is_killed(tmp_path):
    root = str(Path(__file__).resolve().parents[3])
    output = tmp_path / "parent.log"
    with output.open("w") as log:  # a file, not a pipe: a surviving worker would hold a pipe open
        status = subprocess.run(
            [sys.executable, "-c", _KILLED_PARENT, root], stdout=log, stderr=subprocess.STDOUT, timeout=120
        ).returncode
    assert status == -signal.SIGKILL, output.read_text()[-2000:]
    workers = [int(pid) for pid in output.read_text().split()]
    assert len(workers) == 2
    assert _ended(workers, timeout=10), "workers outlived their killed parent"
