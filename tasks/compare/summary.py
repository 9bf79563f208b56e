"""Prefect tasks of the report package: summarising the cells of a comparison."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from prefect import task
from prefect.cache_policies import NO_CACHE

from tasks.fitting.split_scores import split_scores_frame
from tasks.report.results import average_over_datasets, results_frame, summarize
from tasks.report.statistics import friedman_test, rank_methods

__all__ = ["summarize_task"]


@task(name="summarize_results", cache_policy=NO_CACHE)
def summarize_task(results: Sequence[Mapping], rank_metric: str = "opm") -> dict:
    """The results table, its summary, dataset averages, ranks, Friedman test and one split's test scores.

    Keys: ``frame``, ``summary``, ``overall``, ``ranks`` and ``friedman`` (``None`` without the rank metric),
    ``split_scores`` (:func:`tasks.fitting.split_scores.split_scores_frame`, for ROC and cost curves).
    """
    frame = results_frame(results)
    summary = summarize(frame)
    overall = average_over_datasets(summary)
    ranks = friedman = None
    if f"{rank_metric}_mean" in summary and summary[f"{rank_metric}_mean"].notna().any():
        ranks = rank_methods(summary, rank_metric)
        friedman = friedman_test(ranks)
    return {
        "frame": frame,
        "summary": summary,
        "overall": overall,
        "ranks": ranks,
        "friedman": friedman,
        "split_scores": split_scores_frame(results),
    }
