"""Protocol (a) again for the contenders whose defaults changed after its full run (issue 22, 6a).

The full run of :mod:`benchmarks.bench_hoppner` (about an hour) fitted ``cslogit`` at ``alpha=1e-3``; its
inner CV then chose ``alpha=1e-4`` in 9 of 10 folds, which became the default. This module refits the
changed contenders at today's defaults on the same ten folds (``RepeatedStratifiedKFold(n_splits=2,
n_repeats=5, random_state=0)``, same data and costs), so that the table holds what a user gets.

Run: ``python -m benchmarks hoppner_defaults`` (a minute or two; ``--quick``: one 2-fold repeat on 40,000
rows). Results go to their own section of ``docs/results/strongest-methods.md``.
"""

from __future__ import annotations

from benchmarks._report import write_section
from benchmarks._strong import load_uptime
from benchmarks.bench_hoppner import HEADER, REPORT, protocol_problem, run_fold, table

CHANGED = ("cslogit",)


def main(quick: bool) -> None:
    X, y, costs, splitter = protocol_problem(quick)
    load = load_uptime()
    folds = {
        str(fold): run_fold(fold, train_rows, test_rows, X, y, costs, CHANGED)
        for fold, (train_rows, test_rows) in enumerate(splitter.split(X, y))
    }
    body = (
        f"{len(folds)} folds; load average at the start {load}, at the end {load_uptime()}. "
        f"Rows: {y.size:,} ({int(y.sum())} frauds).\n\n" + table(folds, CHANGED)
    )
    print(body)
    write_section(
        "hoppner_defaults" + ("_quick" if quick else ""),
        "(a) again, at today's defaults: " + ", ".join(CHANGED) + (" (quick)" if quick else ""),
        body,
        "python -m benchmarks hoppner_defaults" + (" --quick" if quick else ""),
        report=REPORT,
        header=HEADER,
    )
