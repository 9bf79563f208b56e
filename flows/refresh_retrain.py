"""The ``refresh-and-retrain`` flow: read what is new in a dataset's source, then retrain on it.

1. A dataset bound to a source is refreshed (``tasks.datasets.live``): new batch files, or rows past the
   newest time, each through the contracts of a first ingest. A registered dataset has no source to refresh
   and is retrained on its snapshot.
2. When a batch was refused, the champion stays in place: the flow run ends Failed with the refused
   batches and their reasons as its message (nothing is retrained until the source is fixed; the batches
   that passed are kept).
3. When the dataset is the very state the champion was trained on (nothing new), nothing is done, and the
   flow says so. (Batches accepted by a refresh that also refused one are retrained on once the source is
   fixed.)
4. Otherwise the ``retrain`` flow runs as a subflow on the new state: out of time when the dataset has a
   time column; the champion moves only when beaten by more than the noise.

The ``refresh-retrain`` deployment (``prefect.yaml``) runs it on a schedule; the ``monitor`` flow starts it
when the champion drifts.
"""

from __future__ import annotations

from collections.abc import Mapping

from prefect import flow, get_run_logger
from prefect.states import Failed

from flows.retrain import retrain
from schemas.flow_params import LiveRetrainParams, RetrainParams
from tasks.config.checks import validate_params
from tasks.config.flow_parameters import flat_parameters, flow_arguments, machine_environment
from tasks.datasets.refresh_report import refresh_dataset_task
from tasks.model_registry.promotion import champion_fingerprint_task

__all__ = ["refresh_and_retrain", "run_refresh_and_retrain"]


@flow(name="refresh-and-retrain", validate_parameters=True)
@flat_parameters(LiveRetrainParams, choices={"dataset": "business_datasets", "candidates": "methods"})
def refresh_and_retrain(params: LiveRetrainParams):
    """Refresh the dataset's source, then retrain on it (unless a batch was refused or nothing is new).

    Returns
    -------
    dict
        ``refresh`` (the refresh's result, ``None`` for a registered dataset) and ``action``
        (``retrained``, ``nothing new``), with the retrain's result when it ran; a Failed state naming the
        refused batches when one was refused, or the retrain's Failed state when it failed (every candidate
        failed: its message names each error).
    """
    logger = get_run_logger()
    refreshed = refresh_dataset_task(params.dataset, params.cache_dir)
    if refreshed is not None and refreshed["refused"]:
        reasons = "; ".join(item["reason"] for item in refreshed["refused"])
        return Failed(
            message=f"{params.dataset}: {len(refreshed['refused'])} batch(es) refused, so the champion stays"
            f" in place and nothing is retrained until the source is fixed: {reasons}"[:4000]
        )
    if refreshed is not None and refreshed["fingerprint"] == champion_fingerprint_task(
        params.tracking_uri, params.registered_model_name
    ):
        logger.info(
            "%s: version %d is the data the champion was trained on (nothing new in the source); the"
            " champion stays, nothing retrained",
            params.dataset,
            refreshed["version"],
        )
        return {"refresh": refreshed, "action": "nothing new"}
    retrain_params = RetrainParams(**params.model_dump())
    retrained = retrain(**flow_arguments(retrain_params), return_state=True)
    if retrained.is_failed():  # e.g. every candidate failed: its message names them; the champion stays
        return retrained
    return {"refresh": refreshed, "action": "retrained", **retrained.result()}


def run_refresh_and_retrain(params: LiveRetrainParams | Mapping):
    """Validate ``params`` and run the flow once (what a test or a script calls)."""
    params = validate_params(LiveRetrainParams, params)
    with machine_environment(params):
        return refresh_and_retrain(**flow_arguments(params))
