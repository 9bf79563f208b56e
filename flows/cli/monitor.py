"""``cslearn monitor DATASET [--input SOURCE]``: run the ``monitor`` flow from the command line.

Prints the drifted features, the prediction drift and the realized savings, or with ``--json`` the flow's
outcome (``drifted_features``, ``realized_savings``, ``drift``, ``retrain``, ...). Exit status 0 whatever the
drift (it is a finding, not a failure), 1 when the batch or the model cannot be read, 2 on a bad
configuration.
"""

from __future__ import annotations

import argparse
import json
import sys

from flows.cli._common import json_safe
from flows.cli._options import add_parser, option_names
from flows.cli._run import RunStopped, run_flow

__all__ = ["register"]

DESCRIPTION = """\
Compare a batch with the champion's training rows: the population stability index of every feature (bands
0.1 and 0.25) with a two-sample Kolmogorov-Smirnov test for numeric columns, the flagged share and mean
probability, and, once labels have arrived, the champion's realized savings. Without --input the batch is
the dataset's newest accepted batch. Results go to MLflow as a series (step = period), with a figure and a
Prefect artifact; past a threshold the dataset's retrain deployment is started."""

EXAMPLES = """\
  cslearn monitor fraud
  cslearn monitor fraud --input 'incoming/*.parquet' --json
  cslearn monitor loans --psi-threshold 0.1 --no-trigger
"""


def register(subparsers) -> None:
    """Add the ``monitor`` subcommand."""
    parser = add_parser(
        subparsers,
        "monitor",
        help="drift and realized savings of the champion on a batch",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    parser.add_argument("dataset", metavar="DATASET")
    parser.add_argument("--input", help="file, glob (its newest file) or database URL of the batch")
    parser.add_argument("--input-table", help="table of a database input")
    parser.add_argument("--input-query", help="SELECT query of a database input")
    parser.add_argument(
        "--model", dest="model_uri", help="model URI (default models:/cslearn-DATASET@champion)"
    )
    parser.add_argument("--psi-threshold", type=float, help="PSI from which a feature drifted (default 0.25)")
    parser.add_argument(
        "--drifted-features-to-retrain", type=int, help="drifted features that start a retrain (default 1)"
    )
    parser.add_argument(
        "--savings-drop-to-retrain", type=float, help="savings drop that starts a retrain (default 0.1)"
    )
    parser.add_argument(
        "--retrain-deployment", help="deployment to start (default refresh-and-retrain/refresh-retrain)"
    )
    parser.add_argument(
        "--no-trigger",
        dest="trigger_retrain",
        action="store_false",
        default=None,
        help="never start a retrain",
    )
    parser.add_argument("--experiment", help="MLflow experiment (default cslearn-monitor)")
    parser.add_argument("--tracking-uri", help="MLflow tracking URI")
    parser.add_argument("--cache-dir", help="dataset cache folder")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.set_defaults(handler=run, options=option_names(parser))


_FIELDS = (
    "input",
    "input_table",
    "input_query",
    "model_uri",
    "psi_threshold",
    "drifted_features_to_retrain",
    "savings_drop_to_retrain",
    "retrain_deployment",
    "trigger_retrain",
    "experiment",
    "tracking_uri",
    "cache_dir",
)


def _savings(value) -> str:
    return "not known (no labels)" if value is None else f"{value:.4f}"


def run(args: argparse.Namespace) -> int:
    """Check, run the flow, print the outcome."""
    from schemas.flow_params import MonitorParams

    raw = {"dataset": args.dataset}
    raw.update({field: getattr(args, field) for field in _FIELDS if getattr(args, field, None) is not None})
    try:
        outcome = run_flow(
            "monitor",
            MonitorParams,
            raw,
            args.options,
            "flows.monitor:run_monitor",
            interrupted="nothing logged",
        )
    except RunStopped as ended:
        return ended.status
    except (ValueError, RuntimeError) as error:
        print(f"cslearn monitor: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(json_safe(outcome), indent=2))
        return 0
    print(
        f"{outcome['dataset']}: {outcome['batch']} ({outcome['rows']:,} rows),"
        f" champion v{outcome['model_version']}"
    )
    for row in outcome["drift"][:10]:
        print(f"  {row['feature']:<30} PSI {row['psi']:.3f} ({row['band']})")
    print(f"drifted features: {', '.join(outcome['drifted_features']) or 'none'}")
    print(
        f"flagged {outcome['flagged_share']:.2%} (training rows {outcome['reference_flagged_share']:.2%});"
        f" realized savings {_savings(outcome['realized_savings'])}"
    )
    retrain = outcome["retrain"]
    if retrain["reasons"]:
        state = (
            f"started retrain flow run {retrain['flow_run_id']}"
            if retrain["triggered"]
            else "no retrain started"
        )
        print(f"{state}: {'; '.join(retrain['reasons'])}")
    return 0
