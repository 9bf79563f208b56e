"""A local MLflow store is created and migrated under a lock; locks beside it exclude other processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mlflow import MlflowClient

import tasks.tracking.store_locks
from tasks.tracking.store_locks import StoreLockTimeout, local_store_folder, store_lock

CSLEARN = str(Path(sys.executable).parent / "cslearn")


def test_only_a_sqlite_store_has_a_lock_folder(tmp_path):
    assert local_store_folder(f"sqlite:///{tmp_path / 'mlflow.db'}") == tmp_path
    assert local_store_folder("http://127.0.0.1:5000") is None
    assert local_store_folder("postgresql://127.0.0.1/mlflow") is None
    with store_lock("http://127.0.0.1:5000", "store", timeout=1, what="nothing") as held:
        assert held is False


@pytest.mark.slow  # two MLflow migrations one after the other: 15-35 s
def test_two_first_commands_on_a_new_store_both_succeed(tmp_path):
    """Two ``cslearn runs cleanup`` start at the same moment on a ``$CSLEARN_HOME`` that has no store yet.

    Both open the default sqlite store, which MLflow creates and migrates on first use (seconds of alembic
    revisions), so the two migrations overlap when nothing serialises them: before the store lock, one of
    them failed inside the migration (``CommandError: Online migration expected to match one row``, or
    ``table _alembic_tmp_params already exists``) in every probe.
    """
    assert Path(tasks.tracking.store_locks.__file__).is_relative_to(Path(__file__).resolve().parents[3])
    environment = {**os.environ, "CSLEARN_HOME": str(tmp_path / "home")}
    environment.pop("MLFLOW_TRACKING_URI", None)
    commands = [
        subprocess.Popen(
            [CSLEARN, "runs", "cleanup", "--json"],
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for command in commands:
        out, err = command.communicate(timeout=300)
        assert command.returncode == 0, err
        assert json.loads(out) == [] and "Traceback" not in err
    store = tmp_path / "home" / "mlflow" / "mlflow.db"
    client = MlflowClient(tracking_uri=f"sqlite:///{store}")
    assert [experiment.name for experiment in client.search_experiments()] == ["Default"]
    assert (store.parent / "locks" / "store.lock").exists()


def test_a_held_lock_makes_another_process_wait_then_names_itself(tmp_path):
    """A real second process waits while this one holds the lock, and takes it once released."""
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    waiter = (
        "import sys, time\n"
        "from tasks.tracking.store_locks import store_lock\n"
        "started = time.monotonic()\n"
        f"with store_lock({uri!r}, 'registered-models/m', timeout=60, what='m',"
        " on_wait=lambda path: print('waiting', path, flush=True)):\n"
        "    print('held after', round(time.monotonic() - started, 1), flush=True)\n"
    )
    with store_lock(uri, "registered-models/m", timeout=1, what="m") as held:
        assert held is True
        process = subprocess.Popen([sys.executable, "-c", waiter], stdout=subprocess.PIPE, text=True)
        first = process.stdout.readline()
        assert first == f"waiting {tmp_path / 'locks' / 'registered-models' / 'm.lock'}\n"
        time.sleep(1.0)
        assert process.poll() is None  # still waiting
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0 and out.startswith("held after ")
    assert float(out.split()[-1]) >= 1.0


def test_a_lock_held_too_long_is_named_with_the_way_out(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from tasks.tracking.store_locks import store_lock\n"
            f"with store_lock({uri!r}, 'registered-models/odd name', timeout=5, what='x'):\n"
            "    print('held', flush=True); time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(StoreLockTimeout) as refused:
            with store_lock(uri, "registered-models/odd name", timeout=1, what="the promotion of x"):
                pass
        message = str(refused.value)
        assert message.startswith("another process has held the promotion of x for more than 1 s (lock ")
        assert f"{tmp_path}/locks/registered-models/odd_name-" in message  # a file name of its own
        assert "the system releases it when its process ends" in message
    finally:
        holder.kill()
        holder.wait()
    with store_lock(uri, "registered-models/odd name", timeout=5, what="x") as held:  # freed by its death
        assert held is True
