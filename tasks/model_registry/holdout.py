"""The deterministic holdout of a retrain and the data every candidate and the champion are scored on.

* :func:`make_holdout` draws the holdout: stratified, seeded by the root seed AND the dataset fingerprint, so
  the same data and seed always give the same rows, and new data gives a new holdout.
* :func:`make_time_holdout` splits a dataset with a time column out of time, as credit and fraud models are
  validated: the holdout is the most recent window (a share of the time range, or a duration), the training
  rows are those before it.
* :func:`prepare_retrain_data` splits a business dataset into training rows and the holdout and derives both
  sides' cost matrices from a cost model fit on the training rows only (``tasks.cost_models``), or, for a
  user dataset ingested with its own cost columns, indexes those by the split's rows.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from sklearn.model_selection import train_test_split

from schemas import flow_params
from tasks.cost_models import CostModel, derive_split_costs
from tasks.datasets import load_dataset
from tasks.datasets.encoding import RawEncoding
from tasks.fitting.splits import derive_seed, make_split
from tasks.redaction import redact_uri

__all__ = [
    "HOLDOUT_WINDOW_PATTERN",
    "Holdout",
    "RetrainData",
    "holdout_seed",
    "make_holdout",
    "make_time_holdout",
    "window_seconds",
    "prepare_retrain_data",
    "prepare_retrain_data_task",
]


#: A holdout window: a share of the time range (``0.2``, ``20%``) or a duration (``90min``, ``6h``, ``30d``,
#: ``2w``, ``3600s``; a numeric time column counts in seconds). The flow parameter's pattern.
HOLDOUT_WINDOW_PATTERN = flow_params.HOLDOUT_WINDOW_PATTERN

_DURATION_SECONDS = {"s": 1, "min": 60, "h": 3600, "d": 86_400, "w": 604_800}


def window_seconds(window: str, time_range: float) -> float:
    """The holdout window in seconds of the time column: a share of ``time_range`` or a duration."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(s|min|h|d|w)", window)
    if match:
        return float(match[1]) * _DURATION_SECONDS[match[2]]
    share = float(window.removesuffix("%")) / 100 if window.endswith("%") else float(window)
    if not 0 < share < 1:
        raise ValueError(
            f"holdout window {window!r}: a share of the time range is between 0 and 1 (or 1% to 99%)"
        )
    return share * time_range


@dataclass(frozen=True)
class Holdout:
    """Row indices of the training split and of the holdout, and the key that identifies the holdout."""

    train: np.ndarray
    holdout: np.ndarray
    key: str
    cutoff: float | None = None


def holdout_seed(seed: int, fingerprint: str) -> int:
    """The holdout's seed: ``derive_seed(seed, h)`` with ``h`` the first 32 bits of SHA-256(fingerprint)."""
    fingerprint_bits = int.from_bytes(hashlib.sha256(fingerprint.encode()).digest()[:4], "big")
    return derive_seed(seed, fingerprint_bits)


def capped_rows(target: np.ndarray, *, split_seed: int, max_rows: int | None) -> np.ndarray:
    """Every row, or a stratified sample of ``max_rows`` rows (sorted), drawn with ``split_seed``."""
    rows = np.arange(target.shape[0])
    if max_rows is not None and max_rows < rows.size:
        classes, counts = np.unique(target, return_counts=True)
        expected_minority = counts.min() * max_rows / rows.size
        if expected_minority < 2:
            raise ValueError(
                f"max_rows={max_rows} keeps about {expected_minority:.1f} rows of class"
                f" {classes[counts.argmin()]}"
                f" ({counts.min()} of {rows.size}); raise max_rows to at least"
                f" {math.ceil(2 * rows.size / counts.min())}"
            )
        rows, _ = train_test_split(
            rows, train_size=max_rows, stratify=target, random_state=derive_seed(split_seed, 1)
        )
        rows = np.sort(rows)
    return rows


def make_holdout(
    target, *, fingerprint: str, seed: int, holdout_fraction: float, max_rows: int | None = None
) -> Holdout:
    """Split the rows into training rows and a stratified holdout, deterministically per data and seed.

    Parameters
    ----------
    target : array-like of shape (n_samples,)
        Binary labels.
    fingerprint : str
        Content hash of the dataset; with ``seed`` it fixes the rows (same data + seed = same holdout).
    seed : int
        Root seed.
    holdout_fraction : float
        Share of the (capped) rows held out for scoring, in (0, 1).
    max_rows : int, optional
        Cap on the rows used at all: a stratified sample of ``max_rows`` rows is drawn first (for tests and
        quick runs).

    Raises
    ------
    ValueError
        If ``target`` does not hold two classes, or the cap leaves a class with fewer than 2 rows.
    """
    target = np.asarray(target)
    split_seed = holdout_seed(seed, fingerprint)
    rows = capped_rows(target, split_seed=split_seed, max_rows=max_rows)
    split = make_split(
        target[rows], "holdout", repeat=0, seed=split_seed, holdout_test_fraction=holdout_fraction
    )
    key = f"{fingerprint}/seed={seed}/fraction={holdout_fraction}/max_rows={max_rows}"
    return Holdout(train=rows[split.train], holdout=rows[split.test], key=key)


def make_time_holdout(
    time, target, *, fingerprint: str, window: str, seed: int, max_rows: int | None = None
) -> Holdout:
    """The most recent ``window`` of the time range is the holdout; the rows before it are the training rows.

    ``max_rows`` first keeps a stratified sample (as :func:`make_holdout`), so the split stays out of time.

    Raises
    ------
    ValueError
        If either side is empty or holds one class only (the window is too narrow or too wide).
    """
    time, target = np.asarray(time, dtype=float), np.asarray(target)
    rows = np.arange(target.shape[0])
    if max_rows is not None and max_rows < rows.size:
        rows = np.sort(
            make_holdout(
                target, fingerprint=fingerprint, seed=seed, holdout_fraction=0.5, max_rows=max_rows
            ).train.tolist()
            + make_holdout(
                target, fingerprint=fingerprint, seed=seed, holdout_fraction=0.5, max_rows=max_rows
            ).holdout.tolist()
        )
    newest, oldest = float(time[rows].max()), float(time[rows].min())
    cutoff = newest - window_seconds(window, newest - oldest)
    holdout = rows[time[rows] > cutoff]
    train = rows[time[rows] <= cutoff]
    for side, chosen in (("holdout", holdout), ("training rows", train)):
        classes = np.unique(target[chosen])
        if classes.size < 2:
            raise ValueError(
                f"the out-of-time split at time {cutoff:g} (holdout window {window!r}) leaves the {side} with"
                f" {chosen.size:,} row(s) of"
                f" {'no class' if classes.size == 0 else f'class {classes[0]} only'};"
                " choose another --holdout-window"
            )
    key = f"{fingerprint}/time>{cutoff:.6f}/window={window}/max_rows={max_rows}"
    return Holdout(train=train, holdout=holdout, key=key, cutoff=cutoff)


@dataclass(frozen=True)
class RetrainData:
    """A business dataset split for retraining: training rows, the holdout, and both cost matrices.

    The cost model is fit on the training rows only (CSDT paper, Section 4: its averages and priors come
    from the training split) and then gives the example-dependent costs ``[C_FP, C_FN, C_TP, C_TN]`` of both;
    ``fitted_cost_model`` is that model, logged with every candidate so that the served model derives the
    costs of new rows the same way (``None`` for a user dataset with its own cost columns).
    """

    dataset: str
    fingerprint: str
    holdout_key: str
    train_features: object
    train_target: np.ndarray
    train_costs: np.ndarray
    holdout_features: object
    holdout_target: np.ndarray
    holdout_costs: np.ndarray
    cost_model: str | None
    cost_params: dict
    fitted_cost_model: CostModel | None = None
    time_cutoff: float | None = None
    encoding: list[dict] | None = None
    dataset_version: int | None = None
    dataset_source: str | None = None

    def summary(self) -> dict[str, object]:
        """Counts and identifiers to log with the parent run."""
        return {
            "dataset": self.dataset,
            "fingerprint": self.fingerprint,
            "holdout_key": self.holdout_key,
            "train_rows": int(self.train_target.size),
            "train_positives": int(self.train_target.sum()),
            "holdout_rows": int(self.holdout_target.size),
            "holdout_positives": int(self.holdout_target.sum()),
            "cost_model": self.cost_model,
            "split": "out of time" if self.time_cutoff is not None else "stratified",
            "time_cutoff": self.time_cutoff,
            "dataset_version": self.dataset_version,
        }


def prepare_retrain_data(
    dataset,
    *,
    seed: int,
    holdout_fraction: float,
    max_rows: int | None = None,
    cost_params: Mapping | None = None,
    holdout_window: str | None = None,
) -> RetrainData:
    """Split a loaded business dataset into training rows and the holdout and derive both cost matrices.

    Parameters
    ----------
    dataset : tasks.datasets.Dataset
        A dataset whose ``spec.cost_model`` names a cost model of ``tasks.cost_models.COST_MODELS``, or a
        user dataset with its own ``cost_matrix`` (then ``cost_model`` is ``None`` and ``cost_params`` names
        the cost columns).
    seed, holdout_fraction, max_rows
        See :func:`make_holdout`.
    cost_params : mapping, optional
        Explicit cost-model parameters (default: the paper's).
    holdout_window : str, optional
        A dataset with a time column is split out of time (:func:`make_time_holdout`): the most recent
        ``holdout_window`` (default: ``holdout_fraction`` of the time range) is the holdout.

    Raises
    ------
    ValueError
        If the dataset has no example-dependent costs (it is not a business dataset), or ``cost_params`` are
        given for a dataset with its own cost columns.
    """
    cost_model_name = getattr(dataset.spec, "cost_model", None)
    own_costs = getattr(dataset, "cost_matrix", None)
    if not cost_model_name and own_costs is None:
        raise ValueError(
            f"dataset {dataset.name!r} has no example-dependent costs (a cost model or cost columns); "
            "retrain needs a business dataset"
        )
    if own_costs is not None and cost_params:
        raise ValueError(
            f"dataset {dataset.name!r} has its own cost columns; cost_params {sorted(cost_params)} apply "
            "only to a cost model"
        )
    if getattr(dataset, "time", None) is not None:
        holdout = make_time_holdout(
            dataset.time,
            dataset.target,
            fingerprint=dataset.fingerprint,
            window=holdout_window or str(holdout_fraction),
            seed=seed,
            max_rows=max_rows,
        )
    else:
        holdout = make_holdout(
            dataset.target,
            fingerprint=dataset.fingerprint,
            seed=seed,
            holdout_fraction=holdout_fraction,
            max_rows=max_rows,
        )
    train_features = dataset.features.iloc[holdout.train]
    holdout_features = dataset.features.iloc[holdout.holdout]
    train_target = np.asarray(dataset.target)[holdout.train]
    if own_costs is not None:  # a served model takes such rows' costs as explicit cost columns
        train_costs, holdout_costs = own_costs[holdout.train], own_costs[holdout.holdout]
        cost_params = {"cost_columns": ",".join(dataset.metadata.get("cost_columns", ()))}
        fitted_cost_model = None
    else:
        costs = derive_split_costs(
            cost_model_name, train_features, train_target, holdout_features, parameters=cost_params
        )
        train_costs, holdout_costs = costs.train.values, costs.evaluated.values
        cost_params, fitted_cost_model = dict(costs.params()), costs.model
    return RetrainData(
        dataset=dataset.name,
        fingerprint=dataset.fingerprint,
        holdout_key=holdout.key,
        train_features=train_features,
        train_target=train_target,
        train_costs=train_costs,
        holdout_features=holdout_features,
        holdout_target=np.asarray(dataset.target)[holdout.holdout],
        holdout_costs=holdout_costs,
        cost_model=cost_model_name,
        cost_params=cost_params,
        fitted_cost_model=fitted_cost_model,
        time_cutoff=holdout.cutoff,
        encoding=dataset_encoding(dataset),
        dataset_version=(dataset.metadata.get("live") or {}).get("version"),
        dataset_source=dataset_source(dataset),
    )


def dataset_encoding(dataset) -> list[dict]:
    """The encoding of the dataset's raw columns: recorded with a user dataset, else read back from its
    canonical column names (``tasks.datasets.encoding.RawEncoding``)."""
    recorded = dataset.metadata.get("feature_encoding")
    if recorded is not None:
        return recorded
    return RawEncoding.from_feature_names(dataset.features.columns).to_record()


def dataset_source(dataset) -> str:
    """Where the dataset's rows come from, as shown and stored (a SQL URL without credentials)."""
    live = dataset.metadata.get("live")
    if live is not None:
        return redact_uri(live["source"]["location"])
    described = dataset.spec.source.describe()
    return str(described.get("path") or described.get("url") or described.get("package") or dataset.spec.name)


@task(name="prepare_retrain_data", cache_policy=NO_CACHE, retries=1, retry_delay_seconds=5)
def prepare_retrain_data_task(dataset_name: str, *, cache_dir: str | None = None, **kwargs) -> RetrainData:
    """Load a business dataset (ingested on first use), split off the holdout, derive both cost matrices."""
    data = prepare_retrain_data(load_dataset(dataset_name, cache_dir=cache_dir), **kwargs)
    get_run_logger().info("retrain data: %s", data.summary())
    return data
