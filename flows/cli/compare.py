"""``cslearn compare``: run the ``compare`` flow from the command line.

Options map one-to-one onto ``schemas.flow_params.CompareParams``; only the options given are passed, so the
model's defaults (the papers' protocols) apply to the rest. The configuration is validated against the method
and dataset registries before anything runs: a bad one prints pydantic's error and exits with status 2.
Progress (cells done / total, elapsed, ETA) goes to stderr through the flow's logger; the summary table (or,
with ``--json``, the summary and the MLflow parent run id as JSON) goes to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys

from pydantic import ValidationError

from flows.cli._common import flow_output_guard, json_safe

__all__ = ["params_from_args", "register"]


def _comma_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def register(subparsers) -> None:
    """Add the ``compare`` subcommand."""
    parser = subparsers.add_parser(
        "compare",
        help="compare methods on datasets under a protocol, tracked in MLflow (resumable)",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--datasets", nargs="+", metavar="NAME", help="dataset keys (default: wisconsin)")
    parser.add_argument(
        "--methods", nargs="+", metavar="NAME", help="method keys (default: every registered one)"
    )
    parser.add_argument(
        "--protocol", help="cv (R x K folds), holdout (R x 50/50) or tvt (train/validation/test)"
    )
    parser.add_argument(
        "--repeats", type=int, metavar="R", help="repetitions (default: 10 cv, 100 holdout, 1 tvt)"
    )
    parser.add_argument("--folds", type=int, metavar="K", help="folds of the cv protocol (default 5)")
    parser.add_argument(
        "--n-estimators", metavar="T,T,...", help="ensemble sizes from one fit (default 25,50,100,200)"
    )
    parser.add_argument(
        "--cost-selection", help="C- selection of fixed-cost methods: train, inner-cv or none"
    )
    parser.add_argument("--seed", type=int, help="root seed (default 0)")
    parser.add_argument("--experiment", help="MLflow experiment (default cslearn-compare)")
    parser.add_argument(
        "--tracking-uri",
        help="MLflow tracking URI (default $MLFLOW_TRACKING_URI or the store in $CSLEARN_HOME)",
    )
    parser.add_argument("--dask-address", metavar="tcp://HOST:PORT", help="run cells on this Dask scheduler")
    parser.add_argument("--max-workers", type=int, help="threads of the local task runner (default 2)")
    parser.add_argument(
        "--cell-store", metavar="DIR", help="folder of resumable cell results (default $CSLEARN_HOME/cells)"
    )
    parser.add_argument("--json", action="store_true", help="print the summary and the parent run id as JSON")
    parser.set_defaults(handler=run)


def params_from_args(args: argparse.Namespace) -> dict:
    """The raw configuration: every option the user gave, as ``CompareParams`` field names."""
    raw = {}
    for field in (
        "datasets",
        "methods",
        "protocol",
        "repeats",
        "folds",
        "cost_selection",
        "seed",
        "experiment",
        "tracking_uri",
        "dask_address",
        "max_workers",
        "cell_store",
    ):
        value = getattr(args, field, None)
        if value is not None:
            raw[field] = value
    if args.n_estimators is not None:
        raw["n_estimators"] = _comma_list(args.n_estimators)
    return raw


def run(args: argparse.Namespace) -> int:
    """Validate, run the flow, print the summary; exit status 2 on a bad configuration, 130 if interrupted."""
    from flows.compare import run_compare
    from schemas.flow_params import CompareParams
    from tasks.configuration import validate_params
    from tasks.report import format_overall, format_summary

    try:
        params = validate_params(CompareParams, params_from_args(args))
    except ValidationError as error:
        print(f"cslearn compare: invalid configuration\n{error}", file=sys.stderr)
        return 2
    try:
        with flow_output_guard():
            outcome = run_compare(params)
    except KeyboardInterrupt:
        print(
            "cslearn compare: interrupted; the MLflow runs are marked KILLED and finished cells are kept "
            "(rerun the same command to resume)",
            file=sys.stderr,
        )
        return 130
    if args.json:
        document = {
            key: outcome[key]
            for key in (
                "parent_run_id",
                "experiment_id",
                "tracking_uri",
                "cells",
                "child_runs",
                "summary",
                "ranks",
                "friedman",
            )
        }
        print(json.dumps(json_safe(document), indent=2))
    else:
        print(format_summary(outcome["summary_table"]))
        print("\nAveraged over datasets (mean of the per-dataset fold means):")
        print(format_overall(outcome["overall_table"]))
        if outcome["ranks"]:
            print(
                "\nmean rank (opm, largest T):",
                {m: round(r, 2) for m, r in outcome["ranks"]["mean rank"].items()},
            )
        if outcome["friedman"]:
            friedman = outcome["friedman"]
            print(
                f"Friedman p = {friedman['p_value']:.3g}, Nemenyi CD = {friedman['critical_difference']:.2f}"
            )
        cells = outcome["cells"]
        print(
            f"\ncells: {cells['total']} total, {cells['resumed']} resumed, {cells['computed']} computed, "
            f"{cells['failed']} failed"
        )
        print(f"MLflow parent run {outcome['parent_run_id']} in {outcome['tracking_uri']}")
    if outcome["cells"]["failed"]:
        print(
            f"warning: {outcome['cells']['failed']} cell(s) failed; see the failed child runs",
            file=sys.stderr,
        )
    return 0
