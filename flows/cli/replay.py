"""``cslearn replay DATASET --period P``: run the ``replay`` flow from the command line.

Prints the verdict and the table of periods (savings of the champion, of the first champion never retrained
and of a model retrained every period; the retrain's decision; the drifted features), or with ``--json`` the
flow's outcome. Exit status 2 on a bad configuration (an unknown dataset, one without an order in time, a
period that does not fit its time column), 1 when the replay fails, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys

from flows.cli._common import json_safe
from flows.cli._options import ListOption, add_parser, option_names
from flows.cli._run import RunStopped, run_flow

__all__ = ["format_replay", "register"]

DESCRIPTION = """\
Replay a dataset's history period by period through the live loop, as the deployments would run it: the
first periods (the warm-up) train a champion; then each period's rows are scored by the champion of the
moment, their labels arrive, the source is refreshed, the champion is monitored (drift, realized savings)
and retrained out of time, promoted only when the paired bootstrap says it is beaten. Beside the champion,
each batch is decided by the first champion never retrained and by a model retrained every period. The
table, a figure and the report go to one MLflow run (experiment cslearn-replay).

A dataset with an order in time: card-fraud (its Time column, two days), direct-marketing (the calls in the
order they were made, May 2008 to November 2010, by their month: --period month), or your own dataset bound
to a source with a time column."""

EXAMPLES = """\
  cslearn replay card-fraud --period 1h
  cslearn replay direct-marketing --period month --json
  cslearn replay card-fraud --period 2h --candidates cslogit csdt --max-periods 5
"""

_FIELDS = (
    "period",
    "candidates",
    "warmup_share",
    "holdout_periods",
    "max_periods",
    "promotion_confidence",
    "bootstrap_resamples",
    "psi_threshold",
    "seed",
    "experiment",
    "tracking_uri",
    "cache_dir",
)


def register(subparsers) -> None:
    """Add the ``replay`` subcommand."""
    parser = add_parser(
        subparsers,
        "replay",
        help="feed a dataset's history period by period through score, monitor and retrain",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    parser.add_argument("dataset", metavar="DATASET", help="a dataset with costs and an order in time")
    parser.add_argument(
        "--period", required=True, help="one batch: 'month' or a duration (30min, 1h, 1d, 2w)"
    )
    parser.add_argument(
        "--candidates",
        action=ListOption,
        metavar="METHOD",
        help="methods every retrain fits (default: cslogit csdt bmr-lr)",
    )
    parser.add_argument(
        "--warmup-share",
        type=float,
        help="the first periods holding this share of the rows train the first champion (default 0.2)",
    )
    parser.add_argument(
        "--holdout-periods", type=int, help="newest periods each retrain holds out (default 3)"
    )
    parser.add_argument("--max-periods", type=int, help="replay at most this many periods after the warm-up")
    parser.add_argument(
        "--promotion-confidence",
        type=float,
        help="confidence of the paired bootstrap that a new model beats the champion (default 0.95)",
    )
    parser.add_argument("--bootstrap-resamples", type=int, help="resamples of that bootstrap (default 1000)")
    parser.add_argument("--psi-threshold", type=float, help="PSI from which a feature drifted (default 0.25)")
    parser.add_argument("--seed", type=int, help="root seed of the holdouts and estimators (default 0)")
    parser.add_argument("--experiment", help="MLflow experiment (default cslearn-replay)")
    parser.add_argument("--tracking-uri", help="MLflow tracking URI")
    parser.add_argument("--cache-dir", help="dataset cache folder")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.set_defaults(handler=run, options=option_names(parser))


def _savings(value) -> str:
    return "   n/a" if value is None else f"{value:6.3f}"


def format_replay(outcome: dict) -> str:
    """The verdict, then one line per period: savings of the three models, the retrain, the drift."""
    lines = [
        outcome["verdict"],
        "",
        f"{'period':<22} {'rows':>7} {'champion':<16} {'champ.':>6} {'never':>6} {'always':>6}  retrain"
        "  / drifted features",
    ]
    for row in outcome["table"]:
        retrain = "promoted" if row["promoted"] else "kept"
        champion = f"v{row['champion_version']} {row['champion_method']}"
        lines.append(
            f"{row['label']:<22} {row['rows']:>7,} {champion:<16}"
            f" {_savings(row['savings/champion'])} {_savings(row['savings/never retrained'])}"
            f" {_savings(row['savings/always retrained'])}  {retrain} (v{row['retrain_version']}"
            f" {row['retrain_best']}) / {', '.join(row['drifted_features']) or 'none'}"
        )
    lines.append(f"MLflow run: {outcome['run_id']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Check the dataset's order in time, run the flow, print the outcome."""
    from schemas.flow_params import ReplayParams

    raw = {"dataset": args.dataset}
    raw.update({field: getattr(args, field) for field in _FIELDS if getattr(args, field, None) is not None})
    try:
        outcome = run_flow(
            "replay",
            ReplayParams,
            raw,
            args.options,
            "flows.replay:run_replay",
            interrupted="the MLflow runs are marked KILLED",
            announce=_time_order_check(args.cache_dir),
        )
    except RunStopped as ended:
        return ended.status
    except (ValueError, RuntimeError) as error:
        print(f"cslearn replay: {error}", file=sys.stderr)
        return 1
    print(json.dumps(json_safe(outcome), indent=2) if args.json else format_replay(outcome))
    return 0


def _time_order_check(cache_dir: str | None):
    """Before any work: a dataset without an order in time, or a period that does not fit it, stops the
    command with status 2 (``RunStopped``), the reason printed."""

    def check(params) -> None:
        from tasks.replay.history import time_order_problem

        problem = time_order_problem(params.dataset, params.period, cache_dir=cache_dir)
        if problem is not None:
            print(f"cslearn replay: {problem}", file=sys.stderr)
            raise RunStopped(2)

    return check
