"""Results of ``compare`` as tables: one row per (cell, ensemble size), mean ± std over folds, dataset
averages.

Follows the AdaCC paper's reporting (Section 5.3): mean ± std over folds per dataset, averaged over datasets
(Table 6). Besides the metrics of ``algorithms.metrics.METRICS`` every cell carries its fit time and, for
trees, the number of nodes (CSDT paper, Table 8), summarised the same way. :func:`summarize` is the one place
where fold means and standard deviations are computed: the report, the parent run's tables and the child runs
read them from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from algorithms.metrics import METRICS, computed_metrics

__all__ = [
    "CELL_MEASURES",
    "at_largest_size",
    "average_over_datasets",
    "ROUND_PREFIX",
    "results_frame",
    "summarize",
    "summary_records",
]

#: Measures of a fit that cells record beside the metrics (fit time, a tree's size), summarised like them.
CELL_MEASURES = tuple(name for name, metric in METRICS.items() if metric.function is None)

#: Prefix of a child run's per-round boosting traces (metric histories, step = round).
ROUND_PREFIX = "round/"

_ID_COLUMNS = ["dataset", "method", "repeat", "fold", "n_estimators"]


def results_frame(results: Iterable[Mapping]) -> pd.DataFrame:
    """One row per (cell, ensemble size): ids, status, error, chosen C-, fit time, tree size and every metric.

    A failed cell contributes one row with status ``"failed"``, its error and no metrics.
    """
    rows = []
    for result in results:
        base = {
            "dataset": result["dataset"],
            "method": result["method"],
            "repeat": result["repeat"],
            "fold": result["fold"],
            "status": result["status"],
            "error": result.get("error"),
            "negative_cost": result.get("negative_cost"),
            "fit_seconds": result.get("fit_seconds"),
            "tree_nodes": result.get("tree_nodes"),
        }
        if result["status"] != "ok" or not result.get("rows"):
            rows.append({**base, "n_estimators": None})
            continue
        for metrics in result["rows"]:
            rows.append({**base, **metrics})
    frame = pd.DataFrame(rows)
    if frame.empty:
        return pd.DataFrame(columns=[*_ID_COLUMNS, "status", "error"])
    frame["n_estimators"] = frame["n_estimators"].astype("Int64")
    for measure in CELL_MEASURES:
        frame[measure] = pd.to_numeric(frame[measure], errors="coerce").astype(float)
    metric_columns = [name for name in computed_metrics() if name in frame.columns]
    others = [name for name in frame.columns if name not in _ID_COLUMNS and name not in metric_columns]
    return frame[[*_ID_COLUMNS, *others, *metric_columns]].sort_values(
        _ID_COLUMNS, kind="stable", ignore_index=True
    )


def metric_columns(frame: pd.DataFrame) -> list[str]:
    return [name for name in computed_metrics() if name in frame.columns]


def _summarized_columns(frame: pd.DataFrame, measures: Sequence[str]) -> list[str]:
    present = [name for name in measures if name in frame.columns and frame[name].notna().any()]
    return [*metric_columns(frame), *present]


def summarize(frame: pd.DataFrame, *, measures: Sequence[str] = ()) -> pd.DataFrame:
    """Mean and std over folds per (dataset, method, n_estimators): ``<metric>_mean``, ``<metric>_std``.

    Also ``folds`` (successful cells) and ``failed`` (failed cells). Failed cells add no metric values.
    ``measures`` (e.g. :data:`CELL_MEASURES`: fit time, tree size) are summarised like the metrics when
    recorded; they are left out by default because timings differ between otherwise identical runs.
    """
    keys = ["dataset", "method", "n_estimators"]
    ok = frame[frame["status"] == "ok"]
    metrics = _summarized_columns(frame, measures)
    grouped = ok.groupby(keys, dropna=False)[metrics]
    summary = grouped.mean().add_suffix("_mean").join(grouped.std(ddof=1).add_suffix("_std"))
    summary["folds"] = ok.groupby(keys, dropna=False).size()
    failed = frame[frame["status"] != "ok"].groupby(["dataset", "method"]).size().rename("failed")
    summary = summary.reset_index()
    if summary.empty:
        summary = frame[frame["status"] != "ok"][["dataset", "method"]].drop_duplicates()
        summary["n_estimators"] = pd.NA
    summary = summary.merge(failed.reset_index(), on=["dataset", "method"], how="outer")
    summary["failed"] = summary["failed"].fillna(0).astype(int)
    summary["folds"] = summary.get("folds", pd.Series(0, index=summary.index)).fillna(0).astype(int)
    ordered = ["dataset", "method", "n_estimators", "folds", "failed"]
    ordered += [
        f"{name}_{stat}" for name in metrics for stat in ("mean", "std") if f"{name}_{stat}" in summary
    ]
    return summary[ordered].sort_values(keys, kind="stable", ignore_index=True)


def average_over_datasets(summary: pd.DataFrame) -> pd.DataFrame:
    """Per (method, n_estimators): the mean over datasets of the per-dataset fold means (AdaCC Table 6).

    Columns ``<metric>`` (mean of ``<metric>_mean`` over the datasets with a value) and ``datasets``.
    """
    means = [column for column in summary.columns if column.endswith("_mean")]
    grouped = summary.groupby(["method", "n_estimators"], dropna=False)
    overall = grouped[means].mean().rename(columns=lambda column: column.removesuffix("_mean"))
    overall.insert(0, "datasets", grouped["dataset"].nunique())
    return overall.reset_index().sort_values(["method", "n_estimators"], kind="stable", ignore_index=True)


def at_largest_size(summary: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, method) the row of the largest ensemble size (or the only row of a non-ensemble)."""
    ordered = summary.assign(_size=summary["n_estimators"].fillna(-1).astype(int))
    ordered = ordered.sort_values(["dataset", "method", "_size"], kind="stable")
    return (
        ordered.groupby(["dataset", "method"], as_index=False)
        .tail(1)
        .drop(columns="_size")
        .reset_index(drop=True)
    )


def summary_records(summary: pd.DataFrame) -> list[dict]:
    """The summary as JSON-ready records (NaN and NA become ``None``)."""
    records = summary.astype(object).where(summary.notna(), None).to_dict(orient="records")
    return [
        {
            key: (int(value) if key == "n_estimators" and value is not None else value)
            for key, value in record.items()
        }
        for record in records
    ]
