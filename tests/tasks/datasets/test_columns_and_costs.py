"""A user's column or cost is used for what its name says, or refused naming it (issue 25, part 2).

Each case is a real file on disk ingested through :func:`tasks.datasets.ingest_file` or the command line;
the assertions are on the message a user reads, the exit status and the cache staying empty.
"""

from __future__ import annotations

import pandas as pd
import pytest

from tasks.datasets import ingest_file
from tests.tasks.datasets.conftest import cached_dataset_files, run_cli
from tests.user_data import PAYMENT_COST_COLUMNS, write_payments_csv


@pytest.fixture
def payments(tmp_path) -> pd.DataFrame:
    """The payments table of :func:`tests.user_data.write_payments_csv` (label ``fraud``, four costs)."""
    return pd.read_csv(write_payments_csv(tmp_path / "payments.csv"))


def refused(frame: pd.DataFrame, path, cache_dir, *, cost_columns=PAYMENT_COST_COLUMNS, **options) -> str:
    """Ingest ``frame`` written to ``path``; expect a ``ValueError``; check nothing was cached."""
    frame.to_csv(path, index=False)
    with pytest.raises(ValueError) as raised:
        ingest_file(path, target="fraud", cost_columns=cost_columns, cache_dir=cache_dir, **options)
    assert cached_dataset_files(cache_dir) == []
    return str(raised.value)


# --- case 3: a cost column named twice --------------------------------------------------------------


def test_repeated_cost_columns_are_refused_before_the_file_is_read(cache_dir, tmp_path, payments, capsys):
    path = tmp_path / "payments.csv"
    message = refused(payments, path, cache_dir, cost_columns=["cost_fp", "cost_fn", "cost_fp", "cost_fn"])
    expected = (
        "--cost-columns repeats columns ('cost_fp' as C_FP and C_TP; 'cost_fn' as C_FN and C_TN); each of "
        "the four costs C_FP, C_FN, C_TP, C_TN needs a column of its own, named in that order"
    )
    assert message == expected
    argv = [
        "datasets",
        "ingest",
        str(path),
        "--target",
        "fraud",
        "--cost-columns",
        "cost_fp,cost_fn,cost_fp,cost_fn",
    ]
    assert run_cli(argv) == 2
    assert capsys.readouterr().err == f"error: {expected}\n"
    assert cached_dataset_files(cache_dir) == []


# --- case 4: reserved column names -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason", "cost_hint"),
    [
        (
            "cost:C_FP",
            "names starting with 'cost:' are the stored cost columns, which are not features",
            True,
        ),
        ("time:ts", "names starting with 'time:' are the stored time column, which is not a feature", False),
        ("C_FP", "a served model reads C_FP, C_FN, C_TP, C_TN as a row's own costs", True),
        ("target", "cslearn gives every dataset's 0/1 label that name", False),
    ],
)
def test_a_feature_with_a_reserved_name_is_refused_with_the_way_out(
    cache_dir, tmp_path, payments, name, reason, cost_hint
):
    message = refused(payments.rename(columns={"amount": name}), tmp_path / "reserved.csv", cache_dir)
    expected = (
        f"reserved.csv: 1 column(s) cannot be used as they are:\n  column {name!r} has a name cslearn "
        f"reserves ({reason}): rename it, or leave it out (--drop-columns {name})"
    )
    assert message == expected + ("; if it holds a cost, name it in --cost-columns" if cost_hint else "")


def test_a_reserved_name_left_out_or_used_as_the_label_is_accepted(cache_dir, tmp_path, payments):
    path = tmp_path / "kept.csv"
    payments.rename(columns={"amount": "C_FP"}).to_csv(path, index=False)
    dataset = ingest_file(path, target="fraud", drop_columns=["C_FP"], cache_dir=cache_dir, name="dropped")
    assert "C_FP" not in dataset.features.columns
    payments.rename(columns={"fraud": "target"}).to_csv(path, index=False)
    dataset = ingest_file(path, target="target", cache_dir=cache_dir, name="labelled")
    assert dataset.n_positives == (payments["fraud"] == "yes").sum()


def test_the_command_line_names_a_cost_prefixed_column_instead_of_overwriting_it(
    cache_dir, tmp_path, payments, capsys
):
    path = tmp_path / "prefixed.csv"
    payments.rename(columns={"amount": "cost:C_FP"}).to_csv(path, index=False)
    argv = ["datasets", "ingest", str(path), "--target", "fraud", "--cost-columns", *PAYMENT_COST_COLUMNS]
    assert run_cli(argv) == 1
    error = capsys.readouterr().err
    assert error.startswith(
        "error: prefixed.csv: 1 column(s) cannot be used as they are:\n  column 'cost:C_FP'"
    )
    assert "Traceback" not in error and cached_dataset_files(cache_dir) == []


# --- case 5: values beyond float32's range -----------------------------------------------------------


def test_a_feature_beyond_the_float32_limit_is_refused_at_ingest(cache_dir, tmp_path, payments):
    huge = payments.assign(amount=payments["amount"].where(payments.index != 3, 1e300))
    message = refused(huge, tmp_path / "huge.csv", cache_dir)
    assert message == (
        "huge.csv: 1 column(s) cannot be used as they are:\n  column 'amount' holds 1 value(s) beyond "
        "+-3.4e+38 (the largest float32: every cslearn estimator stops there, as decision trees compare "
        "features in float32): 1e+300 at row 3. Rescale or transform the column, e.g. log or standardise it, "
        "or leave it out (--drop-columns amount)"
    )


def test_a_cost_beyond_the_limit_is_refused_at_ingest(cache_dir, tmp_path, payments):
    huge = payments.assign(cost_fn=payments["cost_fn"].where(~payments.index.isin([3, 8]), 1e300))
    message = refused(huge, tmp_path / "hugecost.csv", cache_dir)
    assert message == (
        "hugecost.csv: 1 cost column(s) cannot be used as they are:\n"
        "  cost column 'cost_fn' (C_FN) holds 2 cost(s) beyond 3.4e+38: 1e+300 at row 3, 1e+300 at row 8\n"
        "  every cost is a number from 0 to 3.4e+38 (express the costs in a larger unit, e.g. thousands, if "
        "they are larger)"
    )


def test_values_at_the_limit_are_accepted(cache_dir, tmp_path, payments):
    path = tmp_path / "large.csv"
    payments.assign(
        amount=payments["amount"].where(payments.index != 3, -3e38),
        cost_fn=payments["cost_fn"].where(payments.index != 3, 3e38),
    ).to_csv(path, index=False)
    dataset = ingest_file(path, target="fraud", cost_columns=PAYMENT_COST_COLUMNS, cache_dir=cache_dir)
    assert dataset.features["amount"].iloc[3] == -3e38 and dataset.cost_matrix[3, 1] == 3e38


# --- case 8: a cost that is not a number --------------------------------------------------------------


def test_a_cost_that_is_not_a_number_is_named_in_words(cache_dir, tmp_path, payments):
    text = payments.astype({"cost_fn": object, "cost_tp": object})
    text.loc[3, "cost_fn"] = "high"
    text.loc[5, "cost_tp"] = -1.0
    text.loc[6, "cost_tp"] = None
    message = refused(text, tmp_path / "words.csv", cache_dir)
    assert message == (
        "words.csv: 2 cost column(s) cannot be used as they are:\n"
        "  cost column 'cost_fn' (C_FN) holds 1 value(s) that are not numbers: 'high' at row 3\n"
        "  cost column 'cost_tp' (C_TP) holds 1 negative cost(s): -1.0 at row 5\n"
        "  every cost is a number from 0 to 3.4e+38 (express the costs in a larger unit, e.g. thousands, if "
        "they are larger)"
    )
    assert "TypeError" not in message and "greater_than" not in message


def test_a_missing_cost_is_named_with_its_rows(cache_dir, tmp_path, payments):
    gaps = payments.assign(cost_tn=payments["cost_tn"].where(~payments.index.isin([6, 9])))
    message = refused(gaps, tmp_path / "gaps.csv", cache_dir)
    assert "  cost column 'cost_tn' (C_TN) has no value in 2 row(s): rows [6, 9]\n" in message


# --- the same contracts for a source that grows --------------------------------------------------------


def test_a_bound_source_refuses_reserved_names_and_each_batch_whose_values_are_not_what_they_say(
    cache_dir, tmp_path, payments
):
    from tasks.datasets.live import BindOptions, bind_source, refresh_dataset
    from tasks.datasets.user_files import UserFileOptions

    source = tmp_path / "exports"
    source.mkdir()
    payments.rename(columns={"amount": "C_FP"}).iloc[:40].to_csv(source / "b-000.csv", index=False)
    options = BindOptions(UserFileOptions(target="fraud", cost_columns=PAYMENT_COST_COLUMNS))
    with pytest.raises(ValueError, match=r"column 'C_FP' has a name cslearn reserves"):
        bind_source(str(source / "*.csv"), options=options, name="payments", cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []
    payments.iloc[:40].to_csv(source / "b-000.csv", index=False)
    bind_source(str(source / "*.csv"), options=options, name="payments", cache_dir=cache_dir)
    words = payments.iloc[40:50].astype({"cost_fn": object}).reset_index(drop=True)
    words.loc[2, "cost_fn"] = "high"
    words.to_csv(source / "b-001.csv", index=False)
    huge = payments.iloc[50:60].reset_index(drop=True)
    huge.loc[1, "amount"] = 1e300
    huge.to_csv(source / "b-002.csv", index=False)
    result = refresh_dataset("payments", cache_dir=cache_dir)
    reasons = {item["batch"]: item["reason"] for item in result.refused}
    assert result.added_rows == 0 and set(reasons) == {"b-001.csv", "b-002.csv"}
    assert (
        "cost column 'cost_fn' (C_FN) holds 1 value(s) that are not numbers: 'high' at row 2"
        in reasons["b-001.csv"]
    )
    assert "column 'amount' holds 1 value(s) beyond +-3.4e+38" in reasons["b-002.csv"]


def test_a_served_or_scored_row_beyond_the_limit_is_refused_by_the_raw_encoding(payments):
    from tasks.datasets.encoding import RawEncoding, RawInputError

    raw = payments[["amount", "balance", "channel"]]
    encoding = RawEncoding.from_frame(raw)
    rows = raw.head(4).assign(amount=[10.0, 1e300, -3e38, float("inf")])
    problem = encoding.input_problems(rows)
    assert problem.bad_rows == {1: "amount: 1e+300", 3: "amount: inf"}  # what scoring sets aside, and why
    with pytest.raises(RawInputError) as raised:
        encoding.encode(rows)  # what the served model does with its rows
    assert str(raised.value) == (
        "column 'amount' takes finite numbers of at most +-3.4e+38; 2 of 4 row(s) are not: 1e+300 at row 1, "
        "inf at row 3"
    )


def test_a_dataset_recorded_with_a_cost_column_named_twice_is_named_not_a_crash(
    cache_dir, tmp_path, payments, capsys
):
    import json

    from tasks.datasets import UserDatasetError, load_dataset

    path = tmp_path / "older.csv"
    payments.to_csv(path, index=False)
    ingest_file(path, target="fraud", cost_columns=PAYMENT_COST_COLUMNS, cache_dir=cache_dir)
    record_path = cache_dir / "datasets" / "user" / "older.json"
    record = json.loads(record_path.read_text())
    record_path.write_text(
        json.dumps({**record, "cost_columns": ["cost_fp", "cost_fn", "cost_fp", "cost_fn"]})
    )
    assert (
        run_cli(["datasets", "list"]) == 0
    )  # what an older cslearn accepted: every other dataset still lists
    note = capsys.readouterr().err
    assert note.startswith(
        f"note: older: user dataset 'older': {record_path} records options that are refused now"
    )
    with pytest.raises(
        UserDatasetError, match=r"--cost-columns repeats columns \('cost_fp' as C_FP and C_TP;"
    ):
        load_dataset("older", cache_dir=cache_dir)
