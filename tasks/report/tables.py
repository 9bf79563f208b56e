"""The papers' result tables, built from a ``compare`` summary (numbers only; ``html`` and ``text`` format
them).

- :func:`leaderboard`: one row per method, best mean rank first, with its wins and main metrics.
- :func:`table_by_size`: AdaCC Table 6 — per (method, T), each metric's mean over datasets of the fold means
  ``±`` the mean over datasets of the fold standard deviations.
- :func:`rank_table`: AdaCC Table 8 — per-dataset ranks, the mean rank and the number of wins.
- :func:`per_dataset_table`: WOTBoost Table 3 — per dataset and method, G-mean, AUC, F1, TPR and TNR
  (mean ± std over the splits).
- :func:`cost_table`: CSDT Tables 7-8 — per business dataset and method, savings, accuracy, F1, tree size
  and fit time.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from algorithms.metrics import VIEWS
from tasks.report.results import at_largest_size
from tasks.report.statistics import MethodComparison

__all__ = [
    "cost_table",
    "leaderboard",
    "per_dataset_table",
    "rank_table",
    "table_by_size",
]


def _present(summary: pd.DataFrame, names: Sequence[str]) -> list[str]:
    return [name for name in names if f"{name}_mean" in summary and summary[f"{name}_mean"].notna().any()]


def leaderboard(
    summary: pd.DataFrame, comparison: MethodComparison, metrics: Sequence[str] = VIEWS["leaderboard"]
) -> pd.DataFrame:
    """One row per method, best mean rank first: ``mean_rank``, ``wins``, ``datasets``, ``folds``,
    ``failed`` and each metric's mean over datasets of its fold means at the largest T."""
    final = at_largest_size(summary)
    shown = _present(final, metrics)
    grouped = final.groupby("method")
    board = grouped[[f"{name}_mean" for name in shown]].mean()
    board.columns = shown
    board.insert(0, "failed", summary.groupby("method")["failed"].max())
    board.insert(0, "folds", grouped["folds"].max())
    board.insert(0, "datasets", grouped["dataset"].nunique())
    board.insert(0, "wins", comparison.wins)
    board.insert(0, "mean_rank", comparison.mean_ranks)
    board = board.reindex(comparison.mean_ranks.index)
    board.index.name = "method"
    return board.reset_index()


def table_by_size(summary: pd.DataFrame, metrics: Sequence[str] = VIEWS["adacc_sizes"]) -> pd.DataFrame:
    """AdaCC Table 6: per (method, T) each metric's mean over datasets (``<metric>``) ``±`` the mean over
    datasets of its standard deviation over folds (``<metric>_std``), methods in alphabetical order."""
    shown = _present(summary, metrics)
    grouped = summary.groupby(["method", "n_estimators"], dropna=False)
    columns = {}
    for name in shown:
        columns[name] = grouped[f"{name}_mean"].mean()
        columns[f"{name}_std"] = grouped[f"{name}_std"].mean()
    table = pd.DataFrame(columns)
    table.insert(0, "datasets", grouped["dataset"].nunique())
    return table.reset_index().sort_values(["method", "n_estimators"], kind="stable", ignore_index=True)


def rank_table(comparison: MethodComparison) -> pd.DataFrame:
    """AdaCC Table 8: dataset x method ranks (methods by mean rank) with the ``mean rank`` and ``wins``
    rows."""
    ranks = comparison.ranks[list(comparison.mean_ranks.index)].copy()
    ranks.loc["mean rank"] = comparison.mean_ranks
    ranks.loc["wins"] = comparison.wins.astype(float)
    return ranks


def per_dataset_table(
    summary: pd.DataFrame, metrics: Sequence[str] = VIEWS["wotboost_datasets"]
) -> pd.DataFrame:
    """WOTBoost Table 3: per (dataset, method) at the largest T, ``<metric>_mean`` and ``<metric>_std``."""
    final = at_largest_size(summary)
    shown = _present(final, metrics)
    columns = ["dataset", "method", "n_estimators", "folds"]
    columns += [f"{name}_{stat}" for name in shown for stat in ("mean", "std")]
    return final[columns].sort_values(["dataset", "method"], kind="stable", ignore_index=True)


def cost_table(summary: pd.DataFrame, measures: Sequence[str] = VIEWS["csdt_costs"]) -> pd.DataFrame:
    """CSDT Tables 7-8: method rows, (dataset, measure) columns, on the datasets that have savings.

    Values are means over the splits at the largest T; empty when no dataset has example-dependent costs.
    """
    final = at_largest_size(summary)
    if "savings_mean" not in final:
        return pd.DataFrame()
    final = final[final["savings_mean"].notna()]
    shown = _present(final, measures)
    if final.empty or not shown:
        return pd.DataFrame()
    table = final.pivot(index="method", columns="dataset", values=[f"{name}_mean" for name in shown])
    table.columns = table.columns.set_levels(
        [name.removesuffix("_mean") for name in table.columns.levels[0]], level=0
    )
    table = table.swaplevel(axis=1)
    datasets = sorted(final["dataset"].unique())
    table = table.reindex(columns=pd.MultiIndex.from_product([datasets, shown], names=["dataset", "measure"]))
    return table.sort_index()
