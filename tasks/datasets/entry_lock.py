"""One writer per cache entry at a time, and the temporary files a killed writer left are swept.

Every function that writes a dataset's entry (a user file's ingest, re-ingest or rebuild, binding and
refreshing a source, a registered dataset's ingest) holds :func:`locked_entry` from the moment it decides to
write (the name is free, or taken by the same source) until its record is written. Two ingests of different
files under one name, started at once, then behave as they do one after the other: the second waits, sees
the first one's record and is refused.

The lock is an exclusive ``flock`` on ``<name>.lock`` beside the entry, which the kernel releases when its
holder ends however it ends (``kill -9`` included). The holder removes the file when done; a waiter that
wakes up on a removed file opens the new one (it checks that the file it locked is still the one at that
path), so no two processes ever hold the lock together. A waiter says once that it waits, and for whom.

Files are written to a temporary name beside their destination and renamed into place
(:func:`tasks.storage.atomic_path`); a process killed mid-write (``kill -9``, or a signal it does not handle)
leaves that temporary file behind. Whoever holds the lock next removes the entry's temporary files: while
the lock is held no one else writes them, so any that exist are stale.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from collections.abc import Iterator
from pathlib import Path

from tasks.datasets.records import EntryPaths

__all__ = ["locked_entry"]

logger = logging.getLogger(__name__)


def _lock_path(paths: EntryPaths) -> Path:
    return paths.record.with_suffix(".lock")


def _holder(lock_path: Path) -> str:
    """Who holds the lock, as the holder wrote it (its process id), for the waiting message."""
    try:
        pid = lock_path.read_text().strip()
    except OSError:
        pid = ""
    return f"process {pid}" if pid.isdigit() else "another process"


def _open_locked(lock_path: Path, name: str) -> int:
    """A descriptor of ``lock_path`` holding its exclusive lock, waiting (once announced) while another
    process holds it."""
    announced = False
    while True:
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not announced:
                    logger.warning(
                        "%s: %s is writing this dataset; waiting for it to finish", name, _holder(lock_path)
                    )
                    announced = True
                fcntl.flock(descriptor, fcntl.LOCK_EX)
            try:
                current = os.stat(lock_path, follow_symlinks=False)
            except FileNotFoundError:
                current = None
            locked = os.fstat(descriptor)
            if current is not None and (current.st_dev, current.st_ino) == (locked.st_dev, locked.st_ino):
                return descriptor
        except BaseException:
            os.close(descriptor)
            raise
        os.close(descriptor)  # its holder removed the file while we waited: lock the one there now


def _sweep_temporaries(paths: EntryPaths, name: str) -> None:
    """Remove the temporary files a killed writer left beside the entry's parquet and record."""
    for destination in (paths.parquet, paths.record):
        for leftover in destination.parent.glob(f".{destination.name}.*.tmp"):
            try:
                size = leftover.stat(follow_symlinks=False).st_size
                leftover.unlink()
            except FileNotFoundError:
                continue
            logger.warning(
                "%s: removed %s (%s bytes), a temporary file left by a write that did not finish",
                name,
                leftover,
                f"{size:,}",
            )


@contextlib.contextmanager
def locked_entry(paths: EntryPaths, name: str) -> Iterator[None]:
    """Hold the exclusive lock of the entry ``paths`` for the block, after sweeping its stale temporaries.

    Parameters
    ----------
    paths : EntryPaths
        The entry (its parquet and record), from :func:`tasks.datasets.records.entry_paths`.
    name : str
        The dataset's name, for the messages.
    """
    lock_path = _lock_path(paths)
    descriptor = _open_locked(lock_path, name)
    try:
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
        _sweep_temporaries(paths, name)
        yield
    finally:
        lock_path.unlink(missing_ok=True)  # before unlocking: a waiter then sees the file is gone
        os.close(descriptor)
