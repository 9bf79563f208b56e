"""Where the per-cell tasks of a flow run: local worker processes (default), threads, or a Dask cluster.

- :class:`FitProcessTaskRunner` (the local default): Prefect runs each task in a thread of its own (task
  states, logs and retries stay Prefect's), and the fit inside the task runs in a worker process of a
  ``tasks.fitting.fit_pool.FitPool`` opened for the flow run. Fits use every core whatever holds the GIL,
  each worker's BLAS is capped to its share of the cores, and an interrupt ends the run in seconds: on leaving
  the runner with an exception (``Ctrl-C``, ``SIGTERM``, an error) the workers are killed and the waiting
  tasks fail at once, where Prefect's own ``ThreadPoolTaskRunner`` and ``ProcessPoolTaskRunner`` wait for the
  running tasks to end. ``docs/benchmarks.md`` (``python -m benchmarks runners``) compares it with threads.
- ``ThreadPoolTaskRunner`` (``processes=False``): fits in threads of this process; they cannot be
  interrupted.
- ``--dask-address tcp://HOST:PORT`` (or ``tls://``): the cells go to a running Dask scheduler through
  prefect-dask's ``DaskTaskRunner`` (TLS, and the warning without it: :mod:`flows.dask_security`); the
  workers need only this package installed, no Prefect settings.
"""

from __future__ import annotations

from typing import Any

from prefect.task_runners import ThreadPoolTaskRunner

from flows.dask_security import warn_if_insecure
from tasks.compare import cell_compute
from tasks.fitting.fit_pool import ACTIVE_POOL, FitPool

__all__ = ["CELL_WORKER_MODULE", "FitProcessTaskRunner", "build_task_runner"]

#: What a compare cell's worker imports as it starts: the code of one cell (a module object's name, so that a
#: rename breaks this import instead of silently warming nothing).
CELL_WORKER_MODULE = cell_compute.__name__


class FitProcessTaskRunner(ThreadPoolTaskRunner):
    """Prefect tasks in threads; their fits (``tasks.fitting.fit_pool.call``) in ``max_workers`` processes.

    Parameters
    ----------
    max_workers : int
        Worker processes (fits at once) and task threads.
    warm_module : str
        Module the workers import as they start (the code of the fits).

    Tasks submitted to the runner and tasks the flow calls directly (in the flow's thread) both find the
    pool (``tasks.fitting.fit_pool.ACTIVE_POOL``).
    """

    def __init__(self, max_workers: int = 2, warm_module: str = CELL_WORKER_MODULE):
        super().__init__(max_workers=max_workers)
        self.warm_module = warm_module
        self._pool: FitPool | None = None
        self._token = None

    def duplicate(self) -> FitProcessTaskRunner:
        return type(self)(max_workers=self._max_workers, warm_module=self.warm_module)

    def __enter__(self) -> FitProcessTaskRunner:
        super().__enter__()
        self._pool = FitPool(self._max_workers, warm_module=self.warm_module)
        self._token = ACTIVE_POOL.set(self._pool)  # tasks the flow calls directly use the pool too
        return self

    def submit(self, task, parameters, wait_for=None, dependencies=None):
        """Submit ``task`` as ``ThreadPoolTaskRunner`` does, with this runner's pool active in its context."""
        token = ACTIVE_POOL.set(self._pool)
        try:  # the thread runs in a copy of this context, taken in ``submit``
            return super().submit(task, parameters, wait_for=wait_for, dependencies=dependencies)
        finally:
            ACTIVE_POOL.reset(token)

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        pool, self._pool = self._pool, None
        token, self._token = self._token, None
        if token is not None:
            ACTIVE_POOL.reset(token)
        if pool is not None:  # kill first, so the threads waiting on fits return at once
            pool.close(kill=exc_type is not None)
        super().__exit__(exc_type, exc_value, traceback)

    def __eq__(self, value: object) -> bool:
        return (
            isinstance(value, FitProcessTaskRunner)
            and self._max_workers == value._max_workers
            and self.warm_module == value.warm_module
        )

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_pool"] = state["_token"] = None
        return state


def build_task_runner(dask_address: str | None = None, max_workers: int = 2, *, processes: bool = True):
    """The task runner of a flow run.

    Parameters
    ----------
    dask_address : str, optional
        ``tcp://HOST:PORT`` or ``tls://HOST:PORT`` of a running Dask scheduler: a ``DaskTaskRunner``.
    max_workers : int
        Cells at once locally.
    processes : bool
        Locally, fits in worker processes (:class:`FitProcessTaskRunner`, the default) or in threads
        (``ThreadPoolTaskRunner``).

    Raises
    ------
    flows.dask_security.DaskSecurityError
        A ``tls://`` address without TLS settings in Dask's configuration.
    """
    if dask_address:
        from prefect_dask import DaskTaskRunner

        warn_if_insecure(dask_address)  # the client's TLS settings come from Dask's configuration
        return DaskTaskRunner(address=dask_address)
    if processes:
        return FitProcessTaskRunner(max_workers=max_workers)
    return ThreadPoolTaskRunner(max_workers=max_workers)
