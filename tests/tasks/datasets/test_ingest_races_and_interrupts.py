"""Ingests that run at once, or are interrupted, leave what one ingest after the other leaves (issue 25,
part 2).

Every test runs ``cslearn datasets ingest`` as real processes; :mod:`tests.paused_command` holds one of them
at the window that matters (after the check that the name is free, before the entry is written; or with
the parquet's temporary file written, before it is renamed into place), so the other process, or the
signal, lands exactly there.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.user_data import write_payments_csv

pytestmark = pytest.mark.slow  # each test starts two or three Python processes that import the data layer

ROOT = Path(__file__).resolve().parents[3]

#: Seconds a step may take on a loaded machine (imports of pandas and pandera included).
PATIENCE = 120

#: Where the command writes a user dataset's parquet (looked up by ``atomic_path``'s caller).
PARQUET_WRITE = "pandas:DataFrame.to_parquet"

#: Where ``ingest_file`` writes the entry, after deciding the name is free.
ENTRY_WRITE = "tasks.datasets.user_files:write_entry"

INTERRUPTED = (
    "cslearn datasets ingest: interrupted; nothing of the dataset being ingested was written (those reported "
    "above are kept): run the command again to ingest it\n"
)


def _ingest_arguments(path: Path, *extra: str) -> list[str]:
    return ["datasets", "ingest", str(path), "--target", "fraud", "--name", "claims", "--no-progress", *extra]


class Command:
    """A ``cslearn`` process (optionally paused by :mod:`tests.paused_command`), its output in files."""

    def __init__(self, folder: Path, arguments: list[str], *, pause: tuple[str, str] | None = None):
        folder.mkdir()
        self.folder = folder
        prefix = ["-m", "flows.cli"]
        if pause is not None:
            prefix = ["-m", "tests.paused_command", *pause, str(folder), "--"]
        with (folder / "out").open("w") as out, (folder / "err").open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, *prefix, *arguments], stdout=out, stderr=err, cwd=ROOT, env=dict(os.environ)
            )

    @property
    def err(self) -> str:
        return (self.folder / "err").read_text()

    @property
    def out(self) -> str:
        return (self.folder / "out").read_text()

    def wait_for(self, condition, what: str) -> None:
        deadline = time.monotonic() + PATIENCE
        while not condition():
            if self.process.poll() is not None:
                raise AssertionError(
                    f"the command ended ({self.process.returncode}) before {what}: {self.err}"
                )
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}: {self.err}")
            time.sleep(0.02)

    def wait_until_paused(self) -> None:
        self.wait_for((self.folder / "paused").exists, "its pause")

    def resume(self) -> None:
        (self.folder / "resume").touch()

    def finish(self) -> int:
        return self.process.wait(timeout=PATIENCE)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def commands():
    started: list[Command] = []

    def start(*args, **kwargs) -> Command:
        started.append(Command(*args, **kwargs))
        return started[-1]

    yield start
    for command in started:
        command.stop()


def _entry_files(cache_dir: Path) -> list[str]:
    folder = cache_dir / "datasets" / "user"
    return sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []


def test_two_ingests_of_different_files_under_one_name_at_once_refuse_the_second(
    cache_dir, tmp_path, commands
):
    first, second = write_payments_csv(tmp_path / "a.csv"), write_payments_csv(tmp_path / "b.csv", seed=1)
    a = commands(tmp_path / "a", _ingest_arguments(first), pause=(ENTRY_WRITE, "before"))
    a.wait_until_paused()  # a has found the name free and is about to write
    b = commands(tmp_path / "b", _ingest_arguments(second))
    b.wait_for(lambda: "waiting for it to finish" in b.err, "the second ingest to wait for the first")
    assert b.err == f"claims: process {a.process.pid} is writing this dataset; waiting for it to finish\n"
    a.resume()
    assert a.finish() == 0, a.err
    assert b.finish() == 1
    assert b.err.endswith(
        f"error: {second}: user dataset 'claims' already exists, ingested from {first} at "
        f"{_recorded(cache_dir)['ingested_at']}; pass --force (replace=True) to replace it with {second}, or "
        "choose another --name\n"
    )
    assert _recorded(cache_dir)["source_path"] == str(first)
    assert _entry_files(cache_dir) == ["claims.json", "claims.parquet"]


def _recorded(cache_dir: Path) -> dict:
    import json

    return json.loads((cache_dir / "datasets" / "user" / "claims.json").read_text())


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_an_interrupted_ingest_exits_130_in_one_line_and_leaves_nothing(
    cache_dir, tmp_path, commands, signal_number
):
    source = write_payments_csv(tmp_path / "a.csv", rows=20_000)
    command = commands(tmp_path / "run", _ingest_arguments(source), pause=(PARQUET_WRITE, "after"))
    command.wait_until_paused()
    [temporary] = [name for name in _entry_files(cache_dir) if name.endswith(".tmp")]
    assert (cache_dir / "datasets" / "user" / temporary).stat().st_size > 100_000  # the parquet, written
    command.process.send_signal(signal_number)
    assert command.finish() == 130
    assert command.err == INTERRUPTED
    assert _entry_files(cache_dir) == []


def test_a_killed_ingest_leaves_a_temporary_file_that_the_next_ingest_sweeps(cache_dir, tmp_path, commands):
    source = write_payments_csv(tmp_path / "a.csv", rows=20_000)
    killed = commands(tmp_path / "killed", _ingest_arguments(source), pause=(PARQUET_WRITE, "after"))
    killed.wait_until_paused()
    killed.process.send_signal(signal.SIGKILL)
    assert killed.finish() == -signal.SIGKILL
    # kill -9 runs no handler: the parquet's temporary file stays, beside the lock file of the dead process
    [temporary] = [name for name in _entry_files(cache_dir) if name.endswith(".tmp")]
    again = commands(tmp_path / "again", _ingest_arguments(source, "--force"))
    assert again.finish() == 0, again.err
    folder = cache_dir / "datasets" / "user"
    removed, _, rest = again.err.partition("\n")
    assert removed.startswith(f"claims: removed {folder / temporary} (")
    assert removed.endswith(" bytes), a temporary file left by a write that did not finish")
    assert "Traceback" not in rest
    assert _entry_files(cache_dir) == ["claims.json", "claims.parquet"]
    assert again.out.startswith("claims: 20,000 rows, 9 features, ")
