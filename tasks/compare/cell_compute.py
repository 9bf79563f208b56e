"""One ``compare`` cell, (dataset, method, repeat, fold), computed; and its resumable store. No Prefect.

This is the code a cell worker process runs (``tasks.fitting.fit_pool``): it imports the estimators, the cost
models and the metrics, and nothing of Prefect, MLflow or the report (an import-linter contract keeps it so),
so a worker starts in the time of those imports instead of the flow's. :mod:`tasks.compare.cells` wraps it in
Prefect tasks and plans the cells.

A cell loads its dataset by name (large data never travels through Prefect, which hashes task inputs),
rebuilds its split from the seed, takes example-dependent costs when the dataset has them (a registered
dataset's cost model fit on the training rows only, or a user dataset's own cost columns indexed by the
split's rows), draws the training set from the training rows (as they are, or resampled as in the CSDT
paper: :mod:`tasks.fitting.training_sets`), fits the method (with the paper's cost selection for fixed-cost
methods; under ``tvt`` a pruned tree is pruned on the validation split), and scores it on the test rows at
every ensemble size T from one fit.

Results are persisted per cell as JSON under a key that hashes everything the result depends on: the data
fingerprint, the method and its parameters, the protocol and split, the ensemble sizes, the cost selection
and the seed. The store's default folder is ``cells/`` in the state folder (``$CSLEARN_HOME``,
:mod:`tasks.storage`); files are written atomically, so a crash never leaves half a result. Each record
carries its format version and a sha256 checksum of its content. A record read back is trusted only when it
is valid (:func:`check_cell_record`: JSON object, this format, the schema of :class:`CellSpec` and
:class:`CellResult`, its own key, its checksum); an invalid one is treated like a missing one, with a
warning naming the file, and the cell is computed again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import socket
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from tasks.cost_models import derive_split_costs
from tasks.fitting.cost_selection import fit_with_cost_selection
from tasks.fitting.estimators import build_estimator
from tasks.fitting.evaluate import (
    decision_scores,
    evaluate_predictions,
    evaluate_staged,
    positive_probability,
    predict_labels,
    supports_staged,
    trace_curves,
)
from tasks.fitting.split_scores import pack_split_scores
from tasks.fitting.splits import derive_seed, make_split
from tasks.fitting.training_sets import resample_training_set
from tasks.storage import atomic_write_bytes, inside, state_home

__all__ = [
    "CELL_FORMAT_VERSION",
    "CellResult",
    "CellSpec",
    "CellStore",
    "DatasetInfo",
    "DatasetUnavailableError",
    "cell_store_folder",
    "check_cell_record",
    "compute_cell",
    "default_cell_store",
    "describe_dataset",
    "record_checksum",
]

#: Bump when the content of a cell result changes meaning, so old results are not reused.
#: 2: Bayes minimum risk cells decide with the test rows' costs (before: the class-level training costs).
#: 3: cells record ``tree_nodes``; the cell of repeat 0 / fold 0 keeps its test labels, scores and costs.
#: 4: records carry ``format`` and ``checksum``; a user dataset's cost columns are part of the spec.
#: 5: boosting with a cost matrix derives costs from regrets (issue 8); AdaMEC and the calibrated variants
#:    decide with the test rows' costs.
#: 6: fixed-cost methods with a cost matrix select C- by savings
#:    (``tasks.fitting.cost_selection.regret_scale_grid``); votes that cancel up to rounding are a tie (AdaCC1
#:    after a constant first stump).
#: 7: cells of models with probabilities on cost datasets record expected cost and expected savings;
#:    keys hash the whole spec.
CELL_FORMAT_VERSION = 7

logger = logging.getLogger(__name__)


class DatasetInfo(BaseModel):
    """What the flow needs to know about a dataset without carrying its rows.

    ``cost_model`` names a registered dataset's cost model; ``cost_columns`` are a user dataset's own cost
    columns (C_FP, C_FN, C_TP, C_TN). At most one is set; neither for a dataset without example costs.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    fingerprint: str
    n_rows: int
    n_features: int
    n_positive: int
    cost_model: str | None = None
    cost_columns: tuple[str, ...] = ()


class CellSpec(BaseModel):
    """Everything one cell's result depends on; ``key`` hashes it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dataset: str
    fingerprint: str
    cost_model: str | None = None
    cost_columns: tuple[str, ...] = ()
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
    training_set: str = "train"

    @property
    def key(self) -> str:
        """sha256 of the canonical JSON of the spec and the result format version (a cell of another version
        never matches)."""
        payload = json.dumps({"format": CELL_FORMAT_VERSION, **self.model_dump(mode="json")}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()

    @property
    def label(self) -> str:
        return f"{self.dataset}/{self.method}/r{self.repeat}f{self.fold}"


def default_cell_store() -> Path:
    """The default cell store folder: ``cells/`` in the state folder (``$CSLEARN_HOME``)."""
    return state_home() / "cells"


def cell_store_folder(folder: str | None = None) -> Path:
    """The cell store ``folder`` of the state folder (default ``cells``), resolved and checked to stay
    inside it (``tasks.storage.inside``: a symlink pointing out is refused)."""
    return inside(state_home(), folder or "cells")


class CellStore:
    """Cell results on disk, one JSON file per cell key, written atomically (``tasks.storage``)."""

    def __init__(self, root: str | os.PathLike | None = None):
        self.root = Path(root) if root is not None else default_cell_store()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def load(self, key: str, warn: Callable[[str], None] | None = None) -> dict | None:
        """The stored result of a cell, or ``None`` when absent, unreadable or invalid.

        An unreadable or invalid file (:func:`check_cell_record`) is reported with a warning that names it
        (through ``warn``, by default this module's logger; :mod:`tasks.compare.cells` passes the flow run's),
        and treated as absent: the cell is computed again and the file replaced.
        """
        warn = warn or logger.warning
        path = self.path(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            warn(f"cell file {path} cannot be read ({error}); computing the cell again")
            return None
        record, problem = check_cell_record(text, key)
        if problem is not None:
            warn(f"cell file {path} {problem}; computing the cell again")
        return record

    def save(self, result: dict) -> Path:
        """Persist a result atomically under ``result["key"]``, with its :func:`record_checksum`."""
        record = json.loads(json.dumps(result, default=_json_default))
        record.pop("checksum", None)
        record["checksum"] = record_checksum(record)
        target = self.path(result["key"])
        atomic_write_bytes(target, json.dumps(record).encode())
        return target


class CellResult(BaseModel):
    """The outcome part of a stored cell record (the rest is its :class:`CellSpec`): see
    :func:`compute_cell`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal[CELL_FORMAT_VERSION]
    key: str
    checksum: str
    status: Literal["ok", "failed"]
    error: str | None
    traceback: str | None
    rows: list[dict[str, float | int | None]]
    curves: dict[str, list[float | None]]
    seconds: float
    cpu_seconds: float | None = None
    negative_cost: float | None = None
    selection_scores: dict[str, float | None] = {}
    params: dict[str, str] = {}
    cost_model_params: dict | None = None
    fit_seconds: float | None = None
    n_train: int | None = None
    n_test: int | None = None
    tree_nodes: int | None = None
    split_scores: dict | None = None
    started_at: float | None = None
    ended_at: float | None = None


def record_checksum(record: dict) -> str:
    """sha256 of the canonical JSON of a cell record without its ``checksum`` field."""
    content = {name: value for name, value in record.items() if name != "checksum"}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def check_cell_record(text: str, key: str) -> tuple[dict | None, str | None]:
    """``(record, None)`` when ``text`` is a valid record of the cell ``key``, else ``(None, why not)``.

    Valid means: a JSON object of format :data:`CELL_FORMAT_VERSION` whose checksum matches its content,
    whose spec fields form a :class:`CellSpec` that hashes to ``key``, whose other fields form a
    :class:`CellResult` with that ``key``, and whose status ``"ok"`` comes with metrics.
    """
    try:
        record = json.loads(text)
    except ValueError as error:
        return None, f"is not valid JSON ({error})"
    if not isinstance(record, dict):
        return None, f"holds a JSON {type(record).__name__}, not a cell record"
    if "format" not in record:
        return None, "has no format version: it is not a cell record of this cslearn"
    if record["format"] != CELL_FORMAT_VERSION:
        return None, f"has format {record['format']!r}, not {CELL_FORMAT_VERSION} (another cslearn version)"
    if record.get("checksum") != record_checksum(record):
        return None, "does not match its checksum (its content was edited or damaged)"
    spec_fields = set(CellSpec.model_fields)
    try:
        spec = CellSpec.model_validate({name: record.get(name) for name in spec_fields if name in record})
        CellResult.model_validate({name: value for name, value in record.items() if name not in spec_fields})
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return None, f"is not a valid cell record ({error.error_count()} problem(s); {where}: {first['msg']})"
    if record["key"] != key or spec.key != key:
        return None, f"holds the cell {record['key'][:12]}..., not {key[:12]}... (a file copied or renamed)"
    if record["status"] == "ok" and not record["rows"]:
        return None, "says ok but holds no metrics"
    return record, None


def _json_default(value):
    """numpy scalars and arrays in results (e.g. cost model parameters) as plain JSON values."""
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()
    raise TypeError(f"cell results must be JSON-serialisable; got {type(value).__name__}")


def _load_dataset(name: str):
    from tasks.datasets import load_dataset

    return load_dataset(name)


class DatasetUnavailableError(LookupError):
    """A cell's dataset is not in the dataset cache of the process that runs the cell (a Dask worker on a
    machine without the user's dataset); the message names the dataset, the cache and how to provide it."""


def _dask_worker() -> str | None:
    """The address of the Dask worker running this code, or ``None`` outside one (Dask itself is not
    imported: a worker process has it loaded already)."""
    distributed = sys.modules.get("distributed")
    if distributed is None:
        return None
    try:
        return distributed.get_worker().address
    except ValueError:  # loaded, but this is not a worker
        return None


def _unavailable(name: str) -> DatasetUnavailableError:
    """Why the user dataset ``name`` cannot be loaded here, in the user's terms (README: Running on a Dask
    cluster)."""
    from tasks.datasets import resolve_cache_dir

    worker = _dask_worker()
    who = f"Dask worker {worker}" if worker else "the process that ran this cell"
    return DatasetUnavailableError(
        f"dataset {name!r} is not in the dataset cache of {who} ({resolve_cache_dir()} on "
        f"{socket.gethostname()}): ingest it on every worker machine (`cslearn datasets ingest FILE --target "
        f"COLUMN --name {name}`) or point CSLEARN_CACHE at a folder all workers share, then rerun "
        "(docs/usage.md: Running on a Dask cluster)"
    )


@functools.lru_cache(maxsize=4)
def _cached_arrays(name: str, fingerprint: str):
    """Features (pandas), float matrix, target and own cost matrix (or ``None``) of a dataset, cached per
    process by fingerprint.

    Raises
    ------
    DatasetUnavailableError
        The dataset is not in this process's cache (a user dataset a Dask worker does not have).
    """
    try:
        dataset = _load_dataset(name)
    except KeyError:  # only a user dataset can be unknown here: a registered one is ingested on first use
        raise _unavailable(name) from None
    if dataset.fingerprint != fingerprint:
        raise ValueError(
            f"dataset {name!r} changed while the run was planned: fingerprint {dataset.fingerprint} "
            f"instead of {fingerprint}; rerun the command"
        )
    features = dataset.features
    return features, features.to_numpy(dtype=float), np.asarray(dataset.target), dataset.cost_matrix


def describe_dataset(name: str) -> DatasetInfo:
    """Load (ingesting on first use) a dataset and describe it: fingerprint, shape, positives, costs."""
    dataset = _load_dataset(name)
    target = np.asarray(dataset.target)
    spec = getattr(dataset, "spec", None)
    has_columns = getattr(dataset, "cost_matrix", None) is not None
    return DatasetInfo(
        name=name,
        fingerprint=dataset.fingerprint,
        n_rows=int(target.shape[0]),
        n_features=int(dataset.features.shape[1]),
        n_positive=int((target == 1).sum()),
        cost_model=getattr(spec, "cost_model", None),
        cost_columns=tuple(dataset.metadata.get("cost_columns", ())) if has_columns else (),
    )


def _cost_matrices(spec: CellSpec, features, target, own_costs, split):
    """Per-example costs of the training, test and validation rows: a user dataset's own cost columns at the
    split's rows, or a registered cost model fit on the training rows only.

    Returns ``(train costs, test costs, validation costs, parameters)``; all ``None`` without
    example-dependent costs (the validation costs are empty when the split has no validation rows).
    """
    if spec.cost_columns:
        return (
            own_costs[split.train],
            own_costs[split.test],
            own_costs[split.validation],
            {"cost_columns": list(spec.cost_columns)},
        )
    if spec.cost_model is None:
        return None, None, None, None
    scored = np.concatenate([split.test, split.validation])
    costs = derive_split_costs(
        spec.cost_model, features.iloc[split.train], target[split.train], features.iloc[scored]
    )
    evaluated = costs.evaluated.values
    return costs.train.values, evaluated[: split.test.size], evaluated[split.test.size :], costs.params()


def _pruning_set(estimator, split, features, target, validation_costs):
    """The validation rows (and their costs) a pruned tree is pruned on under the ``tvt`` protocol (CSDT
    paper, Section 4.2: pruning on a validation set); ``None`` when there is no validation split or the
    estimator prunes nothing (it then holds out its own ``validation_fraction``)."""
    if not split.validation.size or estimator.get_params(deep=False).get("pruning") is None:
        return None
    rows = (features[split.validation], target[split.validation])
    return rows if validation_costs is None else (*rows, validation_costs)


def _evaluate(spec: CellSpec, model, staged: bool, features, target, cost_matrix) -> list[dict]:
    if staged:
        by_size = evaluate_staged(model, features, target, spec.n_estimators, cost_matrix)
        return [{"n_estimators": size, **metrics} for size, metrics in by_size.items()]
    predicted = predict_labels(model, features, cost_matrix)  # BMR decides with the test rows' costs
    probabilities = positive_probability(model, features) if cost_matrix is not None else None
    metrics = evaluate_predictions(
        target, predicted, decision_scores(model, features), cost_matrix, probabilities
    )
    return [{"n_estimators": None, **metrics}]


def compute_cell(spec: CellSpec, store: CellStore | None = None) -> dict:
    """Fit and evaluate one cell; persist and return its result (a failure is a result too).

    Returns
    -------
    dict
        ``format``, ``key``, the spec's fields, ``status`` (``"ok"`` or ``"failed"``),
        ``error`` and ``traceback`` (failures), ``rows`` (one metrics dict per ensemble size, ``n_estimators``
        ``None`` for non-ensembles), ``negative_cost`` and ``selection_scores`` (fixed-cost methods),
        ``params`` (the fitted estimator's parameters), ``curves`` (boosting trace), ``fit_seconds``,
        ``n_train`` (rows of the training set, after any resampling), ``n_test``, ``tree_nodes`` (node
        count of a fitted tree, else ``None``), ``seconds`` (wall), ``cpu_seconds`` (CPU time of the
        thread that ran the cell: what the cell costs on a shared machine, where wall time depends on the
        load; helper threads of the stump search, which run only when a CPU is idle, are not counted),
        ``split_scores`` (repeat 0 / fold 0 only: the test labels, decision scores and costs, packed by
        ``tasks.fitting.split_scores.pack_split_scores``, for ROC and cost curves), ``started_at`` and
        ``ended_at`` (wall-clock seconds since the epoch: the child run's real start and end times).
    """
    started_at = time.time()
    started, started_cpu = time.perf_counter(), time.thread_time()
    result = {
        "format": CELL_FORMAT_VERSION,
        "key": spec.key,
        **spec.model_dump(mode="json"),
        "status": "ok",
        "error": None,
        "traceback": None,
    }
    try:
        frame, features, target, own_costs = _cached_arrays(spec.dataset, spec.fingerprint)
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
        train_costs, test_costs, validation_costs, cost_params = _cost_matrices(
            spec, frame, target, own_costs, split
        )
        training = resample_training_set(
            spec.training_set,
            features[split.train],
            target[split.train],
            train_costs,
            random_state=derive_seed(spec.seed, spec.repeat, spec.fold, 4),
        )
        estimator = build_estimator(
            spec.method, spec.method_params, random_state=derive_seed(spec.seed, spec.repeat, spec.fold, 2)
        )
        staged = supports_staged(estimator)
        if staged:
            estimator.set_params(n_estimators=max(spec.n_estimators))
        pruning_set = _pruning_set(estimator, split, features, target, validation_costs)
        validation = None
        if split.validation.size and spec.cost_selection != "none":
            validation = (features[split.validation], target[split.validation])
            if training.cost_matrix is not None:  # selection by savings on the validation rows' costs
                validation = (*validation, validation_costs)
        fitted = fit_with_cost_selection(
            estimator,
            training.features,
            training.target,
            cost_matrix=training.cost_matrix,
            cost_selection=spec.cost_selection,
            negative_costs=spec.negative_costs,
            inner_folds=spec.inner_folds,
            validation=validation,
            random_state=derive_seed(spec.seed, spec.repeat, spec.fold, 3),
            fit_params={"validation": pruning_set} if pruning_set is not None else None,
        )
        result.update(
            rows=_evaluate(spec, fitted.model, staged, features[split.test], target[split.test], test_costs),
            negative_cost=fitted.negative_cost,
            selection_scores={str(cost): score for cost, score in fitted.selection_scores.items()},
            params={key: repr(value) for key, value in fitted.model.get_params(deep=False).items()},
            curves=trace_curves(fitted.model),
            cost_model_params=cost_params,
            fit_seconds=fitted.fit_seconds,
            n_train=int(training.target.size),
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
    result["cpu_seconds"] = time.thread_time() - started_cpu
    result["started_at"], result["ended_at"] = started_at, time.time()
    if store is not None:
        store.save(result)
    return result
