"""``DATASETS``: every dataset of ``../shared/spec/datasets.md`` under a stable kebab-case name."""

from __future__ import annotations

from tasks.datasets.builtin_offline import OFFLINE_DATASETS
from tasks.datasets.builtin_online import ONLINE_DATASETS
from tasks.datasets.spec import DatasetSpec

DATASETS: dict[str, DatasetSpec] = {spec.name: spec for spec in (*OFFLINE_DATASETS, *ONLINE_DATASETS)}

if len(DATASETS) != len(OFFLINE_DATASETS) + len(ONLINE_DATASETS):  # pragma: no cover - a registry typo
    raise RuntimeError("two registry entries share a name")
