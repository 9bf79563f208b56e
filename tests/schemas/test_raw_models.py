"""The strict raw models reject a changed upstream format: missing, extra and retyped columns."""

from __future__ import annotations

import pandas as pd
import pytest

from schemas.raw_benchmarks import CommunitiesRaw, KeelNumericRaw, Pc1Raw
from schemas.raw_business import BankMarketingRaw, CardFraudRaw
from schemas.validation import DataValidationError, validate_frame


def card_fraud_rows() -> pd.DataFrame:
    columns = {"Time": [0.0, 1.0]} | {f"V{number}": [0.5, -0.5] for number in range(1, 29)}
    return pd.DataFrame(columns | {"Amount": [149.62, 2.69], "Class": [0, 1]})


def test_card_fraud_raw_accepts_the_ulb_layout():
    validate_frame(CardFraudRaw, card_fraud_rows(), what="creditcard.csv")


def test_card_fraud_raw_needs_all_28_components_and_no_extra_column():
    with pytest.raises(DataValidationError, match="has_components_V1_to_V28"):
        validate_frame(CardFraudRaw, card_fraud_rows().drop(columns="V17"), what="creditcard.csv")
    with pytest.raises(DataValidationError, match="unexpected column .*'V29'"):
        validate_frame(CardFraudRaw, card_fraud_rows().assign(V29=0.0), what="creditcard.csv")


def test_raw_models_do_not_coerce_typed_files():
    rows = card_fraud_rows().assign(Class=["0", "1"])
    with pytest.raises(DataValidationError, match=r"column 'Class' failed dtype\('int64'\)"):
        validate_frame(CardFraudRaw, rows, what="creditcard.csv")


def test_bank_marketing_label_levels():
    frame = pd.DataFrame(
        {
            "age": [30],
            "job": ["admin."],
            "marital": ["married"],
            "education": ["tertiary"],
            "default": ["no"],
            "balance": [10],
            "housing": ["yes"],
            "loan": ["no"],
            "contact": ["cellular"],
            "day": [5],
            "month": ["may"],
            "duration": [100],
            "campaign": [1],
            "pdays": [-1],
            "previous": [0],
            "poutcome": ["unknown"],
            "y": ["maybe"],
        }
    )
    with pytest.raises(
        DataValidationError,
        match=r"column 'y' failed isin\(\['yes', 'no'\]\): 1 case\(s\), e.g. 'maybe' at rows \[0\]",
    ):
        validate_frame(BankMarketingRaw, frame, what="bank-full")


def test_keel_text_features_report_the_bad_token_and_row():
    frame = pd.DataFrame({"x0": ["1.5", "2", "n/a"], "x1": ["3", "4", "5"], "label": ["a", "b", "a"]})
    with pytest.raises(
        DataValidationError, match=r"coerce_dtype\('float64'\): 1 case\(s\), e.g. 'n/a' at rows \[2\]"
    ):
        validate_frame(KeelNumericRaw, frame, what="keel")
    assert validate_frame(KeelNumericRaw, frame.iloc[:2], what="keel")["x0"].tolist() == [1.5, 2.0]


def test_column_count_checks():
    with pytest.raises(DataValidationError, match="has_22_columns"):
        validate_frame(Pc1Raw, pd.DataFrame({"loc": [1.0], "defects": ["true"]}), what="pc1")
    with pytest.raises(DataValidationError, match="has_128_columns"):
        validate_frame(
            CommunitiesRaw, pd.DataFrame({"communityname": ["x"], "state": [1.0]}), what="communities"
        )
