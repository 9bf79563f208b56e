"""The cost-matrix contract: hard invariants, Elkan's reasonableness conditions, report, conversions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from algorithms.metrics import COST_COLUMNS
from schemas.cost_matrix import (
    CostMatrix,
    cost_columns,
    cost_matrix_from_frame,
    cost_matrix_to_frame,
    report_unreasonable_rows,
    validate_cost_matrix,
)
from schemas.validation import DataValidationError

#: Three reasonable rows (C_FP > C_TN and C_FN > C_TP in each), labelled 10, 11, 12.
REASONABLE = [[2.0, 6.0, 0.0, 0.0], [4.0, 6.0, 2.0, 0.0], [5.0, 9.0, 1.0, 1.0]]


def _frame(rows, index=(10, 11, 12)):
    return cost_matrix_to_frame(np.asarray(rows, dtype=float), index=list(index)[: len(rows)])


def test_columns_follow_the_array_layout_of_the_estimators():
    assert cost_columns() == list(COST_COLUMNS) == ["C_FP", "C_FN", "C_TP", "C_TN"]


def test_round_trip_between_array_and_frame_keeps_values_and_row_labels():
    frame = _frame(REASONABLE)
    assert list(frame.columns) == list(COST_COLUMNS)
    assert frame.index.tolist() == [10, 11, 12]
    np.testing.assert_array_equal(cost_matrix_from_frame(frame), np.asarray(REASONABLE))


def test_integer_costs_are_coerced_to_float():
    frame = pd.DataFrame(np.asarray(REASONABLE, dtype=int), columns=cost_columns())
    validated = validate_cost_matrix(frame)
    assert all(dtype == np.float64 for dtype in validated.dtypes)
    assert cost_matrix_from_frame(frame).dtype == np.float64


def test_reasonable_matrix_passes_and_has_an_empty_report():
    frame = _frame(REASONABLE)
    pd.testing.assert_frame_equal(validate_cost_matrix(frame), frame)
    report = report_unreasonable_rows(frame)
    assert report.empty
    assert list(report.columns) == ["index", "check", "condition", *COST_COLUMNS]


def test_array_of_wrong_shape_is_rejected_before_validation():
    with pytest.raises(ValueError, match=r"shape \(n_examples, 4\).*got shape \(3, 3\)"):
        cost_matrix_to_frame(np.ones((3, 3)))


def test_negative_cost_names_column_check_value_and_row():
    rows = [row[:] for row in REASONABLE]
    rows[1][2] = -2.5  # C_TP of row 11
    with pytest.raises(DataValidationError) as caught:
        validate_cost_matrix(_frame(rows))
    message = str(caught.value)
    assert "column 'C_TP' failed greater_than_or_equal_to(0)" in message
    assert "-2.5 at rows [11]" in message
    assert isinstance(caught.value, ValueError)
    cases = caught.value.failure_cases
    assert cases.loc[cases["column"] == "C_TP", "index"].tolist() == [11]


def test_nan_and_infinite_costs_are_each_reported_lazily():
    rows = [row[:] for row in REASONABLE]
    rows[0][0] = np.nan  # C_FP of row 10
    rows[2][1] = np.inf  # C_FN of row 12
    with pytest.raises(DataValidationError) as caught:
        cost_matrix_from_frame(_frame(rows))
    message = str(caught.value)
    assert "column 'C_FP' failed not_nullable" in message and "at rows [10]" in message
    assert "column 'C_FN' failed finite: 1 case(s), e.g. inf at rows [12]" in message
    # a NaN is a hard failure, never also reported as a broken reasonableness condition
    assert "false_positive_cost_above_true_negative_cost" not in message


def test_a_cost_beyond_float32_range_is_refused():
    rows = [row[:] for row in REASONABLE]
    rows[1][1] = 1e300  # C_FN of row 11: its sums and products would overflow
    with pytest.raises(DataValidationError) as caught:
        cost_matrix_from_frame(_frame(rows))
    assert "column 'C_FN' failed within_float32_range: 1 case(s), e.g. 1e+300 at rows [11]" in str(
        caught.value
    )
    rows[1][1] = 3e38
    assert cost_matrix_from_frame(_frame(rows))[1, 1] == 3e38


def test_missing_and_extra_columns_are_named():
    frame = _frame(REASONABLE).drop(columns=["C_TN"]).assign(cost=1.0)
    with pytest.raises(DataValidationError) as caught:
        validate_cost_matrix(frame)
    message = str(caught.value)
    assert "column_in_dataframe" in message and "'C_TN'" in message
    assert "column_in_schema" in message and "'cost'" in message


def test_row_breaking_false_negative_above_true_positive_fails_with_both_costs():
    rows = [row[:] for row in REASONABLE]
    rows[1] = [4.0, 2.0, 2.0, 0.0]  # row 11: C_FN == C_TP, a miss costs no more than a hit
    with pytest.raises(DataValidationError) as caught:
        validate_cost_matrix(_frame(rows))
    message = str(caught.value)
    assert (
        "1 row(s) break C_FN > C_TP (check false_negative_cost_above_true_positive_cost), "
        "e.g. row 11 (C_FN=2.0, C_TP=2.0)"
    ) in message
    assert "C_FP > C_TN" not in message
    cases = caught.value.failure_cases
    assert set(cases["index"]) == {11}
    assert set(cases["check"]) == {"false_negative_cost_above_true_positive_cost"}


def test_report_lists_each_broken_condition_per_row_with_its_costs():
    rows = [
        [2.0, 6.0, 0.0, 0.0],  # 10: reasonable
        [1.0, 1.0, 1.0, 1.0],  # 11: breaks both
        [0.0, 5.0, 0.0, 0.0],  # 12: breaks C_FP > C_TN only
        [1.0, 0.5, 1.0, 0.0],  # 13: breaks C_FN > C_TP only
    ]
    report = report_unreasonable_rows(_frame(rows, index=(10, 11, 12, 13)))
    assert report[["index", "condition"]].values.tolist() == [
        [11, "C_FN > C_TP"],
        [11, "C_FP > C_TN"],
        [12, "C_FP > C_TN"],
        [13, "C_FN > C_TP"],
    ]
    np.testing.assert_array_equal(report[list(COST_COLUMNS)].to_numpy(), np.asarray(rows)[[1, 1, 2, 3]])


def test_report_still_fails_on_hard_invariants():
    rows = [row[:] for row in REASONABLE]
    rows[2][3] = -1.0
    with pytest.raises(DataValidationError, match=r"column 'C_TN' failed greater_than_or_equal_to\(0\)"):
        report_unreasonable_rows(_frame(rows))


def test_report_handles_repeated_row_labels():
    frame = cost_matrix_to_frame([[1.0, 0.0, 0.0, 0.0], [1.0, 2.0, 0.0, 0.0]], index=[7, 7])
    report = report_unreasonable_rows(frame)
    assert report["index"].tolist() == [7]
    assert report["C_FN"].tolist() == [0.0]


def test_model_attributes_are_the_column_names():
    assert (CostMatrix.C_FP, CostMatrix.C_FN, CostMatrix.C_TP, CostMatrix.C_TN) == COST_COLUMNS
