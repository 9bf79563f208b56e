"""Where a dataset's cache entry lives, which names it may have, and reading its record back safely.

Every path the data layer writes for a dataset comes from :func:`entry_paths`, which accepts only a valid
name (:data:`~schemas.dataset_record.DATASET_NAME_PATTERN`) and checks that the resolved paths stay inside
their folder (``datasets/`` for registered datasets, ``datasets/user/`` for a user's), so neither a name
like ``../pima`` or ``/elsewhere/abs`` nor a symlink planted in the cache can send a write elsewhere.

:func:`read_record` returns a record only after :mod:`schemas.dataset_record` accepted it; anything else
(not JSON, ``[]``, a wrong field, another format version, a record written for another name) raises
:class:`DamagedRecordError`, which names the file and the reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pydantic

from schemas.dataset_record import DATASET_NAME_PATTERN, DatasetRecord, UserDatasetRecord

#: Sub-folder of ``datasets/`` holding users' own datasets.
USER_FOLDER = "user"


class DamagedRecordError(ValueError):
    """A cache record exists but cannot be trusted; ``path`` is the file and ``reason`` says why."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"{path} is damaged: {reason}")
        self.path = Path(path)
        self.reason = reason


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a dataset name, or ``None`` if it can."""
    if re.fullmatch(DATASET_NAME_PATTERN, name):
        return None
    return (
        f"{name!r} is not a valid dataset name: use 1 to 64 lowercase letters, digits, '-' and '_', "
        "starting with a letter or digit (no '/', '.', spaces or capitals), e.g. 'loans-2024'"
    )


@dataclass(frozen=True)
class EntryPaths:
    """The two files of one cache entry: the canonical parquet and its record (written last)."""

    parquet: Path
    record: Path


def entry_paths(cache_dir: Path, name: str, *, user: bool = False) -> EntryPaths:
    """The entry of ``name`` under ``cache_dir/datasets`` (``datasets/user`` when ``user``), checked.

    Raises
    ------
    ValueError
        If ``name`` is not a valid dataset name, or a path resolves outside its folder (a symlink).
    """
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    folder = Path(cache_dir) / "datasets"
    if user:
        folder = folder / USER_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    root = folder.resolve()
    paths = EntryPaths(folder / f"{name}.parquet", folder / f"{name}.json")
    for path in (paths.parquet, paths.record):
        if path.resolve().parent != root:
            raise ValueError(
                f"refusing to use {path}: it resolves to {path.resolve()}, outside {root} "
                "(a symlink in the cache?); remove it"
            )
    return paths


def _describe_validation_error(error: pydantic.ValidationError) -> str:
    problems = []
    for detail in error.errors()[:3]:
        where = ".".join(str(part) for part in detail["loc"])
        value = detail.get("input")
        shown = repr(value) if not isinstance(value, dict) else "{...}"
        problems.append(f"{where + ': ' if where else ''}{detail['msg']} (found {shown[:60]})")
    more = f" and {error.error_count() - 3} more" if error.error_count() > 3 else ""
    return "; ".join(problems) + more


def read_record(path: Path, name: str, *, user: bool = False) -> dict:
    """The validated record at ``path`` for the dataset ``name`` (the JSON values as written).

    Raises
    ------
    FileNotFoundError
        If there is no record.
    DamagedRecordError
        If the record is unreadable, not valid JSON, breaks the record schema, has another format version,
        or was written for another name.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as error:
        raise DamagedRecordError(path, f"unreadable ({error})") from error
    try:
        record = json.loads(text)
    except ValueError as error:
        raise DamagedRecordError(path, f"not valid JSON ({error})") from error
    if not isinstance(record, dict):
        raise DamagedRecordError(path, f"expected a JSON object, found {type(record).__name__} {text[:40]!r}")
    model = UserDatasetRecord if user else DatasetRecord
    try:
        model.model_validate(record)
    except pydantic.ValidationError as error:
        raise DamagedRecordError(path, _describe_validation_error(error)) from error
    if record["name"] != name:
        raise DamagedRecordError(path, f"it records the dataset {record['name']!r}, not {name!r}")
    return record
