"""Run the ``cslearn`` command line with one function paused: how a test aligns real processes at a window.

``python -m tests.paused_command TARGET WHEN FOLDER -- ARGUMENTS...`` runs ``cslearn ARGUMENTS`` (the real
command, in this process) with ``TARGET`` (``module:function`` or ``module:Class.method``, the name where
its callers look it up) wrapped: on its first call, before (``WHEN=before``) or after (``WHEN=after``) the
original runs, the wrapper creates ``FOLDER/paused`` and sleeps until ``FOLDER/resume`` exists. The test
waits for ``paused``, starts or signals other processes, then creates ``resume`` (or kills this one where it
stands). Nothing else of the command is changed.
"""

from __future__ import annotations

import functools
import importlib
import sys
import time
from pathlib import Path


def _pause(folder: Path) -> None:
    (folder / "paused").touch()
    while not (folder / "resume").exists():
        time.sleep(0.01)


def _wrap(target: str, when: str, folder: Path) -> None:
    module_name, _, path = target.partition(":")
    owner = importlib.import_module(module_name)
    *parents, attribute = path.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    original = getattr(owner, attribute)
    calls = []

    @functools.wraps(original)
    def paused(*args, **kwargs):
        first = not calls
        calls.append(None)
        if first and when == "before":
            _pause(folder)
        result = original(*args, **kwargs)
        if first and when == "after":
            _pause(folder)
        return result

    setattr(owner, attribute, paused)


def main(argv: list[str]) -> int:
    target, when, folder, separator, *arguments = argv
    if separator != "--" or when not in ("before", "after"):
        raise SystemExit("usage: python -m tests.paused_command TARGET before|after FOLDER -- ARGUMENTS...")
    _wrap(target, when, Path(folder))
    from flows.cli import main as cslearn

    return cslearn(arguments)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
