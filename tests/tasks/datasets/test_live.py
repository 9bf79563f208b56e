"""Datasets bound to a source: a glob of batch files, sqlite and a real PostgreSQL server.

Each refresh reads only what is new; every bad batch is refused with its name and reason and loses nothing
(the batches that passed are kept, the refused file stays where it is and is read again next time); every
accepted state has its own version and fingerprint; a SQL URL's password is never stored.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import sqlalchemy

from tasks.datasets import load_dataset
from tasks.datasets.live import BindOptions, SourceUnavailableError, bind_source, refresh_dataset
from tasks.datasets.live_sources import credentials_variable
from tasks.datasets.user_files import UserFileOptions

OPTIONS = BindOptions(UserFileOptions(target="fraud"), time_column="ts", cost_model="card-fraud")


def _batch(start: int, rows: int, *, seed: int, kinds=("a", "b")) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "ts": np.arange(start, start + rows, dtype=float),
            "Amount": rng.uniform(1, 100, rows).round(2),
            "kind": rng.choice(kinds, rows),
            "fraud": np.where(np.arange(rows) % 5 == 0, "yes", "no"),
        }
    )


@pytest.fixture
def cache(tmp_path):
    return tmp_path / "cache"


def test_a_glob_source_refreshes_with_only_the_new_files_and_refuses_each_bad_batch_by_name(tmp_path, cache):
    source = tmp_path / "exports"
    source.mkdir()
    _batch(0, 40, seed=0).to_parquet(source / "b-000.parquet")
    _batch(40, 40, seed=1).to_csv(source / "b-001.csv", index=False)
    first = bind_source(str(source / "*"), options=OPTIONS, name="tx", cache_dir=cache)
    assert (first.version, first.rows, first.added_rows) == (1, 80, 80)
    assert [item["batch"] for item in first.accepted] == ["b-000.parquet", "b-001.csv"]

    _batch(80, 30, seed=2, kinds=("a", "b", "c")).to_parquet(source / "b-002.parquet")  # good, a new level
    stray = _batch(110, 30, seed=3).astype({"Amount": object})
    stray.loc[4, "Amount"] = "12,5 EUR"
    stray.to_csv(source / "b-003.csv", index=False)
    _batch(5, 10, seed=4).to_parquet(source / "b-004.parquet")  # times before the newest: backwards
    (source / "b-005.parquet").write_bytes((source / "b-002.parquet").read_bytes()[:200])  # half written
    _batch(200, 10, seed=5).drop(columns="kind").to_parquet(source / "b-006.parquet")  # another schema
    third_label = _batch(210, 10, seed=6)
    third_label.loc[2, "fraud"] = "maybe"
    third_label.to_parquet(source / "b-007.parquet")

    result = refresh_dataset("tx", cache_dir=cache)
    assert (result.version, result.added_rows, result.rows) == (2, 30, 110)
    assert [item["batch"] for item in result.accepted] == ["b-002.parquet"]
    assert result.new_levels == {"kind": ["c"]}
    reasons = {item["batch"]: item["reason"] for item in result.refused}
    assert set(reasons) == {"b-003.csv", "b-004.parquet", "b-005.parquet", "b-006.parquet", "b-007.parquet"}
    assert (
        "column 'Amount' holds numbers, but 1 of its 30 values are not numbers: '12,5 EUR' at row 4"
        in reasons["b-003.csv"]
    )
    assert "the time column 'ts' goes backwards: 10 row(s) (rows [0, 1, 2, 3, 4])" in reasons["b-004.parquet"]
    assert "older than the dataset's newest time 109" in reasons["b-004.parquet"]
    assert (
        "is not a readable parquet file" in reasons["b-005.parquet"]
        and "still being written?" in reasons["b-005.parquet"]
    )
    assert "has another schema: it lacks column(s) ['kind']" in reasons["b-006.parquet"]
    assert "target column 'fraud' holds ['maybe'] at rows [2]" in reasons["b-007.parquet"]

    dataset = load_dataset("tx", cache_dir=cache)
    assert dataset.features.columns.tolist() == ["Amount", "kind=a", "kind=b", "kind=c"]
    assert dataset.features["kind=c"].iloc[:80].eq(0).all() and dataset.features["kind=c"].iloc[80:].sum() > 0
    np.testing.assert_array_equal(dataset.time, np.arange(110.0))
    live = dataset.metadata["live"]
    assert [state["version"] for state in live["history"]] == [1, 2]
    assert live["history"][0]["fingerprint"] != live["history"][1]["fingerprint"] == dataset.fingerprint
    assert dataset.spec.cost_model == "card-fraud"

    # Nothing new: the same version; the refused files are read (and refused) again, nothing lost.
    again = refresh_dataset("tx", cache_dir=cache)
    assert (again.version, again.added_rows, again.fingerprint) == (2, 0, result.fingerprint)
    assert len(again.refused) == 5
    # A fixed file is taken next time; an accepted file that changed is refused, never read twice.
    stray.loc[4, "Amount"] = 12.5
    stray.astype({"Amount": float}).to_csv(source / "b-003.csv", index=False)
    _batch(80, 30, seed=9).to_parquet(source / "b-002.parquet")
    fixed = refresh_dataset("tx", cache_dir=cache)
    assert [item["batch"] for item in fixed.accepted] == ["b-003.csv"] and fixed.version == 3
    assert "b-002.parquet" in {item["batch"] for item in fixed.refused}
    assert (
        "changed since it was accepted" in {i["batch"]: i["reason"] for i in fixed.refused}["b-002.parquet"]
    )


def test_sqlite_tables_and_queries_grow_past_the_watermark_and_late_rows_are_refused(tmp_path, cache):
    url = f"sqlite:///{tmp_path / 'tx.db'}"
    engine = sqlalchemy.create_engine(url)
    _batch(0, 50, seed=0).to_sql("tx", engine, index=False)
    bind_source(url, table="tx", options=OPTIONS, name="tx-sql", cache_dir=cache)
    _batch(50, 20, seed=1).to_sql("tx", engine, index=False, if_exists="append")
    grown = refresh_dataset("tx-sql", cache_dir=cache)
    assert (grown.version, grown.added_rows, grown.rows) == (2, 20, 70)
    assert grown.accepted[0]["batch"].endswith("(table tx): time in (49, 69]")
    assert refresh_dataset("tx-sql", cache_dir=cache).added_rows == 0

    _batch(10, 3, seed=2).to_sql("tx", engine, index=False, if_exists="append")  # rows in the past
    late = refresh_dataset("tx-sql", cache_dir=cache)
    assert late.added_rows == 0 and late.version == 2
    assert (
        "the time column 'ts' went backwards: the dataset was read up to 69 (70 rows), and 3 row(s) now"
        in (late.refused[0]["reason"])
    )

    query = "SELECT ts, Amount, fraud FROM tx"  # other columns than the dataset's
    bind_source(
        url, query="SELECT * FROM tx WHERE ts < 60", options=OPTIONS, name="tx-query", cache_dir=cache
    )
    record = json.loads((cache / "datasets" / "user" / "tx-query.json").read_text())
    record["live"]["source"]["query"] = query
    (cache / "datasets" / "user" / "tx-query.json").write_text(json.dumps(record))
    changed = refresh_dataset("tx-query", cache_dir=cache)
    assert "has another schema: it lacks column(s) ['kind']" in changed.refused[0]["reason"]

    with pytest.raises(ValueError, match="a SQL source grows by its time column; pass --time-column"):
        bind_source(
            url, table="tx", options=BindOptions(UserFileOptions(target="fraud")), name="x", cache_dir=cache
        )


def test_a_postgresql_source_never_stores_its_password_and_an_unreachable_one_changes_nothing(
    postgres_server, cache, monkeypatch
):
    url = postgres_server.url()
    engine = sqlalchemy.create_engine(url)
    _batch(0, 60, seed=0).to_sql("live_tx", engine, index=False, if_exists="replace")
    bind_source(url, table="live_tx", options=OPTIONS, name="pg-tx", cache_dir=cache)
    record_text = (cache / "datasets" / "user" / "pg-tx.json").read_text()
    assert postgres_server.password not in record_text
    assert json.loads(record_text)["live"]["source"]["location"] == (
        f"postgresql+psycopg://***@127.0.0.1:{postgres_server.port}/postgres"
    )

    _batch(60, 15, seed=1).to_sql("live_tx", engine, index=False, if_exists="append")
    monkeypatch.delenv(credentials_variable("pg-tx"), raising=False)
    with pytest.raises(
        SourceUnavailableError, match="its credentials are never stored; set CSLEARN_SOURCE_URL_PG_TX"
    ):
        refresh_dataset("pg-tx", cache_dir=cache)
    monkeypatch.setenv(credentials_variable("pg-tx"), url)
    assert refresh_dataset("pg-tx", cache_dir=cache).added_rows == 15

    elsewhere = url.replace(f":{postgres_server.port}/", f":{postgres_server.port + 1}/")
    monkeypatch.setenv(credentials_variable("pg-tx"), elsewhere)
    with pytest.raises(SourceUnavailableError, match="names .*, not the recorded source"):
        refresh_dataset("pg-tx", cache_dir=cache)
    before = (cache / "datasets" / "user" / "pg-tx.json").read_text()
    record = json.loads(before)
    record["live"]["source"]["location"] = record["live"]["source"]["location"].replace(
        str(postgres_server.port), str(postgres_server.port + 1)
    )
    (cache / "datasets" / "user" / "pg-tx.json").write_text(json.dumps(record))
    with pytest.raises(
        SourceUnavailableError, match="cannot reach the database of .*\\*\\*\\*@127.0.0.1"
    ) as error:
        refresh_dataset("pg-tx", cache_dir=cache)
    assert postgres_server.password not in str(error.value)
    assert load_dataset("pg-tx", cache_dir=cache).metadata["live"]["version"] == 2  # nothing changed


def test_the_command_line_binds_a_source_and_refresh_json_says_what_was_added_and_refused(tmp_path, capsys):
    from flows.cli import main

    source = tmp_path / "exports"
    source.mkdir()
    _batch(0, 40, seed=0).to_parquet(source / "b-000.parquet")
    cache = str(tmp_path / "cache")
    assert (
        main(
            [
                "datasets",
                "ingest",
                str(source),
                "--target",
                "fraud",
                "--time-column",
                "ts",
                "--cost-model",
                "card-fraud",
                "--name",
                "tx",
                "--cache-dir",
                cache,
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["datasets", "refresh", "tx", "--json", "--cache-dir", cache]) == 0
    assert json.loads(capsys.readouterr().out)["added_rows"] == 0
    _batch(40, 20, seed=1).to_parquet(source / "b-001.parquet")
    _batch(60, 20, seed=2).drop(columns="kind").to_parquet(source / "b-002.parquet")
    assert main(["datasets", "refresh", "tx", "--json", "--cache-dir", cache]) == 1  # a batch was refused
    printed = json.loads(capsys.readouterr().out)
    assert printed["added_rows"] == 20 and printed["version"] == 2
    assert [item["batch"] for item in printed["refused"]] == ["b-002.parquet"]
    assert main(["datasets", "refresh", "pima", "--cache-dir", cache]) == 2
    assert "no user dataset 'pima'" in capsys.readouterr().err
