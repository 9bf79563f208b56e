"""Threads of the stump search: a helper thread joins a pass over the features only when a CPU is idle.

The presort and each round's pass over the features split into blocks of features that the calling thread
and its helpers claim one at a time (:func:`run_blocks`). The default follows the rule "never oversubscribe":
a helper is taken only when a CPU is idle as the pass starts (``docs/benchmarks.md``, "Stump round").
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numba

__all__ = ["default_n_threads", "helper_count", "idle_cpus", "run_blocks"]

_HELPERS_LOCK = threading.Lock()
_helpers: tuple[int, ThreadPoolExecutor] | None = None  # (pid, pool); a forked child makes its own


def _helper_pool() -> ThreadPoolExecutor:
    """This process's pool of helper threads (``NUMBA_NUM_THREADS - 1``, at least one)."""
    global _helpers
    with _HELPERS_LOCK:
        if _helpers is None or _helpers[0] != os.getpid():
            n_helpers = max(numba.config.NUMBA_NUM_THREADS - 1, 1)
            _helpers = (os.getpid(), ThreadPoolExecutor(n_helpers, thread_name_prefix="cslearn-stump"))
        return _helpers[1]


def default_n_threads() -> int:
    """Most threads a search uses by default: two, or one when numba may use one thread only.

    numba's ``NUMBA_NUM_THREADS`` (by default the CPUs this process may run on) caps it, so
    ``NUMBA_NUM_THREADS=1`` keeps every search on the calling thread. Two, not more: measured on two cores
    only (``docs/benchmarks.md``).
    """
    return min(numba.config.NUMBA_NUM_THREADS, 2)


def idle_cpus() -> int:
    """CPUs with nothing to run at this instant: the machine's CPUs minus its runnable threads.

    Linux counts the runnable threads (this one included) in the fourth field of ``/proc/loadavg``; where it
    cannot be read, no CPU counts as idle.
    """
    try:
        with open("/proc/loadavg", "rb") as loadavg:
            runnable = int(loadavg.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return 0
    return max((os.cpu_count() or 1) - runnable, 0)


def helper_count(n_threads):
    """Helper threads for one pass: ``n_threads - 1``, or for ``None`` as many of
    ``default_n_threads() - 1`` as there are idle CPUs right now, so that a helper never competes with
    another fit, a second process or a busy core for a CPU (oversubscription stalls the round)."""
    if n_threads is None:
        most = default_n_threads() - 1
        return min(most, idle_cpus()) if most > 0 else 0
    return n_threads - 1


def run_blocks(work, n_blocks, n_threads):
    """Call ``work(block)`` for ``block`` in ``range(n_blocks)`` on this thread and its helpers.

    ``n_threads`` as in :func:`helper_count`, asked only when there are blocks to share. Blocks are claimed
    one at a time, so a helper that the machine schedules late takes fewer blocks instead of holding the
    round up; a helper that has not started when the blocks run out is cancelled. ``work`` must release the
    GIL (a ``nogil`` kernel) for the threads to overlap.
    """
    n_helpers = min(helper_count(n_threads), n_blocks - 1) if n_blocks > 1 else 0
    if n_helpers < 1:
        for block in range(n_blocks):
            work(block)
        return
    claim_lock = threading.Lock()
    claimed = [0]

    def drain():
        while True:
            with claim_lock:
                block = claimed[0]
                claimed[0] += 1
            if block >= n_blocks:
                return
            work(block)

    pool = _helper_pool()
    pending = [pool.submit(drain) for _ in range(n_helpers)]
    try:
        drain()
    finally:
        for future in pending:
            if not future.cancel():
                future.result()
