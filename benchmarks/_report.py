"""Write one benchmark's results into its own section of ``docs/benchmarks.md`` (atomically)."""

from __future__ import annotations

import os
import platform
import re
import tempfile
from datetime import UTC, datetime
from pathlib import Path

REPORT = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
HEADER = (
    "# Benchmarks\n"
    "\n"
    "Produced by `make bench` (all; `python -m benchmarks`), `python -m benchmarks NAME ...` (some) or\n"
    "`python -m benchmarks --quick ...` (fewer repeats: to check that they run, not for figures); each\n"
    "section is rewritten by its own benchmark with the command and the machine. Timings on these 2-core\n"
    "machines swing 2-3x with load: read the ratios, measured side by side in one run. Each section\n"
    "states the load average before its run and flags a machine that was not quiet; absolute figures\n"
    "count only from a quiet run.\n"
)


def machine_description() -> str:
    """One line naming the machine the numbers come from."""
    import numpy
    import sklearn

    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numpy {numpy.__version__}, scikit-learn {sklearn.__version__}"
    )


def write_section(
    name: str, title: str, body: str, command: str, *, report: Path = REPORT, header: str = HEADER
) -> Path:
    """Replace (or append) the section ``name`` of ``report`` with ``body``; returns the report path.

    ``report`` defaults to ``docs/benchmarks.md``; result tables that belong with the method documentation
    (``docs/results/``) name their own file and the ``header`` a new one starts with.
    """
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    section = (
        f"<!-- begin {name} -->\n## {title}\n\n"
        f"Command: `{command}` — run {stamp} on {machine_description()}.\n\n"
        f"{body.strip()}\n<!-- end {name} -->\n"
    )
    text = report.read_text() if report.exists() else header
    pattern = re.compile(rf"<!-- begin {re.escape(name)} -->.*?<!-- end {re.escape(name)} -->\n", re.S)
    text = (
        pattern.sub(lambda _: section, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section
    )
    report.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=report.parent, delete=False, suffix=".tmp") as handle:
        handle.write(text)
    os.replace(handle.name, report)
    return report
