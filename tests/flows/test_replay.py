"""The replay: a small time-ordered dataset fed period by period through the live loop (real Prefect and
MLflow servers, as the live-loop test), and the bad inputs it refuses before any work.

The dataset is a folder of transaction batches bound with a time column ``ts`` (seconds, 400 rows a
period) and the card-fraud cost model; the fraud rule drifts from the fourth period on, so a retrain has
something to find.
"""

from __future__ import annotations

import uuid

import numpy as np
import pandas as pd
import pytest
from mlflow import MlflowClient
from pydantic import ValidationError

from flows.cli import main
from flows.replay import run_replay
from schemas.flow_params import ReplayParams
from tasks.datasets import load_dataset
from tasks.datasets.live import BindOptions, bind_source
from tasks.datasets.user_files import UserFileOptions
from tasks.replay import loop
from tasks.replay.history import load_history, time_order_problem

ROWS = 400


def _period(index: int) -> pd.DataFrame:
    rng = np.random.default_rng(index)
    x = rng.normal(0.5 if index >= 3 else 0.0, 1, ROWS)
    slope = -2.0 if index >= 3 else 2.0  # the fraud rule turns around: the first champion goes stale
    fraud = (rng.random(ROWS) < 1 / (1 + np.exp(-(slope * x - 2.0)))).astype(int)
    return pd.DataFrame(
        {
            "ts": np.arange(index * ROWS, (index + 1) * ROWS, dtype=float),
            "x": x,
            "Amount": rng.uniform(1, 300, ROWS).round(2),
            "fraud": fraud,
        }
    )


def _bind(tmp_path, periods: int, *, time_column: str | None = "ts") -> str:
    name = f"tx-{uuid.uuid4().hex[:6]}"
    source = tmp_path / f"exports-{name}"
    source.mkdir()
    pd.concat([_period(index) for index in range(periods)]).to_parquet(source / "tx-000.parquet")
    columns = UserFileOptions(target="fraud", drop_columns=() if time_column else ("ts",))
    options = BindOptions(columns, time_column=time_column, cost_model="card-fraud")
    bind_source(str(source / "*.parquet"), options=options, name=name)
    return name


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))


def test_a_history_is_cut_into_periods_in_time_order(tmp_path, own_cache):
    name = _bind(tmp_path, 5)
    history = load_history(name, f"{ROWS}s")
    assert history.n_periods == 5 and history.labels[:2] == ("+0s", f"+{ROWS}s")
    assert history.rows_per_period().tolist() == [ROWS] * 5
    assert np.all(np.diff(history.times) >= 0) and history.time_column == "ts"
    assert set(history.period_rows(2)["ts"]) == set(range(2 * ROWS, 3 * ROWS))
    assert history.warmup_periods(0.3, 1) == 2  # 30 % of the rows, and one more period than the holdout
    with pytest.raises(ValueError, match="leaves none to replay"):
        history.warmup_periods(0.3, 4)
    window = history.holdout_window(3, 2)  # the newest two periods of the data through period 3
    assert window == f"{4 * ROWS - 1 - (2 * ROWS - 0.5):.3f}s"


def test_bad_inputs_are_refused_before_any_work(tmp_path, own_cache, capsys):
    untimed = _bind(tmp_path, 2, time_column=None)
    assert "has no order in time" in time_order_problem(untimed, "1h")
    assert "--period month needs dates" in time_order_problem("card-fraud", "month")
    assert "ordered by month, with no finer time" in time_order_problem("direct-marketing", "1h")
    assert (
        time_order_problem("card-fraud", "1h") is None
        and time_order_problem("direct-marketing", "month") is None
    )
    with pytest.raises(ValidationError, match="period"):
        ReplayParams(dataset="card-fraud", period="hourly")
    with pytest.raises(
        ValidationError, match=r"'fortnightly' is not a period: use 'month', or a number and a unit"
    ):
        ReplayParams(dataset="card-fraud", period="fortnightly")
    with pytest.raises(ValidationError, match="is not a business dataset"):
        ReplayParams.model_validate(
            {"dataset": "pima", "period": "1h"}, context={"business_datasets": ["card-fraud"], "methods": []}
        )
    assert main(["replay", untimed, "--period", "1h"]) == 2
    assert main(["replay", "card-fraud", "--period", "month"]) == 2
    assert "--period month needs dates" in capsys.readouterr().err


@pytest.mark.servers
def test_a_replay_feeds_every_period_through_the_loop(
    prefect_server, mlflow_server, tmp_path, own_cache, monkeypatch
):
    monkeypatch.setenv("MLFLOW_TRACKING_URI", mlflow_server)
    name = _bind(tmp_path, 7)
    refits = []
    refit = loop.refit_on_all_rows

    def counted_refit(dataset_name, method, **kwargs):
        refits.append((method, len(load_dataset(dataset_name).target)))
        return refit(dataset_name, method, **kwargs)

    monkeypatch.setattr(loop, "refit_on_all_rows", counted_refit)
    outcome = run_replay(
        {
            "dataset": name,
            "period": f"{ROWS}s",
            "candidates": ("cslogit", "bmr-lr"),
            "warmup_share": 0.25,
            "holdout_periods": 1,
            "max_periods": 4,
            "bootstrap_resamples": 200,
        }
    )
    table = outcome["table"]
    assert [row["period"] for row in table] == [2, 3, 4, 5] and all(row["rows"] == ROWS for row in table)
    assert outcome["warmup"]["periods"] == 2 and outcome["warmup"]["champion_version"] == "1"
    # the monitor's realized savings are the champion's on the same batch
    for row in table:
        assert row["monitor_savings"] == pytest.approx(row["savings/champion"])
    # never retrained is the first champion: the same decisions while it is the champion
    for row in table:
        if row["champion_version"] == "1":
            assert row["savings/never retrained"] == pytest.approx(row["savings/champion"])
    assert any(row["champion_version"] != "1" for row in table[1:]) or not any(r["promoted"] for r in table)
    # the champion moves only on a promotion, to the version that retrain registered
    for before, after in zip(table, table[1:], strict=False):
        if before["promoted"]:
            assert after["champion_version"] == before["retrain_version"]
        else:
            assert after["champion_version"] == before["champion_version"]
    assert outcome["moves"] == [
        {"period": row["label"], "version": row["retrain_version"], "method": row["retrain_best"]}
        for row in table
        if row["promoted"]
    ]
    # always retrained is refit every period on every row before it, with the latest best method
    assert [rows for _, rows in refits] == [ROWS * period for period in (2, 3, 4, 5)]
    assert [method for method, _ in refits[1:]] == [row["retrain_best"] for row in table[:-1]]
    assert "x" in {feature for row in table for feature in row["drifted_features"]}
    assert outcome["verdict"].startswith(f"Over 4 periods of {ROWS}s of {name}")

    client = MlflowClient(mlflow_server)
    run = client.get_run(outcome["run_id"])
    assert run.info.status == "FINISHED" and run.data.tags["cslearn.replay.verdict"] == outcome["verdict"]
    listed = {item.path for item in client.list_artifacts(outcome["run_id"])}
    listed |= {
        item.path
        for folder in ("figures", "results")
        for item in client.list_artifacts(run.info.run_id, folder)
    }
    assert {"figures/replay.png", "replay.md", "replay.html", "results/replay.csv"} <= listed
    history = client.get_metric_history(outcome["run_id"], "savings/champion")
    assert [metric.step for metric in history] == [2, 3, 4, 5]
    champion = client.get_model_version_by_alias(f"cslearn-replay-{name}-{ROWS}s", "champion")
    assert champion.version == (
        table[-1]["retrain_version"] if table[-1]["promoted"] else table[-1]["champion_version"]
    )
