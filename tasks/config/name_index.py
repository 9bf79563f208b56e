"""A snapshot of the known names on disk (methods and datasets), so the command line checks names before
importing anything heavy.

Importing the estimators (scikit-learn, imbalanced-learn) and the data layer (pandas, pandera) takes seconds;
rejecting ``--methods adaboots`` should not. The snapshot holds what a first check of a configuration and
``cslearn methods list`` need:

- ``methods``: every method's :class:`tasks.config.method_info.MethodInfo` (derived from the estimators by
  :func:`tasks.config.method_info.describe_methods`);
- ``datasets``: every usable dataset name (registered and the user's, :func:`tasks.datasets.dataset_names`)
  with whether it has example-dependent costs and its rows and positives when known (a registered dataset's
  counts from its definition, a user dataset's from its record).

It is kept at ``$CSLEARN_HOME/index/names.json`` (written atomically) and trusted only while it is
fresh: the methods part while the sources of ``algorithms``, ``tasks`` and ``schemas`` are unchanged (a
digest of their paths, sizes and modification times), the datasets part while, in addition, the dataset
cache is the same folder (``CSLEARN_CACHE``) and its user-dataset folder is unchanged (its modification time
moves whenever a user dataset is ingested, replaced or deleted). A stale or unreadable part is rebuilt from
the code and the dataset cache.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from tasks.config.method_info import MethodInfo
from tasks.storage import atomic_write_bytes, state_home

__all__ = ["DatasetFacts", "NameIndex", "index_path", "name_index", "source_digest"]

#: Bump when the layout of the snapshot changes.
INDEX_FORMAT = 1

#: Packages whose sources the snapshot depends on.
_SOURCE_PACKAGES = ("algorithms", "tasks", "schemas")


@dataclass(frozen=True)
class DatasetFacts:
    """What a first check needs to know about a dataset: its kind, costs and counts (``None``: not known)."""

    name: str
    kind: str
    example_costs: bool
    rows: int | None
    positives: int | None


@dataclass(frozen=True)
class NameIndex:
    """The known methods and datasets as the snapshot holds them."""

    methods: dict[str, MethodInfo]
    datasets: dict[str, DatasetFacts]


def index_path() -> Path:
    """Where the snapshot is kept: ``index/names.json`` in the state folder (``$CSLEARN_HOME``)."""
    return state_home() / "index" / "names.json"


def source_digest() -> str:
    """sha256 of the path, size and modification time of every source file the snapshot depends on."""
    digest = hashlib.sha256()
    for package in _SOURCE_PACKAGES:
        spec = importlib.util.find_spec(package)
        for root in spec.submodule_search_locations or ():
            for path in sorted(Path(root).rglob("*.py")):
                status = path.stat()
                digest.update(
                    f"{package}/{path.relative_to(root)}:{status.st_size}:{status.st_mtime_ns}\n".encode()
                )
    return digest.hexdigest()


def _dataset_cache_key() -> dict:
    """What the datasets part depends on besides the code: the cache setting and the user folder's state."""
    from tasks.datasets import resolve_cache_dir
    from tasks.datasets.records import USER_FOLDER

    folder = resolve_cache_dir() / "datasets" / USER_FOLDER
    return {
        "cache_setting": os.environ.get("CSLEARN_CACHE"),
        "user_folder": str(folder),
        "user_folder_state": _folder_state(folder),
    }


def _folder_state(folder: str | os.PathLike) -> int | None:
    try:
        return os.stat(folder).st_mtime_ns
    except OSError:
        return None


def _datasets_part_is_fresh(part: dict) -> bool:
    return (
        part.get("cache_setting") == os.environ.get("CSLEARN_CACHE")
        and "user_folder" in part
        and part.get("user_folder_state") == _folder_state(part["user_folder"])
    )


def _counts(entry) -> tuple[int | None, int | None]:
    if entry.kind == "user":
        record = entry.record or {}
        return record.get("rows"), record.get("positives")
    return entry.spec.expected_rows, entry.spec.expected_positives


def _build_datasets_part() -> dict:
    from tasks.datasets import available_datasets

    key = _dataset_cache_key()
    facts = {}
    for name, entry in available_datasets().items():
        rows, positives = _counts(entry)
        facts[name] = asdict(DatasetFacts(name, entry.kind, entry.has_example_costs, rows, positives))
    return {**key, "entries": facts}


def _build_methods_part() -> dict:
    from tasks.config.method_info import describe_methods

    return {key: info.to_dict() for key, info in describe_methods().items()}


def _read(path: Path) -> dict:
    try:
        snapshot = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return snapshot if isinstance(snapshot, dict) and snapshot.get("format") == INDEX_FORMAT else {}


def _parse(snapshot: dict) -> NameIndex:
    return NameIndex(
        methods={key: MethodInfo.from_dict(record) for key, record in snapshot["methods"].items()},
        datasets={name: DatasetFacts(**record) for name, record in snapshot["datasets"]["entries"].items()},
    )


def name_index() -> NameIndex:
    """The snapshot, with any stale or unreadable part rebuilt from the code and the cache (and written back).

    Reading a fresh snapshot imports neither ``algorithms`` nor the data layer.
    """
    path = index_path()
    snapshot = _read(path)
    code = source_digest()
    changed = False
    if snapshot.get("code") != code:
        snapshot = {"format": INDEX_FORMAT, "code": code, "methods": _build_methods_part()}
        changed = True
    if not isinstance(snapshot.get("datasets"), dict) or not _datasets_part_is_fresh(snapshot["datasets"]):
        snapshot["datasets"] = _build_datasets_part()
        changed = True
    try:
        parsed = _parse(snapshot)
    except (KeyError, TypeError, ValueError):  # a damaged part that still looked fresh: rebuild both
        snapshot = {
            "format": INDEX_FORMAT,
            "code": code,
            "methods": _build_methods_part(),
            "datasets": _build_datasets_part(),
        }
        parsed, changed = _parse(snapshot), True
    if changed:
        atomic_write_bytes(path, json.dumps(snapshot, indent=1).encode())
    return parsed
