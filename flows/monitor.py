"""The ``monitor`` flow: watch the champion on a batch and start a retrain when it drifts or loses savings.

1. the model (the dataset's champion by default) is resolved and loaded, with its version's time cutoff and
   holdout savings;
2. the reference (the champion's training rows) and the batch (``input``, or the dataset's newest accepted
   batch with its labels) are read;
3. every feature's population stability index and, for numeric columns, the two-sample KS test; the
   flagged share and mean probability against the training rows; the realized savings when labels are known
   (``tasks.monitoring``);
4. one step of the dataset's MLflow series (``monitor <dataset>``), a figure, a Prefect artifact;
5. past a threshold (``drifted_features_to_retrain``, ``savings_drop_to_retrain``) the retrain deployment
   (``refresh-and-retrain/refresh-retrain``) is started for the dataset, and the flow says why.
"""

from __future__ import annotations

from collections.abc import Mapping

from prefect import flow

from schemas.flow_params import MonitorParams
from tasks.config.checks import validate_params
from tasks.config.flow_parameters import flat_parameters, flow_arguments, machine_environment
from tasks.monitoring.watch import (
    champion_facts_task,
    load_monitor_batch_task,
    load_reference_task,
    log_watch_task,
    retrain_reasons,
    trigger_retrain_task,
    watch_batch_task,
)
from tasks.scoring.scoring_runs import load_scoring_model_task
from tasks.tracking.mlflow_runs import default_tracking_uri

__all__ = ["monitor", "run_monitor"]


@flow(name="monitor", validate_parameters=True)
@flat_parameters(MonitorParams, choices={"dataset": "datasets"})
def monitor(params: MonitorParams) -> dict:
    """Watch the dataset's champion on a batch; returns the drift, the savings and what was started.

    Returns
    -------
    dict
        ``dataset``, ``batch``, ``rows``, ``model_version``, ``drifted_features``, ``drift`` (per feature:
        ``psi``, ``band``, ``ks_statistic``, ``ks_p_value``), ``flagged_share``, ``mean_probability``, their
        ``reference_*`` values, ``realized_savings`` (``None`` without labels), ``holdout_savings``,
        ``retrain`` (``triggered``, ``reasons``, ``flow_run_id``), ``run_id`` and ``step``.
    """
    tracking_uri = params.tracking_uri or default_tracking_uri()
    model = load_scoring_model_task(params.model, tracking_uri)
    facts = champion_facts_task(model.name, model.version, tracking_uri)
    reference = load_reference_task(params.dataset, facts["time_cutoff"], cache_dir=params.cache_dir)
    batch = load_monitor_batch_task(
        params.dataset,
        params.input,
        table=params.input_table,
        query=params.input_query,
        cache_dir=params.cache_dir,
    )
    result = watch_batch_task(
        model.model,
        reference,
        batch,
        psi_threshold=params.psi_threshold,
        holdout_savings=facts["holdout_savings"],
    )
    logged = log_watch_task(
        tracking_uri, params.experiment, params.dataset, model.version, result, params.psi_threshold
    )
    reasons = retrain_reasons(
        result,
        drifted_features_to_retrain=params.drifted_features_to_retrain,
        savings_drop_to_retrain=params.savings_drop_to_retrain,
    )
    retrain = trigger_retrain_task(params.dataset, params.deployment, reasons, params.trigger_retrain)
    return {
        "dataset": params.dataset,
        "model_version": model.version,
        **{key: value for key, value in result.items() if key != "drift"},
        "drift": result["drift"].to_dict(orient="records"),
        "retrain": retrain,
        **logged,
    }


def run_monitor(params: MonitorParams | Mapping) -> dict:
    """Validate ``params`` and run ``monitor`` once."""
    params = validate_params(MonitorParams, params)
    with machine_environment(params):
        return monitor(**flow_arguments(params))
