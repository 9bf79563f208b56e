"""Helpers shared by the subcommands that run flows: JSON output and interrupt handling."""

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
