"""``cslearn score DATASET --input SOURCE --output TARGET``: run the ``score`` flow from the command line.

Prints a line per batch (rows scored and refused, flagged share, total expected cost, where they went) or,
with ``--json``, the flow's summary (``rows``, ``output``, ``batches``, ...). Exit status 1 when a batch was
refused whole or rows were refused, 2 on a bad configuration, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys

from flows.cli._common import json_safe
from flows.cli._options import ListOption, add_parser, option_names
from flows.cli._run import RunStopped, run_flow

__all__ = ["register"]

DESCRIPTION = """\
Apply a dataset's champion (or --model) to batches of unlabelled rows and write, per row, the decision, the
probability, the expected cost and the four costs used: the table the served model returns. The input is a
CSV or parquet file, a folder or glob of them (each file a batch), or a database table or query. The output
is a folder (a parquet file per batch), a parquet or CSV file, or a database table; scoring a batch again
replaces its rows, never duplicates them. Rows that break the model's input contract are refused with the
reason."""

EXAMPLES = """\
  cslearn score fraud --input 'incoming/*.parquet' --output scores/
  cslearn score fraud --input 'incoming/*.parquet' --newest --output scores.parquet --keep-columns tx_id
  cslearn score loans --input postgresql://risk@db/loans --input-query 'SELECT * FROM applications_today' \\
      --output postgresql://risk@db/loans --output-table decisions --json
"""

_FIELDS = (
    "input",
    "output",
    "input_table",
    "input_query",
    "output_table",
    "model_uri",
    "newest",
    "batch_id",
    "keep_columns",
    "experiment",
    "tracking_uri",
)


def register(subparsers) -> None:
    """Add the ``score`` subcommand."""
    parser = add_parser(
        subparsers,
        "score",
        help="the champion's decisions on batches of new rows",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    parser.add_argument("dataset", metavar="DATASET", help="the dataset whose model scores")
    parser.add_argument("--input", required=True, help="file, folder, glob, or database URL of the rows")
    parser.add_argument("--output", required=True, help="folder, parquet/CSV file, or database URL")
    parser.add_argument("--input-table", help="table of a database input")
    parser.add_argument("--input-query", help="SELECT query of a database input")
    parser.add_argument("--output-table", help="table of a database output")
    parser.add_argument(
        "--model", dest="model_uri", help="model URI (default models:/cslearn-DATASET@champion)"
    )
    parser.add_argument("--newest", action="store_true", default=None, help="only the newest file of a glob")
    parser.add_argument("--batch-id", help="name of the batch (its rows are replaced when scored again)")
    parser.add_argument("--keep-columns", action=ListOption, metavar="COLUMN", help="input columns to copy")
    parser.add_argument("--experiment", help="MLflow experiment (default cslearn-score)")
    parser.add_argument("--tracking-uri", help="MLflow tracking URI")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(handler=run, options=option_names(parser))


def run(args: argparse.Namespace) -> int:
    """Check, run the flow, print the outcome."""
    from schemas.flow_params import ScoreParams

    raw = {"dataset": args.dataset}
    raw.update({field: getattr(args, field) for field in _FIELDS if getattr(args, field, None) is not None})
    try:
        outcome = run_flow(
            "score",
            ScoreParams,
            raw,
            args.options,
            "flows.score:run_score",
            interrupted="nothing half-written",
        )
    except RunStopped as ended:
        return ended.status
    except (ValueError, RuntimeError) as error:
        print(f"cslearn score: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(json_safe(outcome), indent=2))
    else:
        for batch in outcome["batches"]:
            print(
                f"{batch['batch']}: {batch['rows']:,} row(s) scored, {batch['refused_rows']:,} refused,"
                f" {batch['flagged_share']:.2%} flagged, expected cost {batch['total_expected_cost']:,.2f}"
                f" -> {batch['output']}"
            )
        print(
            f"{outcome['dataset']}: {outcome['rows']:,} row(s) scored with {outcome['model_uri']}"
            f" (v{outcome['model_version']}); MLflow run {outcome['run_id']}"
        )
    return 1 if outcome["refused_rows"] else 0
