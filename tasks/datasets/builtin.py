"""``DATASETS``: every built-in dataset under a stable kebab-case name (sources and counts:
``docs/datasets.md``)."""

from __future__ import annotations

from tasks.datasets.builtin_offline import OFFLINE_DATASETS
from tasks.datasets.builtin_online import ONLINE_DATASETS
from tasks.datasets.spec import DatasetSpec

DATASETS: dict[str, DatasetSpec] = {spec.name: spec for spec in (*OFFLINE_DATASETS, *ONLINE_DATASETS)}

if len(DATASETS) != len(OFFLINE_DATASETS) + len(ONLINE_DATASETS):  # pragma: no cover - a definitions typo
    raise RuntimeError("two dataset definitions share a name")
