"""Failures outside cslearn's control end in one line naming what failed and what to do (issue 25, part 4).

Every test runs the real ``cslearn`` command in a subprocess (this worktree first on ``PYTHONPATH``, inherited
from the test session) and reads what a user reads: the exit status, stderr, and what is left on disk.

- settings that cannot work are refused before any work, exit status 2, in seconds: a ``CSLEARN_HOME`` or
  ``CSLEARN_CACHE`` that cannot be a folder, an MLflow tracking server or a Dask scheduler that does not
  answer;
- an MLflow store that fails in the middle of a comparison (its database made read-only, or deleted) ends the
  run with exit status 1 and one line naming the store, its error and the cells kept; the same command run
  again once the store works resumes from those cells.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from mlflow import MlflowClient

from tests.servers import free_port

CSLEARN = str(Path(sys.executable).parent / "cslearn")


def _cslearn(*arguments: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CSLEARN, *arguments],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _one_line(stderr: str) -> str:
    """The whole of ``stderr``, asserted to be one line without a traceback."""
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


@pytest.mark.parametrize("variable", ["CSLEARN_HOME", "CSLEARN_CACHE"])
@pytest.mark.parametrize("shape", ["a file", "a path below a file"])
def test_a_state_folder_that_is_a_file_is_refused_in_one_line(tmp_path, variable, shape):
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n")
    value = afile if shape == "a file" else afile / "below"
    for command in (["methods", "list"], ["datasets", "list"], ["compare", "--datasets", "wisconsin"]):
        completed = _cslearn(*command, env={variable: str(value)})
        assert completed.returncode == 2, completed.stderr
        line = _one_line(completed.stderr)
        problem = f"{afile} is a file, not a folder"
        if shape == "a path below a file":
            problem = f"{value} cannot be created: {problem}"
        assert line.startswith(f"cslearn {command[0]}: {variable}={value}: {problem}; cslearn keeps "), line
        assert f"point {variable} at a folder (created if missing) or unset it for the default" in line
    assert afile.read_text() == "not a folder\n"


def test_an_unreachable_tracking_server_is_refused_in_seconds(tmp_path):
    uri = f"http://127.0.0.1:{free_port()}"
    cells = Path(os.environ["CSLEARN_HOME"]) / "test-cells" / tmp_path.name
    started = time.monotonic()
    completed = _cslearn(
        "compare", "--datasets", "wisconsin", "--methods", "dt", "--repeats", "1", "--folds", "2",
        "--tracking-uri", uri, "--cell-store", str(cells),
    )  # fmt: skip
    elapsed = time.monotonic() - started
    assert completed.returncode == 2, completed.stderr
    assert elapsed < 30, elapsed  # before: MLflow's client retried for 4 min 26 s
    line = _one_line(completed.stderr)  # no Prefect server started, no traceback
    assert line.startswith(
        f"cslearn compare: the MLflow tracking server at {uri} (--tracking-uri) does not answer ("
    ), line
    assert "Connection refused" in line
    assert line.endswith("or leave --tracking-uri out to use the local store in $CSLEARN_HOME")
    assert not cells.exists()


def test_an_unreachable_tracking_server_from_the_environment_is_named_as_such():
    uri = f"http://127.0.0.1:{free_port()}"
    completed = _cslearn("retrain", "credit-scoring", "--candidates", "dt", env={"MLFLOW_TRACKING_URI": uri})
    assert completed.returncode == 2, completed.stderr
    line = _one_line(completed.stderr)
    assert line.startswith(f"cslearn retrain: the MLflow tracking server at {uri} (MLFLOW_TRACKING_URI) "), (
        line
    )
    assert line.endswith("or unset MLFLOW_TRACKING_URI to use the local store in $CSLEARN_HOME")


def test_a_dask_address_with_nothing_listening_is_refused_in_seconds(tmp_path):
    address = f"tcp://127.0.0.1:{free_port()}"
    cells = Path(os.environ["CSLEARN_HOME"]) / "test-cells" / tmp_path.name
    started = time.monotonic()
    completed = _cslearn(
        "compare", "--datasets", "wisconsin", "--methods", "dt", "--repeats", "1", "--folds", "2",
        "--dask-address", address, "--cell-store", str(cells),
    )  # fmt: skip
    elapsed = time.monotonic() - started
    assert completed.returncode == 2, completed.stderr
    assert elapsed < 30, elapsed  # before: 43 s, then 9 tracebacks
    line = _one_line(completed.stderr)
    assert line.startswith(
        f"cslearn compare: no Dask scheduler answers at {address} (connection refused): "
    ), line
    assert "dask scheduler --host 127.0.0.1" in line and "docs/usage.md: Running on a Dask cluster" in line
    assert line.endswith("or leave --dask-address out to run the cells on this machine")
    assert not cells.exists()


#: A comparison whose first method's cells are quick and whose second's take seconds, one fit at a time: the
#: store can be broken after the first group's cells are stored and before the second group is logged.
STORE_FAILURE_RUN = [
    "compare", "--datasets", "wisconsin", "--methods", "dt,wotboost,adacc1", "--repeats", "1", "--folds",
    "2", "--n-estimators", "100", "--max-workers", "1", "--no-progress",
]  # fmt: skip


def _stored_cells(folder: Path, method: str | None = None) -> int:
    """Cells of ``folder`` stored with status ok (of ``method`` only, if given)."""
    count = 0
    for path in folder.rglob("*.json"):
        record = json.loads(path.read_text())
        count += record["status"] == "ok" and method in (None, record["method"])
    return count


def _make_read_only(database: Path) -> Callable[[], None]:
    """Make the sqlite file ``database`` unwritable for the running command; returns what undoes it.

    Root writes through permissions, so as root the file is made immutable (``chattr +i``, which also stops
    writes through connections already open); otherwise the file and its folder (where sqlite writes its
    journal) lose their write permission.
    """
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", str(database)], capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f"this file system cannot make a file immutable: {made.stderr.strip()}")
        return lambda: subprocess.run(["chattr", "-i", str(database)], check=True)
    database.chmod(0o444)
    database.parent.chmod(0o555)

    def undo() -> None:
        database.parent.chmod(0o755)
        database.chmod(0o644)

    return undo


@pytest.mark.slow
@pytest.mark.parametrize("breakage", ["read-only", "deleted"])
def test_an_mlflow_store_failing_mid_compare_ends_in_one_line_and_the_rerun_resumes(
    prefect_server, tmp_path, breakage
):
    database = tmp_path / "store" / "mlflow.db"
    cells = Path(os.environ["CSLEARN_HOME"]) / "test-cells" / tmp_path.name
    arguments = [*STORE_FAILURE_RUN, "--tracking-uri", f"sqlite:///{database}", "--cell-store", str(cells)]
    command = subprocess.Popen(
        [CSLEARN, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ
    )
    undo = None
    try:
        deadline = time.monotonic() + 300
        while not cells.exists() or _stored_cells(cells, "dt") < 2:  # the first group is stored
            assert command.poll() is None and time.monotonic() < deadline, command.communicate()
            time.sleep(0.1)
        if breakage == "deleted":
            shutil.rmtree(database.parent)
        else:
            undo = _make_read_only(database)
        stdout, stderr = command.communicate(timeout=300)
    finally:
        if command.poll() is None:
            command.kill()
        if undo is not None:
            undo()

    assert command.returncode == 1, stderr[-3000:]
    assert "Traceback" not in stderr and "[SQL" not in stderr and "sqlite3" not in stderr, stderr[-3000:]
    assert stderr.count("the MLflow store") == 1, stderr[-3000:]  # said once, by the command
    line = stderr.strip().splitlines()[-1]
    said = re.fullmatch(
        rf"cslearn compare: the MLflow store sqlite:///{re.escape(str(database))} failed: (?P<reason>.+); "
        rf"(?P<kept>\d+) of 6 cells are kept in {re.escape(str(cells))}: rerun the same comparison to resume "
        "once the store works again",
        line,
    )
    assert said, line
    if breakage == "deleted":
        assert said["reason"] == f"its database file {database} no longer exists (deleted during the run?)"
    else:
        assert said["reason"].startswith(f"its database file {database} cannot be written (")
    kept = int(said["kept"])
    assert 2 <= kept <= _stored_cells(cells)  # dt's cells at least; a fit may end while the run stops

    rerun = _cslearn(*arguments, timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    resumed = re.search(r"cells: 6 total, (\d+) resumed, (\d+) computed, 0 failed", rerun.stdout)
    assert resumed and int(resumed[1]) >= kept and int(resumed[1]) + int(resumed[2]) == 6, rerun.stdout
    client = MlflowClient(f"sqlite:///{database}")
    runs = client.search_runs(
        [client.get_experiment_by_name("cslearn-compare").experiment_id],
        filter_string="tags.`cslearn.purpose` = 'compare'",
    )
    statuses = sorted(run.info.status for run in runs)
    # the broken run, if its store survived, is KILLED by the rerun (its process is gone); none is FINISHED
    assert statuses == (["FINISHED"] if breakage == "deleted" else ["FINISHED", "KILLED"]), statuses
