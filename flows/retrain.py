"""The ``retrain`` flow: refit candidate methods on a business dataset and keep the best in the registry.

For one business dataset (credit scoring, direct marketing, card fraud: CSDT paper, Tables 4-6) the flow

1. loads the dataset and draws a deterministic, stratified holdout (seeded and keyed on the data fingerprint);
2. fits the dataset's cost model on the training rows only and derives both splits' example-dependent cost
   matrices ``[C_FP, C_FN, C_TP, C_TN]``;
3. fits every candidate method with the training costs, scores it by savings (CSDT paper, Eq. 4) on the
   holdout and logs it as a child run with its model (one parent run per flow run, tagged with the Prefect
   flow-run id, git commit and data fingerprint); a candidate whose fit fails is logged FAILED and left out;
4. registers the best candidate as a new version of the dataset's registered model and moves the alias
   ``champion`` to it only when it beats the current champion re-scored on the same holdout; otherwise the
   new version becomes the ``challenger``.

Parameters are a frozen pydantic model (:class:`RetrainParams`); a bad value fails validation before any
work starts. The deployments in ``prefect.yaml`` schedule this flow per dataset.
"""

from __future__ import annotations

import math
import time
from typing import Annotated

from prefect import flow, get_run_logger, runtime
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from algorithms import METHODS
from tasks.datasets import DATASETS
from tasks.registry import (
    fit_and_log_candidate_task,
    prepare_retrain_data_task,
    register_and_promote_task,
)
from tasks.track import default_tracking_uri, end_run_task, git_commit, start_run_task

__all__ = ["DEFAULT_CANDIDATES", "RetrainParams", "business_datasets", "retrain"]

#: Candidate methods tried by default: the cost-sensitive tree, Bayes minimum risk over logistic regression,
#: AdaCC1 and plain AdaBoost (the cost-insensitive reference).
DEFAULT_CANDIDATES = ("csdt", "bmr-lr", "adacc1", "adaboost")

ScalarParam = bool | int | float | str | None


def business_datasets() -> list[str]:
    """Names of the registered datasets that carry an example-dependent cost model."""
    return sorted(name for name, spec in DATASETS.items() if getattr(spec, "cost_model", None))


class RetrainParams(BaseModel):
    """Parameters of one ``retrain`` run.

    Attributes
    ----------
    dataset : str
        A business dataset of ``tasks.datasets.DATASETS`` (one with a cost model).
    candidates : tuple of str
        Keys of ``algorithms.METHODS`` to fit; the best by holdout savings is registered.
    holdout_fraction : float
        Share of the rows held out for scoring candidates and the champion.
    max_rows : int or None
        Stratified row cap applied before splitting (quick runs and tests); ``None`` uses every row.
    seed : int
        Root seed of the holdout and of the estimators.
    experiment : str
        MLflow experiment of the retrain runs.
    model_name : str or None
        Registered model name; ``None`` means ``cslearn-<dataset>``.
    tracking_uri : str or None
        MLflow tracking URI; ``None`` means ``MLFLOW_TRACKING_URI`` or the project's sqlite store.
    method_params : dict
        Constructor overrides per candidate, e.g. ``{"csdt": {"max_depth": 5}}``.
    cost_params : dict
        Explicit cost-model parameters (default: the paper's).
    cache_dir : str or None
        Dataset cache folder; ``None`` means the data layer's default.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    dataset: str
    candidates: tuple[str, ...] = Field(default=DEFAULT_CANDIDATES, min_length=1)
    holdout_fraction: Annotated[float, Field(gt=0.0, lt=1.0)] = 0.3
    max_rows: Annotated[int, Field(ge=20)] | None = None
    seed: Annotated[int, Field(ge=0)] = 0
    experiment: str = Field(default="cslearn-retrain", min_length=1)
    model_name: Annotated[str, Field(min_length=1, pattern=r"^[\w.\-]+$")] | None = None
    tracking_uri: str | None = None
    method_params: dict[str, dict[str, ScalarParam]] = Field(default_factory=dict)
    cost_params: dict[str, ScalarParam] = Field(default_factory=dict)
    cache_dir: str | None = None

    @field_validator("dataset")
    @classmethod
    def _business_dataset(cls, name: str) -> str:
        known = business_datasets()
        if name not in known:
            raise ValueError(
                f"dataset {name!r} is not a business dataset with a cost model; choose one of {known}"
            )
        return name

    @field_validator("candidates")
    @classmethod
    def _registered_methods(cls, candidates: tuple[str, ...]) -> tuple[str, ...]:
        duplicated = sorted({name for name in candidates if candidates.count(name) > 1})
        if duplicated:
            raise ValueError(f"candidates lists {duplicated} more than once")
        unknown = [name for name in candidates if name not in METHODS]
        if unknown:
            raise ValueError(f"unknown candidates {unknown}; registered methods: {sorted(METHODS)}")
        return candidates

    @model_validator(mode="after")
    def _overrides_name_candidates(self):
        stray = sorted(set(self.method_params) - set(self.candidates))
        if stray:
            raise ValueError(f"method_params names methods that are not candidates: {stray}")
        return self

    @property
    def registered_model_name(self) -> str:
        """The registry name of the dataset's model."""
        return self.model_name or f"cslearn-{self.dataset}"


@flow(name="retrain", validate_parameters=True)
def retrain(params: RetrainParams) -> dict:
    """Fit the candidates on a business dataset, log them, register the best and move ``champion`` if it wins.

    Returns
    -------
    dict
        ``dataset``, ``parent_run_id``, ``candidates`` (method -> holdout savings), ``metrics`` (method ->
        every holdout metric and the fit time), ``failed`` (method -> error of a candidate whose fit failed;
        the others still compete), ``best``, and the
        registry decision (``model_name``, ``version``, ``alias``, ``previous_champion_version``,
        ``previous_champion_savings``, ``holdout_key``).
    """
    logger = get_run_logger()
    tracking_uri = params.tracking_uri or default_tracking_uri()
    data = prepare_retrain_data_task(
        params.dataset,
        cache_dir=params.cache_dir,
        seed=params.seed,
        holdout_fraction=params.holdout_fraction,
        max_rows=params.max_rows,
        cost_params=params.cost_params,
    )
    experiment_id, parent_run_id = start_run_task(
        tracking_uri,
        params.experiment,
        run_name=f"retrain/{params.dataset}",
        tags={
            "prefect.flow_run_id": runtime.flow_run.id,
            "git.commit": git_commit(),
            "mlflow.source.git.commit": git_commit(),
            "cslearn.purpose": "retrain",
            "cslearn.dataset": params.dataset,
            f"dataset.{params.dataset}.fingerprint": data.fingerprint,
            "cslearn.holdout_key": data.holdout_key,
        },
        params={
            **params.model_dump(mode="json", exclude={"tracking_uri"}),
            **data.summary(),
            **data.cost_params,
        },
    )
    status = "FAILED"
    try:
        results, failed = [], {}
        started = time.monotonic()
        for done, method in enumerate(params.candidates, start=1):
            state = fit_and_log_candidate_task(
                data,
                method,
                tracking_uri=tracking_uri,
                experiment_id=experiment_id,
                parent_run_id=parent_run_id,
                method_params=params.method_params.get(method),
                seed=params.seed,
                return_state=True,
            )
            if state.is_completed():
                results.append(state.result())
            else:  # its child run is marked FAILED; the other candidates still compete
                failed[method] = str(state.message)
                logger.warning("candidate %s failed: %s", method, state.message)
            elapsed = time.monotonic() - started
            remaining = elapsed / done * (len(params.candidates) - done)
            logger.info(
                "candidates %d/%d done, elapsed %.0f s, ETA %.0f s",
                done,
                len(params.candidates),
                elapsed,
                remaining,
            )
        if not results:
            raise RuntimeError(f"every candidate failed on {params.dataset}: {failed}")
        best = max(results, key=lambda result: -math.inf if math.isnan(result.savings) else result.savings)
        decision = register_and_promote_task(
            tracking_uri,
            params.registered_model_name,
            best.model_id,
            best.run_id,
            savings=best.savings,
            holdout_features=data.holdout_features,
            holdout_target=data.holdout_target,
            holdout_cost_matrix=data.holdout_costs,
            holdout_key=data.holdout_key,
            tags={"cslearn.method": best.method, "cslearn.dataset": params.dataset},
        )
        status = "FINISHED"
    except (KeyboardInterrupt, SystemExit):
        status = "KILLED"
        raise
    finally:
        end_run_task(tracking_uri, parent_run_id, status)
    logger.info(
        "%s: best %s (savings %.4f) registered as %s v%s with alias %s",
        params.dataset,
        best.method,
        best.savings,
        decision["model_name"],
        decision["version"],
        decision["alias"],
    )
    return {
        "dataset": params.dataset,
        "parent_run_id": parent_run_id,
        "candidates": {result.method: result.savings for result in results},
        "metrics": {
            result.method: {**result.metrics, "fit_seconds": result.fit_seconds} for result in results
        },
        "failed": failed,
        "best": best.method,
        **decision,
    }
