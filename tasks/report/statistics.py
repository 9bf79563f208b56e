"""Comparing methods over datasets: ranks with ties, wins, the Friedman test and its post-hoc tests.

The procedure of Demsar (2006), as the AdaCC paper uses it (Section 6.1, Tables 8-9):

1. per dataset, rank the methods by their mean over folds of one metric at the largest ensemble size
   (rank 1 = best; ties share the mean of the ranks they span; a method without a value ranks last);
2. the Friedman test (``scipy.stats.friedmanchisquare``) of the null hypothesis that all methods are
equivalent;
3. post-hoc tests from scikit-posthocs: Nemenyi for all pairs (``posthoc_nemenyi_friedman``) and
   Bonferroni-Dunn, each method against one control (``posthoc_demsar`` with a Bonferroni correction over the
   ``k - 1`` comparisons).

:func:`cumulative_table` is AdaCC Table 7 with its paired evidence: each cumulative method against its
non-cumulative counterpart (AdaCC1 vs AdaN-CC1, AdaCC2 vs AdaN-CC2) per ensemble size, the metric averaged
over datasets, the relative decrease the paper quotes in Section 6.1, the datasets each side wins and the
Wilcoxon signed-rank test over datasets (``scipy.stats.wilcoxon``; Demsar 2006, Section 3.1.3).

The critical differences of the mean ranks, ``CD = q_alpha sqrt(k (k + 1) / (6 N))`` (Demsar 2006, Section
3.2.2), are drawn on the critical-difference diagram; ``q_alpha`` is the studentized range quantile over
``sqrt 2`` (Nemenyi) or the normal quantile ``z_{alpha / (2 (k - 1))}`` (Bonferroni-Dunn), both from scipy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scikit_posthocs
from scipy import stats

from algorithms.metrics import VIEWS, lower_is_better
from tasks.report.results import at_largest_size

__all__ = [
    "CUMULATIVE_PAIRS",
    "FriedmanResult",
    "MethodComparison",
    "check_alpha",
    "compare_methods",
    "critical_difference",
    "cumulative_table",
    "friedman_test",
    "rank_methods",
    "score_table",
]


def score_table(summary: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Dataset x method table of the fold means of ``metric`` at each method's largest ensemble size.

    Raises
    ------
    ValueError
        When the summary has no ``<metric>_mean`` column; the message lists the available ones.
    """
    column = f"{metric}_mean"
    if column not in summary:
        available = sorted(name.removesuffix("_mean") for name in summary.columns if name.endswith("_mean"))
        raise ValueError(f"metric {metric!r} is not in the summary; available: {available}")
    table = at_largest_size(summary).pivot(index="dataset", columns="method", values=column).astype(float)
    table.columns.name = None
    table.index.name = "dataset"
    return table


def _rank_scores(scores: pd.DataFrame, metric: str) -> pd.DataFrame:
    ascending = lower_is_better(metric)
    worst = np.inf if ascending else -np.inf
    return scores.fillna(worst).rank(axis=1, ascending=ascending, method="average")


def rank_methods(summary: pd.DataFrame, metric: str = "opm") -> pd.DataFrame:
    """Rank methods per dataset by mean ``metric`` (rank 1 = best; ties share their mean rank).

    Returns a dataset x method table of ranks with a final ``mean rank`` row; methods without a value on some
    dataset (all cells failed) are ranked last there.
    """
    ranks = _rank_scores(score_table(summary, metric), metric)
    ranks.loc["mean rank"] = ranks.mean(axis=0)
    return ranks


def critical_difference(
    n_methods: int, n_datasets: int, alpha: float = 0.05, *, test: str = "nemenyi"
) -> float:
    """Critical difference of mean ranks, ``q_alpha sqrt(k (k + 1) / (6 N))`` (Demsar 2006, Section 3.2.2).

    ``test="nemenyi"`` compares all pairs (``q_alpha`` = studentized range quantile for ``k`` groups over
    ``sqrt 2``, Demsar Table 5a); ``test="bonferroni-dunn"`` compares ``k - 1`` methods with a control
    (``q_alpha = z_{alpha / (2 (k - 1))}``, Table 5b).
    """
    if test == "nemenyi":
        q_alpha = stats.studentized_range.ppf(1 - alpha, n_methods, np.inf) / math.sqrt(2)
    elif test == "bonferroni-dunn":
        q_alpha = stats.norm.ppf(1 - alpha / (2 * (n_methods - 1)))
    else:
        raise ValueError(f"test must be 'nemenyi' or 'bonferroni-dunn', got {test!r}")
    return float(q_alpha * math.sqrt(n_methods * (n_methods + 1) / (6 * n_datasets)))


@dataclass(frozen=True)
class FriedmanResult:
    """The Friedman test over ``n_datasets`` blocks and ``n_methods`` treatments (scipy)."""

    statistic: float
    p_value: float
    n_datasets: int
    n_methods: int


def _friedman(ranks: pd.DataFrame) -> FriedmanResult | None:
    n_datasets, n_methods = ranks.shape
    if n_datasets < 2 or n_methods < 3:
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        result = stats.friedmanchisquare(*(ranks[column].to_numpy() for column in ranks))
    return FriedmanResult(float(result.statistic), float(result.pvalue), int(n_datasets), int(n_methods))


def friedman_test(ranks: pd.DataFrame, alpha: float = 0.05) -> dict | None:
    """Friedman test over datasets and the Nemenyi critical difference of the mean ranks, as a dict.

    ``ranks`` is the output of ``rank_methods``. Needs at least 2 datasets and 3 methods, else ``None``.
    Returns ``statistic``, ``p_value``, ``n_datasets``, ``n_methods``, ``alpha`` and ``critical_difference``.
    """
    per_dataset = ranks.drop(index="mean rank", errors="ignore")
    result = _friedman(per_dataset)
    if result is None:
        return None
    return {
        "statistic": result.statistic,
        "p_value": result.p_value,
        "n_datasets": result.n_datasets,
        "n_methods": result.n_methods,
        "alpha": alpha,
        "critical_difference": critical_difference(result.n_methods, result.n_datasets, alpha),
    }


@dataclass(frozen=True)
class MethodComparison:
    """Ranks, wins and significance tests of methods compared on one metric over datasets.

    Attributes
    ----------
    metric : str
        The metric compared (at each method's largest ensemble size).
    alpha : float
        Significance level of every test.
    scores, ranks : pandas.DataFrame
        Dataset x method fold means and ranks (1 = best, ties share their mean rank).
    mean_ranks : pandas.Series
        Mean rank per method, best first.
    wins : pandas.Series
        Datasets on which each method is best or tied for best (AdaCC Table 8, last row).
    friedman : FriedmanResult or None
        ``None`` with fewer than 2 datasets or 3 methods.
    nemenyi : pandas.DataFrame or None
        Method x method p-values of the Nemenyi test (scikit-posthocs), when Friedman ran.
    control : str or None
        The control of the Bonferroni-Dunn test.
    bonferroni_dunn : pandas.Series or None
        Bonferroni-adjusted p-value of each other method against ``control``.
    critical_difference, critical_difference_control : float or None
        Nemenyi and Bonferroni-Dunn critical differences of mean ranks.
    """

    metric: str
    alpha: float
    scores: pd.DataFrame
    ranks: pd.DataFrame
    mean_ranks: pd.Series
    wins: pd.Series
    friedman: FriedmanResult | None = None
    nemenyi: pd.DataFrame | None = None
    control: str | None = None
    bonferroni_dunn: pd.Series | None = None
    critical_difference: float | None = None
    critical_difference_control: float | None = None

    @property
    def significant(self) -> bool:
        """Whether the Friedman test rejects equivalence of the methods at ``alpha``."""
        return self.friedman is not None and self.friedman.p_value < self.alpha

    def significantly_different_pairs(self) -> list[tuple[str, str, float]]:
        """Pairs ``(better, worse, p)`` the Nemenyi test separates at ``alpha``, best pair first."""
        if self.nemenyi is None:
            return []
        order = list(self.mean_ranks.index)
        pairs = []
        for position, better in enumerate(order):
            for worse in order[position + 1 :]:
                p_value = float(self.nemenyi.loc[better, worse])
                if p_value < self.alpha:
                    pairs.append((better, worse, p_value))
        return pairs


def check_alpha(alpha: float) -> float:
    """``alpha`` if it is a significance level (a number strictly between 0 and 1).

    Raises
    ------
    ValueError
        For 0, 1, a negative number, a number above 1, NaN or infinity, naming the value and the range.
    """
    if not 0.0 < alpha < 1.0:  # False for NaN too
        raise ValueError(
            "alpha is a significance level, a number strictly between 0 and 1 such as 0.05 or 0.01;"
            f" got {alpha:g}"
        )
    return float(alpha)


def compare_methods(
    summary: pd.DataFrame, metric: str = "opm", *, control: str | None = None, alpha: float = 0.05
) -> MethodComparison:
    """Rank the methods of a summary per dataset on ``metric`` and test their differences (Demsar 2006).

    Parameters
    ----------
    summary : pandas.DataFrame
        Output of :func:`tasks.report.results.summarize`.
    metric : str
        Metric to rank by (``cost``, fit time and tree size rank smaller-is-better).
    control : str, optional
        Control method of the Bonferroni-Dunn test; default the method with the best mean rank.
    alpha : float
        Significance level.

    Raises
    ------
    ValueError
        When ``metric`` is not in the summary, ``control`` is not one of its methods, or ``alpha`` is not
        strictly between 0 and 1 (:func:`check_alpha`).
    """
    alpha = check_alpha(alpha)
    scores = score_table(summary, metric)
    ranks = _rank_scores(scores, metric)
    mean_ranks = ranks.mean(axis=0).sort_values(kind="stable")
    wins = ranks.eq(ranks.min(axis=1), axis=0).sum(axis=0).reindex(mean_ranks.index).astype(int)
    if control is not None and control not in ranks.columns:
        raise ValueError(f"control {control!r} is not a compared method; methods: {sorted(ranks.columns)}")
    friedman = _friedman(ranks)
    comparison = MethodComparison(metric, alpha, scores, ranks, mean_ranks, wins, friedman)
    if friedman is None:
        return comparison
    control = control or str(mean_ranks.index[0])
    n_datasets, n_methods = ranks.shape
    nemenyi = scikit_posthocs.posthoc_nemenyi_friedman(ranks)
    versus_control = scikit_posthocs.posthoc_demsar(
        ranks, control=control, p_adjust="bonferroni", to_matrix=False
    )
    bonferroni_dunn = pd.Series(
        {method: float(p_value) for (_, method), p_value in versus_control.items()}, name="p_value"
    )
    return MethodComparison(
        metric,
        alpha,
        scores,
        ranks,
        mean_ranks,
        wins,
        friedman,
        nemenyi=nemenyi,
        control=control,
        bonferroni_dunn=bonferroni_dunn.reindex([m for m in mean_ranks.index if m != control]),
        critical_difference=critical_difference(n_methods, n_datasets, alpha),
        critical_difference_control=critical_difference(n_methods, n_datasets, alpha, test="bonferroni-dunn"),
    )


#: AdaCC Table 7: each cumulative method and its non-cumulative counterpart (AdaCC paper, Section 4).
CUMULATIVE_PAIRS = (("adacc1", "adancc1"), ("adacc2", "adancc2"))


def cumulative_table(
    summary: pd.DataFrame,
    metrics: tuple[str, ...] = VIEWS["adacc_cumulative"],
    pairs: tuple[tuple[str, str], ...] = CUMULATIVE_PAIRS,
) -> pd.DataFrame:
    """AdaCC Table 7 with paired evidence: cumulative vs non-cumulative costs, per ensemble size and metric.

    Parameters
    ----------
    summary : pandas.DataFrame
        Output of :func:`tasks.report.results.summarize` holding both methods of at least one pair.
    metrics : tuple of str
        Metrics compared (those absent from the summary are skipped).
    pairs : tuple of (str, str)
        ``(cumulative, non-cumulative)`` method keys.

    Returns
    -------
    pandas.DataFrame
        One row per (pair, ``n_estimators``, metric) with ``cumulative``, ``non_cumulative`` (method keys),
        ``datasets`` (those where both have a value), ``cumulative_mean`` and ``non_cumulative_mean``
        (means over datasets of the fold means), ``relative_decrease`` (``1 - non_cumulative_mean /
        cumulative_mean``, the paper's "relative decrease" of AdaN-CC), ``cumulative_wins`` and
        ``non_cumulative_wins`` (datasets where each is strictly better) and ``wilcoxon_p`` (two-sided
        signed-rank test over datasets; NaN with fewer than 2 datasets or no difference at all).

    Raises
    ------
    ValueError
        When no pair has both of its methods in the summary.
    """
    present = set(summary["method"])
    usable = [pair for pair in pairs if set(pair) <= present]
    if not usable:
        raise ValueError(
            f"no (cumulative, non-cumulative) pair of {list(pairs)} is in the summary; "
            f"methods: {sorted(present)}"
        )
    rows = []
    for cumulative, non_cumulative in usable:
        for metric in metrics:
            column = f"{metric}_mean"
            if column not in summary or summary[column].isna().all():
                continue
            table = (
                summary[summary["method"].isin([cumulative, non_cumulative])]
                .pivot_table(index=["n_estimators", "dataset"], columns="method", values=column)
                .reindex(columns=[cumulative, non_cumulative])
            )
            for size, block in table.groupby(level="n_estimators"):
                both = block.dropna()
                ours, theirs = both[cumulative], both[non_cumulative]
                ours_mean, theirs_mean = float(ours.mean()), float(theirs.mean())
                rows.append(
                    {
                        "cumulative": cumulative,
                        "non_cumulative": non_cumulative,
                        "n_estimators": size,
                        "metric": metric,
                        "datasets": int(len(both)),
                        "cumulative_mean": ours_mean,
                        "non_cumulative_mean": theirs_mean,
                        "relative_decrease": 1.0 - theirs_mean / ours_mean if ours_mean else float("nan"),
                        "cumulative_wins": int((ours > theirs).sum()),
                        "non_cumulative_wins": int((theirs > ours).sum()),
                        "wilcoxon_p": _wilcoxon(ours.to_numpy(), theirs.to_numpy()),
                    }
                )
    return pd.DataFrame(rows)


def _wilcoxon(first: np.ndarray, second: np.ndarray) -> float:
    """Two-sided Wilcoxon signed-rank p-value of paired values; NaN when it is undefined."""
    if len(first) < 2 or np.allclose(first, second):
        return float("nan")
    return float(stats.wilcoxon(first, second).pvalue)
