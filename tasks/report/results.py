"""Results of ``compare`` as tables: one row per (cell, ensemble size), mean ± std over folds, dataset
averages.

Follows the AdaCC paper's reporting (Section 5.3): mean ± std over folds per dataset, averaged over datasets
(Table 6). Besides the metrics of spec Section 8 every cell carries its fit time and, for trees, the number of
nodes (CSDT paper, Table 8), summarised the same way.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = [
    "CELL_MEASURES",
    "LOWER_IS_BETTER",
    "METRICS",
    "METRIC_LABELS",
    "at_largest_size",
    "average_over_datasets",
    "ROUND_PREFIX",
    "child_run_payload",
    "folds_table",
    "results_frame",
    "summarize",
    "summary_records",
]

#: Metric columns in report order (spec Section 8); ``cost`` and ``savings`` exist on business datasets only.
METRICS = (
    "opm",
    "auc",
    "balanced_accuracy",
    "g_mean",
    "f1",
    "tpr",
    "tnr",
    "precision",
    "accuracy",
    "cost",
    "savings",
)

#: Per-cell measures summarised like the metrics: fit time in seconds and the fitted tree's node count.
CELL_MEASURES = ("fit_seconds", "tree_nodes")

#: How tables, figures and sentences name each metric and measure.
METRIC_LABELS = {
    "opm": "OPM",
    "auc": "AUC",
    "balanced_accuracy": "balanced accuracy",
    "g_mean": "G-mean",
    "f1": "F1",
    "tpr": "TPR (recall)",
    "tnr": "TNR (specificity)",
    "precision": "precision",
    "accuracy": "accuracy",
    "cost": "total cost",
    "savings": "savings",
    "fit_seconds": "fit time (s)",
    "tree_nodes": "tree size (nodes)",
}

#: Prefix of a child run's per-round boosting traces (metric histories, step = round).
ROUND_PREFIX = "round/"

#: Metrics and measures where smaller is better.
LOWER_IS_BETTER = frozenset({"cost", "fit_seconds", "tree_nodes"})

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
    metric_columns = [name for name in METRICS if name in frame.columns]
    others = [name for name in frame.columns if name not in _ID_COLUMNS and name not in metric_columns]
    return frame[[*_ID_COLUMNS, *others, *metric_columns]].sort_values(
        _ID_COLUMNS, kind="stable", ignore_index=True
    )


def _metric_columns(frame: pd.DataFrame) -> list[str]:
    return [name for name in METRICS if name in frame.columns]


def _summarized_columns(frame: pd.DataFrame, measures: Sequence[str]) -> list[str]:
    present = [name for name in measures if name in frame.columns and frame[name].notna().any()]
    return [*_metric_columns(frame), *present]


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


def _plain_estimator_param(text: str) -> object:
    """An estimator parameter stored as its repr, back as a value when it is a literal (``'SAMME'`` ->
    ``SAMME``, ``None`` -> ``None``); other reprs (estimators) stay as they are."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


def folds_table(results: Sequence[Mapping]) -> pd.DataFrame:
    """Per-fold values of one (dataset, method) at its largest ensemble size: ``repeat``, ``fold``,
    ``status``, the chosen C- (fixed-cost methods), fit time and every metric; one row per cell."""
    frame = results_frame(results)
    sizes = frame["n_estimators"].dropna()
    if not sizes.empty:
        largest = int(sizes.max())
        frame = frame[frame["n_estimators"].isna() | (frame["n_estimators"] == largest)]
    columns = ["repeat", "fold", "n_estimators", "status", "negative_cost", "fit_seconds"]
    columns += _metric_columns(frame)
    present = [name for name in columns if name in frame.columns]
    return frame[present].sort_values(["repeat", "fold"], kind="stable", ignore_index=True)


def child_run_payload(results: Sequence[Mapping]) -> dict:
    """MLflow content of one (dataset, method) child run from its cell results.

    Metric names are grouped so MLflow's charts view reads by group: ``mean/<metric>`` and ``std/<metric>``
    over folds at the largest T, ``T<T>/<metric>`` the fold mean at each ensemble size, ``cells/ok`` and
    ``cells/failed``, ``mean/fit_seconds``; histories ``by_T/<metric>`` (``staged``, step = T) and
    ``round/<name>`` (``curves``: the boosting trace averaged over folds, step = round). Per-fold values are
    a table (``folds``, :func:`folds_table`), not metrics on the step axis.

    Returns ``params`` (the estimator's parameters as plain values; C- is per fold when selected),
    ``metrics``, ``staged``, ``curves``, ``folds`` and ``times`` (``(start, end)`` in milliseconds since
    the epoch: the first cell's start and the last cell's end, ``None`` when the cells did not record them).
    """
    frame = results_frame(results)
    ok = frame[frame["status"] == "ok"]
    metrics_names = _metric_columns(frame)
    payload = {
        "params": {},
        "metrics": {},
        "staged": {},
        "curves": {},
        "folds": folds_table(results),
        "times": _span(results),
    }
    fitted = [result for result in results if result["status"] == "ok"]
    if fitted:
        payload["params"] = {
            key: _plain_estimator_param(value) for key, value in (fitted[0].get("params") or {}).items()
        }
        if any(result.get("negative_cost") is not None for result in fitted):
            payload["params"].pop("negative_cost", None)  # chosen per fold: a column of the folds table
    payload["metrics"]["cells/ok"] = float(len(fitted))
    payload["metrics"]["cells/failed"] = float(sum(r["status"] != "ok" for r in results))
    if ok.empty:
        return payload
    sizes = sorted(int(size) for size in ok["n_estimators"].dropna().unique())
    final = ok if not sizes else ok[ok["n_estimators"] == sizes[-1]]
    for name in metrics_names:
        payload["metrics"][f"mean/{name}"] = float(final[name].mean())
        payload["metrics"][f"std/{name}"] = float(final[name].std(ddof=1)) if len(final) > 1 else 0.0
        for size in sizes:
            value = float(ok.loc[ok["n_estimators"] == size, name].mean())
            payload["metrics"][f"T{size}/{name}"] = value
            payload["staged"].setdefault(f"by_T/{name}", {})[size] = value
    payload["metrics"]["mean/fit_seconds"] = float(final["fit_seconds"].astype(float).mean())
    curves: dict[str, list[list[float]]] = {}
    for result in results:
        for name, values in (result.get("curves") or {}).items():
            curves.setdefault(name, []).append(values)
    for name, per_fold in curves.items():
        length = max(len(values) for values in per_fold)
        padded = np.full((len(per_fold), length), np.nan)
        for row, values in enumerate(per_fold):
            padded[row, : len(values)] = values
        payload["curves"][f"{ROUND_PREFIX}{name}"] = np.nanmean(padded, axis=0).tolist()
    return payload


def _span(results: Sequence[Mapping]) -> tuple[int, int] | None:
    """(first start, last end) of the cells in milliseconds since the epoch, or ``None``."""
    starts = [r["started_at"] for r in results if r.get("started_at") is not None]
    ends = [r["ended_at"] for r in results if r.get("ended_at") is not None]
    if not starts or not ends:
        return None
    return int(min(starts) * 1000), int(max(ends) * 1000)
