"""Cold start (issue 13, point 2): the first fit in a fresh interpreter, cslearn against scikit-learn.

Each run is a fresh ``python -c`` process doing what a user's first script does: import the estimator (for
cslearn the README's path, ``from algorithms import METHODS`` and ``METHODS["adacc1"]``, issue 24 point 4),
make a small problem (``make_classification(2000, 20, weights=[0.9])``) and fit 50 rounds. cslearn loads
its numba kernels from the on-disk cache that ``make install`` fills (``scripts/warm_numba_cache.py``);
scikit-learn's ``AdaBoostClassifier(DecisionTreeClassifier(max_depth=1))`` compiles nothing. The two alternate
``REPEATS`` times; the table gives median wall and CPU seconds (the process's own accounting) and the median
of the pairwise ratios. Extra rows: each import alone, and cslearn's first fit with an empty numba cache (a
fresh ``NUMBA_CACHE_DIR``: what the warm-up saves). Last, where cslearn's import time goes
(``python -X importtime``).

Run: ``python -m benchmarks coldstart`` (``--quick``: fewer runs).
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._problem import load_average, load_note
from benchmarks._report import write_section

REPEATS, QUICK_REPEATS = 7, 3
REPO = Path(__file__).resolve().parents[1]
DATA = (
    "from sklearn.datasets import make_classification\n"
    "X, y = make_classification(n_samples=2000, n_features=20, weights=[0.9], random_state=0)\n"
)
CSLEARN_FIT = (
    "from algorithms import METHODS\n"
    + DATA
    + 'METHODS["adacc1"](n_estimators=50, random_state=0).fit(X, y)\n'
)
SKLEARN_FIT = (
    "from sklearn.ensemble import AdaBoostClassifier\n"
    "from sklearn.tree import DecisionTreeClassifier\n"
    + DATA
    + "AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=50, random_state=0).fit(X, y)\n"
)
PROGRAMS = {
    'cslearn AdaCC1 (`METHODS["adacc1"]`): import + data + first fit': CSLEARN_FIT,
    "scikit-learn AdaBoostClassifier: import + data + first fit": SKLEARN_FIT,
    'cslearn import (`from algorithms import METHODS; METHODS["adacc1"]`)': (
        'from algorithms import METHODS\nMETHODS["adacc1"]\n'
    ),
    "scikit-learn import (`import sklearn.ensemble, sklearn.tree`)": (
        "import sklearn.ensemble, sklearn.tree\n"
    ),
}
TOP_LEVEL_IMPORTS = ("algorithms.boosting.adacc", "imblearn", "pandas", "numba", "scipy.stats")


def run_fresh(code, environment=None):
    """Wall and CPU (user + system) seconds of one fresh ``python -c code`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=REPO, env=environment, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_programs(repeats):
    for code in PROGRAMS.values():  # one untimed run each: files in the page cache, numba's cache loaded
        run_fresh(code)
    timings = {name: [] for name in PROGRAMS}
    for repeat in range(repeats):
        for name, code in PROGRAMS.items():
            timings[name].append(run_fresh(code))
        print(f"  repeat {repeat + 1}/{repeats}", flush=True)
    with tempfile.TemporaryDirectory() as empty_cache:
        environment = {**os.environ, "NUMBA_CACHE_DIR": empty_cache}
        cold = run_fresh(CSLEARN_FIT, environment)
    return timings, cold


def import_breakdown():
    """What ``import algorithms.boosting`` adds to scikit-learn's imports: cumulative ms per big package.

    scikit-learn's AdaBoost modules are imported first, so the figures are cslearn's extra imports
    (``python -X importtime``; a package's figure includes what it imports first).
    """
    code = (
        "import sys, sklearn.ensemble, sklearn.tree, sklearn.datasets\n"
        "sys.stderr.write('scikit-learn imported\\n')\n"
        "from algorithms import METHODS\n"
        "METHODS['adacc1']\n"
    )
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    pattern = re.compile(r"import time:\s+\d+ \|\s+(\d+) \|\s+(\S+)$")
    cumulative = {}
    lines = result.stderr.splitlines()
    for line in lines[lines.index("scikit-learn imported") :]:
        match = pattern.match(line)
        if match and match.group(2) in TOP_LEVEL_IMPORTS and match.group(2) not in cumulative:
            cumulative[match.group(2)] = int(match.group(1)) / 1e3
    return cumulative


def first_and_second_fit():
    """Seconds of cslearn's first and second fit in one fresh process, after the imports.

    The difference is numba's one-off start in the process (its compiler machinery) and the cache loads.
    """
    code = (
        "import time\n"
        + DATA
        + "from algorithms import METHODS\n"
        + "start = time.perf_counter(); METHODS['adacc1'](n_estimators=50, random_state=0).fit(X, y)\n"
        + "first = time.perf_counter() - start\n"
        + "start = time.perf_counter(); METHODS['adacc1'](n_estimators=50, random_state=0).fit(X, y)\n"
        + "print(first, time.perf_counter() - start)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    first, second = (float(value) for value in result.stdout.split())
    return first, second


def render(timings, cold, breakdown, fits, load_before, repeats):
    names = list(PROGRAMS)
    cslearn, sklearn = names[0], names[1]
    lines = [
        f"Fresh `python -c` processes, alternating, {repeats} runs each after one untimed run; the program: "
        "import the estimator, `make_classification(n_samples=2000, n_features=20, weights=[0.9], "
        f"random_state=0)`, fit 50 rounds. {load_note(load_before)}",
        "",
        "| program | wall s (median) | CPU s (median) | wall / scikit-learn's first fit |",
        "|---|---:|---:|---:|",
    ]
    for name in names:
        wall = statistics.median(value[0] for value in timings[name])
        cpu = statistics.median(value[1] for value in timings[name])
        ratio = statistics.median(
            mine[0] / theirs[0] for mine, theirs in zip(timings[name], timings[sklearn], strict=True)
        )
        lines.append(f"| {name} | {wall:.2f} | {cpu:.2f} | {ratio:.2f} |")
    sklearn_wall = statistics.median(value[0] for value in timings[sklearn])
    lines.append(
        f"| cslearn AdaCC1 first fit, **empty numba cache** (no warm-up; 1 run) | {cold[0]:.2f} | "
        f"{cold[1]:.2f} | {cold[0] / sklearn_wall:.2f} |"
    )
    lines += [
        "",
        f"Target (issues 13 and 24): cslearn's first fit within 1.5x scikit-learn's ({cslearn} against "
        f"{sklearn}).",
        "",
        "Where the difference goes. Imports cslearn adds to scikit-learn's (`python -X importtime`, "
        "scikit-learn's AdaBoost modules imported first; cumulative ms where each package is first "
        "imported, so `algorithms.boosting.adacc` includes the others): "
        + ", ".join(f"{name} {ms:.0f} ms" for name, ms in breakdown.items())
        + f". In one process after the imports, cslearn's first fit took {fits[0]:.2f} s and the second "
        f"{fits[1]:.3f} s: the difference is numba's one-off start (its compiler machinery) and loading the "
        "cached kernels.",
    ]
    return "\n".join(lines)


def main(quick: bool = False) -> None:
    load_before = load_average()
    repeats = QUICK_REPEATS if quick else REPEATS
    print("timing fresh processes", flush=True)
    timings, cold = time_programs(repeats)
    body = render(timings, cold, import_breakdown(), first_and_second_fit(), load_before, repeats)
    print(body)
    command = f"python -m benchmarks{' --quick' if quick else ''} coldstart"
    path = write_section("coldstart", "Cold start: the first fit in a fresh process", body, command)
    print(f"written to {path}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
