"""A pool of worker processes for the fits of one flow run, which an interrupt can end at once.

Threads cannot be stopped: a fit running in a thread ends when the fit ends (minutes, or never), so
``Ctrl-C`` used to wait for it. Here each fit runs in a worker process of a loky ``ProcessPoolExecutor`` that
the flow's task runner (``flows.runners.FitProcessTaskRunner``) opens and ends with
:meth:`FitPool.close`: on an interrupt the workers are killed, every waiting caller gets
:class:`FitPoolStopped` at once, and the flow unwinds in seconds whatever the fits were doing.

Each worker

- ignores ``SIGINT`` (``Ctrl-C`` reaches the whole process group; only the parent decides to stop),
- caps the threads of BLAS / OpenMP pools (``threadpoolctl``, and the usual environment variables for the
  libraries that read them at import) to its share of the cores, so two workers on two cores never
  oversubscribe (issue 13, point 0),
- exits by itself when the process that opened the pool is gone, even killed (a watchdog thread sees its
  parent pid change), so no orphan keeps fitting.

Work reaches the pool through :func:`call`: ``call(function, *args, methods=...)`` runs ``function(*args)``
in a worker when a pool is active in the caller's context (:data:`ACTIVE_POOL`, set by the task runner
around each task it submits), and in the caller otherwise (Dask workers, tests, direct use). ``methods``
names the methods (keys of ``algorithms.METHODS``) the call needs: their classes travel with the call
(cloudpickle: by reference when importable, by value otherwise), so a method registered at run time in the
parent process also exists in the worker.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

__all__ = [
    "ACTIVE_POOL",
    "BLAS_ENVIRONMENT",
    "FitPool",
    "FitPoolStopped",
    "call",
    "kill_all_pools",
]

T = TypeVar("T")

#: The pool of the task being run in this context (``None``: run calls in the caller).
ACTIVE_POOL: contextvars.ContextVar[FitPool | None] = contextvars.ContextVar("cslearn_fit_pool", default=None)

#: Environment variables read at import by BLAS / OpenMP / numba to size their thread pools.
BLAS_ENVIRONMENT = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "NUMBA_NUM_THREADS",
)

#: Seconds between two checks of the parent process by a worker's watchdog.
WATCHDOG_INTERVAL = 0.5

#: Pools open in this process (what :func:`kill_all_pools` ends).
_open_pools: set[FitPool] = set()
_open_pools_lock = threading.Lock()


class FitPoolStopped(BaseException):
    """The pool was closed (an interrupt, or its flow ended) while this call waited or ran.

    A cancellation, not an error (like ``asyncio.CancelledError``): code that records a failing fit
    (``except Exception``) lets it through, and Prefect ends the task as crashed, without a traceback.
    """


def _watch_parent(parent_pid: int) -> None:
    """Exit this worker as soon as the process ``parent_pid`` that started it is gone.

    A worker is a direct child of the process that opened the pool, so it has lost that process exactly when
    its parent pid changes (the kernel hands an orphan to init or a subreaper). The check needs no clock: an
    earlier watchdog compared the parent's start time in seconds since the epoch, which psutil derives from
    the boot time the kernel recomputes from the wall clock; when the clock was corrected, workers started on
    either side of the correction disagreed by a second and every worker of a run exited at once.
    """
    while True:
        if os.getppid() != parent_pid:
            os._exit(1)
        time.sleep(WATCHDOG_INTERVAL)


def _initialize_worker(parent_pid: int, blas_threads: int) -> None:
    """loky initializer of every worker: ignore SIGINT, cap BLAS threads, watch the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=blas_threads)  # stays in force for the worker's life
    threading.Thread(
        target=_watch_parent, args=(parent_pid,), name="cslearn-parent-watchdog", daemon=True
    ).start()


def _run_with_methods(methods: dict, function: Callable[..., T], args: tuple) -> T:
    """In a worker: add ``methods`` (name -> class) to ``algorithms.METHODS``, then ``function(*args)``."""
    if methods:
        from algorithms import METHODS

        METHODS.update(methods)
    return function(*args)


class FitPool:
    """``max_workers`` worker processes (see the module docstring); :func:`open_pool` creates one.

    Parameters
    ----------
    max_workers : int
        Worker processes, i.e. fits at once.
    warm_module : str or None
        Module every worker imports as soon as it starts (the fits' code: seconds of imports that then
        overlap the parent's own work instead of delaying the first fit); ``None`` imports nothing more.
    """

    def __init__(self, max_workers: int, warm_module: str | None = None):
        from loky import ProcessPoolExecutor

        self.max_workers = max_workers
        blas_threads = max(1, (os.cpu_count() or 1) // max_workers)
        self.blas_threads = blas_threads
        self._executor = ProcessPoolExecutor(
            max_workers=max_workers,
            initializer=_initialize_worker,
            initargs=(os.getpid(), blas_threads),
            env={name: str(blas_threads) for name in BLAS_ENVIRONMENT},
        )
        self._closed = threading.Event()
        with _open_pools_lock:
            _open_pools.add(self)
        for _ in range(max_workers):  # start the workers and their imports now, while the flow plans
            self._executor.submit(importlib.import_module, warm_module or __name__)

    def submit(self, function: Callable[..., T], *args, methods: Iterable[str] = ()):
        """Start ``function(*args)`` in a worker; the ``concurrent.futures.Future`` of its result."""
        if self._closed.is_set():
            raise FitPoolStopped("the cell pool is closed: the run is stopping")
        from algorithms import METHODS

        shipped = {name: METHODS[name] for name in methods if name in METHODS}
        return self._executor.submit(_run_with_methods, shipped, function, args)

    def run(self, function: Callable[..., T], *args, methods: Iterable[str] = ()) -> T:
        """``function(*args)`` in a worker, waiting for it; :class:`FitPoolStopped` if the pool closes."""
        future = self.submit(function, *args, methods=methods)
        try:
            return future.result()
        except Exception:
            if self._closed.is_set():  # the executor reports its killed workers as errors
                raise FitPoolStopped("the run is stopping: this fit was cancelled") from None
            raise

    def worker_pids(self) -> list[int]:
        """Process ids of the live workers."""
        processes = getattr(self._executor, "_processes", None) or {}
        return [pid for pid, process in list(processes.items()) if process.is_alive()]

    def close(self, *, kill: bool = False) -> None:
        """End the pool without waiting: the workers are terminated (idle ones, when the flow is done), or
        killed at once with ``kill`` (an interrupt: busy ones too, whatever they run). Idempotent."""
        if self._closed.is_set():
            return
        self._closed.set()
        with _open_pools_lock:
            _open_pools.discard(self)
        if kill:
            self._kill_workers()
        self._executor.shutdown(wait=False, kill_workers=True)

    def _kill_workers(self) -> None:
        for pid in self.worker_pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def call(function: Callable[..., T], *args: Any, methods: Sequence[str] = ()) -> T:
    """``function(*args)`` in the active pool's worker (:data:`ACTIVE_POOL`), else right here."""
    pool = ACTIVE_POOL.get()
    if pool is None:
        return function(*args)
    return pool.run(function, *args, methods=methods)


def kill_all_pools() -> None:
    """Kill the workers of every pool of this process (the second ``Ctrl-C``: exit now)."""
    with _open_pools_lock:
        pools = list(_open_pools)
    for pool in pools:
        pool._kill_workers()
