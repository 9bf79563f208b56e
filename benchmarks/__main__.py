"""Run every benchmark (``make bench``) or the ones named: ``python -m benchmarks [boosting tree ...]``.

Each ``benchmarks/bench_<name>.py`` module defines ``main() -> None``; it prints its table and writes it,
with the machine and the command, into its own section of ``docs/benchmarks.md``.
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
    names = argv or available()
    unknown = sorted(set(names) - set(available()))
    if unknown:
        print(f"unknown benchmark(s) {unknown}; available: {available()}", file=sys.stderr)
        return 2
    for name in names:
        print(f"== benchmark {name} ==", flush=True)
        importlib.import_module(f"benchmarks.bench_{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
