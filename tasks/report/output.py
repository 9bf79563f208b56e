"""Where a report is written: into the folder the user named, each file replaced whole, never through a link.

A report is ``FOLDER/report.html`` with its figures in ``FOLDER/figures/<name>.png``.
:func:`check_output_folder` is asked before any work: ``FOLDER`` must be a folder or not exist yet (it is
then created), and it may be a symbolic link only to a place inside the folder that holds it (a link out of
there would put the report somewhere the user did not point); ``FOLDER/figures`` must stay inside
``FOLDER``, and ``FOLDER/report.html`` must not be a folder.

:func:`write_report_files` then writes each file to a temporary file beside its name and renames it over
that name (:func:`tasks.storage.atomic_path`): a symbolic link found there is replaced by the new file and
its target is left untouched, and no file is ever left half-written. The figures go first and
``report.html`` last, so the page appears only once everything it shows is there.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from tasks.storage import atomic_path

__all__ = ["FIGURES_FOLDER", "REPORT_FILE", "OutputFolderError", "check_output_folder", "write_report_files"]

#: The report page's name in its folder.
REPORT_FILE = "report.html"

#: The folder of the figures inside the report's folder.
FIGURES_FOLDER = "figures"


class OutputFolderError(ValueError):
    """A folder the report cannot be written into as asked; the message names the path and the way out."""


def _first_existing(path: Path) -> Path:
    """``path`` or the nearest of its parents that exists (a link counts, even a dangling one)."""
    for candidate in (path, *path.parents):
        if candidate.is_symlink() or candidate.exists():
            return candidate
    return Path(".")


def _not_a_folder(path: Path, way_out: str) -> OutputFolderError:
    kind = "a symbolic link to nothing" if path.is_symlink() and not path.exists() else "a file"
    return OutputFolderError(f"{path} is {kind}, not a folder: {way_out}")


def check_output_folder(folder: str | Path) -> Path:
    """``folder`` as a path, once checked that the report may be written into it (see the module docstring).

    Raises
    ------
    OutputFolderError
        When ``folder`` (or the nearest of its parents that exists) is not a folder, when it is a link out of
        the folder that holds it, when its ``figures`` is a file or leads out of it, or when its
        ``report.html`` is a folder.
    """
    folder = Path(folder)
    existing = _first_existing(folder)
    if not existing.is_dir():
        raise _not_a_folder(
            existing,
            "the report is written as FOLDER/report.html with its figures in FOLDER/figures; name a folder"
            " (it is created if it does not exist)",
        )
    if folder.is_symlink():
        target, holder = folder.resolve(), folder.absolute().parent.resolve()
        if not target.is_relative_to(holder):
            raise OutputFolderError(
                f"{folder} is a symbolic link to {target}, outside {holder}: the report would be written "
                f"somewhere else than where you pointed; name {target} itself if the report belongs there"
            )
    if not folder.exists():
        return folder
    figures = folder / FIGURES_FOLDER
    if figures.is_symlink() and not figures.resolve().is_relative_to(folder.resolve()):
        raise OutputFolderError(
            f"{figures} is a symbolic link to {figures.resolve()}, outside {folder}: the figures would be "
            "written there; remove the link or name another folder"
        )
    if (figures.exists() or figures.is_symlink()) and not figures.is_dir():
        raise _not_a_folder(figures, "the figures go there; remove it or name another folder")
    page = folder / REPORT_FILE
    if page.is_dir() and not page.is_symlink():
        raise OutputFolderError(
            f"{page} is a folder, so the report cannot be written there; remove it or name another folder"
        )
    return folder


def _write(path: Path, data: bytes) -> None:
    """``data`` written to ``path`` through a temporary file renamed over it, with the permissions any new
    file gets under the user's umask (the temporary file is private until the rename)."""
    mask = os.umask(0)
    os.umask(mask)
    with atomic_path(path) as temporary:
        temporary.write_bytes(data)
        temporary.chmod(0o666 & ~mask)


def write_report_files(folder: str | Path, page: bytes, figures: Mapping[str, bytes]) -> Path:
    """Write ``figures`` (name -> PNG bytes) into ``FOLDER/figures``, then ``page`` as ``FOLDER/report.html``,
    each through a temporary file renamed over its name; return the page's path.

    Raises
    ------
    OutputFolderError
        As :func:`check_output_folder`, which is asked again here.
    OSError
        When a file cannot be written (no space, no permission); the files already written stay whole.
    """
    folder = check_output_folder(folder)
    (folder / FIGURES_FOLDER).mkdir(parents=True, exist_ok=True)
    for name, png in sorted(figures.items()):
        _write(folder / FIGURES_FOLDER / f"{name}.png", png)
    path = folder / REPORT_FILE
    _write(path, page)
    return path
