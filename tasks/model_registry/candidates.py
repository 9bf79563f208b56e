"""Candidates of a retrain: fit with the training costs, scored on the holdout, logged with their model.

Under the retrain's parent run (:func:`retrain_parent_run`, built on
:func:`tasks.tracking.mlflow_runs.parent_run`), :func:`fit_and_log_candidate` fits one method, scores every
holdout metric (savings by CSDT Eq. 4) and logs a child run with the model ``<dataset>-<method>``
(:func:`tasks.model_registry.logged_models.log_model`: the estimator and the fitted cost model, so it serves
cost-aware decisions) whose metrics are the holdout metrics; :func:`best_candidate` picks the one to register
and :func:`retrain_outcome` is what the flow returns.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial

import numpy as np
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from schemas.flow_params import RetrainParams
from tasks.config.flow_parameters import logged_params
from tasks.cost_models import cost_unit
from tasks.fitting import fit_pool
from tasks.fitting.cost_selection import fit_with_cost_selection
from tasks.fitting.estimators import build_estimator
from tasks.fitting.evaluate import decision_scores, evaluate_predictions, positive_probability, predict_labels
from tasks.fitting.splits import derive_seed
from tasks.model_registry.holdout import RetrainData
from tasks.model_registry.logged_models import log_model
from tasks.tracking.dataset_inputs import log_dataset_input
from tasks.tracking.mlflow_runs import (
    ParentRun,
    log_metrics,
    log_params,
    parent_run,
    tracked_run,
    tracking_client,
)

__all__ = [
    "CandidateFailure",
    "CandidateProgress",
    "CandidateResult",
    "NoCandidateError",
    "best_candidate",
    "fit_and_log_candidate",
    "fit_and_log_candidate_task",
    "log_retrain_input",
    "log_retrain_input_task",
    "retrain_outcome",
    "retrain_parent_run",
    "settled_candidate",
]


def retrain_parent_run(params: RetrainParams, data: RetrainData) -> AbstractContextManager[ParentRun]:
    """The retrain's parent run (:func:`tasks.tracking.mlflow_runs.parent_run`).

    Named from its configuration (``retrain direct-marketing x 4 candidates``), tagged with the dataset, its
    fingerprint, the holdout key, its version and the unit of its costs (``cslearn.cost_unit``), and given the
    flow's parameters (``tasks.config.flow_parameters.logged_params``: no tracking URI or cache folder), the
    split's counts and the cost model's parameters. The dataset's accepted state is the run's MLflow dataset
    input (name, digest = fingerprint, source without credentials, version) once the run is open
    (:func:`log_retrain_input`).
    """
    return parent_run(
        params.tracking_uri,
        params.experiment,
        run_name=f"retrain {params.dataset} x {len(params.candidates)} candidate"
        + "s" * (len(params.candidates) != 1),
        purpose="retrain",
        fingerprints={params.dataset: data.fingerprint},
        tags={
            "cslearn.dataset": params.dataset,
            "cslearn.holdout_key": data.holdout_key,
            "cslearn.cost_unit": cost_unit(data.cost_model),
            "cslearn.dataset_version": data.dataset_version,
        },
        params={
            **logged_params(params, mode="json"),
            **data.summary(),
            **data.cost_params,
        },
    )


def log_retrain_input(run: ParentRun, data: RetrainData) -> None:
    """The training rows and holdout as the parent run's MLflow dataset input (``context`` = ``retrain``)."""
    frame = data.train_features.assign(target=data.train_target)
    log_dataset_input(
        tracking_client(run.tracking_uri),
        run.run_id,
        frame,
        name=data.dataset,
        fingerprint=data.fingerprint,
        source=data.dataset_source,
        context="retrain",
        version=data.dataset_version,
    )


@task(name="log_retrain_input", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=5)
def log_retrain_input_task(run: ParentRun, data: RetrainData) -> None:
    """Record the dataset's accepted state (fingerprint, version, source) as the retrain run's input."""
    log_retrain_input(run, data)


@dataclass(frozen=True)
class CandidateResult:
    """One candidate method fitted on the training rows and scored on the holdout."""

    method: str
    run_id: str
    model_id: str
    savings: float
    metrics: dict
    fit_seconds: float
    holdout_decisions: np.ndarray | None = None


def fit_and_log_candidate(
    data: RetrainData,
    method: str,
    *,
    tracking_uri: str,
    experiment_id: str,
    parent_run_id: str,
    method_params: Mapping | None = None,
    seed: int = 0,
    cost_selection: str = "train",
) -> CandidateResult:
    """Fit ``method`` with the training costs, score it on the holdout, log a child run with its model.

    A fixed-cost method first chooses C- on the training rows by savings (``cost_selection="train"``;
    ``tasks.fitting.cost_selection.regret_scale_grid``). The child run holds the fitted estimator's
    ``get_params()`` (the chosen C- among them), the training savings of every C- candidate
    (``selection/savings at C- ...``), every holdout metric (``savings`` and ``cost`` from the
    example-dependent costs, CSDT Eq. 2-4) and the fit time, all also linked to the logged model
    ``<dataset>-<method>`` (see :func:`tasks.model_registry.logged_models.log_model`). A failing fit marks the
    child run FAILED and re-raises.
    """
    client = tracking_client(tracking_uri)
    estimator = build_estimator(method, method_params, random_state=derive_seed(seed, 2))
    tags = {
        "cslearn.method": method,
        "cslearn.dataset": data.dataset,
        f"dataset.{data.dataset}.fingerprint": data.fingerprint,
    }
    with tracked_run(
        client, experiment_id, run_name=f"{data.dataset}/{method}", tags=tags, parent_run_id=parent_run_id
    ) as run_id:
        fit = partial(fit_with_cost_selection, cost_matrix=data.train_costs, cost_selection=cost_selection)
        # in a worker process when the flow's runner holds a pool
        fitted = fit_pool.call(fit, estimator, data.train_features, data.train_target)
        model, fit_seconds = fitted.model, fitted.fit_seconds
        selection = {
            f"selection/savings at C- {_metric_number(cost)}": score
            for cost, score in fitted.selection_scores.items()
        }
        predicted = predict_labels(model, data.holdout_features, data.holdout_costs)
        scores = decision_scores(model, data.holdout_features)
        probabilities = positive_probability(model, data.holdout_features)
        metrics = evaluate_predictions(
            data.holdout_target, predicted, scores, data.holdout_costs, probabilities
        )
        params = {key: value for key, value in model.get_params(deep=False).items()}
        log_params(client, run_id, params)
        model_id = log_model(
            client,
            experiment_id,
            run_id,
            model,
            data.holdout_features.head(5),
            name=f"{data.dataset}-{method}",
            cost_model=data.fitted_cost_model,
            encoding=data.encoding,
            params=params,
            tags={**tags, "cslearn.holdout_key": data.holdout_key, "cslearn.cost_model": data.cost_model},
        )
        log_metrics(client, run_id, {**metrics, **selection, "fit_seconds": fit_seconds}, model_id=model_id)
    return CandidateResult(
        method, run_id, model_id, float(metrics["savings"]), metrics, fit_seconds, np.asarray(predicted)
    )


@dataclass(frozen=True)
class CandidateFailure:
    """A candidate whose fit, scoring or logging raised: its child run is FAILED, the others still compete.

    ``error`` is the exception in one line, ``ValueError: ...``.
    """

    method: str
    error: str


class NoCandidateError(RuntimeError):
    """Every candidate of a retrain failed: nothing can be registered. The message names each error."""


@task(name="fit_and_log_candidate", task_run_name="fit {method}", cache_policy=NO_CACHE)
def fit_and_log_candidate_task(
    data: RetrainData, method: str, **kwargs
) -> CandidateResult | CandidateFailure:
    """Fit one candidate with the training costs, score its savings on the holdout, log run and model.

    A candidate that fails is returned as a :class:`CandidateFailure` (its error in one line; the
    traceback only in the debug log), not raised: the retrain goes on with the others, and says in one line
    which failed and why.
    """
    logger = get_run_logger()
    try:
        result = fit_and_log_candidate(data, method, **kwargs)
    except Exception as error:
        logger.debug("Candidate %s failed", method, exc_info=True)
        return CandidateFailure(method, f"{type(error).__name__}: {error}")
    logger.info("Fitted %s in %.1f s: holdout savings %.4f.", method, result.fit_seconds, result.savings)
    return result


def settled_candidate(future, method: str) -> CandidateResult | CandidateFailure:
    """The outcome of ``method``'s submitted :func:`fit_and_log_candidate_task` once it has ended; a task
    that crashed or was cancelled is a failure too, with its state's message."""
    future.wait()  # the final state, not the last one seen
    if future.state.is_completed():
        return future.result()
    return CandidateFailure(method, str(future.state.message))


def best_candidate(
    results: Mapping[str, CandidateResult], failed: Mapping[str, str], dataset: str
) -> CandidateResult:
    """The candidate with the highest holdout savings (a NaN score never wins).

    Raises
    ------
    NoCandidateError
        If every candidate failed (``failed`` maps each to its error).
    """
    if not results:
        errors = "; ".join(f"{method}: {error}" for method, error in failed.items())
        raise NoCandidateError(f"every candidate failed on {dataset}: {errors}")
    return max(
        results.values(), key=lambda result: -math.inf if math.isnan(result.savings) else result.savings
    )


class CandidateProgress:
    """Counts fitted candidates and estimates the time left from the mean time per candidate so far."""

    def __init__(self, total: int, clock=time.monotonic):
        self.total = total
        self.done = 0
        self._clock = clock
        self._started = clock()

    def update(self) -> str:
        """Record one finished candidate and return the progress line."""
        self.done += 1
        elapsed = self._clock() - self._started
        remaining = elapsed / self.done * (self.total - self.done)
        return f"candidates {self.done}/{self.total} done, elapsed {elapsed:.0f} s, ETA {remaining:.0f} s"


def retrain_outcome(
    dataset: str,
    run: ParentRun,
    results: Mapping[str, CandidateResult],
    failed: Mapping[str, str],
    best: CandidateResult,
    decision: Mapping,
) -> dict:
    """What ``retrain`` returns: holdout savings and metrics per candidate, failures, the decision."""
    return {
        "dataset": dataset,
        "parent_run_id": run.run_id,
        "candidates": {method: result.savings for method, result in results.items()},
        "metrics": {
            method: {**result.metrics, "fit_seconds": result.fit_seconds}
            for method, result in results.items()
        },
        "failed": dict(failed),
        "best": best.method,
        **decision,
    }


def _metric_number(value: float) -> str:
    """``value`` with up to 6 significant digits and no exponent (MLflow refuses ``+`` in metric names)."""
    return np.format_float_positional(value, precision=6, unique=True, fractional=False, trim="-")
