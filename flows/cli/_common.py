"""Helpers shared by the subcommands: JSON output, interrupt handling, where the report is."""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
from collections.abc import Iterator


def json_safe(value):
    """``value`` with non-finite floats as ``None`` (JSON has no NaN) and mapping keys as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    return value


#: Exit status of a command ended by an interrupt (128 + SIGINT), as shells report it.
INTERRUPTED_STATUS = 130


class _Interrupts:
    """Signal handler: the first SIGINT / SIGTERM raises ``KeyboardInterrupt`` (the run unwinds: its worker
    processes are killed, its MLflow runs marked KILLED, Prefect's server stopped); any further one exits
    at once with status 130, killing the fit workers (Prefect's temporary server stops with this process)."""

    def __init__(self) -> None:
        self.received = 0

    def __call__(self, signum, frame):
        self.received += 1
        if self.received == 1:
            raise KeyboardInterrupt(f"received signal {signum}")
        from tasks.fitting.fit_pool import kill_all_pools

        kill_all_pools()
        sys.__stderr__.write("cslearn: interrupted again; exiting now without cleaning up\n")
        sys.__stderr__.flush()
        os._exit(INTERRUPTED_STATUS)


@contextlib.contextmanager
def interrupts_unwind() -> Iterator[None]:
    """Run the block with SIGTERM ending it like Ctrl-C (a ``KeyboardInterrupt`` that unwinds it, so its
    ``finally`` clauses remove temporary files and mark runs KILLED), a second Ctrl-C or SIGTERM exiting at
    once (status 130).

    After an interrupt the handlers stay in place, so a second signal during the clean-up that follows
    (draining Prefect's queues, stopping its server) still exits at once.
    """
    interrupts = _Interrupts()
    previous = {number: signal.signal(number, interrupts) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        if not interrupts.received:
            for number, handler in previous.items():
                signal.signal(number, handler)


@contextlib.contextmanager
def flow_output_guard() -> Iterator[None]:
    """Run a flow under :func:`interrupts_unwind` (its MLflow runs get marked KILLED on SIGTERM as on
    Ctrl-C), with what the libraries print sent to stderr, so stdout carries only the command's result."""
    with interrupts_unwind(), contextlib.redirect_stdout(sys.stderr):
        yield


def report_lines(report: dict | None, run_id: str) -> list[str]:
    """Where the run's HTML report is (``tasks.report.publish.PublishedReport.as_dict``) and its MLflow page,
    for the text summary of ``compare`` and ``retrain``: the report in the MLflow UI (for a local store, the
    UI ``make ui`` serves, with the file's path on the next line), then the run's page."""
    if report is None:
        return [f"no HTML report (nothing to report); once cells succeed: cslearn report {run_id}"]
    local = [f"HTML report file: {report['path']}"] if report.get("path") else []
    serve = ["(a local store: `make ui` serves these pages)"] if report.get("path") else []
    return [
        f"HTML report: {report['url']}",
        *local,
        f"MLflow run page: {report['run_url']}",
        *serve,
        f"rebuild the report elsewhere: cslearn report {run_id} --out DIR",
    ]
