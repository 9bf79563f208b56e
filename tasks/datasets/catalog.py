"""Every usable dataset under one name space: the registered ones and those a user ingested from a file.

This is what callers (flows, the CLI) use to list, validate, describe and load datasets by name:

- :func:`dataset_names` -- every usable name, built-in first (in definition order), then user datasets
  (sorted); what a flow passes as the ``datasets`` validation context of its parameters;
- :func:`available_datasets` / :func:`dataset_entry` -- a :class:`~tasks.datasets.spec.DatasetEntry` per
  name (kind, spec, cache record, cost model or cost columns, and any problem with the cache entry), without
  loading the data;
- :func:`load_dataset` -- the :class:`~tasks.datasets.spec.Dataset` of either kind.

A user dataset never takes a registered name (refused at ingestion); one found in the cache under a
registered name (copied there by hand) is skipped with a warning.
"""

from __future__ import annotations

import logging

from tasks.datasets.builtin import DATASETS
from tasks.datasets.cache import resolve_cache_dir
from tasks.datasets.ingestion import cached_record, ingest_dataset
from tasks.datasets.spec import Dataset, DatasetEntry
from tasks.datasets.user_files import load_user_dataset, user_dataset_entry, user_dataset_names

logger = logging.getLogger(__name__)


def _user_names(cache_dir) -> list[str]:
    names = user_dataset_names(cache_dir)
    shadowed = [name for name in names if name in DATASETS]
    if shadowed:
        logger.warning(
            "user dataset(s) %s in the cache have the name of a registered dataset and are ignored; "
            "ingest them again under another --name",
            shadowed,
        )
    return [name for name in names if name not in DATASETS]


def dataset_names(*, cache_dir=None) -> tuple[str, ...]:
    """Every usable dataset name: the built-in ones (in definition order), then the user's (sorted)."""
    return (*DATASETS, *_user_names(resolve_cache_dir(cache_dir)))


def _unknown(name: str, cache_dir) -> KeyError:
    users = _user_names(cache_dir)
    listed = f"; user datasets: {', '.join(users)}" if users else ""
    return KeyError(f"unknown dataset {name!r}; known datasets: {', '.join(sorted(DATASETS))}{listed}")


def dataset_entry(name: str, *, cache_dir=None) -> DatasetEntry:
    """What is known about the dataset ``name`` without loading it.

    Raises
    ------
    KeyError
        If ``name`` is neither registered nor a user dataset in the cache (the message lists both kinds).
    """
    cache = resolve_cache_dir(cache_dir)
    if name in DATASETS:
        record, problem = cached_record(DATASETS[name], cache)
        if problem is not None:
            problem += f"; it is rebuilt from the source on the next load (`cslearn datasets ingest {name}`)"
        return DatasetEntry(name, "registered", DATASETS[name], record, problem)
    entry = user_dataset_entry(name, cache)
    if entry is None:
        raise _unknown(name, cache)
    return entry


def available_datasets(*, cache_dir=None) -> dict[str, DatasetEntry]:
    """A :class:`~tasks.datasets.spec.DatasetEntry` per name of :func:`dataset_names`, in that order."""
    cache = resolve_cache_dir(cache_dir)
    return {name: dataset_entry(name, cache_dir=cache) for name in dataset_names(cache_dir=cache)}


def load_dataset(name: str, *, cache_dir=None, progress: bool = False) -> Dataset:
    """The dataset ``name``: registered (ingested on first use, read from the cache after) or the user's.

    A registered dataset's damaged cache entry is rebuilt from its source; a user dataset's damaged parquet
    is rebuilt from its source file when that is unchanged (see :func:`load_user_dataset`).

    Raises
    ------
    KeyError
        If ``name`` is unknown (the message lists the known names).
    tasks.datasets.user_files.UserDatasetError
        A ``ValueError``: the user dataset cannot be loaded; the message names the damaged file and the fix.
    """
    if name in DATASETS:
        return ingest_dataset(DATASETS[name], cache_dir=cache_dir, progress=progress)
    cache = resolve_cache_dir(cache_dir)
    try:
        return load_user_dataset(name, cache_dir=cache)
    except KeyError:
        raise _unknown(name, cache) from None
