"""The data layer: the dataset registry, its sources and cache, and ingestion into canonical parquet.

Public contract (``docs/architecture.md``)::

    DATASETS: dict[str, DatasetSpec]
    load_dataset(name, *, cache_dir=None) -> Dataset       # ingests on first use, then reads the cache
    ingest_file(path, *, target, positive=None, cost_columns=None) -> Dataset   # a user's CSV / parquet
"""

from tasks.datasets.cache import CACHE_ENVIRONMENT_VARIABLE, ChecksumError, resolve_cache_dir
from tasks.datasets.downloads import DownloadError, HttpOptions
from tasks.datasets.ingest import content_fingerprint, ingest_dataset, ingest_file, load_dataset
from tasks.datasets.registry import DATASETS
from tasks.datasets.spec import Dataset, DatasetSpec

__all__ = [
    "CACHE_ENVIRONMENT_VARIABLE",
    "DATASETS",
    "ChecksumError",
    "Dataset",
    "DatasetSpec",
    "DownloadError",
    "HttpOptions",
    "content_fingerprint",
    "ingest_dataset",
    "ingest_file",
    "load_dataset",
    "resolve_cache_dir",
]
