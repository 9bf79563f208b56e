"""Malformed CSVs give the promised errors (asserted text) and leave the cache untouched."""

from __future__ import annotations

import dataclasses
from functools import partial

import pytest

from schemas.validation import DataValidationError
from tasks.datasets import DATASETS, ingest_dataset, ingest_file, parsers
from tasks.datasets.sources import LocalFile
from tests.tasks.datasets.conftest import FIXTURES, cached_dataset_files


def credit_scoring_from_fixture(file_name: str):
    """The registered credit-scoring entry (raw model, recipe, canonical model) reading a fixture file."""
    return dataclasses.replace(
        DATASETS["credit-scoring"],
        name="credit-scoring-fixture",
        source=LocalFile(FIXTURES / file_name),
        parser=partial(parsers.read_delimited, member=file_name),
        expected_rows=8,
        expected_positives=3,
    )


@pytest.mark.parametrize(
    ("file_name", "expected_lines"),
    [
        ("credit_scoring_missing_column.csv", ["missing column: 'DebtRatio' (column_in_dataframe)"]),
        (
            "credit_scoring_wrong_dtype.csv",
            ["column 'MonthlyIncome' failed dtype('float64'): 1 case(s), e.g. 'three thousand' at rows [2]"],
        ),
        (
            "credit_scoring_nan_label.csv",
            [
                "column 'SeriousDlqin2yrs' failed not_nullable: 1 case(s), e.g. nan at rows [4]",
                "column 'SeriousDlqin2yrs' failed dtype('int64')",
            ],
        ),
        (
            "credit_scoring_extra_column.csv",
            ["unexpected column (the model is strict): 'BranchCode' (column_in_schema)"],
        ),
    ],
)
def test_malformed_raw_file_names_column_check_values_and_rows(file_name, expected_lines, cache_dir):
    with pytest.raises(DataValidationError) as raised:
        ingest_dataset(credit_scoring_from_fixture(file_name), cache_dir=cache_dir)
    message = str(raised.value)
    assert message.startswith("credit-scoring-fixture: the raw data does not satisfy GiveMeSomeCreditRaw:")
    for line in expected_lines:
        assert line in message
    assert not raised.value.failure_cases.empty
    assert cached_dataset_files(cache_dir) == []


def test_empty_file_is_reported_by_name(cache_dir):
    with pytest.raises(
        ValueError, match="empty.csv is empty: expected a header line and at least one data row"
    ):
        ingest_dataset(credit_scoring_from_fixture("empty.csv"), cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []


def test_count_mismatch_caches_nothing(cache_dir):
    spec = dataclasses.replace(credit_scoring_from_fixture("credit_scoring_small.csv"), expected_rows=9)
    with pytest.raises(
        ValueError, match="expected 9 rows and 3 positives .its definition., got 8 rows and 3 positives"
    ):
        ingest_dataset(spec, cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []


def test_failed_ingest_leaves_an_existing_entry_untouched(cache_dir):
    good = ingest_dataset(credit_scoring_from_fixture("credit_scoring_small.csv"), cache_dir=cache_dir)
    before = {path: path.read_bytes() for path in cached_dataset_files(cache_dir)}
    bad = dataclasses.replace(credit_scoring_from_fixture("credit_scoring_extra_column.csv"))
    with pytest.raises(DataValidationError):
        ingest_dataset(bad, cache_dir=cache_dir, force=True)
    assert {path: path.read_bytes() for path in cached_dataset_files(cache_dir)} == before
    assert good.path in before


# --- a user's own file ------------------------------------------------------------


def test_user_file_missing_target_column(cache_dir):
    with pytest.raises(DataValidationError, match="missing column: 'churned' \\(column_in_dataframe\\)"):
        ingest_file(FIXTURES / "user_costs.csv", target="churned", cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []


def test_user_file_nan_label_names_the_row(cache_dir):
    with pytest.raises(
        DataValidationError, match=r"column 'fraud' failed not_nullable: 1 case\(s\), e.g. nan at rows \[1\]"
    ):
        ingest_file(FIXTURES / "user_nan_label.csv", target="fraud", cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []


def test_user_file_non_numeric_cost_column(cache_dir, tmp_path):
    table = (
        (FIXTURES / "user_costs.csv").read_text().replace("\n800,south,no,5,80,", "\n800,south,no,5,eighty,")
    )
    path = tmp_path / "costs.csv"
    path.write_text(table)
    with pytest.raises(ValueError) as raised:
        ingest_file(
            path,
            target="fraud",
            cost_columns=["cost_fp", "cost_fn", "cost_tp", "cost_tn"],
            cache_dir=cache_dir,
        )
    assert "cost column 'cost_fn' (C_FN) holds 1 value(s) that are not numbers: 'eighty' at row 1" in str(
        raised.value
    )
    assert cached_dataset_files(cache_dir) == []


def test_user_file_negative_cost(cache_dir, tmp_path):
    path = tmp_path / "costs.csv"
    path.write_text(
        (FIXTURES / "user_costs.csv").read_text().replace("3000,east,no,5,300,", "3000,east,no,-5,300,")
    )
    with pytest.raises(
        ValueError, match=r"cost column 'cost_fp' \(C_FP\) holds 1 negative cost\(s\): -5.0 at row 3"
    ):
        ingest_file(
            path,
            target="fraud",
            cost_columns=["cost_fp", "cost_fn", "cost_tp", "cost_tn"],
            cache_dir=cache_dir,
        )
    assert cached_dataset_files(cache_dir) == []


def test_user_file_positive_value_must_exist(cache_dir):
    with pytest.raises(
        ValueError,
        match=r"--positive 'maybe' is not a value of target column 'fraud'; its values are \['no', 'yes'\]",
    ):
        ingest_file(FIXTURES / "user_costs.csv", target="fraud", positive="maybe", cache_dir=cache_dir)


def test_user_file_multiclass_target_needs_positive(cache_dir):
    with pytest.raises(
        ValueError, match="target column 'region' has 3 distinct values .*pass --positive VALUE"
    ):
        ingest_file(FIXTURES / "user_costs.csv", target="region", cache_dir=cache_dir)


def test_user_file_needs_four_cost_columns(cache_dir):
    with pytest.raises(
        ValueError,
        match=r"--cost-columns takes exactly 4 column names in the order "
        r"\['C_FP', 'C_FN', 'C_TP', 'C_TN'\]; got 2",
    ):
        ingest_file(
            FIXTURES / "user_costs.csv",
            target="fraud",
            cost_columns=["cost_fp", "cost_fn"],
            cache_dir=cache_dir,
        )


def test_user_empty_file(cache_dir):
    with pytest.raises(ValueError, match="empty.csv is empty"):
        ingest_file(FIXTURES / "empty.csv", target="fraud", cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []


def test_user_file_with_a_header_but_no_rows(cache_dir, tmp_path):
    path = tmp_path / "header_only.csv"
    path.write_text("income,fraud\n")
    with pytest.raises(
        ValueError, match=r"header_only.csv has no data rows \(columns: \['income', 'fraud'\]\)"
    ):
        ingest_file(path, target="fraud", cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []


def test_user_file_that_is_not_parquet(cache_dir, tmp_path):
    path = tmp_path / "table.parquet"
    path.write_bytes(b"income,fraud\n1,yes\n")
    with pytest.raises(ValueError, match="table.parquet is not a readable parquet file"):
        ingest_file(path, target="fraud", cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []


def test_user_file_whose_columns_are_all_target_or_costs(cache_dir, tmp_path):
    path = tmp_path / "costs_only.csv"
    path.write_text("fp,fn,tp,tn,fraud\n1,9,1,0,yes\n1,8,1,0,no\n1,7,1,0,no\n")
    with pytest.raises(
        ValueError,
        match=r"costs_only.csv has no feature column left once the target 'fraud' and the cost columns "
        r"\['fp', 'fn', 'tp', 'tn'\] are set aside",
    ):
        ingest_file(path, target="fraud", cost_columns=["fp", "fn", "tp", "tn"], cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []
