"""Progress lines of a comparison (tasks.tracking.progress)."""

from __future__ import annotations

from tasks.tracking.progress import Progress


def test_progress_counts_and_estimates_the_time_left():
    now = [100.0]
    progress = Progress(total=10, skipped=4, clock=lambda: now[0])
    assert progress.line() == "cells 4/10 (4 resumed, 0 failed) elapsed 00:00 ETA --:--"
    now[0] = 130.0
    assert progress.update({"status": "ok"}) == "cells 5/10 (4 resumed, 0 failed) elapsed 00:30 ETA 02:30"
    now[0] = 160.0
    assert progress.update({"status": "failed"}) == "cells 6/10 (4 resumed, 1 failed) elapsed 01:00 ETA 02:00"
