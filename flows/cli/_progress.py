"""How a comparison's progress shows in the terminal: one bar on a terminal, a few plain lines otherwise.

The flow logs a progress line after every cell (``tasks.tracking.progress``) and Prefect logs a line when each
cell's task finishes: two lines per cell, 1,200 for ``make run``. While :class:`CellProgressView` is active,
the console handlers (Prefect's, on the root logger) pass on neither routine "Finished in state Completed()"
line of a task run; the progress lines become

- on a terminal (stderr is a TTY): a ``tqdm`` bar (cells done of the total, resumed and failed cells, time
  left), every other log line printed above it;
- otherwise (a file, a pipe, CI): the progress line at every tenth of the run, at least every minute, and at
  the end.

Warnings and errors (a failed cell) always pass. Only the console changes: Prefect's API handler still
receives every line, so the flow run's logs in the Prefect UI are complete.
"""

from __future__ import annotations

import logging
import sys
import time

__all__ = ["CellProgressView"]

#: Plain progress lines at most this many seconds apart.
PLAIN_LINE_INTERVAL_SECONDS = 60.0


def _console_handlers() -> list[logging.Handler]:
    """Prefect's console handlers on the root logger (where every Prefect logger's lines end)."""
    from prefect.logging.handlers import PrefectConsoleHandler

    return [handler for handler in logging.getLogger().handlers if isinstance(handler, PrefectConsoleHandler)]


def _routine_task_line(record: logging.LogRecord) -> bool:
    return (
        record.name == "prefect.task_runs"
        and record.levelno == logging.INFO
        and record.getMessage().startswith("Finished in state Completed")
    )


class _ConsoleFilter(logging.Filter):
    """Decides, for one console handler, what reaches the terminal."""

    def __init__(self, view: CellProgressView, handler: logging.Handler):
        super().__init__()
        self.view = view
        self.handler = handler

    def filter(self, record: logging.LogRecord) -> bool:
        if _routine_task_line(record):
            return False
        if record.levelno == logging.INFO:
            from tasks.tracking.progress import parse_progress_line

            counts = parse_progress_line(record.getMessage())
            if counts is not None:
                return self.view.show(counts)
        if self.view.bar is not None:  # print above the bar instead of through it
            self.view.bar.write(self.handler.format(record), file=sys.stderr)
            return False
        return True


class CellProgressView:
    """Context manager: the console view of a comparison's progress (see the module docstring).

    Parameters
    ----------
    bar : bool, optional
        Draw a bar; default: when stderr is a terminal.
    """

    def __init__(self, *, bar: bool | None = None):
        self.use_bar = sys.stderr.isatty() if bar is None else bar
        self.bar = None
        self._filters: list[tuple[logging.Handler, _ConsoleFilter]] = []
        self._last_tenth = -1
        self._last_line = float("-inf")

    def __enter__(self) -> CellProgressView:
        for handler in _console_handlers():
            console_filter = _ConsoleFilter(self, handler)
            handler.addFilter(console_filter)
            self._filters.append((handler, console_filter))
        return self

    def __exit__(self, *exc_info) -> None:
        for handler, console_filter in self._filters:
            handler.removeFilter(console_filter)
        self._filters.clear()
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def show(self, counts) -> bool:
        """Take a progress line's counts; whether the line itself should be printed."""
        if self.use_bar:
            self._update_bar(counts)
            return False
        tenth = counts.done * 10 // max(counts.total, 1)
        now = time.monotonic()
        due = tenth != self._last_tenth or now - self._last_line >= PLAIN_LINE_INTERVAL_SECONDS
        if due or counts.done == counts.total:
            self._last_tenth, self._last_line = tenth, now
            return True
        return False

    def _update_bar(self, counts) -> None:
        from tqdm import tqdm

        if self.bar is None:
            self.bar = tqdm(
                total=counts.total, initial=counts.resumed, unit="cell", desc="cells", file=sys.stderr
            )
        self.bar.update(counts.done - self.bar.n)
        self.bar.set_postfix(resumed=counts.resumed, failed=counts.failed, refresh=False)
