"""Plain-text views of the results for the terminal and run descriptions: the leaderboard, the tests in
words."""

from __future__ import annotations

import math

import pandas as pd

from algorithms.metrics import METRICS, VIEWS, lower_is_better, metric_label
from tasks.report.statistics import MethodComparison

__all__ = [
    "NAMED_AT_MOST",
    "best_method_verdict",
    "candidates_table",
    "describe_comparison",
    "format_leaderboard",
    "leaderboard_markdown",
    "plain_number",
]


def plain_number(value, missing: str = "–") -> str:
    """A holdout metric as run descriptions, version descriptions and the command line show it: four decimals,
    or a whole number with thousands separators from 1,000 on (money); ``missing`` for none or not finite."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return missing
    return f"{value:.4f}" if abs(value) < 1000 else f"{value:,.0f}"


def candidates_table(metrics: dict[str, dict], *, best: str, view: str = "retrain_cli") -> list[str]:
    """A retrain's candidates as aligned text lines: a header of the metrics of ``VIEWS[view]``, then one line
    per candidate in the order of ``metrics`` (method -> holdout metrics), the best one starred."""
    header = ["method", *VIEWS[view]]
    rows = [
        [
            method + (" *" if method == best else ""),
            *(plain_number(values.get(name), missing="-") for name in VIEWS[view]),
        ]
        for method, values in metrics.items()
    ]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
        for line in [header, *rows]
    ]


def format_leaderboard(board: pd.DataFrame) -> str:
    """The leaderboard (:func:`tasks.report.tables.leaderboard`) as an aligned text table, best first; a
    ``failed`` column only when some cells failed."""
    if board.empty:
        return "(no results)"
    measures = [name for name in board.columns if name in METRICS]
    table = pd.DataFrame({"#": range(1, len(board) + 1), "method": board["method"]})
    table["mean rank"] = board["mean_rank"].map("{:.2f}".format)
    table["wins"] = board["wins"].astype(int)
    for name in measures:
        table[metric_label(name)] = board[name].map(lambda value: "-" if pd.isna(value) else f"{value:.3f}")
    if board["failed"].any():
        table["failed cells"] = board["failed"].astype(int)
    return table.to_string(index=False)


def leaderboard_markdown(board: pd.DataFrame, comparison: MethodComparison) -> str:
    """The leaderboard as a markdown table (best value of each column in bold), then the tests in words:
    for an MLflow run description or a Prefect markdown artifact."""
    measures = [name for name in board.columns if name in METRICS]
    header = ["#", "method", "mean rank", "wins", *(metric_label(name) for name in measures), "failed"]
    best = {name: board[name].min() if lower_is_better(name) else board[name].max() for name in measures}
    best["mean_rank"] = board["mean_rank"].min()
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for position, record in enumerate(board.to_dict(orient="records"), start=1):
        cells = [str(position), record["method"]]
        for name in ("mean_rank", *measures):
            value = record[name]
            text = "–" if pd.isna(value) else f"{value:.3f}" if name != "mean_rank" else f"{value:.2f}"
            cells.append(f"**{text}**" if not pd.isna(value) and value == best[name] else text)
            if name == "mean_rank":
                cells.append(str(int(record["wins"])))
        cells.append(str(int(record["failed"])))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join([*lines, "", *describe_comparison(comparison).splitlines()])


def _p(value: float) -> str:
    return f"p = {value:.2g}" if value >= 0.001 else "p < 0.001"


#: Most methods (or pairs) a sentence names before it counts the rest.
NAMED_AT_MOST = 8


def _named(items: list[str], rest: str) -> str:
    """``items`` joined by commas, the ones beyond :data:`NAMED_AT_MOST` counted: ``a, b and 3 more rest``."""
    if len(items) <= NAMED_AT_MOST:
        return ", ".join(items)
    return f"{', '.join(items[:NAMED_AT_MOST])} and {len(items) - NAMED_AT_MOST} more {rest}"


def best_method_verdict(comparison: MethodComparison) -> str:
    """The method with the best mean rank and whether that is significant, for the report's "best" card:
    ``adacc1 (mean rank 1.33); not significant: Friedman p = 0.26``, ``adacc1 (mean rank 1.20); better than
    3 of 6 others (Bonferroni-Dunn)``."""
    best = str(comparison.mean_ranks.index[0])
    head = f"{best} (mean rank {comparison.mean_ranks.iloc[0]:.2f})"
    friedman = comparison.friedman
    if friedman is None:
        return f"{head}; untested: the Friedman test needs 2+ datasets and 3+ methods"
    if not comparison.significant:
        return f"{head}; not significant: Friedman {_p(friedman.p_value)}"
    others = len(comparison.mean_ranks) - 1
    if comparison.control == best:
        beaten = int((comparison.bonferroni_dunn < comparison.alpha).sum())
        test = "Bonferroni-Dunn"
    else:
        beaten = sum(better == best for better, _, _ in comparison.significantly_different_pairs())
        test = "Nemenyi"
    if beaten == 0:
        return f"{head}; significantly better than none of the {others} others ({test})"
    return f"{head}; significantly better than {beaten} of {others} others ({test})"


def describe_comparison(comparison: MethodComparison) -> str:
    """The Friedman test and its post-hoc tests in words, one sentence per line, the verdict first.

    When the Friedman test does not reject equivalence, the first line says so (no method is significantly
    better) before naming the best mean rank, and no post-hoc conclusion is drawn. The post-hoc sentences
    name the pairs and methods that differ and count the others.
    """
    label = metric_label(comparison.metric)
    n_datasets, n_methods = comparison.ranks.shape
    best = comparison.mean_ranks.index[0]
    over = f"{comparison.mean_ranks.iloc[0]:.2f} over {n_datasets} dataset{'s' * (n_datasets != 1)}"
    friedman = comparison.friedman
    if friedman is not None and not comparison.significant:
        lines = [
            f"No method is significantly better ({_p(friedman.p_value)}); {best} has the best mean rank by "
            f"{label} (largest T, {over})."
        ]
    else:
        lines = [f"Ranked by {label} (largest T): best mean rank {best} ({over})."]
    if friedman is None:
        lines.append(
            f"No Friedman test: it needs at least 2 datasets and 3 methods (this run has {n_datasets} and "
            f"{n_methods})."
        )
        return "\n".join(lines)
    verdict = (
        "the methods differ significantly"
        if comparison.significant
        else "no significant difference between the methods"
    )
    lines.append(
        f"Friedman test over {friedman.n_datasets} datasets and {friedman.n_methods} methods: chi-square = "
        f"{friedman.statistic:.2f}, {_p(friedman.p_value)}: {verdict} at alpha = {comparison.alpha:g}."
    )
    if not comparison.significant:
        lines.append(
            "Post-hoc tests apply only after the Friedman test rejects equivalence; none is drawn (the "
            "report shows them greyed, as exploratory)."
        )
        return "\n".join(lines)
    pairs = comparison.significantly_different_pairs()
    n_pairs = n_methods * (n_methods - 1) // 2
    described = [f"{better} beats {worse} ({_p(p)})" for better, worse, p in pairs]
    rest = n_pairs - len(pairs)
    if not pairs:
        nemenyi = "no pair differs significantly"
    else:
        nemenyi = _named(described, "pairs")
        if rest:
            nemenyi += f"; the other {rest} pair{'s' * (rest != 1)} do not differ significantly"
    lines.append(f"Nemenyi (all pairs, critical difference {comparison.critical_difference:.2f}): {nemenyi}.")
    control_rank = comparison.mean_ranks[comparison.control]
    worse, better, alike = [], [], []
    for method, p_value in comparison.bonferroni_dunn.items():
        if p_value >= comparison.alpha:
            alike.append(f"{method} ({_p(p_value)})")
        elif comparison.mean_ranks[method] > control_rank:
            worse.append(f"{method} ({_p(p_value)})")
        else:
            better.append(f"{method} ({_p(p_value)})")
    parts = [
        f"significantly {name}: {_named(members, 'methods')}"
        for name, members in (("worse", worse), ("better", better))
        if members
    ]
    if len(alike) > NAMED_AT_MOST:  # counted, not listed
        parts.append(
            f"the other {len(alike)} are not significantly different"
            if parts
            else f"none of the {len(alike)} others differs significantly"
        )
    elif alike:
        parts.append(f"not significantly different: {', '.join(alike)}")
    lines.append(
        f"Bonferroni-Dunn against {comparison.control} "
        f"(critical difference {comparison.critical_difference_control:.2f}): " + "; ".join(parts) + "."
    )
    return "\n".join(lines)
