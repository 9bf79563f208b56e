"""Where the per-cell tasks of a flow run: a local thread pool (default) or an existing Dask cluster.

Threads suit one machine: scikit-learn's tree code releases the GIL, so ``ThreadPoolTaskRunner(2)`` keeps two
cores busy (``stack.md``). ``--dask-address tcp://HOST:PORT`` hands the cells to a running Dask scheduler
through prefect-dask's ``DaskTaskRunner``; the workers need only this package installed, no Prefect settings.
"""

from __future__ import annotations

from prefect.task_runners import ThreadPoolTaskRunner

__all__ = ["build_task_runner"]


def build_task_runner(dask_address: str | None = None, max_workers: int = 2):
    """``DaskTaskRunner(address=dask_address)`` when an address is given, else ``ThreadPoolTaskRunner``.

    Parameters
    ----------
    dask_address : str, optional
        ``tcp://HOST:PORT`` of a running Dask scheduler (bind it to 127.0.0.1 on a single machine).
    max_workers : int
        Threads of the local pool.
    """
    if dask_address:
        from prefect_dask import DaskTaskRunner

        return DaskTaskRunner(address=dask_address)
    return ThreadPoolTaskRunner(max_workers=max_workers)
