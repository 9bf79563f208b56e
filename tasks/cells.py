"""The unit of work of ``compare`` — a cell = (dataset, method, repeat, fold) — and its resumable store.

A cell loads its dataset by name (large data never travels through Prefect, which hashes task inputs),
rebuilds its split from the seed, derives example-dependent costs from the training rows only when the
dataset has a cost model, fits the method (with the paper's cost selection for fixed-cost methods), and scores
it on the test rows at every ensemble size T from one fit.

Results are persisted per cell as JSON under a key that hashes everything the result depends on: the data
fingerprint, the method and its parameters, the protocol and split, the ensemble sizes, the cost selection
and the seed. The store's default folder is ``cells/`` in the state folder (``$CSLEARN_HOME``,
:mod:`tasks.storage`); files are written atomically, so a crash never leaves half a result.
Re-running the same configuration skips every cell stored with status ``"ok"``; failed cells run again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import time
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from pydantic import BaseModel, ConfigDict

from schemas.flow_params import CompareParams
from tasks.cost_models import derive_split_costs
from tasks.evaluate import (
    decision_scores,
    derive_seed,
    evaluate_predictions,
    evaluate_staged,
    iter_split_ids,
    make_split,
    predict_labels,
    supports_staged,
    trace_curves,
)
from tasks.report.split_scores import pack_split_scores
from tasks.storage import atomic_write_bytes, state_home
from tasks.train import build_estimator, fit_with_cost_selection

__all__ = [
    "CellSpec",
    "CellStore",
    "DatasetInfo",
    "compute_cell",
    "default_cell_store",
    "describe_dataset",
    "describe_dataset_task",
    "load_finished_cells",
    "plan_cells",
    "run_cell",
]

#: Bump when the content of a cell result changes meaning, so old results are not reused.
#: 2: Bayes minimum risk cells decide with the test rows' costs (before: the class-level training costs).
#: 3: cells record ``tree_nodes``; the cell of repeat 0 / fold 0 keeps its test labels, scores and costs.
CELL_FORMAT_VERSION = 3


class DatasetInfo(BaseModel):
    """What the flow needs to know about a dataset without carrying its rows."""

    model_config = ConfigDict(frozen=True)

    name: str
    fingerprint: str
    n_rows: int
    n_features: int
    n_positive: int
    cost_model: str | None = None


class CellSpec(BaseModel):
    """Everything one cell's result depends on; ``key`` hashes it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dataset: str
    fingerprint: str
    cost_model: str | None = None
    method: str
    method_params: dict = {}
    protocol: str
    repeat: int
    fold: int
    n_folds: int
    holdout_test_fraction: float
    tvt_fractions: tuple[float, float, float]
    n_estimators: tuple[int, ...]
    cost_selection: str
    negative_costs: tuple[float, ...]
    inner_folds: int
    seed: int

    @property
    def key(self) -> str:
        """sha256 of the canonical JSON of the spec (plus the result format version)."""
        payload = json.dumps({"format": CELL_FORMAT_VERSION, **self.model_dump(mode="json")}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()

    @property
    def label(self) -> str:
        return f"{self.dataset}/{self.method}/r{self.repeat}f{self.fold}"


def default_cell_store() -> Path:
    """The default cell store folder: ``cells/`` in the state folder (``$CSLEARN_HOME``)."""
    return state_home() / "cells"


class CellStore:
    """Cell results on disk, one JSON file per cell key, written atomically (``tasks.storage``)."""

    def __init__(self, root: str | os.PathLike | None = None):
        self.root = Path(root) if root is not None else default_cell_store()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def load(self, key: str) -> dict | None:
        """The stored result of a cell, or ``None`` when absent or unreadable."""
        try:
            return json.loads(self.path(key).read_text())
        except (OSError, ValueError):
            return None

    def save(self, result: dict) -> Path:
        """Persist a result atomically under ``result["key"]``."""
        target = self.path(result["key"])
        atomic_write_bytes(target, json.dumps(result, default=_json_default).encode())
        return target


def _json_default(value):
    """numpy scalars and arrays in results (e.g. cost model parameters) as plain JSON values."""
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()
    raise TypeError(f"cell results must be JSON-serialisable; got {type(value).__name__}")


def _load_dataset(name: str):
    from tasks.datasets import load_dataset

    return load_dataset(name)


@functools.lru_cache(maxsize=4)
def _cached_arrays(name: str, fingerprint: str):
    """Features (pandas), float matrix and target of a dataset, cached per process by fingerprint."""
    dataset = _load_dataset(name)
    if dataset.fingerprint != fingerprint:
        raise ValueError(
            f"dataset {name!r} changed while the run was planned: fingerprint {dataset.fingerprint} "
            f"instead of {fingerprint}; rerun the command"
        )
    features = dataset.features
    return features, features.to_numpy(dtype=float), np.asarray(dataset.target)


def describe_dataset(name: str) -> DatasetInfo:
    """Load (ingesting on first use) a dataset and describe it: fingerprint, shape, positives, cost model."""
    dataset = _load_dataset(name)
    target = np.asarray(dataset.target)
    spec = getattr(dataset, "spec", None)
    return DatasetInfo(
        name=name,
        fingerprint=dataset.fingerprint,
        n_rows=int(target.shape[0]),
        n_features=int(dataset.features.shape[1]),
        n_positive=int((target == 1).sum()),
        cost_model=getattr(spec, "cost_model", None),
    )


@task(name="describe_dataset", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=5)
def describe_dataset_task(name: str) -> DatasetInfo:
    """Ingest (download, validate, cache) a dataset if needed and describe it (retried: I/O)."""
    return describe_dataset(name)


def _cost_matrices(spec: CellSpec, features, target, split):
    """Per-example costs of the training and test rows from a cost model fit on the training rows only.

    Returns ``(train costs, test costs, cost model parameters)``; all ``None`` without a cost model.
    """
    if spec.cost_model is None:
        return None, None, None
    costs = derive_split_costs(
        spec.cost_model, features.iloc[split.train], target[split.train], features.iloc[split.test]
    )
    return costs.train.values, costs.evaluated.values, costs.params()


def _evaluate(spec: CellSpec, model, staged: bool, features, target, cost_matrix) -> list[dict]:
    if staged:
        by_size = evaluate_staged(model, features, target, spec.n_estimators, cost_matrix)
        return [{"n_estimators": size, **metrics} for size, metrics in by_size.items()]
    predicted = predict_labels(model, features, cost_matrix)  # BMR decides with the test rows' costs
    metrics = evaluate_predictions(target, predicted, decision_scores(model, features), cost_matrix)
    return [{"n_estimators": None, **metrics}]


def compute_cell(spec: CellSpec, store: CellStore | None = None) -> dict:
    """Fit and evaluate one cell; persist and return its result (a failure is a result too).

    Returns
    -------
    dict
        ``key``, ``dataset``, ``method``, ``repeat``, ``fold``, ``status`` (``"ok"`` or ``"failed"``),
        ``error`` and ``traceback`` (failures), ``rows`` (one metrics dict per ensemble size, ``n_estimators``
        ``None`` for non-ensembles), ``negative_cost`` and ``selection_scores`` (fixed-cost methods),
        ``params`` (the fitted estimator's parameters), ``curves`` (boosting trace), ``fit_seconds``,
        ``n_train``, ``n_test``, ``tree_nodes`` (node count of a fitted tree, else ``None``) and
        ``split_scores`` (repeat 0 / fold 0 only: the test labels, decision scores and costs, packed by
        ``tasks.report.split_scores.pack_split_scores``, for ROC and cost curves).
    """
    started = time.perf_counter()
    result = {
        "key": spec.key,
        **spec.model_dump(mode="json"),
        "status": "ok",
        "error": None,
        "traceback": None,
    }
    try:
        frame, features, target = _cached_arrays(spec.dataset, spec.fingerprint)
        split = make_split(
            target,
            spec.protocol,
            repeat=spec.repeat,
            fold=spec.fold,
            n_folds=spec.n_folds,
            seed=spec.seed,
            holdout_test_fraction=spec.holdout_test_fraction,
            tvt_fractions=spec.tvt_fractions,
        )
        train_costs, test_costs, cost_params = _cost_matrices(spec, frame, target, split)
        estimator = build_estimator(
            spec.method, spec.method_params, random_state=derive_seed(spec.seed, spec.repeat, spec.fold, 2)
        )
        staged = supports_staged(estimator)
        if staged:
            estimator.set_params(n_estimators=max(spec.n_estimators))
        validation = None
        if split.validation.size and spec.cost_selection != "none":
            validation = (features[split.validation], target[split.validation])
        fitted = fit_with_cost_selection(
            estimator,
            features[split.train],
            target[split.train],
            cost_matrix=train_costs,
            cost_selection=spec.cost_selection,
            negative_costs=spec.negative_costs,
            inner_folds=spec.inner_folds,
            validation=validation,
            random_state=derive_seed(spec.seed, spec.repeat, spec.fold, 3),
        )
        result.update(
            rows=_evaluate(spec, fitted.model, staged, features[split.test], target[split.test], test_costs),
            negative_cost=fitted.negative_cost,
            selection_scores={str(cost): score for cost, score in fitted.selection_scores.items()},
            params={key: repr(value) for key, value in fitted.model.get_params(deep=False).items()},
            curves=trace_curves(fitted.model),
            cost_model_params=cost_params,
            fit_seconds=fitted.fit_seconds,
            n_train=int(split.train.size),
            n_test=int(split.test.size),
            tree_nodes=getattr(getattr(fitted.model, "tree_", None), "node_count", None),
            split_scores=pack_split_scores(
                target[split.test], decision_scores(fitted.model, features[split.test]), test_costs
            )
            if (spec.repeat, spec.fold) == (0, 0)
            else None,
        )
    except Exception as error:  # a failing cell is recorded; the others still run
        result.update(
            status="failed",
            error=f"{type(error).__name__}: {error}",
            traceback=traceback.format_exc(),
            rows=[],
            curves={},
        )
    result["seconds"] = time.perf_counter() - started
    if store is not None:
        store.save(result)
    return result


@task(name="run_cell", cache_policy=NO_CACHE, task_run_name="cell {spec.label}")
def run_cell(spec: CellSpec, store_root: str) -> dict:
    """Fit and evaluate one (dataset, method, repeat, fold) cell and persist its result (never retried)."""
    result = compute_cell(spec, CellStore(store_root))
    if result["status"] != "ok":
        get_run_logger().warning("cell %s failed: %s", spec.label, result["error"])
    return result


def load_finished_cells(store: CellStore, specs: Iterable[CellSpec]) -> dict[str, dict]:
    """Stored results with status ``"ok"`` of the given cells, by key (the cells a rerun skips)."""
    finished = {}
    for spec in specs:
        result = store.load(spec.key)
        if result is not None and result.get("status") == "ok":
            finished[spec.key] = result
    return finished


def plan_cells(
    params: CompareParams, datasets: Sequence[DatasetInfo], methods: Sequence[str]
) -> list[CellSpec]:
    """Every cell of a run, dataset-major, then method, repeat and fold."""
    return [
        CellSpec(
            dataset=info.name,
            fingerprint=info.fingerprint,
            cost_model=info.cost_model,
            method=method,
            method_params=dict(params.method_params.get(method, {})),
            protocol=params.protocol,
            repeat=repeat,
            fold=fold,
            n_folds=params.n_folds,
            holdout_test_fraction=params.holdout_test_fraction,
            tvt_fractions=params.tvt_fractions,
            n_estimators=params.n_estimators,
            cost_selection=params.cost_selection,
            negative_costs=params.negative_costs,
            inner_folds=params.inner_folds,
            seed=params.seed,
        )
        for info in datasets
        for method in methods
        for repeat, fold in iter_split_ids(params.protocol, params.n_repeats, params.n_folds)
    ]
