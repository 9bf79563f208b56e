"""Results of ``compare``: the per-fold table, mean ± std summaries, per-dataset ranks, the Friedman test.

Follows the AdaCC paper's reporting (Section 5.3): mean ± std over folds per dataset, averaged over datasets
(Table 6), per-dataset ranks (Table 8; rank 1 = best, ties share the mean rank), and the Friedman test with
the Nemenyi critical difference (Demsar 2006: CD = q_alpha sqrt(k (k + 1) / (6 N)), q_alpha the studentized
range quantile over sqrt 2). Ensembles are ranked at their largest evaluated size T.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from prefect import task
from prefect.cache_policies import NO_CACHE
from scipy import stats

__all__ = [
    "LOWER_IS_BETTER",
    "METRICS",
    "Progress",
    "average_over_datasets",
    "child_run_payload",
    "format_overall",
    "format_summary",
    "friedman_test",
    "rank_methods",
    "results_frame",
    "summarize",
    "summarize_task",
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

#: Metrics where smaller is better.
LOWER_IS_BETTER = frozenset({"cost"})

_ID_COLUMNS = ["dataset", "method", "repeat", "fold", "n_estimators"]


def results_frame(results: Iterable[Mapping]) -> pd.DataFrame:
    """One row per (cell, ensemble size): ids, status, error, chosen C-, fit time and every metric.

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
    metric_columns = [name for name in METRICS if name in frame.columns]
    others = [name for name in frame.columns if name not in _ID_COLUMNS and name not in metric_columns]
    return frame[[*_ID_COLUMNS, *others, *metric_columns]].sort_values(
        _ID_COLUMNS, kind="stable", ignore_index=True
    )


def _metric_columns(frame: pd.DataFrame) -> list[str]:
    return [name for name in METRICS if name in frame.columns]


def summarize(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean and std over folds per (dataset, method, n_estimators): ``<metric>_mean``, ``<metric>_std``.

    Also ``folds`` (successful cells) and ``failed`` (failed cells). Failed cells add no metric values.
    """
    keys = ["dataset", "method", "n_estimators"]
    ok = frame[frame["status"] == "ok"]
    metrics = _metric_columns(frame)
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


def _at_largest_size(summary: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, method) the row of the largest ensemble size (or the only row of a non-ensemble)."""
    ordered = summary.assign(_size=summary["n_estimators"].fillna(-1).astype(int))
    ordered = ordered.sort_values(["dataset", "method", "_size"], kind="stable")
    return ordered.groupby(["dataset", "method"], as_index=False).tail(1).drop(columns="_size")


def rank_methods(summary: pd.DataFrame, metric: str = "opm") -> pd.DataFrame:
    """Rank methods per dataset by mean ``metric`` (rank 1 = best; ties share their mean rank).

    Returns a dataset x method table of ranks with a final ``mean rank`` row; methods without a value on some
    dataset (all cells failed) are ranked last there.
    """
    column = f"{metric}_mean"
    if column not in summary:
        raise ValueError(f"metric {metric!r} is not in the summary; available: {sorted(summary.columns)}")
    table = _at_largest_size(summary).pivot(index="dataset", columns="method", values=column).astype(float)
    ascending = metric in LOWER_IS_BETTER
    worst = np.inf if ascending else -np.inf
    ranks = table.fillna(worst).rank(axis=1, ascending=ascending, method="average")
    ranks.loc["mean rank"] = ranks.mean(axis=0)
    return ranks


def friedman_test(ranks: pd.DataFrame, alpha: float = 0.05) -> dict | None:
    """Friedman test over datasets and the Nemenyi critical difference of the mean ranks (Demsar 2006).

    ``ranks`` is the output of ``rank_methods``. Needs at least 2 datasets and 3 methods, else ``None``.
    Returns ``statistic``, ``p_value``, ``n_datasets``, ``n_methods`` and ``critical_difference``.
    """
    per_dataset = ranks.drop(index="mean rank", errors="ignore")
    n_datasets, n_methods = per_dataset.shape
    if n_datasets < 2 or n_methods < 3:
        return None
    statistic, p_value = stats.friedmanchisquare(*(per_dataset[column].to_numpy() for column in per_dataset))
    q_alpha = stats.studentized_range.ppf(1 - alpha, n_methods, np.inf) / math.sqrt(2)
    critical_difference = q_alpha * math.sqrt(n_methods * (n_methods + 1) / (6 * n_datasets))
    return {
        "statistic": float(statistic),
        "p_value": float(p_value),
        "n_datasets": int(n_datasets),
        "n_methods": int(n_methods),
        "alpha": alpha,
        "critical_difference": float(critical_difference),
    }


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


def format_summary(
    summary: pd.DataFrame, metrics: Sequence[str] = ("opm", "balanced_accuracy", "f1", "savings")
) -> str:
    """A text table: one line per (dataset, method, T) with ``mean ± std`` of the chosen metrics."""
    shown = [name for name in metrics if f"{name}_mean" in summary]
    lines = []
    for record in summary.to_dict(orient="records"):
        size = record["n_estimators"]
        line = {
            "dataset": record["dataset"],
            "method": record["method"],
            "T": "-" if pd.isna(size) else str(int(size)),
            "folds": f"{record['folds']}" + (f" ({record['failed']} failed)" if record["failed"] else ""),
        }
        for name in shown:
            mean, std = record[f"{name}_mean"], record[f"{name}_std"]
            line[name] = "n/a" if pd.isna(mean) else f"{mean:.3f} ± {0.0 if pd.isna(std) else std:.3f}"
        lines.append(line)
    return pd.DataFrame(lines).to_string(index=False) if lines else "(no results)"


def format_overall(
    overall: pd.DataFrame, metrics: Sequence[str] = ("opm", "balanced_accuracy", "f1", "savings")
):
    """A text table of ``average_over_datasets``: one line per (method, T), best ``opm`` first."""
    shown = [name for name in metrics if name in overall]
    if overall.empty or not shown:
        return "(no results)"
    table = overall[["method", "n_estimators", "datasets", *shown]].copy()
    table["n_estimators"] = table["n_estimators"].astype(object).where(table["n_estimators"].notna(), "-")
    table = table.rename(columns={"n_estimators": "T"}).sort_values(shown[0], ascending=False, kind="stable")
    return table.to_string(index=False, float_format=lambda value: f"{value:.3f}")


def child_run_payload(results: Sequence[Mapping]) -> dict:
    """MLflow content of one (dataset, method) child run from its cell results.

    Returns ``params`` (the estimator's parameters; C- is per fold when selected), ``metrics``
    (``<metric>_mean`` / ``_std`` at the largest T, ``<metric>_T<T>_mean`` per size,
    ``folds``, ``failed_folds``, ``fit_seconds_mean``), ``fold_metrics`` (``fold_<metric>`` per fold at the
    largest T, step = fold index; ``fold_negative_cost`` the chosen C-), ``staged`` (``staged_<metric>``
    with step = T) and ``curves`` (the boosting
    trace averaged over folds per round, ``trace_<name>``).
    """
    frame = results_frame(results)
    ok = frame[frame["status"] == "ok"]
    metrics_names = _metric_columns(frame)
    payload = {"params": {}, "metrics": {}, "fold_metrics": {}, "staged": {}, "curves": {}}
    fitted = [result for result in results if result["status"] == "ok"]
    if fitted:
        payload["params"] = dict(fitted[0].get("params") or {})
        chosen = [result.get("negative_cost") for result in fitted]
        if any(cost is not None for cost in chosen):
            payload["params"].pop("negative_cost", None)
            payload["fold_metrics"]["fold_negative_cost"] = [
                float("nan") if c is None else float(c) for c in chosen
            ]
    payload["metrics"]["folds"] = float(
        len({(r["repeat"], r["fold"]) for r in results if r["status"] == "ok"})
    )
    payload["metrics"]["failed_folds"] = float(sum(r["status"] != "ok" for r in results))
    if ok.empty:
        return payload
    sizes = sorted(int(size) for size in ok["n_estimators"].dropna().unique())
    final = ok if not sizes else ok[ok["n_estimators"] == sizes[-1]]
    final = final.sort_values(["repeat", "fold"])
    for name in metrics_names:
        payload["metrics"][f"{name}_mean"] = float(final[name].mean())
        payload["metrics"][f"{name}_std"] = float(final[name].std(ddof=1)) if len(final) > 1 else 0.0
        payload["fold_metrics"][f"fold_{name}"] = final[name].astype(float).tolist()
        for size in sizes:
            value = float(ok.loc[ok["n_estimators"] == size, name].mean())
            payload["metrics"][f"{name}_T{size}_mean"] = value
            payload["staged"].setdefault(f"staged_{name}", {})[size] = value
    payload["metrics"]["fit_seconds_mean"] = float(final["fit_seconds"].astype(float).mean())
    curves: dict[str, list[list[float]]] = {}
    for result in results:
        for name, values in (result.get("curves") or {}).items():
            curves.setdefault(name, []).append(values)
    for name, per_fold in curves.items():
        length = max(len(values) for values in per_fold)
        padded = np.full((len(per_fold), length), np.nan)
        for row, values in enumerate(per_fold):
            padded[row, : len(values)] = values
        payload["curves"][f"trace_{name}"] = np.nanmean(padded, axis=0).tolist()
    return payload


@task(name="summarize_results", cache_policy=NO_CACHE)
def summarize_task(results: Sequence[Mapping], rank_metric: str = "opm") -> dict:
    """The results table, its summary, dataset averages, ranks and Friedman test (keys as the variables)."""
    frame = results_frame(results)
    summary = summarize(frame)
    overall = average_over_datasets(summary)
    ranks = friedman = None
    if f"{rank_metric}_mean" in summary and summary[f"{rank_metric}_mean"].notna().any():
        ranks = rank_methods(summary, rank_metric)
        friedman = friedman_test(ranks)
    return {"frame": frame, "summary": summary, "overall": overall, "ranks": ranks, "friedman": friedman}


class Progress:
    """Counts finished cells and estimates the time left from the mean time of the cells computed so far."""

    def __init__(self, total: int, skipped: int = 0, clock=time.monotonic):
        self.total = total
        self.skipped = skipped
        self.computed = 0
        self.failed = 0
        self._clock = clock
        self._started = clock()

    def update(self, result: Mapping) -> str:
        """Record one computed cell and return the progress line."""
        self.computed += 1
        self.failed += result.get("status") != "ok"
        return self.line()

    def line(self) -> str:
        done = self.skipped + self.computed
        elapsed = self._clock() - self._started
        remaining = self.total - done
        eta = elapsed / self.computed * remaining if self.computed else float("nan")
        return (
            f"cells {done}/{self.total} ({self.skipped} resumed, {self.failed} failed) "
            f"elapsed {_clock_text(elapsed)} ETA {_clock_text(eta)}"
        )


def _clock_text(seconds: float) -> str:
    if math.isnan(seconds):
        return "--:--"
    minutes, seconds = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"
