"""The console view of a comparison's progress: a bar on a terminal, a few plain lines otherwise."""

from __future__ import annotations

import io
import logging

from prefect.logging.handlers import PrefectConsoleHandler

from flows.cli._progress import CellProgressView
from tasks.tracking.progress import Progress

CELLS = 40


def _run_cells(handler: logging.Handler, view: CellProgressView) -> None:
    """What Prefect's console handler receives while a 40-cell comparison runs (3 cells resumed)."""
    progress = Progress(CELLS, skipped=3)

    def emit(name: str, level: int, message: str) -> None:
        handler.handle(logging.LogRecord(name, level, __file__, 0, message, None, None))

    with view:
        emit(
            "prefect.flow_runs", logging.INFO, "Beginning subflow run 'x' for flow 'method-comparison-cells'"
        )
        for index in range(CELLS - 3):
            emit("prefect.task_runs", logging.INFO, "Finished in state Completed()")
            result = {"status": "failed" if index == 5 else "ok"}
            if index == 5:
                emit("prefect.task_runs", logging.WARNING, "cell pima/dt/r0f5 failed: ValueError: bad")
            emit("prefect.flow_runs", logging.INFO, progress.update(result))
        emit("prefect.flow_runs", logging.INFO, "Finished in state Completed()")


def _console() -> tuple[PrefectConsoleHandler, io.StringIO]:
    stream = io.StringIO()
    handler = PrefectConsoleHandler(stream=stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logging.getLogger().addHandler(handler)
    return handler, stream


def test_without_a_terminal_a_few_plain_lines_and_every_warning():
    handler, stream = _console()
    try:
        _run_cells(handler, CellProgressView(bar=False))
    finally:
        logging.getLogger().removeHandler(handler)
    lines = stream.getvalue().splitlines()
    progress = [line for line in lines if line.startswith("INFO cells ")]
    assert 5 <= len(progress) <= 11, progress  # a line per tenth of the run, not one per cell
    assert progress[-1].startswith("INFO cells 40/40 (3 resumed, 1 failed)")
    assert "WARNING cell pima/dt/r0f5 failed: ValueError: bad" in lines
    assert lines.count("INFO Finished in state Completed()") == 1  # the flow's, not the 37 task runs'
    assert handler.filters == []  # the view leaves the handler as it found it


def test_on_a_terminal_one_bar_and_other_lines_above_it(capsys):
    handler, stream = _console()
    try:
        _run_cells(handler, CellProgressView(bar=True))
    finally:
        logging.getLogger().removeHandler(handler)
    # before the first cell there is no bar and the handler prints; after, everything goes above the bar
    assert stream.getvalue() == "INFO Beginning subflow run 'x' for flow 'method-comparison-cells'\n"
    err = capsys.readouterr().err
    assert "cells: 100%" in err and "40/40" in err and "failed=1" in err and "resumed=3" in err
    assert "WARNING cell pima/dt/r0f5 failed: ValueError: bad" in err
    assert "INFO cells " not in err and "Finished in state Completed()\n" in err
