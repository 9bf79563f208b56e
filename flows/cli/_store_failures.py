"""How a failing MLflow store shows in the terminal while a flow runs: not at all, until the command says it
in one line when the run ends (``flows.cli._run``).

MLflow logs each failed statement with its SQL and a traceback, at every attempt; Prefect logs each retry of
the task that made it, its traceback, and the failed state of every task and flow it ends. All of it says one
thing, which ``tasks.tracking.store_errors`` names. :func:`store_failures_off_the_terminal` puts a
:class:`StoreFailureFilter` on the terminal's handlers for the time of the run; Prefect's API handler is not
touched, so the flow run's logs in Prefect's UI keep every line.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

from prefect.logging.handlers import PrefectConsoleHandler

from tasks.tracking.store_errors import TrackingStoreError, is_store_failure

__all__ = ["StoreFailureFilter", "store_failures_off_the_terminal"]


class StoreFailureFilter(logging.Filter):
    """A console handler's filter: drops the records about a failing MLflow store, which the command says
    once, in one line, when the run ends.

    Dropped: a record whose exception (``exc_info``, or an exception among its arguments, as in Prefect's
    "Task run failed with exception: ... - Retry 1/2") is a store failure
    (``tasks.tracking.store_errors.is_store_failure``: MLflow's SQL and tracebacks, Prefect's retries and
    tracebacks), and Prefect's "Finished in state Failed(...)" line of a task or flow that failed with a
    ``TrackingStoreError`` (whose text names the class).
    """

    def __init__(self) -> None:
        super().__init__()
        self._names = [f"{kind.__name__}:" for kind in _subclasses(TrackingStoreError)]

    def filter(self, record: logging.LogRecord) -> bool:
        arguments = record.args if isinstance(record.args, tuple) else ()
        exceptions = [record.exc_info[1]] if record.exc_info and record.exc_info[1] else []
        exceptions += [argument for argument in arguments if isinstance(argument, BaseException)]
        if any(is_store_failure(exception) for exception in exceptions):
            return False
        message = record.getMessage()
        return not (message.startswith("Finished in state") and any(name in message for name in self._names))


def _subclasses(kind: type) -> list[type]:
    return [kind, *(subclass for child in kind.__subclasses__() for subclass in _subclasses(child))]


@contextlib.contextmanager
def store_failures_off_the_terminal() -> Iterator[None]:
    """:class:`StoreFailureFilter` on the terminal's handlers while the flow runs: Prefect's console handler
    (on the root logger) and MLflow's (on the ``mlflow`` logger, which does not propagate)."""
    handlers = [
        handler for handler in logging.getLogger().handlers if isinstance(handler, PrefectConsoleHandler)
    ]
    handlers += logging.getLogger("mlflow").handlers
    quiet = StoreFailureFilter()
    for handler in handlers:
        handler.addFilter(quiet)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(quiet)
