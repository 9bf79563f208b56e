"""The replay's steps: a source folder that grows period by period, and the three models judged on each batch.

:func:`prepare_replay_task` cuts the dataset's history into periods (:mod:`tasks.replay.history`), starts
the replay from nothing (its source folder emptied, its registered model ``cslearn-replay-...`` and its
monitoring series removed) and binds the warm-up periods, one batch file each, as the user dataset
``replay-<dataset>-<period>`` with the time column and the dataset's cost model, as ``cslearn datasets
ingest SOURCE --time-column`` does. Each replayed period then arrives twice, as it would in production: its
rows without the label in ``incoming/`` (what the ``score`` flow decides on), then with the label in
``batches/`` (what a refresh reads).

On each batch three models decide (:func:`period_savings_task`; the realized savings of CSDT Eq. 4 with the
rows' own costs, and the money they cost):

- the **champion**: the registry's ``champion`` as it was when the batch arrived;
- **never retrained**: the first champion, frozen;
- **always retrained**: every period, the method of that period's best candidate refit on every row so far
  (its holdout included) and used whatever the paired bootstrap said (:func:`refit_on_all_rows_task`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from algorithms.metrics import COST_COLUMNS, cost_loss, savings_score
from schemas.flow_params import ReplayParams, RetrainParams
from tasks.cost_models.derive import derive_split_costs
from tasks.datasets import load_dataset
from tasks.datasets.encoding import RawEncoding
from tasks.datasets.live import BindOptions, bind_source
from tasks.datasets.user_files import UserFileOptions
from tasks.fitting.cost_selection import fit_with_cost_selection
from tasks.fitting.estimators import build_estimator
from tasks.fitting.splits import derive_seed
from tasks.model_registry.logged_models import load_cost_aware_model
from tasks.model_registry.registry_versions import version_with_alias
from tasks.model_registry.serving import CostAwareModel
from tasks.replay.history import LABEL_COLUMN, ReplayHistory, load_history
from tasks.storage import state_home
from tasks.tracking.mlflow_runs import default_tracking_uri, tracking_client

__all__ = [
    "PeriodBatch",
    "ReplaySetup",
    "champion_now_task",
    "period_retrain_params",
    "load_version_task",
    "period_savings",
    "period_savings_task",
    "prepare_replay_task",
    "refit_on_all_rows",
    "refit_on_all_rows_task",
    "replay_dataset_name",
    "write_period_task",
]


@dataclass(frozen=True)
class ReplaySetup:
    """Where a replay runs: its history, the user dataset and registered model it feeds, its folders.

    ``warmup`` periods train the first champion; ``periods`` are the ones replayed after them, in order;
    ``fingerprint`` is the bound dataset's at the start.
    """

    history: ReplayHistory
    dataset: str
    model_name: str
    folder: Path
    warmup: int
    periods: tuple[int, ...]
    fingerprint: str

    @property
    def batches(self) -> Path:
        return self.folder / "batches"

    @property
    def incoming(self) -> Path:
        return self.folder / "incoming"

    @property
    def scores(self) -> Path:
        return self.folder / "scores"


@dataclass(frozen=True)
class PeriodBatch:
    """One replayed period's files: unlabelled (to score) and labelled (for the refresh), and its rows."""

    period: int
    label: str
    incoming: Path
    labelled: Path
    rows: pd.DataFrame


def replay_dataset_name(dataset: str, period: str) -> str:
    """The user dataset a replay feeds: ``replay-<dataset>-<period>`` (``1.5h`` as ``1p5h``)."""
    return f"replay-{dataset}-{period.replace('.', 'p')}"[:64]


def _batch_name(period: int) -> str:
    return f"period-{period:04d}.parquet"


def _forget_earlier_replay(tracking_uri: str, model_name: str, dataset: str) -> list[str]:
    """Remove the registered model and the monitoring series an earlier replay of the same name left."""
    from mlflow.exceptions import MlflowException

    client = tracking_client(tracking_uri)
    removed = []
    try:
        client.delete_registered_model(model_name)
        removed.append(f"registered model {model_name}")
    except MlflowException:
        pass
    experiment = client.get_experiment_by_name("cslearn-monitor")
    if experiment is not None:
        series = client.search_runs(
            [experiment.experiment_id], filter_string=f"tags.`cslearn.monitor_series` = '{dataset}'"
        )
        for run in series:
            client.delete_run(run.info.run_id)
            removed.append(f"monitoring series run {run.info.run_id}")
    return removed


def _write_parquet(frame: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    frame.to_parquet(partial, index=False)
    partial.replace(path)


@task(name="prepare_replay", cache_policy=NO_CACHE)
def prepare_replay_task(
    dataset: str,
    period: str,
    *,
    warmup_share: float,
    holdout_periods: int,
    max_periods: int | None,
    tracking_uri: str | None,
    cache_dir: str | None,
) -> ReplaySetup:
    """Cut the history into periods, start the replay from nothing and bind its warm-up periods.

    Raises
    ------
    ValueError
        If the dataset has no order in time, the period does not fit it, or no period is left to replay.
    """
    logger = get_run_logger()
    history = load_history(dataset, period, cache_dir=cache_dir)
    warmup = history.warmup_periods(warmup_share, holdout_periods)
    replayed = tuple(range(warmup, history.n_periods))[:max_periods]
    name = replay_dataset_name(dataset, period)
    model_name, folder = f"cslearn-{name}", state_home() / "replay" / name
    batches = folder / "batches"
    shutil.rmtree(folder, ignore_errors=True)
    for earlier in range(warmup):
        _write_parquet(history.period_rows(earlier), batches / _batch_name(earlier))
    for removed in _forget_earlier_replay(tracking_uri or default_tracking_uri(), model_name, name):
        logger.info("The replay starts from nothing, so the %s of an earlier replay was removed.", removed)
    options = BindOptions(
        UserFileOptions(
            target=LABEL_COLUMN, positive="1", cost_columns=COST_COLUMNS if history.own_costs else ()
        ),
        time_column=history.time_column,
        cost_model=None if history.own_costs else history.cost_model,
    )
    bound = bind_source(
        str(batches / "*.parquet"), options=options, name=name, replace=True, cache_dir=cache_dir
    )
    setup = ReplaySetup(history, name, model_name, folder, warmup, replayed, bound.fingerprint)
    counts = history.rows_per_period()
    logger.info(
        "%s cut into %d periods of %s (order: %s); the first %d (%s to %s, %s rows) train the first champion"
        " and %d are replayed, as the user dataset %s bound to %s.",
        dataset,
        history.n_periods,
        period,
        history.order,
        warmup,
        history.labels[0],
        history.labels[warmup - 1],
        f"{counts[:warmup].sum():,}",
        len(replayed),
        name,
        setup.batches,
    )
    return setup


@task(name="write_period", task_run_name="write period {period}", cache_policy=NO_CACHE)
def write_period_task(setup: ReplaySetup, period: int, *, labelled: bool) -> PeriodBatch:
    """Write one period's rows: without the label to ``incoming/`` (``labelled=False``: they arrive to be
    scored), or with it to ``batches/`` (``labelled=True``: the labels have arrived)."""
    rows = setup.history.period_rows(period)
    batch = PeriodBatch(
        period,
        setup.history.labels[period],
        setup.incoming / _batch_name(period),
        setup.batches / _batch_name(period),
        rows,
    )
    if labelled:
        _write_parquet(rows, batch.labelled)
    else:
        _write_parquet(rows.drop(columns=[LABEL_COLUMN, *COST_COLUMNS], errors="ignore"), batch.incoming)
    return batch


@task(name="load_version", task_run_name="load version {version}", cache_policy=NO_CACHE, retries=1)
def load_version_task(tracking_uri: str | None, model_name: str, version: str) -> CostAwareModel:
    """Load a registered version with cslearn's allow-list."""
    return load_cost_aware_model(f"models:/{model_name}/{version}", tracking_uri=tracking_uri)


def refit_on_all_rows(dataset_name: str, method: str, *, seed: int, cache_dir=None) -> CostAwareModel:
    """``method`` fit on every row of the dataset so far with their costs, as a retrain fits a candidate."""
    dataset = load_dataset(dataset_name, cache_dir=cache_dir)
    features, target = dataset.features, np.asarray(dataset.target)
    cost_model_name = getattr(dataset.spec, "cost_model", None)
    if dataset.cost_matrix is not None:
        costs, cost_model = np.asarray(dataset.cost_matrix), None
    else:
        derived = derive_split_costs(cost_model_name, features, target, features.head(1))
        costs, cost_model = derived.train.values, derived.model
    estimator = build_estimator(method, random_state=derive_seed(seed, 2))
    fitted = fit_with_cost_selection(estimator, features, target, cost_matrix=costs, random_state=seed)
    encoding = RawEncoding.from_record(dataset.metadata["feature_encoding"])
    return CostAwareModel(fitted.model, cost_model, encoding)


@task(name="refit_on_all_rows", task_run_name="refit {method} on every row", cache_policy=NO_CACHE)
def refit_on_all_rows_task(dataset_name: str, method: str, *, seed: int, cache_dir=None) -> CostAwareModel:
    """The "always retrained" model of the next period (module docstring)."""
    model = refit_on_all_rows(dataset_name, method, seed=seed, cache_dir=cache_dir)
    get_run_logger().info("Refit %s on every row of %s so far for the next period.", method, dataset_name)
    return model


def period_savings(rows: pd.DataFrame, models: dict[str, CostAwareModel]) -> dict[str, dict]:
    """Each model's decisions on one period's labelled rows: ``savings`` (NaN when neither trivial decision
    costs anything, e.g. no fraud in the period), ``cost``, and the costs of the two trivial decisions."""
    target = rows[LABEL_COLUMN].to_numpy(int)
    outcome = {}
    for name, model in models.items():
        decided = model.predict(rows.drop(columns=[LABEL_COLUMN]))
        costs = decided[list(COST_COLUMNS)].to_numpy(float)
        decisions = decided["decision"].to_numpy(int)
        outcome[name] = {
            "savings": savings_score(target, decisions, costs),
            "cost": float(cost_loss(target, decisions, costs)),
            "flagged": int(decisions.sum()),
            "cost_all_negative": float(cost_loss(target, np.zeros_like(target), costs)),
            "cost_all_positive": float(cost_loss(target, np.ones_like(target), costs)),
        }
    return outcome


@task(name="period_savings", task_run_name="savings of period {batch.period}", cache_policy=NO_CACHE)
def period_savings_task(batch: PeriodBatch, models: dict[str, CostAwareModel]) -> dict[str, dict]:
    """The realized savings of every model on the period's batch; the log compares them."""
    outcome = period_savings(batch.rows, models)
    get_run_logger().info(
        "Period %d (%s, %s rows, %d positive): realized savings %s.",
        batch.period,
        batch.label,
        f"{len(batch.rows):,}",
        int(batch.rows[LABEL_COLUMN].sum()),
        "; ".join(f"{name} {result['savings']:.4f}" for name, result in outcome.items()),
    )
    return outcome


def period_retrain_params(params: ReplayParams, setup: ReplaySetup, through: int) -> RetrainParams:
    """The retrain after period ``through``: the replay's candidates on its dataset, out of time with the
    newest ``holdout_periods`` periods held out, promoted by the paired bootstrap."""
    return RetrainParams(
        dataset=setup.dataset,
        candidates=params.candidates,
        holdout_window=setup.history.holdout_window(through, params.holdout_periods),
        promotion_confidence=params.promotion_confidence,
        bootstrap_resamples=params.bootstrap_resamples,
        seed=params.seed,
        model_name=setup.model_name,
    )


@task(name="champion_now", cache_policy=NO_CACHE, retries=1)
def champion_now_task(tracking_uri: str | None, model_name: str) -> dict:
    """The version the registry's ``champion`` alias names now, and its method.

    Raises
    ------
    ValueError
        When the model has no champion: its first retrain promoted none (holdout savings not positive).
    """
    client = tracking_client(tracking_uri or default_tracking_uri())
    version = version_with_alias(client, model_name, "champion")
    if version is None:
        raise ValueError(
            f"{model_name} has no champion to replay: its first retrain promoted none (a model whose holdout"
            " savings are not positive is never promoted; its version's description says why); give the"
            " first periods more rows with --warmup-share"
        )
    return {"version": str(version.version), "method": version.tags.get("cslearn.method", "?")}
