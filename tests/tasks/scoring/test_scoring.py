"""Batch scoring: the input contract, the served model's table, and writes that replace a batch's rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sqlalchemy
from sklearn.linear_model import LogisticRegression

from tasks.cost_models.card_fraud import CardFraudCostModel
from tasks.datasets.encoding import RawEncoding
from tasks.model_registry.serving import OUTPUT_COLUMNS, CostAwareModel
from tasks.scoring.decisions import score_batch
from tasks.scoring.inputs import read_score_batches
from tasks.scoring.outputs import write_decisions


@pytest.fixture
def model():
    rng = np.random.default_rng(0)
    raw = pd.DataFrame({"Amount": rng.uniform(1, 100, 200), "kind": rng.choice(["a", "b"], 200)})
    encoding = RawEncoding.from_frame(raw)
    features = encoding.encode(raw)
    target = (features["kind=a"] + rng.random(200) > 1.2).astype(int)
    estimator = LogisticRegression().fit(features, target)
    cost_model = CardFraudCostModel().fit(features, target)
    return CostAwareModel(estimator, cost_model, encoding)


def _rows(n=10, seed=1):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {"tx": np.arange(n), "Amount": rng.uniform(1, 100, n), "kind": rng.choice(["a", "b"], n)}
    )


def test_a_batch_gets_the_served_table_and_a_bad_row_is_set_aside_with_its_reason(model):
    rows = _rows().astype({"Amount": object})
    rows.loc[3, "Amount"] = "twelve"
    rows.loc[5, "kind"] = "never-seen"
    scored = score_batch(model, rows, "b-1", keep_columns=["tx"])
    assert list(scored.table.columns) == ["batch", "row", "tx", *OUTPUT_COLUMNS]
    assert scored.table["row"].tolist() == [0, 1, 2, 4, 5, 6, 7, 8, 9]
    assert scored.refused.to_dict(orient="records") == [
        {"batch": "b-1", "row": 3, "reason": "Amount: 'twelve'"}
    ]
    assert scored.unseen_levels == {"kind": {"never-seen": 1}}
    np.testing.assert_allclose(scored.table["C_FN"], rows.drop(index=3)["Amount"].astype(float))
    expected = model.predict(rows.drop(index=3))
    np.testing.assert_array_equal(scored.table["decision"], expected["decision"])


def test_a_batch_missing_a_feature_column_is_refused_whole(model):
    with pytest.raises(
        ValueError, match=r"batch b-2 lacks column\(s\) \['kind'\]; the model takes \['Amount', 'kind'\]"
    ):
        score_batch(model, _rows().drop(columns="kind"), "b-2")


@pytest.mark.parametrize("target", ["folder", "scores.parquet", "scores.csv", "sqlite"])
def test_scoring_a_batch_again_replaces_its_rows_and_never_duplicates_them(model, tmp_path, target):
    first = score_batch(model, _rows(10, 1), "b-1").table
    second = score_batch(model, _rows(6, 2), "b-2").table
    redo = score_batch(model, _rows(4, 3), "b-1").table
    output, table = {
        "folder": (f"{tmp_path}/scores/", None),
        "scores.parquet": (str(tmp_path / "scores.parquet"), None),
        "scores.csv": (str(tmp_path / "scores.csv"), None),
        "sqlite": (f"sqlite:///{tmp_path / 'scores.db'}", "decisions"),
    }[target]
    for batch_id, frame in (("b-1", first), ("b-2", second), ("b-1", redo)):
        write_decisions(frame, output, batch_id, output_table=table)
    if target == "folder":
        stored = pd.concat(pd.read_parquet(path) for path in sorted((tmp_path / "scores").glob("*.parquet")))
        assert sorted(path.name for path in (tmp_path / "scores").iterdir()) == ["b-1.parquet", "b-2.parquet"]
    elif target == "sqlite":
        stored = pd.read_sql("SELECT * FROM decisions", sqlalchemy.create_engine(output))
    else:
        stored = pd.read_csv(output) if output.endswith(".csv") else pd.read_parquet(output)
    assert stored["batch"].value_counts().to_dict() == {"b-2": 6, "b-1": 4}
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_half_written_input_file_is_named_and_nothing_is_scored(tmp_path):
    _rows().to_parquet(tmp_path / "a.parquet")
    (tmp_path / "b.parquet").write_bytes((tmp_path / "a.parquet").read_bytes()[:100])
    with pytest.raises(ValueError, match=r"b.parquet: .*not a readable parquet file.*still being written\?"):
        read_score_batches(str(tmp_path / "*.parquet"))
    (newest,) = read_score_batches(str(tmp_path / "a.parquet"))
    assert newest.batch_id == "a.parquet" and len(newest.frame) == 10
