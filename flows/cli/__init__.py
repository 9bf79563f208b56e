"""The ``cslearn`` command line: one subcommand group per module of this package.

Each module exposes ``register(subparsers)``, adding its subcommands with ``set_defaults(handler=...)``;
the handler receives the parsed arguments and returns the process exit code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

#: Modules of this package that add subcommands, in the order ``--help`` lists them.
SUBCOMMAND_MODULES = (
    "flows.cli.datasets",
    "flows.cli.compare",
    "flows.cli.retrain",
    "flows.cli.report",
    "flows.cli.figure",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cslearn",
        description="Cost-sensitive and imbalanced classification: data, training, comparison.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module_name in SUBCOMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:
        # The reader went away (``cslearn datasets list --json | head``): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
