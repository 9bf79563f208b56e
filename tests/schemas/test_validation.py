"""The failure summary names rows by the labels the user's frame carries."""

import pandas as pd
import pandera.pandas as pa
import pytest

from schemas.validation import DataValidationError, validate_frame


def test_failure_summary_keeps_string_row_labels():
    schema = pa.DataFrameSchema({"amount": pa.Column(float, pa.Check.ge(0))})
    frame = pd.DataFrame({"amount": [1.0, -2.0]}, index=["tx-1", "tx-2"])
    with pytest.raises(
        DataValidationError, match=r"column 'amount' failed greater_than_or_equal_to\(0\).*rows \['tx-2'\]"
    ):
        validate_frame(schema, frame, what="transactions")
