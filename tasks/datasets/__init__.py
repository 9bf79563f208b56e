"""The data layer: the built-in datasets, users' own datasets, their sources and cache, and ingestion.

Public contract (``docs/architecture.md``)::

    DATASETS: dict[str, DatasetSpec]                        # the registered datasets
    dataset_names(*, cache_dir=None) -> tuple[str, ...]     # every usable name: registered + user-ingested
    available_datasets(*, cache_dir=None) -> dict[str, DatasetEntry]
    dataset_entry(name, *, cache_dir=None) -> DatasetEntry  # kind, spec, cache record, costs, problem
    load_dataset(name, *, cache_dir=None) -> Dataset        # either kind (a registered one: ingested once)
    ingest_file(path, *, target, positive=None, cost_columns=None, name=None, ...) -> Dataset  # a user's file
"""

from tasks.datasets.builtin import DATASETS
from tasks.datasets.cache import CACHE_ENVIRONMENT_VARIABLE, ChecksumError, resolve_cache_dir
from tasks.datasets.catalog import available_datasets, dataset_entry, dataset_names, load_dataset
from tasks.datasets.downloads import DownloadError, HttpOptions
from tasks.datasets.ingestion import content_fingerprint, ingest_dataset
from tasks.datasets.records import DamagedRecordError
from tasks.datasets.spec import Dataset, DatasetEntry, DatasetSpec
from tasks.datasets.user_files import UserDatasetError, ingest_file, reingest_user_dataset

__all__ = [
    "CACHE_ENVIRONMENT_VARIABLE",
    "DATASETS",
    "ChecksumError",
    "DamagedRecordError",
    "Dataset",
    "DatasetEntry",
    "DatasetSpec",
    "DownloadError",
    "HttpOptions",
    "UserDatasetError",
    "available_datasets",
    "content_fingerprint",
    "dataset_entry",
    "dataset_names",
    "ingest_dataset",
    "ingest_file",
    "load_dataset",
    "reingest_user_dataset",
    "resolve_cache_dir",
]
