"""``cslearn retrain DATASET``: run the ``retrain`` flow from the command line.

Options map onto ``schemas.flow_params.RetrainParams``; only the options given are passed, so its defaults
apply to the rest. The configuration is checked first against the snapshot of known names (a fraction of a
second, before Prefect is imported): a bad one is explained per option and exits with status 2. Progress
(candidates done / total, elapsed, ETA) goes to stderr through the flow's logger; the candidates table and the
registry decision (or, with ``--json``, the flow's summary including the MLflow parent run id) go to stdout.
Exit status 1 when Prefect is unavailable or the run failed (every candidate failed: one line names each
error), 130 when interrupted (the MLflow runs are marked KILLED).
"""

from __future__ import annotations

import argparse
import json
import sys

from flows.cli._common import json_safe, report_lines
from flows.cli._options import ListOption, add_parser, option_names
from flows.cli._run import RunStopped, run_flow

__all__ = ["format_candidates", "params_from_args", "register"]

DESCRIPTION = """\
Refit candidate methods on a dataset with example-dependent costs, score them by savings on a holdout
drawn from the data's fingerprint and the seed, and register the best in the MLflow model registry. The
alias 'champion' moves to it only when it beats the current champion on the same holdout; otherwise it
becomes the 'challenger'.

The dataset is one with example-dependent costs: a registered business dataset, whose cost model derives
each row's costs (credit scoring, direct marketing, card fraud: `cslearn datasets list` shows the cost model
of each), or your own file ingested with its cost columns (`cslearn datasets ingest FILE --target COLUMN
--cost-columns C_FP,C_FN,C_TP,C_TN`)."""

EXAMPLES = """\
  cslearn retrain credit-scoring
  cslearn retrain direct-marketing --candidates csdt,bmr-lr,adacc1 --max-rows 20000
  cslearn retrain my-claims --candidates csdt bmr-lr --json
"""


def format_candidates(outcome: dict) -> str:
    """The registry's verdict first (``outcome["verdict"]``, when the flow gave one), then a plain-text table
    of the candidates' holdout metrics (best first) and the registry decision in detail."""
    from tasks.report.text import candidates_table, plain_number

    metrics = outcome["metrics"]
    order = sorted(metrics, key=lambda method: -outcome["candidates"][method])
    lines = candidates_table({method: metrics[method] for method in order}, best=outcome["best"])
    previous = outcome["previous_champion_version"]
    verdict = f"{outcome['model_name']} v{outcome['version']} ({outcome['best']}) is now '{outcome['alias']}'"
    if not outcome.get("registered", True):
        verdict = f"{outcome['model_name']}: {outcome['reason']}"
    elif previous is None and outcome["alias"] == "champion":
        verdict += "; first champion of this model"
    elif previous is None:  # not promoted: the reason says why
        verdict += f": {outcome['reason']}"
    else:
        savings = plain_number(outcome["previous_champion_savings"], missing="-")
        verdict += f"; champion v{previous} scored {savings} on the same holdout"
    failures = [f"failed: {method}: {error}" for method, error in outcome.get("failed", {}).items()]
    warnings = [f"warning: {warning}" for warning in outcome.get("warnings", ())]
    headline = [f"Registry: {outcome['verdict']}", ""] if outcome.get("verdict") else []
    return "\n".join(
        [
            *headline,
            *lines,
            *failures,
            "",
            "* best by holdout savings",
            verdict,
            *warnings,
            f"MLflow parent run: {outcome['parent_run_id']}",
            *report_lines(outcome.get("report"), outcome["parent_run_id"]),
        ]
    )


def register(subparsers) -> None:
    """Add the ``retrain`` subcommand."""
    parser = add_parser(
        subparsers,
        "retrain",
        help="refit candidates on a business dataset and move the registry's champion only if beaten",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    parser.add_argument(
        "dataset", metavar="DATASET", help="a dataset with example-dependent costs (see above)"
    )
    parser.add_argument(
        "--candidates",
        action=ListOption,
        metavar="METHOD",
        help="method keys (default: csdt bmr-lr adacc1 adaboost)",
    )
    parser.add_argument(
        "--holdout-fraction", type=float, help="share of rows held out for scoring (default 0.3)"
    )
    parser.add_argument(
        "--holdout-window",
        help="a dataset with a time column: the most recent window held out, a share of its time range"
        " (0.2, 20%%) or a duration (6h, 30d); default: --holdout-fraction of the range",
    )
    parser.add_argument(
        "--promotion-confidence",
        type=float,
        help="confidence of the paired bootstrap that the new model beats the champion (default 0.95)",
    )
    parser.add_argument(
        "--max-rows", type=int, help="stratified row cap before splitting (default: all rows)"
    )
    parser.add_argument("--seed", type=int, help="root seed of the holdout and estimators (default 0)")
    parser.add_argument("--experiment", help="MLflow experiment (default cslearn-retrain)")
    parser.add_argument("--model-name", help="registered model name (default cslearn-DATASET)")
    parser.add_argument(
        "--tracking-uri",
        help="MLflow tracking URI (default $MLFLOW_TRACKING_URI or the store in $CSLEARN_HOME)",
    )
    parser.add_argument("--cache-dir", help="dataset cache folder (default $CSLEARN_CACHE or the user cache)")
    parser.add_argument(
        "--cost-selection",
        choices=("train", "none"),
        help="fixed-cost candidates choose C- by training savings ('train', the default) or keep theirs",
    )
    parser.add_argument("--json", action="store_true", help="print the summary and the parent run id as JSON")
    parser.set_defaults(handler=run, options=option_names(parser))


def params_from_args(args: argparse.Namespace) -> dict:
    """The raw configuration: the dataset and every option the user gave, as ``RetrainParams`` fields."""
    raw = {"dataset": args.dataset}
    for field in (
        "candidates",
        "holdout_fraction",
        "holdout_window",
        "promotion_confidence",
        "max_rows",
        "seed",
        "experiment",
        "model_name",
        "tracking_uri",
        "cache_dir",
        "cost_selection",
    ):
        value = getattr(args, field, None)
        if value is not None:
            raw[field] = value
    return raw


def run(args: argparse.Namespace) -> int:
    """Check, run the flow, print the outcome; exit status 2 on a bad configuration, 130 if interrupted."""
    from schemas.flow_params import RetrainParams

    try:
        outcome = run_flow(
            "retrain",
            RetrainParams,
            params_from_args(args),
            args.options,
            "flows.retrain:run_retrain",
            interrupted="the MLflow runs are marked KILLED",
        )
    except RunStopped as ended:
        return ended.status
    except Exception as error:
        from prefect.exceptions import FailedRun  # imported by then: the flow ran

        if not isinstance(error, FailedRun):
            raise
        print(f"cslearn retrain: {error}", file=sys.stderr)  # e.g. every candidate failed, each error named
        return 1
    if args.json:
        print(json.dumps(json_safe(outcome), indent=2))
    else:
        print(format_candidates(outcome))
    return 0
