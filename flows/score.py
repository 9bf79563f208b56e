"""The ``score`` flow: the champion's decisions on batches of unlabelled rows, written where they are used.

1. the model is resolved once (``models:/cslearn-<dataset>@champion`` by default, pinned to its version for
   the whole run) and loaded with cslearn's allow-list;
2. the input's batches are read (each file of a glob, only the newest with ``newest``, or a SQL query);
3. each batch goes through the model's input contract (a missing column refuses the batch, a bad value its
   row, with the reason) and the served model's table (decision, probability, expected cost, the four
   costs), written atomically and idempotently: scoring a batch again replaces its rows;
4. the MLflow run (experiment ``cslearn-score``) records the model version, each batch's rows, flagged share
   and total expected cost (step = batch), the batches as dataset inputs and the refused rows; the Prefect
   flow run shows a table of the batches.

The ``score-newest`` deployment (``prefect.yaml``) scores the newest batch of an input on a schedule.
"""

from __future__ import annotations

from collections.abc import Mapping

from prefect import flow

from schemas.flow_params import ScoreParams
from tasks.config.checks import validate_params
from tasks.config.flow_parameters import flat_parameters, flow_arguments, logged_params, machine_environment
from tasks.scoring.scoring_runs import (
    load_scoring_model_task,
    log_scored_batch_task,
    publish_scoring_summary_task,
    read_score_batches_task,
    score_and_write_task,
    scoring_run,
)
from tasks.tracking.mlflow_runs import default_tracking_uri

__all__ = ["run_score", "score"]


@flow(name="score", validate_parameters=True)
@flat_parameters(ScoreParams, choices={"dataset": "datasets"})
def score(params: ScoreParams) -> dict:
    """Score the input's batches with the dataset's model and write the decisions; returns the summary.

    Returns
    -------
    dict
        ``dataset``, ``model_uri``, ``model_version``, ``run_id``, ``output``, ``rows``, ``refused_rows``,
        ``flagged_share``, ``total_expected_cost`` and ``batches`` (one summary per batch).
    """
    tracking_uri = params.tracking_uri or default_tracking_uri()
    model = load_scoring_model_task(params.model, tracking_uri)
    batches = read_score_batches_task(
        params.input,
        table=params.input_table,
        query=params.input_query,
        newest=params.newest,
        batch_id=params.batch_id,
    )
    with scoring_run(
        tracking_uri, params.experiment, dataset=params.dataset, model=model, params=logged_params(params)
    ) as run:
        results = []
        for step, batch in enumerate(batches):
            scored, where = score_and_write_task(
                model,
                batch,
                params.output,
                output_table=params.output_table,
                keep_columns=params.keep_columns,
            )
            log_scored_batch_task(run, batch, scored, step, params.dataset)
            results.append((scored, where))
        return publish_scoring_summary_task(
            run, params.dataset, model, results, params.output, params.output_table
        )


def run_score(params: ScoreParams | Mapping) -> dict:
    """Validate ``params`` (``pydantic.ValidationError`` before any flow run) and run ``score`` once."""
    params = validate_params(ScoreParams, params)
    with machine_environment(params):
        return score(**flow_arguments(params))
