"""The Prefect side of ``compare``'s cells: describe the datasets, plan the cells, run them, resume them.

A cell — (dataset, method, repeat, fold) — is computed by :func:`tasks.compare.cell_compute.compute_cell`, in
a worker process of the flow's pool when there is one (``tasks.fitting.fit_pool.call``). :func:`plan_cells`
checks the protocol against the datasets' class counts before any cell exists
(``tasks.config.checks.check_protocol``); re-running the same configuration skips every cell stored with
status ``"ok"`` (:func:`load_finished_cells`; failed cells run again).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.exceptions import MissingContextError

from schemas.flow_params import CompareParams
from tasks.compare.cell_compute import CellSpec, CellStore, DatasetInfo, compute_cell, describe_dataset
from tasks.config.checks import ProtocolError, check_protocol
from tasks.fitting import fit_pool
from tasks.fitting.splits import iter_split_ids
from tasks.fitting.training_sets import COST_PROPORTIONATE

__all__ = ["describe_dataset_task", "load_finished_cells", "plan_cells", "run_cell"]

logger = logging.getLogger(__name__)


def _warn(message: str) -> None:
    """A warning in the run's log (and the Prefect UI) inside a flow or task, else in this module's log."""
    try:
        get_run_logger().warning(message)
    except MissingContextError:
        logger.warning(message)


def _input_or_output_failed(task, task_run, state) -> bool:
    """Prefect's retry condition of :func:`describe_dataset_task`: only an ``OSError`` (a download, a disk)
    may heal on a retry; an unknown name, a damaged user dataset or data that break their contract fail the
    same way again, so they are not retried."""
    return isinstance(state.data, OSError)


@task(
    name="describe_dataset",
    cache_policy=NO_CACHE,
    retries=2,
    retry_delay_seconds=5,
    retry_condition_fn=_input_or_output_failed,
)
def describe_dataset_task(name: str) -> DatasetInfo:
    """Ingest (download, validate, cache) a dataset if needed and describe it (an I/O failure is retried)."""
    return describe_dataset(name)


@task(name="run_cell", cache_policy=NO_CACHE, task_run_name="cell {spec.label}")
def run_cell(spec: CellSpec, store_root: str) -> dict:
    """Fit and evaluate one (dataset, method, repeat, fold) cell and persist its result (never retried).

    The fit runs in a worker process when the flow's task runner holds a pool
    (``tasks.fitting.fit_pool.call``).
    """
    result = fit_pool.call(compute_cell, spec, CellStore(store_root), methods=(spec.method,))
    if result["status"] != "ok":
        get_run_logger().warning("cell %s failed: %s", spec.label, result["error"])
    return result


def load_finished_cells(store: CellStore, specs: Iterable[CellSpec]) -> dict[str, dict]:
    """Stored results with status ``"ok"`` of the given cells, by key (the cells a rerun skips)."""
    finished = {}
    for spec in specs:
        result = store.load(spec.key, warn=_warn)
        if result is not None and result.get("status") == "ok":
            finished[spec.key] = result
    return finished


def plan_cells(
    params: CompareParams, datasets: Sequence[DatasetInfo], methods: Sequence[str]
) -> list[CellSpec]:
    """Every cell of a run, dataset-major, then method, repeat and fold.

    Raises
    ------
    tasks.config.checks.ProtocolError
        When the protocol does not fit a dataset's class counts, or a cost-proportionate training set is
        asked of a dataset without example-dependent costs (before any cell is planned).
    """
    check_protocol(params, {info.name: (info.n_rows, info.n_positive) for info in datasets})
    if params.training_set in COST_PROPORTIONATE:
        costless = [info.name for info in datasets if info.cost_model is None and not info.cost_columns]
        if costless:
            raise ProtocolError(
                [
                    f"training set {params.training_set!r} samples in proportion to example-dependent costs, "
                    f"which {', '.join(costless)} {'has' if len(costless) == 1 else 'have'} not"
                ]
            )
    return [
        CellSpec(
            dataset=info.name,
            fingerprint=info.fingerprint,
            cost_model=info.cost_model,
            cost_columns=info.cost_columns,
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
            training_set=params.training_set,
        )
        for info in datasets
        for method in methods
        for repeat, fold in iter_split_ids(params.protocol, params.n_repeats, params.n_folds)
    ]
