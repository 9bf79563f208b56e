"""``cslearn methods list [--json]``: the registered methods, their family, paper and use of costs.

Everything shown is derived from the estimators (``tasks.config.method_info.describe_methods``) and read from
the snapshot of known names (``tasks.config.name_index``), so the list is instant once the snapshot exists and
follows the code when it changes.
"""

from __future__ import annotations

import argparse
import json

from flows.cli._options import add_parser

__all__ = ["format_methods", "register"]

DESCRIPTION = """\
List the registered methods: the key to pass to --methods and --candidates, the family (the algorithms
subpackage), the paper whose tables it belongs to, and how it uses costs.

How each method uses costs is observed, by fitting it on a small problem with two cost matrices:

  example costs           a per-row cost matrix changes the fit (csdt, ...)
  example or class costs  the same; without a matrix, class costs C+ and C-
  ..., at decision        the decision uses each row's costs (Bayes min. risk)
  no                      cost-blind (AdaCC adapts its own costs to the errors)"""

EXAMPLES = """\
  cslearn methods list
  cslearn methods list --json > methods.json
"""


def register(subparsers) -> None:
    """Add the ``methods`` command group."""
    group = subparsers.add_parser("methods", help="list the registered methods")
    commands = group.add_subparsers(dest="methods_command", required=True, metavar="COMMAND")
    listing = add_parser(
        commands,
        "list",
        help="every registered method: key, family, paper, use of costs",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    listing.add_argument("--json", action="store_true", help="one JSON array of objects, one per method")
    listing.set_defaults(handler=list_methods)


def format_methods(methods) -> str:
    """An aligned text table of :class:`tasks.config.method_info.MethodInfo` records."""
    header = ("key", "family", "paper", "costs", "estimator")
    rows = [
        (info.key, info.family, info.paper or "-", info.costs_text, info.estimator.rsplit(".", 1)[-1])
        for info in methods
    ]
    widths = [max(len(row[column]) for row in (header, *rows)) for column in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in (header, *rows)
    )


def list_methods(args: argparse.Namespace) -> int:
    from tasks.config.name_index import name_index

    methods = list(name_index().methods.values())
    if args.json:
        print(json.dumps([info.to_dict() for info in methods], indent=2))
    else:
        print(format_methods(methods))
    return 0
