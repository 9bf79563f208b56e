"""Results people can read: tables, statistics, figures and the HTML report of a ``compare`` or ``retrain``.

Modules: ``results`` (per-cell table, mean ± std summaries), ``statistics`` (ranks, Friedman, Nemenyi,
Bonferroni-Dunn), ``tables`` (the papers' table forms), ``text`` (terminal views), ``figures`` and
``boundaries`` (matplotlib), ``source`` (a run read back from MLflow), ``html`` and ``build`` (the
self-contained HTML page), ``publish`` (the report where users look: MLflow run, description). One split's
test scores and costs, which the cells pack, are read back by :mod:`tasks.fitting.split_scores`; a
comparison's summary task is :mod:`tasks.compare.summary`.

Names are imported on first use (PEP 562): a command that draws one figure (``cslearn figure boundaries``)
loads neither MLflow nor the statistics it does not need.
"""

from __future__ import annotations

import importlib

#: Public name -> submodule that defines it.
_EXPORTS = {
    "build_report": "build",
    "CELL_MEASURES": "results",
    "average_over_datasets": "results",
    "results_frame": "results",
    "summarize": "results",
    "summary_records": "results",
    "RunRecord": "source",
    "load_run": "source",
    "MethodComparison": "statistics",
    "compare_methods": "statistics",
    "cumulative_table": "statistics",
    "friedman_test": "statistics",
    "rank_methods": "statistics",
    "cost_table": "tables",
    "leaderboard": "tables",
    "per_dataset_table": "tables",
    "rank_table": "tables",
    "table_by_size": "tables",
    "describe_comparison": "text",
    "format_leaderboard": "text",
    "leaderboard_markdown": "text",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
