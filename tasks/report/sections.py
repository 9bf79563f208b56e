"""The sections of a report page, each built from a run record or its summary (see :mod:`tasks.report.build`).

Comparison sections: the leaderboard, the statistical comparison (Friedman, Nemenyi, Bonferroni-Dunn and the
critical-difference diagram), ranks per dataset (AdaCC Table 8), results by ensemble size (AdaCC Table 6),
results per dataset (WOTBoost Table 3), costs and savings (CSDT Tables 7-8 and the cost curves), ROC and
precision-recall curves, the boosting traces (AdaCC Figs. 2-3) and the failed cells. Shared by every report:
the provenance section. Figures are rendered once through a :class:`FigureCollector`, which keeps their PNG.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence

import pandas as pd

from algorithms.metrics import COST_COLUMNS, VIEWS, metric_label
from tasks.fitting.split_scores import cost_curve
from tasks.report.figures import (
    IN_TRAINING_PANELS,
    WEIGHT_PANELS,
    average_curves,
    cost_recall_figure,
    cost_threshold_figure,
    critical_difference_figure,
    figure_png,
    roc_pr_figure,
    training_curves_figure,
)
from tasks.report.html import (
    Cell,
    FigureView,
    HtmlTable,
    Paragraphs,
    Section,
    best_marks,
    format_value,
    frame_table,
    metric_columns,
)
from tasks.report.source import RunRecord
from tasks.report.statistics import MethodComparison
from tasks.report.tables import (
    cost_table,
    per_dataset_table,
    rank_table,
    table_by_size,
)
from tasks.report.text import describe_comparison

__all__ = [
    "FigureCollector",
    "CURVES_AT_MOST",
    "by_size_section",
    "cost_unit_of",
    "curve_methods",
    "cost_section",
    "curves_section",
    "failures_section",
    "leaderboard_section",
    "money",
    "no_model_cost",
    "per_dataset_section",
    "provenance_section",
    "ranks_section",
    "started_text",
    "statistics_section",
    "training_section",
]


class FigureCollector:
    """Collects the figures of a report: each becomes a :class:`FigureView` and a named PNG."""

    def __init__(self):
        self.png: dict[str, bytes] = {}

    def add(self, name: str, title: str, build: Callable, caption: str = "") -> FigureView:
        png = figure_png(build())
        self.png[name] = png
        return FigureView(name=name, title=title, png=png, caption=caption)


def started_text(record: RunRecord) -> str:
    moment = datetime.datetime.fromtimestamp(record.start_time / 1000, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _slug(text: str) -> str:
    return "".join(character if character.isalnum() else "-" for character in text.lower()).strip("-")


def _key_value_table(id: str, caption: str, items, *, mono: bool = False) -> HtmlTable:
    body = [[Cell(str(key)), Cell(str(value), "wrap mono" if mono else "wrap")] for key, value in items]
    return HtmlTable(id=id, head=[[Cell("name"), Cell("value")]], body=body, caption=caption)


def provenance_section(record: RunRecord) -> Section:
    run = [
        ("MLflow run id", record.run_id),
        ("run name", record.run_name),
        ("experiment", record.experiment_name),
        ("started", started_text(record)),
        ("code commit (git)", record.commit or "unknown"),
        ("Prefect flow run id", record.tags.get("prefect.flow_run_id", "–")),
    ]
    fingerprints = [
        [Cell(name), Cell(fingerprint, "mono")] for name, fingerprint in record.fingerprints.items()
    ]
    return Section(
        id="configuration",
        title="Configuration and provenance",
        intro="Everything needed to reproduce the run: its parameters exactly as logged, the content hash "
        "of every dataset it read and the code commit.",
        blocks=[
            _key_value_table("run-details", "Run", run, mono=True),
            HtmlTable(
                id="fingerprints",
                head=[[Cell("dataset"), Cell("fingerprint (sha256 of the cached data)")]],
                body=fingerprints,
                caption="Dataset fingerprints",
            ),
            _key_value_table("parameters", "Parameters", record.params.items(), mono=True),
        ],
    )


def leaderboard_section(board: pd.DataFrame, comparison: MethodComparison, n_datasets: int) -> Section:
    shown = [name for name in VIEWS["leaderboard"] if name in board]
    frame = board.copy()
    frame.insert(0, "position", range(1, len(frame) + 1))
    table = frame_table(
        frame,
        id="leaderboard",
        columns={
            "position": "#",
            "method": "method",
            "mean_rank": "mean rank",
            "wins": "wins",
            **metric_columns(shown),
            "folds": "splits",
            "failed": "failed",
        },
        measures=["mean_rank", "wins", *shown],
        note=f"Ranked by the mean rank of {metric_label(comparison.metric)} over {n_datasets} "
        f"dataset{'s' * (n_datasets != 1)} (1 = best); wins count the datasets where a method is best or "
        "tied for best. Metric values are means over datasets of the means over splits, at each method's "
        "largest ensemble size T. Best in bold on green, second underlined.",
    )
    return Section(id="leaderboard-section", title="Leaderboard", blocks=[table])


def statistics_section(comparison: MethodComparison, figures: FigureCollector) -> Section:
    """The tests in words, then the post-hoc tests: when the Friedman test rejects equivalence, the
    critical-difference diagram and the Nemenyi and Bonferroni-Dunn tables with the significant cells shaded;
    otherwise only the tables, greyed and captioned as exploratory (no diagram: its bars would read as
    conclusions the Friedman test does not support)."""
    blocks: list = [Paragraphs(describe_comparison(comparison).splitlines(), css="verdict")]
    if comparison.nemenyi is not None:
        significant = comparison.significant
        if significant:
            blocks.append(
                figures.add(
                    "critical_difference",
                    "Critical-difference diagram",
                    lambda: critical_difference_figure(comparison),
                    caption="Mean ranks (1 = best). Thick bars join methods the Nemenyi test cannot "
                    f"tell apart at alpha = {comparison.alpha:g}; the bar above the axis is the critical "
                    f"difference CD = {comparison.critical_difference:.2f} (Demsar 2006).",
                )
            )
        exploratory = (
            ""
            if significant
            else f"Exploratory only: the Friedman test did not reject equivalence (p = "
            f"{comparison.friedman.p_value:.2g}), so no difference below is significant. "
        )
        css = "" if significant else "exploratory"
        order = list(comparison.mean_ranks.index)
        body = []
        for row in order:
            cells = [Cell(row)]
            for column in order:
                p_value = float(comparison.nemenyi.loc[row, column])
                flag = "num sig" if significant and row != column and p_value < comparison.alpha else "num"
                cells.append(Cell("–" if row == column else f"{p_value:.3f}", flag))
            body.append(cells)
        blocks.append(
            HtmlTable(
                id="nemenyi",
                head=[[Cell("Nemenyi p-values"), *(Cell(name, "num") for name in order)]],
                body=body,
                caption="Nemenyi test, all pairs" + ("" if significant else " (exploratory)"),
                note=exploratory
                + (
                    f"Shaded: the pair differs significantly at alpha = {comparison.alpha:g}."
                    if significant
                    else ""
                ),
                css=css,
            )
        )
        control_rank = comparison.mean_ranks[comparison.control]
        body = []
        for method, p_value in comparison.bonferroni_dunn.items():
            difference = comparison.mean_ranks[method] - control_rank
            differs = significant and p_value < comparison.alpha
            verdict = ("worse" if difference > 0 else "better") if differs else "not significantly different"
            body.append(
                [
                    Cell(method),
                    Cell(f"{comparison.mean_ranks[method]:.2f}", "num"),
                    Cell(f"{difference:+.2f}", "num"),
                    Cell(f"{p_value:.3f}", "num sig" if differs else "num"),
                    Cell(verdict),
                ]
            )
        blocks.append(
            HtmlTable(
                id="bonferroni-dunn",
                head=[
                    [
                        Cell("method"),
                        Cell("mean rank", "num"),
                        Cell("rank difference", "num"),
                        Cell("adjusted p", "num"),
                        Cell("against the control"),
                    ]
                ],
                body=body,
                caption=f"Bonferroni-Dunn test against the control {comparison.control} (mean rank "
                f"{control_rank:.2f})" + ("" if significant else " (exploratory)"),
                note=exploratory
                + f"p-values adjusted for {len(body)} comparisons (Bonferroni); critical difference "
                f"{comparison.critical_difference_control:.2f}.",
                css=css,
            )
        )
    return Section(
        id="statistics",
        title="Statistical comparison",
        intro="Friedman test of the per-dataset ranks, then the Nemenyi test for all pairs and the "
        "Bonferroni-Dunn test against a control (Demsar 2006; the AdaCC paper, Section 6.1).",
        blocks=blocks,
    )


def ranks_section(comparison: MethodComparison) -> Section:
    ranks = rank_table(comparison)
    methods = list(ranks.columns)
    body, row_css = [], []
    for dataset, row in ranks.iterrows():
        lower = dataset != "wins"
        marks = best_marks(row, lower_is_better=lower)
        name = "rank" if dataset != "wins" else "wins"
        body.append(
            [Cell(str(dataset))]
            + [Cell(format_value(name, row[m]), f"num {marks[m]}".strip()) for m in methods]
        )
        row_css.append("summary" if dataset == "mean rank" else "")
    table = HtmlTable(
        id="ranks",
        head=[[Cell("dataset"), *(Cell(method, "num") for method in methods)]],
        body=body,
        row_css=row_css,
        caption=f"Ranks by {metric_label(comparison.metric)} at the largest T (AdaCC Table 8 form)",
        note="Rank 1 = best; tied methods share the mean of their ranks; a method without a result on a "
        "dataset ranks last there. Wins: datasets where a method is best or tied for best.",
    )
    return Section(id="ranks-section", title="Ranks per dataset", blocks=[table])


def _size_marks(table6: pd.DataFrame, shown: list[str]) -> dict[str, pd.Series]:
    """Best / second per metric within each T; rows without T (not ensembles) compete in every T group."""
    no_size = table6["n_estimators"].isna()
    sizes = sorted(table6.loc[~no_size, "n_estimators"].unique()) or [None]
    marks = {name: pd.Series("", index=table6.index, dtype=object) for name in shown}
    for size in sizes:
        group = table6[no_size | (table6["n_estimators"] == size)]
        for name in shown:
            for index, mark in best_marks(group[name], lower_is_better=False).items():
                if mark and marks[name][index] != "best":
                    marks[name][index] = mark
    return marks


def by_size_section(summary: pd.DataFrame) -> Section:
    table6 = table_by_size(summary)
    shown = [name for name in VIEWS["adacc_sizes"] if name in table6]
    table = frame_table(
        table6,
        id="by-size-table",
        columns={"method": "method", "n_estimators": "T", **metric_columns(shown)},
        measures=shown,
        marks=_size_marks(table6, shown),
        group_by="method",
    )
    return Section(
        id="by-size",
        title="Results by ensemble size",
        intro="AdaCC Table 6 form: per method and ensemble size T, each metric's mean over datasets of the "
        "means over splits, ± the mean over datasets of the standard deviations over splits. Best per T in "
        "bold, second underlined; methods that are not ensembles (T –) compete at every T.",
        blocks=[table],
    )


def per_dataset_section(summary: pd.DataFrame) -> Section:
    table3 = per_dataset_table(summary)
    shown = [name for name in VIEWS["wotboost_datasets"] if f"{name}_mean" in table3]
    frame = table3.rename(columns={f"{name}_mean": name for name in shown})
    table = frame_table(
        frame,
        id="per-dataset",
        columns={"dataset": "dataset", "method": "method", **metric_columns(shown), "folds": "splits"},
        measures=shown,
        group_by="dataset",
        marks_within="dataset",
        note="Mean ± standard deviation over the splits at each method's largest T; best per dataset in "
        "bold.",
    )
    return Section(
        id="per-dataset-section",
        title="Results per dataset",
        intro="WOTBoost Table 3 form: G-mean, AUC, F1, TPR (sensitivity) and TNR (specificity) per dataset "
        "and method.",
        blocks=[table],
    )


def cost_unit_of(record: RunRecord, dataset: str) -> str:
    """The unit of ``dataset``'s costs as the run recorded it (tag ``dataset.<name>.cost_unit``, or a
    retrain's ``cslearn.cost_unit``); "cost units" for a run logged before units were recorded."""
    return (
        record.tags.get(f"dataset.{dataset}.cost_unit")
        or record.tags.get("cslearn.cost_unit")
        or "cost units"
    )


def money(value: float, unit: str) -> str:
    """An amount with its unit: ``12,345 EUR``."""
    return f"{format_value('cost', value)} {unit}"


def no_model_cost(rows: pd.DataFrame) -> float:
    """The cost without a model on one split: the cheaper of flagging no case or every case (CSDT Eq. 4's
    ``Cost_l``; ``rows`` one method's ``target`` and four costs, any method: they share the split)."""
    first = rows[rows["method"] == rows["method"].iloc[0]]
    curve = cost_curve(first["target"], first["score"], first[list(COST_COLUMNS)].to_numpy(dtype=float))
    return float(min(curve["cost"].iloc[0], curve["cost"].iloc[-1]))


def _operating_points(results: pd.DataFrame, dataset: str) -> dict[str, tuple[float, float]]:
    """(tpr, cost) of each method's own predictions on split repeat 0 / fold 0 at its largest T."""
    rows = results[
        (results["dataset"] == dataset)
        & (results["repeat"] == 0)
        & (results["fold"] == 0)
        & (results["status"] == "ok")
    ]
    points = {}
    for method, group in rows.groupby("method"):
        final = group.assign(_size=group["n_estimators"].fillna(-1).astype(int)).sort_values("_size").iloc[-1]
        if "cost" in final and pd.notna(final["cost"]):
            points[method] = (float(final["tpr"]), float(final["cost"]))
    return points


def cost_section(summary: pd.DataFrame, record: RunRecord, figures: FigureCollector) -> Section | None:
    table = cost_table(summary)
    if table.empty:
        return None
    measures = [name for name in VIEWS["csdt_costs"] if name in table.columns.get_level_values("measure")]
    datasets = list(dict.fromkeys(table.columns.get_level_values("dataset")))
    head = [
        [Cell("")] + [Cell(dataset, "group", colspan=len(measures)) for dataset in datasets],
        [Cell("method")] + [Cell(metric_label(name), "num") for _ in datasets for name in measures],
    ]
    marks = {
        column: best_marks(table[column], lower_is_better=column[1] in ("tree_nodes", "fit_seconds"))
        for column in table.columns
    }
    body = [
        [Cell(method)]
        + [
            Cell(format_value(column[1], row[column]), f"num {marks[column][method]}".strip())
            for column in table.columns
        ]
        for method, row in table.iterrows()
    ]
    blocks: list = [
        HtmlTable(
            id="cost-table",
            head=head,
            body=body,
            caption="Savings, accuracy, F1, tree size and fit time (CSDT Tables 7-8 form)",
            note="Means over the splits at the largest T. Savings = (Cost_l - Cost) / Cost_l, Cost_l the "
            "cheaper of flagging nothing or everything (CSDT Eq. 4). Tree size in nodes, for tree methods "
            "only.",
        )
    ]
    scores = record.split_scores
    baselines = []
    for dataset in datasets:
        if scores is None or scores.empty:
            continue
        rows = scores[(scores["dataset"] == dataset) & scores["C_FP"].notna()]
        if rows.empty:
            continue
        unit = cost_unit_of(record, dataset)
        baselines.append(f"{dataset} {money(no_model_cost(rows), unit)}")
        points = _operating_points(record.results, dataset)
        blocks.append(
            figures.add(
                f"cost_threshold_{_slug(dataset)}",
                f"{dataset}: total cost and savings against the decision threshold",
                lambda rows=rows, points=points, dataset=dataset, unit=unit: cost_threshold_figure(
                    rows,
                    title=f"{dataset}: cost of flagging every case scored at or above the threshold",
                    operating_costs={method: cost for method, (_, cost) in points.items()},
                    unit=unit,
                ),
                caption=f"Test split of repeat 0, fold 0. Left axis: total cost in {unit}; right axis: the "
                "same line read as savings. The dot is the cheapest threshold; the dashed red line is the "
                "cost of the model's own decisions (its default threshold, or per-case Bayes minimum risk); "
                "the dotted grey line is the cost without a model (savings 0).",
            )
        )
        blocks.append(
            figures.add(
                f"cost_recall_{_slug(dataset)}",
                f"{dataset}: cost of catching more positives",
                lambda rows=rows, points=points, dataset=dataset, unit=unit: cost_recall_figure(
                    rows,
                    title=f"{dataset}: total cost against the share of positives caught",
                    operating_points=points,
                    unit=unit,
                ),
                caption="Each line sweeps a method's threshold from flagging nothing (left) to flagging "
                "everything (right). Read across: how much catching a given share of the positives costs "
                "with each method. Diamonds: the models' own decisions; dots: each method's cheapest "
                "threshold.",
            )
        )
    baseline = (
        f" Cost without a model (the cheaper of flagging no case or every case, on the test split of repeat "
        f"0, fold 0): {'; '.join(baselines)}; savings = 1 - cost / that."
        if baselines
        else ""
    )
    return Section(
        id="costs",
        title="Costs and savings (business datasets)",
        intro="Example-dependent costs [C_FP, C_FN, C_TP, C_TN] from each dataset's cost model, fit on the "
        f"training rows only.{baseline}",
        blocks=blocks,
    )


#: Most methods a ROC / precision-recall figure draws; beyond it, the leaders and the control.
CURVES_AT_MOST = 7
#: Leaders drawn when a figure cannot draw every method.
CURVE_LEADERS = 5


def curve_methods(ranking: Sequence[str], control: str | None = None) -> list[str]:
    """The methods a ROC / precision-recall figure draws: every one of ``ranking`` (best first) when there
    are at most :data:`CURVES_AT_MOST`, else the :data:`CURVE_LEADERS` best and the ``control``."""
    ranking = list(ranking)
    if len(ranking) <= CURVES_AT_MOST:
        return ranking
    shown = ranking[:CURVE_LEADERS]
    if control is not None and control not in shown:
        shown.append(control)
    return shown


def curves_section(
    record: RunRecord,
    figures: FigureCollector,
    *,
    ranking: Sequence[str] | None = None,
    control: str | None = None,
    ranked_by: str = "mean rank",
) -> Section | None:
    """ROC and precision-recall curves of one split per dataset: every method when there are few, else the
    leaders of ``ranking`` (best first) and the ``control`` (:func:`curve_methods`), named in the caption."""
    scores = record.split_scores
    if scores is None or scores.empty:
        return None
    present = sorted(scores["method"].unique())
    ranking = [name for name in (ranking or present) if name in present]
    shown = curve_methods(ranking, control)
    caption = (
        "Curves from each method's decision scores on one test split (the largest T for ensembles). AUC: "
        "area under the ROC curve; AP: average precision."
    )
    if len(shown) < len(ranking):
        leaders = ", ".join(shown[:CURVE_LEADERS])
        rest = len(ranking) - len(shown)
        named = (
            f" and the control {control}" if control is not None and control in shown[CURVE_LEADERS:] else ""
        )
        caption += (
            f" Drawn: the {CURVE_LEADERS} best by {ranked_by} ({leaders}){named}; the other {rest} "
            "methods' curves are in the figure of their MLflow child runs."
        )
    blocks = []
    for dataset in sorted(scores["dataset"].unique()):
        rows = scores[scores["dataset"] == dataset]
        if rows["target"].nunique() < 2:
            continue
        blocks.append(
            figures.add(
                f"roc_pr_{_slug(dataset)}",
                f"{dataset}: ROC and precision-recall curves",
                lambda rows=rows, dataset=dataset: roc_pr_figure(
                    rows, title=f"{dataset}: test split of repeat 0, fold 0", methods=shown
                ),
                caption=caption,
            )
        )
    if not blocks:
        return None
    return Section(id="curves", title="ROC and precision-recall curves", blocks=blocks)


def training_section(record: RunRecord, figures: FigureCollector) -> Section | None:
    curves = {
        (child.dataset, child.method): child.curves
        for child in record.children
        if child.curves and child.dataset and child.method
    }
    if not curves:
        return None
    averaged = average_curves(curves)
    n_datasets = len({dataset for dataset, _ in curves})
    blocks = []
    for name, title, panels, caption in (
        (
            "in_training_rates",
            "In-training TPR and TNR per boosting round",
            IN_TRAINING_PANELS,
            "AdaCC Fig. 2 form: TPR and TNR of the partial ensemble H_1:t on its training rows after each "
            "round.",
        ),
        (
            "weights_alpha_error",
            "Positive-class weight, alpha and weighted error per round",
            WEIGHT_PANELS,
            "AdaCC Fig. 3 form: the share of the weight distribution D^(t+1) on the positive class, the "
            "learner weight alpha_t and the learner's weighted error on D^t.",
        ),
    ):
        if not any(key in named for named in averaged.values() for key, _, _ in panels):
            continue
        blocks.append(
            figures.add(
                name,
                title,
                lambda panels=panels, title=title: training_curves_figure(
                    averaged, panels, title=f"{title} (mean over folds and {n_datasets} datasets)"
                ),
                caption=caption,
            )
        )
    if not blocks:
        return None
    return Section(
        id="training",
        title="Inside the boosting loop",
        intro="Per-round traces of the boosting methods, averaged over folds (in each child run) and over "
        "datasets; read from the child runs' round/* metric histories.",
        blocks=blocks,
    )


def failures_section(results: pd.DataFrame) -> Section | None:
    failed = results[results["status"] != "ok"].drop_duplicates(["dataset", "method", "repeat", "fold"])
    if failed.empty:
        return None
    table = frame_table(
        failed.reset_index(drop=True),
        id="failed-cells",
        columns={
            "dataset": "dataset",
            "method": "method",
            "repeat": "repeat",
            "fold": "fold",
            "error": "error",
        },
    )
    table.body[:] = [row[:-1] + [Cell(row[-1].text, "wrap mono")] for row in table.body]
    return Section(
        id="failures",
        title=f"Failed cells ({len(failed)})",
        intro="These (dataset, method, split) cells raised an error; they add no metric values. Rerunning "
        "the same command retries them.",
        blocks=[table],
    )
