"""Turn finished ``cslearn compare`` runs into the papers' tables, as markdown (for ``docs/results/``).

    python scripts/results_markdown.py RUN_ID[=LABEL] [RUN_ID[=LABEL] ...] --tables size,cumulative,ranks
        [--metric balanced_accuracy] [--tracking-uri URI] [--percent]
    python scripts/results_markdown.py --cells DIR --protocol cv --n-estimators 25,50,100 --tables ...

Each run is read back from MLflow (``tasks.report.load_run``: the parent run's per-cell results artifact);
with ``=LABEL`` its methods are renamed ``LABEL`` with ``{method}`` replaced by the method key (a label
without ``{method}`` gives ``method (LABEL)``), so several runs (e.g. one per CSDT training set or pruning
variant) join into one table. With ``--cells DIR`` the cells are read from a cell store instead (every
finished cell of the given protocol and ensemble sizes, on the default training set, optionally only
``--datasets`` and ``--methods``): the tables of a comparison stopped before its end, from its finished cells.
Tables (all from ``tasks.report``):

- ``size``: AdaCC Table 6/7 form, per (method, T) the mean over datasets of the fold means ± the mean of the
  fold standard deviations (``table_by_size``);
- ``cumulative``: AdaCC Table 7's comparison, AdaCC vs AdaN-CC per T with relative decrease, wins and the
  Wilcoxon test (``cumulative_table``);
- ``ranks``: AdaCC Table 8, per-dataset ranks of ``--metric`` at the largest T (or at ``--rank-size T``, the
  paper's appendix Tables 11-13; methods without staged sizes keep their one model), mean rank and wins,
  then the Friedman and post-hoc tests in words (``rank_table``, ``describe_comparison``);
- ``per-dataset``: WOTBoost Table 3, per dataset and method G-mean, AUC, F1, TPR, TNR mean ± std
  (``per_dataset_table``);
- ``average``: the mean over datasets of each ``per-dataset`` metric at the largest T, per method;
- ``cost``: CSDT Tables 7-9, per business dataset and method savings, accuracy, F1, tree size, fit time
  (``cost_table``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from algorithms.metrics import VIEWS  # noqa: E402
from tasks.report import (  # noqa: E402
    CELL_MEASURES,
    compare_methods,
    cost_table,
    cumulative_table,
    describe_comparison,
    load_run,
    per_dataset_table,
    rank_table,
    results_frame,
    summarize,
    table_by_size,
)

TABLES = ("size", "cumulative", "ranks", "per-dataset", "average", "cost")


def markdown(header: list[str], rows: list[list[str]]) -> str:
    """A markdown table; the first column left-aligned, the others right-aligned."""
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def number(value, digits: int = 3, scale: float = 1.0) -> str:
    return "–" if pd.isna(value) else f"{value * scale:.{digits}f}"


def combined_results(runs: list[str], tracking_uri: str | None) -> pd.DataFrame:
    """The per-cell results of every run, methods renamed by the ``LABEL`` of ``RUN_ID=LABEL``."""
    frames = []
    for argument in runs:
        run_id, _, label = argument.partition("=")
        record = load_run(run_id, tracking_uri)
        if record.results is None:
            raise SystemExit(f"run {run_id} has no results artifact (is it a finished compare run?)")
        frame = record.results.copy()
        if label:
            template = label if "{method}" in label else "{method} (" + label + ")"
            frame["method"] = [template.format(method=method) for method in frame["method"]]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def stored_results(root: str, protocol: str, sizes: str, datasets: str | None, methods: str | None):
    """The finished cells of a cell store matching the protocol and ensemble sizes, as a results frame."""
    wanted_sizes = [int(size) for size in sizes.split(",")]
    records = []
    for path in sorted(Path(root).glob("*/*.json")):
        record = json.loads(path.read_text())
        if (
            record.get("protocol") == protocol
            and record.get("n_estimators") == wanted_sizes
            and record.get("training_set", "train") == "train"
            and (datasets is None or record["dataset"] in datasets.split(","))
            and (methods is None or record["method"] in methods.split(","))
        ):
            records.append(record)
    if not records:
        raise SystemExit(f"no finished cell of protocol {protocol!r} and sizes {wanted_sizes} in {root}")
    return results_frame(records)


def size_markdown(summary: pd.DataFrame, scale: float) -> str:
    table = table_by_size(summary, VIEWS["adacc_sizes"])
    shown = [name for name in VIEWS["adacc_sizes"] if name in table]
    digits = 2 if scale == 100 else 3
    rows = [
        [
            record["method"],
            "–" if pd.isna(record["n_estimators"]) else str(int(record["n_estimators"])),
            str(int(record["datasets"])),
            *(
                f"{number(record[name], digits, scale)} ± {number(record[f'{name}_std'], digits, scale)}"
                for name in shown
            ),
        ]
        for record in table.to_dict(orient="records")
    ]
    return markdown(["method", "T", "datasets", *shown], rows)


def cumulative_markdown(summary: pd.DataFrame, scale: float) -> str:
    table = cumulative_table(summary)
    digits = 2 if scale == 100 else 3
    rows = [
        [
            f"{record['cumulative']} vs {record['non_cumulative']}",
            str(int(record["n_estimators"])),
            record["metric"],
            str(record["datasets"]),
            number(record["cumulative_mean"], digits, scale),
            number(record["non_cumulative_mean"], digits, scale),
            f"{number(record['relative_decrease'], 1, 100)} %",
            f"{record['cumulative_wins']}–{record['non_cumulative_wins']}",
            number(record["wilcoxon_p"], 4),
        ]
        for record in table.to_dict(orient="records")
    ]
    header = [
        "pair",
        "T",
        "metric",
        "datasets",
        "cumulative",
        "non-cumulative",
        "relative decrease",
        "wins (cum.–non-cum.)",
        "Wilcoxon p",
    ]
    return markdown(header, rows)


def ranks_markdown(summary: pd.DataFrame, metric: str, size: int | None = None) -> str:
    comparison = compare_methods(at_size(summary, size), metric)
    table = rank_table(comparison)
    rows = [
        [str(dataset), *(number(value, 2) if dataset != "wins" else str(int(value)) for value in values)]
        for dataset, values in zip(table.index, table.to_numpy(), strict=True)
    ]
    words = describe_comparison(comparison)
    if size is not None:  # the summary holds this size only
        words = words.replace("(largest T)", f"(T = {size})", 1)
    return markdown(["dataset", *table.columns], rows) + "\n\n" + words


def at_size(summary: pd.DataFrame, size: int | None) -> pd.DataFrame:
    """The summary rows of ensemble size ``size`` and of the methods without sizes (all rows for ``None``)."""
    if size is None:
        return summary
    return summary[summary["n_estimators"].isna() | (summary["n_estimators"] == size)]


def per_dataset_markdown(summary: pd.DataFrame) -> str:
    table = per_dataset_table(summary)
    shown = [name for name in VIEWS["wotboost_datasets"] if f"{name}_mean" in table]
    rows = [
        [
            record["dataset"],
            record["method"],
            str(int(record["folds"])),
            *(f"{number(record[f'{name}_mean'], 2)} ± {number(record[f'{name}_std'], 2)}" for name in shown),
        ]
        for record in table.to_dict(orient="records")
    ]
    return markdown(["dataset", "method", "splits", *shown], rows)


def average_markdown(summary: pd.DataFrame) -> str:
    table = per_dataset_table(summary)
    shown = [name for name in VIEWS["wotboost_datasets"] if f"{name}_mean" in table]
    means = table.groupby("method")[[f"{name}_mean" for name in shown]].mean()
    rows = [[method, *(number(value, 3) for value in values)] for method, values in means.iterrows()]
    return markdown(["method (mean over datasets)", *shown], rows)


def cost_markdown(summary: pd.DataFrame) -> str:
    table = cost_table(summary)
    if table.empty:
        return "(no dataset with example-dependent costs)"
    digits = {"savings": 3, "accuracy": 3, "f1": 3, "tree_nodes": 0, "fit_seconds": 2}
    header = ["method", *(f"{dataset} {measure}" for dataset, measure in table.columns)]
    rows = [
        [method, *(number(value, digits.get(measure, 3)) for (_, measure), value in values.items())]
        for method, values in table.iterrows()
    ]
    return markdown(header, rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", metavar="RUN_ID[=LABEL]", help="MLflow parent run ids of compare")
    parser.add_argument("--cells", metavar="DIR", help="read the cells of this cell store instead of runs")
    parser.add_argument("--protocol", default="cv", help="with --cells: the protocol of the cells")
    parser.add_argument("--n-estimators", default="25,50,100,200", help="with --cells: their ensemble sizes")
    parser.add_argument("--datasets", help="with --cells: comma-separated datasets (default: all)")
    parser.add_argument("--methods", help="with --cells: comma-separated methods (default: all)")
    parser.add_argument("--tables", default="size,ranks", help=f"comma-separated, of {', '.join(TABLES)}")
    parser.add_argument("--metric", default="balanced_accuracy", help="metric of the rank table")
    parser.add_argument(
        "--rank-methods", help="comma-separated methods the rank table compares (default: all of the runs)"
    )
    parser.add_argument(
        "--rank-size", type=int, help="ensemble size T the rank table compares at (default: the largest)"
    )
    parser.add_argument("--tracking-uri", help="MLflow tracking URI (default: cslearn's)")
    parser.add_argument("--percent", action="store_true", help="metrics in percent, as AdaCC Tables 6-7")
    args = parser.parse_args(argv)
    tables = args.tables.split(",")
    unknown = sorted(set(tables) - set(TABLES))
    if unknown:
        parser.error(f"unknown tables {unknown}; choose from {list(TABLES)}")
    if bool(args.runs) == bool(args.cells):
        parser.error("give either run ids or --cells DIR")
    frame = (
        stored_results(args.cells, args.protocol, args.n_estimators, args.datasets, args.methods)
        if args.cells
        else combined_results(args.runs, args.tracking_uri)
    )
    summary = summarize(frame, measures=CELL_MEASURES)
    scale = 100.0 if args.percent else 1.0
    ranked = summary[summary["method"].isin(args.rank_methods.split(","))] if args.rank_methods else summary
    builders = {
        "size": lambda: size_markdown(summary, scale),
        "cumulative": lambda: cumulative_markdown(summary, scale),
        "ranks": lambda: ranks_markdown(ranked, args.metric, args.rank_size),
        "per-dataset": lambda: per_dataset_markdown(summary),
        "average": lambda: average_markdown(summary),
        "cost": lambda: cost_markdown(summary),
    }
    print("\n\n".join(builders[name]() for name in tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
