"""Figures of a comparison (matplotlib's object API, no pyplot state, so they render headless and in threads).

Every function returns a ``matplotlib.figure.Figure``; :func:`figure_png` renders one to PNG bytes that are
identical for identical input (no timestamp or software metadata).

- :func:`critical_difference_figure`: mean ranks with the groups the Nemenyi test cannot separate
  (scikit-posthocs' diagram, Demsar 2006 Fig. 1) and the critical difference.
- :func:`training_curves_figure`: per-round in-training curves of boosting models averaged over datasets:
  TPR and TNR (AdaCC Fig. 2), positive-class weight share, alpha and weighted error (AdaCC Fig. 3).
- :func:`roc_pr_figure`: ROC and precision-recall curves of every method on one split.
- :func:`cost_threshold_figure` and :func:`cost_recall_figure`: total cost and savings against the decision
  threshold, and against the share of positives caught (business datasets).
- :func:`candidates_figure`: holdout savings and F1 of the candidates of a retrain.
"""

from __future__ import annotations

import functools
import io
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib
import matplotlib.colors
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

from algorithms import METHODS
from algorithms.metrics import COST_COLUMNS, metric_label
from tasks.fitting.split_scores import cost_curve

if TYPE_CHECKING:
    from tasks.report.statistics import MethodComparison

__all__ = [
    "FIGURE_STYLE",
    "IN_TRAINING_PANELS",
    "WEIGHT_PANELS",
    "average_curves",
    "CHILD_FIGURE_DPI",
    "candidates_figure",
    "child_run_figure",
    "cost_recall_figure",
    "cost_threshold_figure",
    "critical_difference_figure",
    "figure_png",
    "METHOD_PALETTE",
    "method_color",
    "method_colors",
    "roc_pr_figure",
    "save_figure",
    "styled",
    "training_curves_figure",
]

#: Matplotlib settings of every report figure: readable type, light grid, no top/right frame.
FIGURE_STYLE = {
    "font.family": "DejaVu Sans",
    "font.size": 10.5,
    "axes.titlesize": 12,
    "axes.titleweight": "bold",
    "axes.labelsize": 10.5,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.7,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "#555555",
    "legend.frameon": False,
    "legend.fontsize": 9.5,
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "svg.hashsalt": "cslearn",
}

#: (trace name, panel title, y label) of AdaCC Fig. 2: in-training TPR and TNR of the partial ensemble.
IN_TRAINING_PANELS = (
    ("train_tpr", "In-training TPR", "TPR of the partial ensemble"),
    ("train_tnr", "In-training TNR", "TNR of the partial ensemble"),
)

#: AdaCC Fig. 3: positive-class weight share of D^{t+1}, the learner's alpha and its weighted error.
WEIGHT_PANELS = (
    ("positive_weight_share", "Weight on the positive class", "share of the weights"),
    ("alpha", "Learner weight alpha", "alpha"),
    ("weighted_error", "Weighted error", "weighted error of the learner"),
)


def styled(function):
    """Run a figure builder under :data:`FIGURE_STYLE` (fonts and grids are read when artists are made)."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(FIGURE_STYLE):
            return function(*args, **kwargs)

    return wrapper


def figure_png(figure: Figure, *, dpi: float | None = None, tight: bool = True) -> bytes:
    """The figure as PNG bytes, identical for identical figures (no date or software metadata).

    Rendered by matplotlib's Agg canvas (figures are made without pyplot, so no GUI backend and no global
    figure registry: a figure is freed with its last reference) at ``dpi`` (default 150), cropped to its
    content when ``tight`` (one more layout pass).
    """
    buffer = io.BytesIO()
    with matplotlib.rc_context(FIGURE_STYLE):
        figure.savefig(
            buffer,
            format="png",
            dpi=FIGURE_STYLE["savefig.dpi"] if dpi is None else dpi,
            metadata={"Software": None},
            bbox_inches="tight" if tight else None,
            facecolor="white",
        )
    return buffer.getvalue()


def save_figure(figure: Figure, path: Path) -> Path:
    """Save a figure in the format its file name says (``.png``, ``.svg``, ``.pdf``); returns the path.

    Raises
    ------
    ValueError
        For another file type.
    """
    path = Path(path)
    kind = path.suffix.lower().lstrip(".")
    if kind not in ("png", "svg", "pdf"):
        raise ValueError(f"cannot write a figure as {path.name!r}: use a .png, .svg or .pdf file name")
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "png":
        path.write_bytes(figure_png(figure))
        return path
    metadata = {"Date": None} if kind == "svg" else {"CreationDate": None}
    with matplotlib.rc_context(FIGURE_STYLE):
        figure.savefig(path, format=kind, metadata=metadata, bbox_inches="tight", facecolor="white")
    return path


#: The colours of methods, in the order of :data:`algorithms.METHODS` (:func:`method_color`): tab10's ten,
#: then thirty chosen one by one as far as possible (in CIELAB) from all before them, among the colours of
#: lightness 28-70 and chroma under 70 (readable on white, not neon), so that methods near each other in the
#: table, which figures often show together, get colours far apart.
METHOD_PALETTE = tuple(
    matplotlib.colors.to_rgba(colour)
    for colour in (
        *matplotlib.colormaps["tab10"].colors,
        "#445500", "#990044", "#aa7722", "#007755", "#ff8888", "#99aa66", "#2288ff", "#880077", "#554466",
        "#883300", "#005566", "#114499", "#cc99bb", "#00bb88", "#cc9977", "#ee4488", "#444433", "#668800",
        "#88aacc", "#994477", "#dd88ff", "#ee8855", "#006611", "#bb4444", "#664400", "#77aaff", "#77aa99",
        "#887744", "#8877aa", "#663399",
    )
)  # fmt: skip


def method_color(method: str) -> tuple:
    """The one colour of ``method`` in every figure (report, child runs, retrain charts): the colour of its
    position in :data:`algorithms.METHODS` (the method table), so it never depends on which other methods a
    figure shows; a key outside the table (a method registered at run time) gets one from its name's hash."""
    keys = list(METHODS)
    position = keys.index(method) if method in keys else len(keys) + zlib.crc32(method.encode())
    return METHOD_PALETTE[position % len(METHOD_PALETTE)]


def method_colors(methods: Sequence[str]) -> dict[str, tuple]:
    """:func:`method_color` of each method."""
    return {name: method_color(name) for name in dict.fromkeys(methods)}


def _grid(n_panels: int, *, columns: int, panel_size: tuple[float, float]):
    columns = max(1, min(columns, n_panels))
    rows = -(-n_panels // columns)
    figure = Figure(figsize=(panel_size[0] * columns, panel_size[1] * rows), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for extra in axes[n_panels:]:
        extra.set_visible(False)
    return figure, axes[:n_panels]


@styled
def critical_difference_figure(comparison: MethodComparison) -> Figure:
    """Critical-difference diagram: mean ranks (1 = best, on the left) and bars joining methods the Nemenyi
    test does not separate at ``alpha``; the critical difference is drawn above the axis.

    Raises
    ------
    ValueError
        When the comparison has no post-hoc test (fewer than 2 datasets or 3 methods).
    """
    if comparison.nemenyi is None:
        raise ValueError(
            "a critical-difference diagram needs the Friedman and Nemenyi tests (2+ datasets, 3+ methods)"
        )
    import scikit_posthocs  # here: the other figures (and `cslearn figure`) do without its import

    order = list(comparison.mean_ranks.index)
    n_methods = len(order)
    figure = Figure(figsize=(8.5, 1.6 + 0.32 * n_methods), layout="constrained")
    axis = figure.subplots()
    colors = method_colors(order)
    # The diagram groups labels in sets: integer labels keep its drawing order independent of string hashing
    # (PYTHONHASHSEED), so the same comparison always gives the same image; names replace them afterwards.
    codes = {name: code for code, name in enumerate(order)}
    artists = scikit_posthocs.critical_difference_diagram(
        comparison.mean_ranks.rename(index=codes),
        comparison.nemenyi.rename(index=codes, columns=codes),
        ax=axis,
        alpha=comparison.alpha,
        cd=comparison.critical_difference,
        label_fmt_left="{label}",
        label_fmt_right="{label}",
        color_palette={codes[name]: colors[name] for name in order},
        label_props={"fontsize": 10.5},
        crossbar_props={"linewidth": 3, "color": "#333333"},
    )
    for label in artists["labels"]:
        name = order[int(label.get_text())]
        rank = comparison.mean_ranks[name]
        left = label.get_horizontalalignment() == "right"
        label.set_text(f"{name} ({rank:.2f})" if left else f"({rank:.2f}) {name}")
    axis.set_xlim(0.6, n_methods + 0.4)
    axis.grid(False)
    friedman = comparison.friedman
    figure.suptitle(
        f"Mean ranks by {metric_label(comparison.metric)} over {friedman.n_datasets} datasets (1 = best); "
        f"bars join methods the Nemenyi test does not separate (alpha = {comparison.alpha:g})",
        fontsize=10.5,
    )
    return figure


def average_curves(
    curves: Mapping[tuple[str, str], Mapping[str, Sequence[float]]],
) -> dict[str, dict[str, np.ndarray]]:
    """Per-round curves averaged over datasets: ``{(dataset, method): {name: values}}`` ->
    ``{method: {name: mean per round}}``; shorter curves (early stops) count only for their rounds."""
    grouped: dict[str, dict[str, list]] = {}
    for (_, method), named in sorted(curves.items()):
        for name, values in named.items():
            grouped.setdefault(method, {}).setdefault(name, []).append(np.asarray(values, dtype=float))
    averaged = {}
    for method, named in grouped.items():
        averaged[method] = {}
        for name, series in named.items():
            padded = np.full((len(series), max(len(values) for values in series)), np.nan)
            for row, values in enumerate(series):
                padded[row, : len(values)] = values
            with np.errstate(invalid="ignore"):
                averaged[method][name] = np.nanmean(padded, axis=0)
    return averaged


@styled
def training_curves_figure(
    curves: Mapping[str, Mapping[str, np.ndarray]],
    panels: Sequence[tuple[str, str, str]],
    *,
    title: str,
) -> Figure:
    """One panel per ``(trace name, title, y label)``, one line per method, boosting round on the x axis.

    ``curves`` is ``{method: {trace name: values per round}}`` (see :func:`average_curves`); methods without a
    trace (non-boosting) are left out.
    """
    methods = sorted(
        method for method, named in curves.items() if any(name in named for name, _, _ in panels)
    )
    if not methods:
        raise ValueError(f"no method has any of the traces {[name for name, _, _ in panels]}")
    colors = method_colors(methods)
    figure, axes = _grid(len(panels), columns=3, panel_size=(4.6, 3.5))
    for axis, (name, panel_title, ylabel) in zip(axes, panels, strict=True):
        for method in methods:
            values = curves[method].get(name)
            if values is not None:
                axis.plot(
                    np.arange(1, len(values) + 1), values, color=colors[method], linewidth=1.6, label=method
                )
        axis.set_title(panel_title)
        axis.set_xlabel("boosting round t")
        axis.set_ylabel(ylabel)
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=min(len(methods), 6))
    figure.suptitle(title)
    return figure


def _split_rows(scores: pd.DataFrame, method: str) -> pd.DataFrame:
    return scores[scores["method"] == method]


@styled
def roc_pr_figure(scores: pd.DataFrame, *, title: str, methods: Sequence[str] | None = None) -> Figure:
    """ROC (with AUC) and precision-recall (with average precision) curves of ``methods`` (default: every
    method in ``scores``, sorted), in that order, each legend below its panel.

    ``scores`` holds one split of one dataset (columns ``method``, ``target``, ``score``).
    """
    present = set(scores["method"])
    methods = sorted(present) if methods is None else [name for name in methods if name in present]
    if not methods:
        raise ValueError("no curve to draw: none of the methods asked for has scores on this split")
    colors = method_colors(methods)
    figure = Figure(figsize=(11, 4.8), layout="constrained")
    roc_axis, pr_axis = figure.subplots(1, 2)
    for method in methods:
        rows = _split_rows(scores, method)
        target, score = rows["target"].to_numpy(), rows["score"].to_numpy()
        false_positive_rate, true_positive_rate, _ = roc_curve(target, score)
        roc_axis.plot(
            false_positive_rate,
            true_positive_rate,
            color=colors[method],
            linewidth=1.6,
            label=f"{method} (AUC {roc_auc_score(target, score):.3f})",
        )
        precision, recall, _ = precision_recall_curve(target, score)
        pr_axis.plot(
            recall,
            precision,
            color=colors[method],
            linewidth=1.6,
            drawstyle="steps-post",
            label=f"{method} (AP {average_precision_score(target, score):.3f})",
        )
    roc_axis.plot([0, 1], [0, 1], linestyle="--", color="#999999", linewidth=1, label="chance")
    prevalence = float(scores.loc[scores["method"] == methods[0], "target"].mean())
    pr_axis.axhline(
        prevalence, linestyle="--", color="#999999", linewidth=1, label=f"chance ({prevalence:.2f})"
    )
    roc_axis.set(
        title="ROC curve",
        xlabel="false positive rate (1 - TNR)",
        ylabel="true positive rate (TPR)",
        xlim=(0, 1),
    )
    pr_axis.set(title="Precision-recall curve", xlabel="recall (TPR)", ylabel="precision", xlim=(0, 1))
    for axis in (roc_axis, pr_axis):
        axis.set_ylim(0, 1.02)
        axis.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=2)
    figure.suptitle(title)
    return figure


def _costs(rows: pd.DataFrame) -> np.ndarray:
    return rows[list(COST_COLUMNS)].to_numpy(dtype=float)


def _money(value: float, _position=None) -> str:
    """Axis label of an amount: 950, 7.5k, 22k, 1.2M."""
    magnitude = abs(value)
    if magnitude >= 1e6:
        return f"{value / 1e6:.3g}M"
    if magnitude >= 1e3:
        return f"{value / 1e3:.3g}k"
    return f"{value:,.0f}"


def _savings_axis(axis, cost_base: float) -> None:
    """A right-hand axis that reads the same line as savings, ``1 - cost / Cost_l`` (CSDT Eq. 4)."""
    secondary = axis.secondary_yaxis(
        "right",
        functions=(lambda cost: 1 - cost / cost_base, lambda savings: cost_base * (1 - savings)),
    )
    secondary.set_ylabel("savings")
    secondary.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def _cost_label(unit: str | None) -> str:
    return "total cost on the test split" + (f" ({unit})" if unit else "")


def _no_model_line(axis, cost_base: float) -> None:
    """The cost without a model (the cheaper of flagging nothing or everything: savings 0), dotted."""
    axis.axhline(cost_base, color="#777777", linestyle=":", linewidth=1.1, label="cost without a model")


@styled
def cost_threshold_figure(
    scores: pd.DataFrame,
    *,
    title: str,
    operating_costs: Mapping[str, float] | None = None,
    unit: str | None = None,
) -> Figure:
    """Total cost (left axis, in ``unit``) and savings (right axis) of flagging the rows scored at or above
    each threshold, one panel per method, with the cheapest threshold marked, the cost of the model's own
    decisions and the cost without a model (dotted: savings 0).

    ``scores`` holds one split of one business dataset (``method``, ``target``, ``score``, the four costs);
    ``operating_costs`` maps a method to the total cost of its own predictions on that split.
    """
    methods = sorted(scores["method"].unique())
    colors = method_colors(methods)
    figure, axes = _grid(len(methods), columns=3, panel_size=(4.4, 3.4))
    for axis, method in zip(axes, methods, strict=True):
        rows = _split_rows(scores, method)
        curve = cost_curve(rows["target"], rows["score"], _costs(rows))
        finite = curve[np.isfinite(curve["threshold"])]
        axis.plot(
            finite["threshold"], finite["cost"], color=colors[method], linewidth=1.6, drawstyle="steps-pre"
        )
        cheapest = curve.loc[curve["cost"].idxmin()]
        if np.isfinite(cheapest["threshold"]):
            axis.plot(cheapest["threshold"], cheapest["cost"], "o", color="black", markersize=6)
            axis.annotate(
                f"min {_money(cheapest['cost'])}\nat {cheapest['threshold']:.3g}",
                (cheapest["threshold"], cheapest["cost"]),
                textcoords="offset points",
                xytext=(6, 8),
                fontsize=8.5,
            )
        if operating_costs and method in operating_costs:
            axis.axhline(operating_costs[method], color="#c0392b", linestyle="--", linewidth=1.2)
            axis.annotate(
                "model's decisions",
                (0.02, operating_costs[method]),
                xycoords=("axes fraction", "data"),
                textcoords="offset points",
                xytext=(0, 4),
                fontsize=8.5,
                color="#c0392b",
            )
        base = min(curve["cost"].iloc[0], curve["cost"].iloc[-1])  # flag nothing / everything
        if base > 0:
            _savings_axis(axis, float(base))
            axis.spines["right"].set_visible(True)
            _no_model_line(axis, float(base))
        axis.yaxis.set_major_formatter(FuncFormatter(_money))
        axis.set_title(method)
        axis.set_xlabel("threshold on the score (flag if score ≥ threshold)")
        axis.set_ylabel(_cost_label(unit))
    figure.suptitle(title)
    return figure


@styled
def cost_recall_figure(
    scores: pd.DataFrame,
    *,
    title: str,
    operating_points: Mapping[str, tuple[float, float]] | None = None,
    unit: str | None = None,
) -> Figure:
    """Total cost (in ``unit``) against the share of positives caught (TPR), one line per method: the price
    of catching more frauds (or defaults, or buyers). Diamonds mark each model's own decisions
    ``(tpr, cost)``; the dotted line is the cost without a model (savings 0)."""
    methods = sorted(scores["method"].unique())
    colors = method_colors(methods)
    figure = Figure(figsize=(9, 5.2), layout="constrained")
    axis = figure.subplots()
    base = None
    for method in methods:
        rows = _split_rows(scores, method)
        curve = cost_curve(rows["target"], rows["score"], _costs(rows))
        axis.plot(curve["tpr"], curve["cost"], color=colors[method], linewidth=1.6, label=method)
        cheapest = curve.loc[curve["cost"].idxmin()]
        axis.plot(cheapest["tpr"], cheapest["cost"], "o", color=colors[method], markersize=5)
        if operating_points and method in operating_points:
            recall, cost = operating_points[method]
            axis.plot(recall, cost, "D", color=colors[method], markersize=8, markeredgecolor="black")
        base = min(curve["cost"].iloc[0], curve["cost"].iloc[-1])
    if base:
        _savings_axis(axis, float(base))
        axis.spines["right"].set_visible(True)
        _no_model_line(axis, float(base))
    axis.plot([], [], "o", color="#555555", label="cheapest threshold")
    if operating_points:
        axis.plot([], [], "D", color="#555555", markeredgecolor="black", label="model's own decisions")
    axis.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axis.yaxis.set_major_formatter(FuncFormatter(_money))
    axis.set_xlabel("share of positives caught (recall, TPR)")
    axis.set_ylabel(_cost_label(unit))
    axis.set_xlim(0, 1)
    axis.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=4)
    axis.set_title(title)
    return figure


@styled
def candidates_figure(
    board: pd.DataFrame, *, title: str, champion: tuple[str, float] | None = None
) -> Figure:
    """Horizontal bars of the candidates' holdout savings and F1 (best by savings on top), each in its
    method's colour; ``champion`` = ``(label, savings)`` draws the champion the candidates competed against
    as a dashed reference line on the savings panel."""
    ordered = board.sort_values("savings", ascending=True, kind="stable")
    figure = Figure(figsize=(10, 1.6 + 0.45 * len(ordered)), layout="constrained")
    savings_axis, f1_axis = figure.subplots(1, 2, sharey=True)
    colors = method_colors(ordered["method"])
    bar_colors = [colors[method] for method in ordered["method"]]
    for axis, column, label in ((savings_axis, "savings", "savings"), (f1_axis, "f1", "F1")):
        values = ordered[column].to_numpy(dtype=float)
        axis.barh(ordered["method"], values, color=bar_colors)
        for position, value in enumerate(values):
            axis.annotate(
                f"{value:.3f}", (value, position), xytext=(4, 0), textcoords="offset points", va="center"
            )
        axis.set_xlabel(f"holdout {label}")
        axis.grid(axis="y", visible=False)
        reach = values if column != "savings" or champion is None else np.r_[values, champion[1]]
        axis.set_xlim(min(0.0, np.nanmin(reach) * 1.1), max(1.0, np.nanmax(reach)) * 1.12)
    if champion is not None:
        label, savings = champion
        savings_axis.axvline(savings, color="#222222", linestyle="--", linewidth=1.4)
        savings_axis.annotate(
            f"{label}: {savings:.3f}",
            (savings, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=9.5,
        )
    figure.suptitle(title)
    return figure


#: Resolution of a child run's figure: one small PNG per (dataset, method), legible where MLflow shows it.
CHILD_FIGURE_DPI = 100

#: Width of a child run's figure (inches at :data:`CHILD_FIGURE_DPI`): 660 pixels, the width of the MLflow
#: UI's artifact view, in which it is shown at its own size; its panels are laid out two per row.
_CHILD_WIDTH = 6.6
_CHILD_PANEL_HEIGHT = 2.3

#: (trace names and their legend labels, panel title) of a child run's per-round panels; the first trace is
#: drawn solid, the second dashed, both in the method's colour.
_CHILD_ROUND_PANELS = (
    ((("train_tpr", "TPR"), ("train_tnr", "TNR")), "in-training TPR and TNR"),
    ((("positive_weight_share", "weight on positives"), ("weighted_error", "weighted error")), "weights"),
)


def _child_panels(curves: Mapping[str, Sequence[float]], scores: pd.DataFrame | None) -> list[str]:
    panels = [title for traces, title in _CHILD_ROUND_PANELS if any(name in curves for name, _ in traces)]
    if scores is not None and not scores.empty and scores["target"].nunique() == 2:
        panels += ["ROC", "precision-recall"]
        if scores["C_FP"].notna().all():
            panels.append("total cost vs threshold")
    return panels


def _lean_axis(axis, title: str, xlabel: str) -> None:
    axis.set_title(title, fontsize=9.5)
    axis.set_xlabel(xlabel, fontsize=8.5, labelpad=1)
    axis.tick_params(labelsize=8, length=2.5, pad=1.5)
    axis.locator_params(nbins=4)


def child_run_figure(
    curves: Mapping[str, Sequence[float]],
    scores: pd.DataFrame | None,
    *,
    title: str,
    method: str | None = None,
) -> Figure | None:
    """The one figure of a (dataset, method) child run: only what describes that run, two panels per row.

    Panels, each when its data exists: the per-round in-training TPR and TNR of a boosting method (AdaCC
    Fig. 2) and its positive class's weight share and weighted error (Fig. 3) (``curves``: trace name ->
    mean per round; the first trace solid, the second dashed, named in a legend); ROC and precision-recall
    curves on the test split of repeat 0 / fold 0 (``scores``: ``target``, ``score`` and the four costs of
    that split); on a dataset with example-dependent costs, the total cost against the decision threshold
    (CSDT Eq. 2-3). Every line is in the method's colour (:func:`method_color`). ``None`` when there is
    nothing to draw (a failed run). 660 pixels wide with 8-point ticks at :data:`CHILD_FIGURE_DPI`, so it is
    legible where MLflow shows it; drawn with a fixed layout for speed: render it with
    ``figure_png(figure, dpi=CHILD_FIGURE_DPI, tight=False)``.
    """
    panels = _child_panels(curves, scores)
    if not panels:
        return None
    color = method_color(method) if method else METHOD_PALETTE[0]
    rows = -(-len(panels) // 2)
    height = _CHILD_PANEL_HEIGHT * rows + 0.45
    figure = Figure(figsize=(_CHILD_WIDTH, height), dpi=CHILD_FIGURE_DPI)
    axes = figure.subplots(rows, 2, squeeze=False).ravel()
    for extra in axes[len(panels) :]:
        extra.set_visible(False)
    by_panel = dict(zip(panels, axes, strict=False))
    labels = {panel: (panel, "boosting round") for panel in panels}  # panel -> (title, x label)
    for traces, panel in _CHILD_ROUND_PANELS:
        if panel in by_panel:
            for (name, label), style in zip(traces, ("-", "--"), strict=True):
                if name in curves:
                    values = np.asarray(curves[name], dtype=float)
                    x = np.arange(1, len(values) + 1)
                    by_panel[panel].plot(x, values, style, color=color, linewidth=1.4, label=label)
            by_panel[panel].legend(fontsize=8, loc="best", handlelength=1.8, borderaxespad=0.3)
    if "ROC" in by_panel:
        target, score = scores["target"].to_numpy(), scores["score"].to_numpy()
        false_positive_rate, true_positive_rate, _ = roc_curve(target, score)
        by_panel["ROC"].plot(false_positive_rate, true_positive_rate, color=color, linewidth=1.4)
        by_panel["ROC"].plot([0, 1], [0, 1], linestyle="--", color="#999999", linewidth=0.8)
        labels["ROC"] = (f"ROC, AUC {roc_auc_score(target, score):.3f}", "false positive rate")
        precision, recall, _ = precision_recall_curve(target, score)
        by_panel["precision-recall"].plot(
            recall, precision, color=color, linewidth=1.4, drawstyle="steps-post"
        )
        average_precision = average_precision_score(target, score)
        labels["precision-recall"] = (f"precision-recall, AP {average_precision:.3f}", "recall")
    if "total cost vs threshold" in by_panel:
        curve = cost_curve(scores["target"], scores["score"], _costs(scores))
        finite = curve[np.isfinite(curve["threshold"])]
        axis = by_panel["total cost vs threshold"]
        axis.plot(finite["threshold"], finite["cost"], color=color, linewidth=1.4, drawstyle="steps-pre")
        axis.yaxis.set_major_formatter(FuncFormatter(_money))
        labels["total cost vs threshold"] = ("total cost vs threshold", "threshold on the score")
    for panel, axis in by_panel.items():
        _lean_axis(axis, *labels[panel])
    figure.suptitle(title, fontsize=10.5, y=1 - 0.08 / height, verticalalignment="top")
    figure.subplots_adjust(  # in inches: 0.75 above the first row, 0.5 below the last, 0.8 between rows
        left=0.09, right=0.98, bottom=0.5 / height, top=1 - 0.75 / height, wspace=0.25, hspace=0.55
    )
    return figure
