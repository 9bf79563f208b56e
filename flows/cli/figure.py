"""``cslearn figure boundaries``: decision boundaries of chosen methods on the 2-D toy set (AdaCC Fig. 1/6).

Each method is fit on the same 40-point imbalanced toy set with T rounds; a row shows the weak learner of
every
round with the points sized by their weight, then the ensemble's decision regions. The image format follows
the file name (``.png``, ``.svg`` or ``.pdf``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from flows.cli._options import ListOption, add_parser

__all__ = ["register"]

DESCRIPTION = """\
Draw the decision boundaries of chosen methods on the same 40-point imbalanced 2-D toy set (AdaCC paper,
Fig. 1 and 6): one row per method, showing each round's weak learner with the points sized by their weight,
then the ensemble's decision regions. The image format follows the file name (.png, .svg or .pdf)."""

EXAMPLES = """\
  cslearn figure boundaries
  cslearn figure boundaries --methods adaboost,adacc1,cgada --rounds 8 --out boundaries.svg
"""


def register(subparsers) -> None:
    """Add the ``figure`` subcommand group."""
    parser = subparsers.add_parser("figure", help="draw a figure that needs no run, e.g. decision boundaries")
    kinds = parser.add_subparsers(dest="figure", required=True, metavar="FIGURE")
    boundaries = add_parser(
        kinds,
        "boundaries",
        help="decision boundaries of methods on a 2-D toy set, round by round",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    boundaries.add_argument(
        "--methods",
        action=ListOption,
        metavar="KEY",
        default=["adaboost", "adacc1", "adacc2"],
        help="method keys, one row each (default: adaboost adacc1 adacc2)",
    )
    boundaries.add_argument("--rounds", type=int, default=5, metavar="T", help="boosting rounds (default 5)")
    boundaries.add_argument(
        "--seed", type=int, default=0, help="seed of the toy set and estimators (default 0)"
    )
    boundaries.add_argument(
        "--out", metavar="FILE", default="boundaries.png", help="image file (.png/.svg/.pdf)"
    )
    boundaries.set_defaults(handler=run_boundaries)


def run_boundaries(args: argparse.Namespace) -> int:
    """Draw and save the figure; exit status 2 on an unknown method or bad round count."""
    from tasks.report.boundaries import boundaries_figure
    from tasks.report.figures import save_figure

    try:
        figure = boundaries_figure(args.methods, rounds=args.rounds, seed=args.seed)
        path = save_figure(figure, Path(args.out))
    except ValueError as error:
        print(f"cslearn figure boundaries: {error}", file=sys.stderr)
        return 2
    print(path)
    return 0
