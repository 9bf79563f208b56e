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

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

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
    assert "dask scheduler --host 127.0.0.1" in line and "README: Running on a Dask cluster" in line
    assert line.endswith("or leave --dask-address out to run the cells on this machine")
    assert not cells.exists()
