"""Progress of a comparison: cells done out of the total, failures, elapsed time and the time left.

The flow logs :meth:`Progress.line` after every cell; :func:`parse_progress_line` reads such a line back (the
command line turns them into a progress bar on a terminal).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping
from typing import NamedTuple

__all__ = ["Progress", "ProgressCounts", "parse_progress_line"]

_LINE = re.compile(
    r"^cells (?P<done>\d+)/(?P<total>\d+) \((?P<resumed>\d+) resumed, (?P<failed>\d+) failed\)"
)


class ProgressCounts(NamedTuple):
    """The counts of a progress line: cells done (resumed ones included), total, resumed, failed."""

    done: int
    total: int
    resumed: int
    failed: int


def parse_progress_line(message: str) -> ProgressCounts | None:
    """The counts of a line made by :meth:`Progress.line`, or ``None`` for any other message."""
    match = _LINE.match(message)
    if match is None:
        return None
    return ProgressCounts(*(int(match[name]) for name in ProgressCounts._fields))


class Progress:
    """Counts finished cells and estimates the time left from the mean time of the cells computed so far."""

    def __init__(self, total: int, skipped: int = 0, clock=time.monotonic):
        self.total = total
        self.skipped = skipped
        self.computed = 0
        self.failed = 0
        self._clock = clock
        self._started = clock()

    def update(self, result: Mapping) -> str:
        """Record one computed cell and return the progress line."""
        self.computed += 1
        self.failed += result.get("status") != "ok"
        return self.line()

    def line(self) -> str:
        done = self.skipped + self.computed
        elapsed = self._clock() - self._started
        remaining = self.total - done
        eta = elapsed / self.computed * remaining if self.computed else float("nan")
        return (
            f"cells {done}/{self.total} ({self.skipped} resumed, {self.failed} failed) elapsed "
            f"{_clock_text(elapsed)} ETA {_clock_text(eta)}"
        )


def _clock_text(seconds: float) -> str:
    if math.isnan(seconds):
        return "--:--"
    minutes, seconds = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"
