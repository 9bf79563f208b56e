"""The ``retrain`` flow: refit candidate methods on a business dataset and keep the best in the registry.

For one business dataset (credit scoring, direct marketing, card fraud: CSDT paper, Tables 4-6) the flow

1. loads the dataset and draws a deterministic, stratified holdout (seeded and keyed on the data fingerprint);
2. fits the dataset's cost model on the training rows only and derives both splits' example-dependent cost
   matrices ``[C_FP, C_FN, C_TP, C_TN]``;
3. fits every candidate method with the training costs (a fixed-cost method choosing C- by training
   savings first), two at once, each in a worker process, scores it by savings (CSDT paper,
   Eq. 4) on the holdout and logs it as a child run with its model (one parent run per flow run, tagged
   with the Prefect flow-run id, git commit and data fingerprint); a candidate whose fit fails is logged
   FAILED and left out, its error in one line; when every candidate fails, the flow run ends Failed with
   one message naming each error, the parent run is FAILED and the registry is left as it was;
4. registers the best candidate from its logged model (``<dataset>-<method>``, which carries the fitted cost
   model and serves cost-aware decisions) as a new version of the dataset's registered model, with a
   description of its holdout metrics and the comparison against the champion, and moves the alias
   ``champion`` to it only when it beats the current champion re-scored on the same holdout; otherwise the
   new version becomes the ``challenger``. A retrain that repeats the champion (same method, data
   fingerprint, code commit, holdout and score) registers nothing and says so;
5. builds the HTML report of the run (as ``cslearn report`` does) and logs it, its figure and the
   candidates table (as the run's description) to the parent run; the Prefect flow run shows the table,
   links to the MLflow run and the report, and the candidates' progress.

Parameters are the fields of a frozen pydantic model (``schemas.flow_params.RetrainParams``), flat
(``tasks.config.flow_parameters.flat_parameters``: described, the dataset and the candidates as choices); a
bad value fails validation before any work starts. The deployments in ``prefect.yaml`` schedule this flow per
dataset: a failed run is retried twice, two minutes apart (a tracking server or disk that was briefly away),
and then ends Failed with the error of its last attempt; a configuration error is refused by Prefect's API or
fails the run before it starts, never retried (``flows.deployment_parameters``). ``run_retrain(params)``
takes the model and runs the flow once, without retries (``cslearn retrain`` calls it: its user sees a
failure at once).
"""

from __future__ import annotations

from collections.abc import Mapping

from prefect import get_run_logger
from prefect.futures import as_completed
from prefect.states import Failed

from flows.deployment_parameters import parameter_checked_flow
from flows.runners import FitProcessTaskRunner
from schemas.flow_params import RetrainParams
from tasks.config.checks import validate_params
from tasks.config.flow_parameters import flat_parameters, flow_arguments, machine_environment
from tasks.fitting import cost_selection
from tasks.model_registry import (
    CandidateFailure,
    CandidateProgress,
    NoCandidateError,
    best_candidate,
    fit_and_log_candidate_task,
    log_retrain_answer_task,
    log_retrain_input_task,
    prepare_retrain_data_task,
    register_and_promote_task,
    retrain_outcome,
    retrain_parent_run,
    settled_candidate,
)
from tasks.report.publish import publish_report_task
from tasks.tracking.prefect_artifacts import ProgressArtifact, publish_run_artifacts

__all__ = ["RETRAIN_RETRIES", "retrain", "run_retrain"]

#: Flow-level retries of a (scheduled) retrain: attempts after the first, and the seconds between them.
RETRAIN_RETRIES = {"retries": 2, "retry_delay_seconds": 120}


@parameter_checked_flow(  # each candidate's fit in a worker process, two at once: Ctrl-C stops them at once
    name="retrain",
    flow_run_name="retrain {dataset}",
    validate_parameters=True,
    task_runner=FitProcessTaskRunner(2, warm_module=cost_selection.__name__),
    **RETRAIN_RETRIES,
)
@flat_parameters(RetrainParams, choices={"dataset": "business_datasets", "candidates": "methods"})
def retrain(params: RetrainParams) -> dict:
    """Fit the candidates on a business dataset, log them, register the best and move ``champion`` if it wins.

    Returns
    -------
    dict
        ``dataset``, ``parent_run_id``, ``candidates`` (method -> holdout savings), ``metrics`` (method ->
        every holdout metric and the fit time), ``failed`` (method -> error of a candidate whose fit failed;
        the others still compete), ``best``, and the registry decision (``model_name``, ``registered``,
        ``outcome`` = ``champion`` / ``challenger`` / ``unchanged``, ``version`` and ``alias`` (``None`` when
        nothing was registered), ``reason``, ``previous_champion_version``, ``previous_champion_savings``,
        ``holdout_key``), ``verdict`` (that decision in one line, ``tasks.model_registry.retrain_answer``)
        and ``report``: where the HTML report logged to the parent run is (``artifact``, ``uri``, ``url``,
        ``figures``, ``description``; ``tasks.report.publish``). When every candidate failed, a Failed
        state whose message names each candidate's error (calling the flow raises Prefect's ``FailedRun``
        with it).
    """
    logger = get_run_logger()
    data = prepare_retrain_data_task(
        params.dataset,
        cache_dir=params.cache_dir,
        seed=params.seed,
        holdout_fraction=params.holdout_fraction,
        holdout_window=params.holdout_window,
        max_rows=params.max_rows,
        cost_params=params.cost_params,
    )
    try:
        with retrain_parent_run(params, data) as run:
            log_retrain_input_task(run, data)
            results, failed = {}, {}
            progress = CandidateProgress(len(params.candidates))
            bar = ProgressArtifact(len(params.candidates), description="candidates fitted")
            futures = {
                fit_and_log_candidate_task.submit(
                    data,
                    method,
                    tracking_uri=run.tracking_uri,
                    experiment_id=run.experiment_id,
                    parent_run_id=run.run_id,
                    method_params=params.method_params.get(method),
                    seed=params.seed,
                    cost_selection=params.cost_selection,
                ): method
                for method in params.candidates
            }
            for future in as_completed(futures):
                fitted = settled_candidate(future, futures[future])
                if isinstance(fitted, CandidateFailure):  # its child run is FAILED; the others still compete
                    failed[fitted.method] = fitted.error
                    logger.warning("Candidate %s failed: %s", fitted.method, fitted.error)
                else:
                    results[fitted.method] = fitted
                logger.info(progress.update())
                bar.update(progress.done)
            bar.finish()
            results = {method: results[method] for method in params.candidates if method in results}
            failed = {method: failed[method] for method in params.candidates if method in failed}
            best = best_candidate(results, failed, params.dataset)
            decision = register_and_promote_task(
                run.tracking_uri, params.registered_model_name, best, data, run.run_id, params.promotion
            )
            verdict = log_retrain_answer_task(run, decision, best.method)
            published = publish_report_task(run)
            publish_run_artifacts("retrain", params.dataset, run, published)
    except NoCandidateError as error:  # the parent run is FAILED; the registry is untouched
        return Failed(
            message=f"{error}. Nothing was registered and the champion stays; MLflow run {run.run_id} is"
            " FAILED"
        )
    logger.info("Retrain of %s done: %s.", params.dataset, verdict)
    outcome = retrain_outcome(params.dataset, run, results, failed, best, decision)
    return {**outcome, "verdict": verdict, "report": published}


def run_retrain(params: RetrainParams | Mapping) -> dict:
    """Validate ``params`` (raising ``pydantic.ValidationError`` before any flow run); run ``retrain`` once.

    Its ``tracking_uri`` and ``cache_dir`` are this process's MLflow default and dataset cache for the run
    (``tasks.config.flow_parameters.machine_environment``).
    """
    params = validate_params(RetrainParams, params)
    with machine_environment(params):
        return retrain.with_options(retries=0)(**flow_arguments(params))
