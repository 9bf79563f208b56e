"""CanonicalDataset: coercion, the checks it promises, and the error text ``validate_frame`` builds."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pandera.pandas as pa
import pytest

from schemas.canonical_dataset import CanonicalDataset
from schemas.validation import DataValidationError, validate_frame


def test_valid_frame_is_coerced_to_float_features_and_int8_target():
    frame = pd.DataFrame({"age": [30, 41, 52], "income": [1.5, 2.5, 3.5], "target": [0, 1, 0]})
    validated = validate_frame(CanonicalDataset, frame, what="toy")
    assert validated.dtypes.astype(str).to_dict() == {"age": "float64", "income": "float64", "target": "int8"}


def test_every_failure_is_named_with_values_and_rows():
    frame = pd.DataFrame(
        {
            "age": [30.0, np.nan, 52.0, 61.0],
            "ratio": [0.1, 0.2, np.inf, 0.4],
            "city": ["a", "b", "c", "d"],
            "target": [0, 1, 2, 1],
        }
    )
    with pytest.raises(DataValidationError) as raised:
        validate_frame(CanonicalDataset, frame, what="toy")
    message = str(raised.value)
    assert message.startswith("toy does not satisfy CanonicalDataset:")
    assert "column 'age' failed not_nullable: 1 case(s), e.g. nan at rows [1]" in message
    assert "column 'ratio' failed finite: 1 case(s), e.g. inf at rows [2]" in message
    assert "column 'target' failed isin([0, 1]): 1 case(s), e.g. 2 at rows [2]" in message
    assert "coerce_dtype('float64'): 4 case(s), e.g. 'a', 'b', 'c', 'd' at rows [0, 1, 2, 3]" in message
    cases = raised.value.failure_cases
    assert {"column", "check", "failure_case", "index"} <= set(cases.columns)


def test_single_class_and_missing_features_fail():
    with pytest.raises(DataValidationError, match="both_classes_present"):
        validate_frame(CanonicalDataset, pd.DataFrame({"x": [1.0, 2.0], "target": [1, 1]}), what="toy")
    with pytest.raises(DataValidationError, match="has_feature_columns"):
        validate_frame(CanonicalDataset, pd.DataFrame({"target": [0, 1]}), what="toy")


def test_majority_positive_class_only_warns():
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0], "target": [1, 1, 0]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        validate_frame(CanonicalDataset, frame, what="toy")
    assert any("positive_class_is_minority" in str(warning.message) for warning in caught)
    assert all(
        issubclass(warning.category, pa.errors.SchemaWarning)
        for warning in caught
        if "positive_class_is_minority" in str(warning.message)
    )


def test_cost_columns_are_optional_and_non_negative():
    frame = pd.DataFrame(
        {
            "x": [1.0, 2.0],
            "target": [0, 1],
            "cost:C_FP": [1.0, 1.0],
            "cost:C_FN": [4.0, -2.0],
            "cost:C_TP": [1.0, 1.0],
            "cost:C_TN": [0.0, 0.0],
        }
    )
    with pytest.raises(
        DataValidationError,
        match=r"column 'cost:C_FN' failed greater_than_or_equal_to\(0\): "
        r"1 case\(s\), e.g. -2.0 at rows \[1\]",
    ):
        validate_frame(CanonicalDataset, frame, what="toy")
    validate_frame(CanonicalDataset, frame.assign(**{"cost:C_FN": [4.0, 2.0]}), what="toy")


def test_features_and_costs_beyond_float32_range_are_refused():
    frame = pd.DataFrame(
        {
            "age": [30.0, -1e300, 52.0, 3e38],
            "cost:C_FP": [1.0, 1.0, 1.0, 1.0],
            "cost:C_FN": [2.0, 5e38, 2.0, 2.0],
            "cost:C_TP": [0.0, 0.0, 0.0, 0.0],
            "cost:C_TN": [0.0, 0.0, 0.0, 0.0],
            "target": [0, 1, 0, 1],
        }
    )
    with pytest.raises(DataValidationError) as raised:
        validate_frame(CanonicalDataset, frame, what="toy")
    message = str(raised.value)
    assert "column 'age' failed within_float32_range: 1 case(s), e.g. -1e+300 at rows [1]" in message
    assert "column 'cost:C_FN' failed within_float32_range: 1 case(s), e.g. 5e+38 at rows [1]" in message


def test_the_value_limit_is_the_limit_of_every_estimator():
    from algorithms._validation import COST_MAGNITUDE_LIMIT, FEATURE_MAGNITUDE_LIMIT
    from schemas.canonical_dataset import VALUE_LIMIT

    assert VALUE_LIMIT == FEATURE_MAGNITUDE_LIMIT == COST_MAGNITUDE_LIMIT == float(np.finfo(np.float32).max)
