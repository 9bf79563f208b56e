"""File locks beside a local MLflow store, so that two cslearn processes never change it half-way at once.

A sqlite store (``sqlite:///PATH``, by default ``$CSLEARN_HOME/mlflow/mlflow.db``) is one file on this
machine: every process that uses it shares the folder ``locks/`` beside it, whatever its ``$CSLEARN_HOME``.
The locks are ``flock`` locks (``filelock``): the kernel releases them when their process ends, even by
``SIGKILL``, so a lock is never left behind. Two kinds are held there:

- ``store.lock`` while a process creates or migrates the store's tables (:func:`prepare_local_store`, called
  by ``tasks.tracking.mlflow_runs.tracking_client``): MLflow migrates a new database on first use, and two
  processes migrating it at once break each other (``alembic ... CommandError: Online migration expected to
  match one row``);
- ``registered-models/<name>.lock`` while a retrain reads the champion of that registered model, compares
  and moves its alias (``tasks.model_registry.promotion``).

A tracking server (``http://``, ``https://``) or a database server has no folder here: :func:`store_lock`
holds nothing and yields ``False``, and the caller reconciles after writing instead.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout
from mlflow import MlflowClient

__all__ = [
    "STORE_LOCK_SECONDS",
    "StoreLockTimeout",
    "local_store_folder",
    "prepare_local_store",
    "store_lock",
]

#: Seconds a process waits for the lock on creating or migrating a store (a migration takes seconds).
STORE_LOCK_SECONDS = 600.0

_SQLITE_PREFIX = "sqlite:///"

#: Stores this process has created or checked under the lock (MLflow keeps one engine per store after that).
_prepared: set[str] = set()
_prepared_lock = threading.Lock()


class StoreLockTimeout(TimeoutError):
    """Another process held a store's lock for longer than the caller waits; the message names both."""


def local_store_folder(tracking_uri: str) -> Path | None:
    """The folder holding a sqlite store's database file, or ``None`` for any other store."""
    if not tracking_uri.startswith(_SQLITE_PREFIX):
        return None
    database = tracking_uri.removeprefix(_SQLITE_PREFIX).split("?", 1)[0]
    if not database or database == ":memory:":
        return None
    return Path(database).expanduser().resolve().parent


def _lock_file_name(name: str) -> str:
    """``name`` as a file name: letters, digits, ``.``, ``_``, ``-`` kept; anything else replaced, with a
    digest of the exact name so that two names never share a lock."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:80]
    if safe == name:
        return f"{name}.lock"
    return f"{safe}-{hashlib.sha256(name.encode()).hexdigest()[:12]}.lock"


@contextmanager
def store_lock(
    tracking_uri: str,
    name: str,
    *,
    timeout: float,
    what: str,
    on_wait: Callable[[Path], None] | None = None,
) -> Iterator[bool]:
    """Hold the lock ``name`` of the local store ``tracking_uri`` around the block; yield whether one is held.

    Parameters
    ----------
    tracking_uri : str
        The store. Only a sqlite store has a lock folder (``locks/`` beside its database); for any other store
        nothing is held and the block runs at once with ``False``.
    name : str
        The lock within that folder (``store``, ``registered-models/cslearn-card-fraud``).
    timeout : float
        Seconds to wait for another process to release it.
    what : str
        What the lock protects, for the timeout's message (``"the promotion of cslearn-card-fraud"``).
    on_wait : callable, optional
        Called with the lock's path once, when another process holds it (to say that this one waits).

    Raises
    ------
    StoreLockTimeout
        When the lock was not free within ``timeout`` seconds.
    """
    folder = local_store_folder(tracking_uri)
    if folder is None:
        yield False
        return
    *parents, last = name.split("/")
    path = folder.joinpath("locks", *parents, _lock_file_name(last))
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(path)
    try:
        lock.acquire(blocking=False)
    except Timeout:
        if on_wait is not None:
            on_wait(path)
        try:
            lock.acquire(timeout=timeout)
        except Timeout:
            raise StoreLockTimeout(
                f"another process has held {what} for more than {timeout:.0f} s (lock {path}); if no cslearn"
                " process uses this store any more, the lock is free again (the system releases it when its"
                " process ends) and the command can be run again"
            ) from None
    try:
        yield True
    finally:
        lock.release()


def prepare_local_store(tracking_uri: str) -> None:
    """Create (or migrate) a sqlite store's tables under its ``store`` lock, once per process.

    MLflow creates and migrates a database the first time a process opens it, without a lock; two processes
    opening a new store at once break each other's migration. Here the first process creates it while any
    other waits, and then finds it ready. Other stores are left to their server.
    """
    folder = local_store_folder(tracking_uri)
    if folder is None:
        return
    with _prepared_lock:
        if tracking_uri in _prepared:
            return
        folder.mkdir(parents=True, exist_ok=True)
        what = f"the creation of the MLflow store {folder}"
        with store_lock(tracking_uri, "store", timeout=STORE_LOCK_SECONDS, what=what):
            client = MlflowClient(tracking_uri=tracking_uri)
            client.search_experiments(max_results=1)  # MLflow creates and migrates the tracking tables ...
            client.search_registered_models(max_results=1)  # ... and checks the registry's
        _prepared.add(tracking_uri)
