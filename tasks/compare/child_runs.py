"""The MLflow content of one (dataset, method) child run of a comparison, built from its cells' results.

The parent run's tables and the report read the same results through :mod:`tasks.report.results`; this
module only shapes what one child run logs: parameters, grouped metrics, histories and the per-fold table.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from tasks.report.results import ROUND_PREFIX, at_largest_size, metric_columns, results_frame, summarize

__all__ = ["child_run_payload", "folds_table"]


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
    columns += metric_columns(frame)
    present = [name for name in columns if name in frame.columns]
    return frame[present].sort_values(["repeat", "fold"], kind="stable", ignore_index=True)


def child_run_payload(results: Sequence[Mapping]) -> dict:
    """MLflow content of one (dataset, method) child run from its cell results.

    Metric names are grouped so MLflow's charts view reads by group: ``mean/<metric>`` and ``std/<metric>``
    over folds at the largest T (from :func:`tasks.report.results.summarize`, as the report shows them; no
    ``std/`` for a single fold), ``T<T>/<metric>`` the fold mean at each ensemble size, ``cells/ok`` and
    ``cells/failed``, ``mean/fit_seconds``; histories ``by_T/<metric>`` (``staged``, step = T) and
    ``round/<name>`` (``curves``: the boosting trace averaged over folds, step = round). Per-fold values are
    a table (``folds``, :func:`folds_table`), not metrics on the step axis.

    Returns ``params`` (the estimator's parameters as plain values; C- is per fold when selected),
    ``metrics``, ``staged``, ``curves``, ``folds`` and ``times`` (``(start, end)`` in milliseconds since
    the epoch: the first cell's start and the last cell's end, ``None`` when the cells did not record them).
    """
    frame = results_frame(results)
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
    if not fitted:
        return payload
    # the fold means and standard deviations of the report (one fold: no standard deviation, so none logged)
    summary = summarize(frame, measures=("fit_seconds",))
    summary = summary[summary["folds"] > 0]
    final = at_largest_size(summary).iloc[0]
    sizes = [int(size) for size in summary["n_estimators"].dropna()]
    for name in metric_columns(frame):
        payload["metrics"][f"mean/{name}"] = float(final[f"{name}_mean"])
        if pd.notna(final[f"{name}_std"]):
            payload["metrics"][f"std/{name}"] = float(final[f"{name}_std"])
        for size, value in zip(sizes, summary[f"{name}_mean"], strict=True) if sizes else ():
            payload["metrics"][f"T{size}/{name}"] = float(value)
            payload["staged"].setdefault(f"by_T/{name}", {})[size] = float(value)
    payload["metrics"]["mean/fit_seconds"] = float(final["fit_seconds_mean"])
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
