"""The ``replay`` flow: a dataset's history fed period by period through the live loop, as deployed.

1. the dataset's rows in time order are cut into periods (``tasks.replay.history``); the first ones, the
   warm-up, are bound as the user dataset ``replay-<dataset>-<period>`` (a folder of batch files, one per
   period) and the ``retrain`` flow trains its first champion on them, out of time;
2. then, for every later period, as the deployments would: its rows arrive without labels and the ``score``
   flow decides on them with the champion of the moment; its labels arrive (the batch file, labelled, in the
   source folder); the source is refreshed; the ``monitor`` flow watches the champion on the new batch
   (drift against its training rows, realized savings); the ``retrain`` flow refits the candidates out of
   time, the newest ``holdout_periods`` periods held out, and moves the champion only when the paired
   bootstrap says it is beaten;
3. on each batch the champion is set beside two baselines: the first champion never retrained, and each
   period's best method refit on every row so far and always used (``tasks.replay.loop``);
4. one MLflow parent run (experiment ``cslearn-replay``) holds a step per period, the figure, the table and
   the report, verdict first, also shown as a Prefect artifact (``tasks.replay.verdict``).

The monitor's trigger is recorded, not started: the replay retrains after every period anyway, as the
scheduled ``refresh-retrain`` deployment does.
"""

from __future__ import annotations

from collections.abc import Mapping

from prefect import flow

from flows.monitor import monitor
from flows.retrain import retrain
from flows.score import score
from schemas.flow_params import ReplayParams
from tasks.config.checks import validate_params
from tasks.config.flow_parameters import flat_parameters, flow_arguments, machine_environment
from tasks.datasets.refresh_report import refresh_dataset_task
from tasks.replay.loop import (
    champion_now_task,
    load_version_task,
    period_retrain_params,
    period_savings_task,
    prepare_replay_task,
    refit_on_all_rows_task,
    write_period_task,
)
from tasks.replay.verdict import log_period_task, period_row, publish_replay_task, replay_parent_run
from tasks.tracking.mlflow_runs import default_tracking_uri
from tasks.tracking.prefect_artifacts import ProgressArtifact

__all__ = ["replay", "run_replay"]


@flow(name="replay", flow_run_name="replay {dataset} per {period}", validate_parameters=True)
@flat_parameters(ReplayParams, choices={"dataset": "business_datasets", "candidates": "methods"})
def replay(params: ReplayParams) -> dict:
    """Replay the dataset's history period by period through score, refresh, monitor and retrain.

    Returns
    -------
    dict
        ``verdict``, ``savings`` and ``cost`` over the replay per model (``champion``, ``never retrained``,
        ``always retrained``), ``moves`` (when the champion moved), ``drift`` (feature -> periods drifted),
        ``warmup``, ``table`` (one row per period, ``tasks.replay.verdict.period_row``) and ``run_id``.
    """
    tracking_uri = params.tracking_uri or default_tracking_uri()
    retrain_once = retrain.with_options(retries=0)
    setup = prepare_replay_task(
        params.dataset,
        params.period,
        warmup_share=params.warmup_share,
        holdout_periods=params.holdout_periods,
        max_periods=params.max_periods,
        tracking_uri=tracking_uri,
        cache_dir=params.cache_dir,
    )
    with replay_parent_run(params, setup, setup.fingerprint) as run:
        first = retrain_once(**flow_arguments(period_retrain_params(params, setup, setup.warmup - 1)))
        first_champion = champion_now_task(tracking_uri, setup.model_name)
        never_retrained = load_version_task(tracking_uri, setup.model_name, first_champion["version"])
        always_method = first["best"]
        progress = ProgressArtifact(len(setup.periods), description="periods replayed")
        rows = []
        for period in setup.periods:
            champion = champion_now_task(tracking_uri, setup.model_name)
            always_retrained = refit_on_all_rows_task(  # on every row before this period
                setup.dataset, always_method, seed=params.seed, cache_dir=params.cache_dir
            )
            pinned = f"models:/{setup.model_name}/{champion['version']}"
            arriving = write_period_task(setup, period, labelled=False)
            score(
                dataset=setup.dataset,
                input=str(arriving.incoming),
                output=f"{setup.scores}/",
                model_uri=pinned,
                keep_columns=(setup.history.time_column,),
            )
            batch = write_period_task(setup, period, labelled=True)
            refreshed = refresh_dataset_task(setup.dataset, params.cache_dir)
            watched = monitor(
                dataset=setup.dataset,
                model_uri=pinned,
                psi_threshold=params.psi_threshold,
                trigger_retrain=False,
            )
            savings = period_savings_task(
                batch,
                {
                    "champion": load_version_task(tracking_uri, setup.model_name, champion["version"]),
                    "never retrained": never_retrained,
                    "always retrained": always_retrained,
                },
            )
            retrained = retrain_once(**flow_arguments(period_retrain_params(params, setup, period)))
            row = period_row(batch, champion, savings, refreshed, watched, retrained, always_method)
            rows.append(log_period_task(run, row))
            always_method = retrained["best"]
            progress.update(len(rows))
        progress.finish()
        return publish_replay_task(run, setup, rows, first_champion)


def run_replay(params: ReplayParams | Mapping) -> dict:
    """Validate ``params`` and run ``replay`` once."""
    params = validate_params(ReplayParams, params)
    with machine_environment(params):
        return replay(**flow_arguments(params))
