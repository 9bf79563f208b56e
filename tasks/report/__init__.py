"""Results people can read: tables, statistics, figures and the HTML report of a ``compare`` or ``retrain``.

Modules: ``results`` (per-cell table, mean ± std summaries), ``statistics`` (ranks, Friedman, Nemenyi,
Bonferroni-Dunn), ``tables`` (the papers' table forms), ``text`` (terminal views), ``figures`` and
``boundaries`` (matplotlib), ``source`` (a run read back from MLflow), ``html`` and ``build`` (the
self-contained HTML page), ``publish`` (the report where users look: MLflow run, description). One split's
test scores and costs, which the cells pack, are read back by :mod:`tasks.fitting.split_scores`; a
comparison's summary task is :mod:`tasks.compare.summary`.
"""

from tasks.report.build import build_report
from tasks.report.results import (
    CELL_MEASURES,
    average_over_datasets,
    results_frame,
    summarize,
    summary_records,
)
from tasks.report.source import RunRecord, load_run
from tasks.report.statistics import (
    MethodComparison,
    compare_methods,
    cumulative_table,
    friedman_test,
    rank_methods,
)
from tasks.report.tables import cost_table, leaderboard, per_dataset_table, rank_table, table_by_size
from tasks.report.text import (
    describe_comparison,
    format_leaderboard,
    leaderboard_markdown,
)

__all__ = [
    "CELL_MEASURES",
    "MethodComparison",
    "RunRecord",
    "average_over_datasets",
    "build_report",
    "compare_methods",
    "cost_table",
    "cumulative_table",
    "describe_comparison",
    "format_leaderboard",
    "friedman_test",
    "leaderboard",
    "leaderboard_markdown",
    "load_run",
    "per_dataset_table",
    "rank_methods",
    "rank_table",
    "results_frame",
    "summarize",
    "summary_records",
    "table_by_size",
]
