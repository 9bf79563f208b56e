"""Where cslearn keeps the state it creates, and the one way it writes files: atomically.

State (everything but datasets) lives under one folder, :func:`state_home`: ``$CSLEARN_HOME`` if set, else the
user data directory (``platformdirs.user_data_dir("cslearn")``, e.g. ``~/.local/share/cslearn`` on Linux). It
never depends on where the code is installed or on the working directory, so ``make run``, ``make ui``, the
``cslearn`` command and Prefect workers of one user all see the same runs::

    mlflow/mlflow.db   the default MLflow store (``tasks.tracking.mlflow_runs.default_tracking_uri``)
    mlflow/artifacts/  the artifacts of its experiments
    mlflow/locks/      locks beside the store: its creation, each registered model's promotion
                       (``tasks.tracking.store_locks``)
    cells/             the resumable results of ``compare`` cells (``tasks.compare.cell_compute.CellStore``)
    prefect/           Prefect's state when ``PREFECT_HOME`` is not set (:func:`prefect_home`): the history
                       of ``make run``, of ``cslearn`` run by hand and of ``make deploy``'s server

Datasets live in the dataset cache (``$CSLEARN_CACHE``, ``tasks.datasets.cache``). Every file is written
through :func:`atomic_path`: to a temporary name beside the destination, renamed over it only when complete.
A location named by a user (a cell store) is resolved with :func:`inside`, which refuses one that leaves its
root; :func:`unusable_folder` says why a path cannot be a folder cslearn writes into (the command line checks
``$CSLEARN_HOME`` and ``$CSLEARN_CACHE`` with it before any work).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import platformdirs

__all__ = [
    "HOME_ENVIRONMENT_VARIABLE",
    "atomic_path",
    "atomic_write_bytes",
    "inside",
    "prefect_home",
    "state_home",
    "unusable_folder",
]

#: Environment variable that overrides the state folder.
HOME_ENVIRONMENT_VARIABLE = "CSLEARN_HOME"


def state_home() -> Path:
    """The state folder: ``$CSLEARN_HOME`` if set, else the user data directory of cslearn (not created)."""
    configured = os.environ.get(HOME_ENVIRONMENT_VARIABLE)
    return Path(configured or platformdirs.user_data_dir("cslearn")).expanduser().resolve()


def prefect_home() -> Path:
    """Prefect's state folder: ``$PREFECT_HOME`` if set, else ``prefect/`` in the state folder, so that
    ``make run``, ``make deploy`` and ``cslearn`` run by hand keep one Prefect history (not created)."""
    configured = os.environ.get("PREFECT_HOME")
    return Path(configured).expanduser().resolve() if configured else state_home() / "prefect"


def inside(root: Path, relative: str | os.PathLike) -> Path:
    """``root / relative`` resolved (symlinks followed), checked to stay inside ``root``.

    Raises
    ------
    ValueError
        When the resolved path leaves ``root`` (an absolute ``relative``, ``..``, or a symlink pointing out).
    """
    root = Path(root).resolve()
    path = (root / relative).resolve()
    if not path.is_relative_to(root):
        raise ValueError(f"refusing {relative!s}: it resolves to {path}, outside {root}")
    return path


def unusable_folder(path: str | os.PathLike) -> str | None:
    """Why ``path`` cannot be a folder that cslearn creates (if missing) and writes into; ``None`` if it can.

    The path itself must be a folder when it exists; otherwise its nearest existing parent must be a folder
    (the rest is created), and that folder must be writable by this user.
    """
    path = Path(path).expanduser().absolute()
    existing = next(candidate for candidate in (path, *path.parents) if os.path.lexists(candidate))
    if not existing.is_dir():
        what = "a file, not a folder" if existing.is_file() else "not a folder"
        if existing == path:
            return f"{path} is {what}"
        return f"{path} cannot be created: {existing} is {what}"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{existing} is a folder this user cannot write to"
    return None


@contextlib.contextmanager
def atomic_path(destination: Path) -> Iterator[Path]:
    """Yield a temporary path next to ``destination``; renamed over it only if the block succeeds."""
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent
    )
    os.close(handle)
    temporary_path = Path(temporary)
    try:
        yield temporary_path
        os.replace(temporary_path, destination)
    finally:
        temporary_path.unlink(missing_ok=True)


def atomic_write_bytes(destination: Path, data: bytes) -> None:
    """Write ``data`` to ``destination`` through a temporary file and an atomic rename."""
    with atomic_path(destination) as temporary:
        temporary.write_bytes(data)
