"""Helpers shared by the subcommands that run flows: JSON output, interrupt handling, where the report is."""

from __future__ import annotations

import contextlib
import math
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


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt(f"received signal {signum}")


@contextlib.contextmanager
def flow_output_guard() -> Iterator[None]:
    """Run a flow with SIGTERM ending it like Ctrl-C (its MLflow runs get marked KILLED) and with what the
    libraries print sent to stderr, so stdout carries only the command's result."""
    previous_handler = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        signal.signal(signal.SIGTERM, previous_handler)


def report_lines(report: dict | None, run_id: str) -> list[str]:
    """Where the run's HTML report is (``tasks.report.publish.PublishedReport.as_dict``) and its MLflow page,
    for the text summary of ``compare`` and ``retrain``."""
    if report is None:
        return [f"no HTML report (nothing to report); once cells succeed: cslearn report {run_id}"]
    return [
        f"HTML report: {report['url']}",
        f"MLflow run page: {report['run_url']}",
        f"rebuild the report elsewhere: cslearn report {run_id} --out DIR",
    ]
