"""The command line at its size: commands that need neither Prefect nor the flows import neither (issue 23).

Three commands that only read a store or draw a figure, each timed as a whole fresh process
(``python -X importtime -m flows.cli ...``), interleaved and repeated, against the same commands of the code
at :data:`BASELINE` (the commit before the change, unpacked with ``git archive`` into a temporary folder
and run with the same interpreter and packages, which imports the unpacked packages first):

- ``runs cleanup --dry-run`` (MLflow only);
- ``report RUN_ID`` of a small compare run made first (MLflow, pandas, matplotlib, the statistics);
- ``figure boundaries`` (scikit-learn and matplotlib only).

For each: the median wall time, the ratio after / before, and whether Prefect and MLflow were imported, with
their cumulative import time as ``-X importtime`` reports it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._report import write_section

PROJECT = Path(__file__).resolve().parents[1]
#: The code the commands are compared with: before issue 23 made them import only what they need.
BASELINE = "ca5abaa"
QUIET = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "true",
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR": "false",
}
PACKAGES = ("prefect", "mlflow")


def _baseline_tree(folder: Path) -> Path | None:
    """The code at :data:`BASELINE` unpacked into ``folder``, or ``None`` outside a git checkout."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(PROJECT), "archive", BASELINE, "algorithms", "schemas", "tasks", "flows"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def _run(arguments: list[str], cwd: Path, environment: dict) -> tuple[float, dict[str, float]]:
    """Wall seconds of one fresh ``python -X importtime -m flows.cli ...`` in ``cwd`` and the cumulative
    import seconds of each of :data:`PACKAGES` it imported."""
    started = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flows.cli", *arguments],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    if completed.returncode != 0:
        raise RuntimeError(f"cslearn {' '.join(arguments)} failed in {cwd}: {completed.stderr[-2000:]}")
    imported = {}
    for line in completed.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            _, cumulative, name = line.split("|")
            if name.strip() in PACKAGES:
                imported[name.strip()] = int(cumulative) / 1e6
    return wall, imported


def _make_run(environment: dict) -> str:
    """A small compare run in the benchmark's store: its parent run id (for ``report``)."""
    completed = subprocess.run(
        [str(Path(sys.executable).parent / "cslearn"), "compare", "--datasets", "wisconsin", "pima"]
        + ["--methods", "adaboost,dt,bmr-lr", "--folds", "2", "--repeats", "1", "--json"],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    import json

    return json.loads(completed.stdout)["parent_run_id"]


def main(quick: bool = False) -> None:
    repeats = 1 if quick else 3
    with tempfile.TemporaryDirectory(prefix="cslearn-bench-commands-") as folder:
        root = Path(folder)
        environment = {**os.environ, **QUIET, "CSLEARN_HOME": str(root / "home")}
        environment.pop("PREFECT_API_URL", None)
        environment.pop("MLFLOW_TRACKING_URI", None)
        run_id = _make_run(environment)
        (root / "before").mkdir()
        before = _baseline_tree(root / "before")
        commands = {
            "`runs cleanup --dry-run`": ["runs", "cleanup", "--dry-run"],
            "`report RUN_ID`": ["report", run_id, "--out", str(root / "report")],
            "`figure boundaries`": ["figure", "boundaries", "--out", str(root / "boundaries.png")],
        }
        trees = {"after": PROJECT, **({"before": before} if before else {})}
        results = {(name, tree): [] for name in commands for tree in trees}
        for cwd in trees.values():  # untimed warm-up: caches, the registry snapshot
            for arguments in commands.values():
                _run(arguments, cwd, environment)
        load_before = os.getloadavg()
        for _ in range(repeats):
            for name, arguments in commands.items():
                for tree, cwd in trees.items():
                    results[(name, tree)].append(_run(arguments, cwd, environment))
        load_after = os.getloadavg()

    def imports(runs) -> str:
        seconds = {
            package: statistics.median(run[1].get(package, 0.0) for run in runs) for package in PACKAGES
        }
        named = [f"{package} {seconds[package]:.1f} s" for package in PACKAGES if seconds[package] > 0]
        return ", ".join(named) or "neither"

    lines = [
        f"Each command a fresh process, median of {repeats} interleaved runs after a warm-up; load average "
        f"{load_before[0]:.1f} before the runs and {load_after[0]:.1f} after them, on 2 cores. Before = the "
        f"code at commit {BASELINE}, after = this checkout, same interpreter and packages.",
        "",
        "| command | before, s | after, s | after / before | imported before | imported after |",
        "|---|---:|---:|---:|---|---|",
    ]
    for name in commands:
        after = results[(name, "after")]
        after_wall = statistics.median(run[0] for run in after)
        if before:
            old = results[(name, "before")]
            before_wall = statistics.median(run[0] for run in old)
            ratio = statistics.median(new[0] / was[0] for new, was in zip(after, old, strict=True))
            lines.append(
                f"| {name} | {before_wall:.1f} | {after_wall:.1f} | {ratio:.2f} | {imports(old)} | "
                f"{imports(after)} |"
            )
        else:
            lines.append(f"| {name} | – | {after_wall:.1f} | – | – | {imports(after)} |")
    lines += [
        "",
        "Import times are the cumulative ones `python -X importtime` reports for the package, in the same "
        "process; a package's own dependencies that another package also needs (pydantic, httpx: MLflow "
        "imports them too) stay, so leaving Prefect out saves less than its import time. What remains is "
        "what each command needs: MLflow to read the store, pandas, matplotlib, scikit-learn and the "
        "statistics for the report (it reads and draws for seconds too), scikit-learn and matplotlib for the "
        "figure.",
    ]
    body = "\n".join(lines)
    print(body)
    write_section(
        "commands",
        "Commands that need no Prefect",
        body,
        "python -m benchmarks commands",
    )
