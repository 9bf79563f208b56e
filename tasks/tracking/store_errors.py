"""An MLflow store that fails during a run, said in one line: which store, and what went wrong with it.

MLflow reports a broken store in its own terms, with a traceback logged at every attempt: a SQLAlchemy error
quoting the SQL statement and its parameters (a local sqlite store whose file was deleted, made read-only or
whose disk is full), or an HTTP client error (a tracking server that went away). :func:`store_failure`
recognises such an error anywhere in an exception's chain and names it in the user's terms as a
:class:`TrackingStoreError`, whose message is complete on one line; :func:`store_failures_named` raises it
in place of MLflow's error around the code that writes to the store. For a sqlite store the reason is read
from the database file itself when it explains the error (deleted, replaced by an empty file, not writable).

A flow that can resume says what is kept (``tasks.compare.comparison_runs.ComparisonStoreError``); the
command line prints the message alone and keeps MLflow's and Prefect's tracebacks of it off the terminal
(``flows.cli._store_failures``).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy.exc
from mlflow.exceptions import MlflowException
from mlflow.protos.databricks_pb2 import TEMPORARILY_UNAVAILABLE, ErrorCode

from tasks.redaction import redact_uri

__all__ = [
    "TrackingStoreError",
    "exception_chain",
    "is_store_failure",
    "store_failure",
    "store_failures_named",
]

#: An operating system error quoted inside an HTTP client's text: ``[Errno 111] Connection refused``.
_ERRNO = re.compile(r"\[Errno -?\d+\] [^'\")]+")


class TrackingStoreError(RuntimeError):
    """The MLflow store at ``uri`` failed; ``reason`` says how, in words (no SQL, no traceback needed).

    Parameters
    ----------
    uri : str
        The tracking URI (shown without credentials).
    reason : str
        What went wrong, e.g. ``its database file /x/mlflow.db no longer exists (deleted during the run?)``.
    """

    def __init__(self, uri: str, reason: str):
        uri = redact_uri(uri)
        super().__init__(uri, reason)
        self.uri, self.reason = uri, reason

    def __str__(self) -> str:
        return f"the MLflow store {self.uri} failed: {self.reason}"


def exception_chain(error: BaseException) -> Iterator[BaseException]:
    """``error``, then its causes and contexts, each once (``raise ... from``, or raised while handling)."""
    seen: set[int] = set()
    pending = [error]
    while pending:
        current = pending.pop(0)
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending += [current.__cause__, current.__context__]


def _raised_in_mlflow(error: BaseException) -> bool:
    """Whether ``error`` passed through MLflow's code (its traceback holds a frame of an ``mlflow`` module):
    a broken store, not a dataset file or a bug of the caller's."""
    frame = error.__traceback__
    while frame is not None:
        module = frame.tb_frame.f_globals.get("__name__", "")
        if module == "mlflow" or module.startswith("mlflow."):
            return True
        frame = frame.tb_next
    return False


def _reason(error: BaseException) -> str | None:
    """What ``error`` says on one line if it is a failure of the store itself (raised through MLflow): a
    database error (sqlite's ``disk I/O error``, ``database or disk is full``), an operating system error
    (no space left on the device, a refused connection to a tracking server), or an error MLflow marks as
    the store being unavailable; ``None`` for anything else."""
    if not _raised_in_mlflow(error):
        return None
    if isinstance(error, sqlalchemy.exc.OperationalError | sqlite3.Error):
        return _first_line(str(getattr(error, "orig", None) or error))
    if isinstance(error, OSError):
        text = error.strerror or (_ERRNO.search(str(error)) or [_first_line(str(error))])[0]
        return f"{text} ({error.filename})" if error.filename else text
    if isinstance(error, MlflowException) and error.error_code == ErrorCode.Name(TEMPORARILY_UNAVAILABLE):
        return _first_line(error.message)
    return None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _sqlite_file_reason(uri: str) -> str | None:
    """Why the database file of a ``sqlite:///`` store cannot serve, when the file itself says it."""
    if not uri.startswith("sqlite:///"):
        return None
    path = Path(uri.removeprefix("sqlite:///"))
    if not path.exists():
        return f"its database file {path} no longer exists (deleted during the run?)"
    if path.stat().st_size == 0:
        return f"its database file {path} is empty (deleted and created again during the run?)"
    try:
        os.close(os.open(path, os.O_WRONLY))
    except OSError as error:
        return f"its database file {path} cannot be written ({error.strerror})"
    return None


def store_failure(error: BaseException, uri: str) -> TrackingStoreError | None:
    """``error`` as a :class:`TrackingStoreError` of the store ``uri`` when its chain holds a failure of the
    store (:func:`_reason`); ``None`` for any other error (a bug, a refused value: raised as it is)."""
    chain = list(exception_chain(error))
    for item in chain:
        if isinstance(item, TrackingStoreError):
            return item
    reasons = [reason for item in chain if (reason := _reason(item))]
    if not reasons:
        return None
    return TrackingStoreError(uri, _sqlite_file_reason(uri) or reasons[-1])  # the deepest: the origin


def is_store_failure(error: BaseException) -> bool:
    """Whether ``error`` or an exception of its chain is a store failure (:func:`store_failure`)."""
    return any(isinstance(item, TrackingStoreError) or _reason(item) for item in exception_chain(error))


@contextlib.contextmanager
def store_failures_named(uri: str) -> Iterator[None]:
    """Within the block, a failure of the MLflow store ``uri`` is raised as a :class:`TrackingStoreError`
    (MLflow's error as its cause); any other exception passes unchanged."""
    try:
        yield
    except Exception as error:
        failure = store_failure(error, uri)
        if failure is None or failure is error:
            raise
        raise failure from error
