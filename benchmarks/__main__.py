"""Run every benchmark (``make bench``) or some: ``python -m benchmarks [--quick] [stump tree ...]``.

Each ``benchmarks/bench_<name>.py`` module defines ``main(quick: bool) -> None``; it prints its tables and
writes them, with the machine and the command, into its own section of ``docs/benchmarks.md``. ``--quick``
runs fewer repeats and rounds (a few minutes for all of them; the full run takes longer): for checking that
the benchmarks work, not for the figures quoted in the docs.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def available() -> list[str]:
    here = Path(__file__).parent
    return sorted(
        m.name.removeprefix("bench_")
        for m in pkgutil.iter_modules([str(here)])
        if m.name.startswith("bench_")
    )


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    names = [arg for arg in argv if arg != "--quick"] or available()
    unknown = sorted(set(names) - set(available()))
    if unknown:
        print(f"unknown benchmark(s) {unknown}; available: {available()}", file=sys.stderr)
        return 2
    for name in names:
        print(f"== benchmark {name}{' (quick)' if quick else ''} ==", flush=True)
        importlib.import_module(f"benchmarks.bench_{name}").main(quick=quick)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
