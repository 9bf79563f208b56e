"""The ``cslearn`` entry point: every subcommand group is registered, and a closed pipe ends it quietly."""

from __future__ import annotations

import subprocess
import sys

from flows.cli import build_parser


def test_every_subcommand_group_is_registered():
    subparsers = next(action for action in build_parser()._actions if action.dest == "command")
    assert set(subparsers.choices) == {"datasets", "compare", "retrain", "report", "figure"}


def test_a_reader_that_stops_early_gets_no_traceback():
    process = subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "datasets", "list", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first_line = process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    stderr = process.stderr.read().decode()
    process.wait(timeout=120)

    assert first_line.startswith(b'{"name": ')
    assert "Traceback" not in stderr, stderr
    assert process.returncode in (0, 141)
