"""``cslearn report RUN_ID``: build the HTML report of a finished ``compare`` or ``retrain`` run from MLflow.

The report is read back from the MLflow run alone (parameters, tags, ``results/`` artifacts, child runs and
their per-round metric histories), so it regenerates identically from the same run. It is written as
``DIR/report.html`` (self-contained: every figure is embedded) with each figure also as ``DIR/figures/*.png``,
each file through a temporary file renamed over its name, so a link in ``DIR`` is replaced, never written
through (:mod:`tasks.report.output`). Exit status 2 when the command is refused before any work (an
``--alpha`` outside (0, 1), an ``--out`` that is a file or a link out of where it was named) or the run
cannot be reported (unknown run id, a child run, no results, unknown metric); 1 when the report cannot be
written.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from flows.cli._options import add_parser

__all__ = ["register"]


DESCRIPTION = """\
Build the HTML report of a finished compare or retrain run from its MLflow parent run: the leaderboard, the
statistical tests (Friedman, Nemenyi, Bonferroni-Dunn), the papers' tables and the figures, in one
self-contained file that opens offline. Each figure is also written as a PNG. The report depends only on the
run, so building it again gives the same file."""

EXAMPLES = """\
  cslearn report 3f2c9a...                     # writes reports/3f2c9a.../report.html
  cslearn report 3f2c9a... --out /tmp/report --metric balanced_accuracy --control adaboost
  cslearn report 3f2c9a... --tracking-uri http://127.0.0.1:5000
"""


def register(subparsers) -> None:
    """Add the ``report`` subcommand."""
    parser = add_parser(
        subparsers,
        "report",
        help="build the self-contained HTML report of a compare or retrain run from MLflow",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    parser.add_argument(
        "run_id", metavar="RUN_ID", help="MLflow id of the parent run of a compare or retrain"
    )
    parser.add_argument("--out", metavar="DIR", help="output folder (default: reports/RUN_ID)")
    parser.add_argument(
        "--tracking-uri", help="MLflow tracking URI (default $MLFLOW_TRACKING_URI or the project store)"
    )
    parser.add_argument("--metric", default="opm", help="metric to rank and test methods on (default opm)")
    parser.add_argument(
        "--control", metavar="METHOD", help="control of the Bonferroni-Dunn test (default: best)"
    )
    parser.add_argument(
        "--alpha",
        type=significance_level,
        default=0.05,
        help="significance level, strictly between 0 and 1 (default 0.05)",
    )
    parser.set_defaults(handler=run)


def significance_level(text: str) -> float:
    """``--alpha``: a number strictly between 0 and 1 (``tasks.report.statistics.check_alpha``), else a
    usage error (exit status 2)."""
    from tasks.report.statistics import check_alpha

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"alpha must be a number such as 0.05; got {text!r}") from None
    try:
        return check_alpha(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    """Check the output folder, read the run, build and write the report; print where ``report.html`` is."""
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    from tasks.report import build_report, load_run
    from tasks.report.output import OutputFolderError, check_output_folder
    from tasks.tracking.credentials import use_uri_credentials

    try:
        folder = check_output_folder(Path(args.out) if args.out else Path("reports") / args.run_id)
    except OutputFolderError as error:
        print(f"cslearn report: --out: {error}", file=sys.stderr)
        return 2
    try:  # a password in the URI goes to MLflow's variables, so no message can show it
        record = load_run(args.run_id, use_uri_credentials(args.tracking_uri))
        report = build_report(record, metric=args.metric, control=args.control, alpha=args.alpha)
    except ValueError as error:
        print(f"cslearn report: {error}", file=sys.stderr)
        return 2
    if record.status != "FINISHED":
        print(f"cslearn report: warning: run {record.run_id} is {record.status}", file=sys.stderr)
    try:
        path = report.write(folder)
    except (OutputFolderError, OSError) as error:  # changed since the check, or the disk refused
        print(f"cslearn report: the report was not written: {error}", file=sys.stderr)
        return 1
    print(path)
    return 0
