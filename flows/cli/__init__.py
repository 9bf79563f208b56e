"""The ``cslearn`` command line: one subcommand group per module of this package.

Each module exposes ``register(subparsers)``, adding its subcommands with ``set_defaults(handler=...)``;
the handler receives the parsed arguments and returns the process exit code. Before any subcommand runs,
:func:`flows.cli._environment.apply_environment_defaults` sets the quiet, local settings of Prefect and MLflow
that the user has not set, so the command behaves the same in and outside ``make``, and a ``CSLEARN_HOME`` or
``CSLEARN_CACHE`` that cannot be a folder is refused in one line (exit status 2).
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import PackageNotFoundError, version

from flows.cli import compare, datasets, figure, methods, monitor, replay, report, retrain, runs, score, serve
from flows.cli._environment import apply_environment_defaults, folder_setting_problems
from flows.cli._options import HelpFormatter

#: Modules of this package that add subcommands, in the order ``--help`` lists them (each imports nothing
#: heavy until its command runs).
SUBCOMMAND_MODULES = (
    datasets,
    methods,
    compare,
    retrain,
    serve,
    score,
    monitor,
    replay,
    report,
    figure,
    runs,
)

DESCRIPTION = """\
Cost-sensitive and imbalanced classification: datasets, methods, comparisons, retraining and reports.

Flows are tracked in MLflow (MLFLOW_TRACKING_URI, default: a store under $CSLEARN_HOME) and run by Prefect
(PREFECT_API_URL when set, else a temporary server inside the command). `cslearn COMMAND --help` shows a
command's options and examples."""

EXAMPLES = """\
examples:
  cslearn datasets list
  cslearn methods list
  cslearn compare --datasets pima haberman --methods adaboost,adacc1 --folds 5 --repeats 1
  cslearn retrain credit-scoring --candidates csdt bmr-lr
  cslearn serve credit-scoring
  cslearn score credit-scoring --input 'incoming/*.csv' --output scores/
  cslearn monitor credit-scoring --input 'incoming/*.csv'
  cslearn replay card-fraud --period 1h
  cslearn report RUN_ID
"""


def package_version() -> str:
    """The installed cslearn version (``"unknown"`` when run from a source tree that is not installed)."""
    try:
        return version("cslearn")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cslearn",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"cslearn {package_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMAND_MODULES:
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    apply_environment_defaults()
    args = build_parser().parse_args(argv)
    problems = folder_setting_problems()
    for problem in problems:
        print(f"cslearn {args.command}: {problem}", file=sys.stderr)
    if problems:
        return 2
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:
        # The reader went away (``cslearn datasets list --json | head``): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
