"""The ``ingest`` flow against the fixture Prefect server: cached parquet, report artifacts, report file."""

from __future__ import annotations

import json
import uuid

import pandas as pd
import pytest
from pydantic import ValidationError

from flows.ingest import ingest
from schemas.flow_params import IngestParams

pytestmark = pytest.mark.servers

#: Defined counts (docs/datasets.md): WDBC 569 rows / 212 malignant; bank-full with balance > 0.
EXPECTED = {"wisconsin": (569, 212), "direct-marketing": (37931, 4787)}


@pytest.fixture(scope="module")
def ingested(prefect_server, tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    key = f"validation-{uuid.uuid4().hex[:8]}"
    report = ingest(IngestParams(datasets=tuple(EXPECTED), cache_dir=str(cache), report_key=key))
    return report, cache, key


def test_every_dataset_is_cached_as_parquet_with_its_counts(ingested):
    report, cache, _ = ingested
    assert [row["dataset"] for row in report] == list(EXPECTED)
    for row in report:
        rows, positives = EXPECTED[row["dataset"]]
        assert (row["status"], row["rows"], row["positives"], row["negatives"]) == (
            "valid",
            rows,
            positives,
            rows - positives,
        )
        assert row["checks_passed"] == "5/5" and row["error"] == ""
        frame = pd.read_parquet(row["path"])
        assert len(frame) == rows and int(frame["target"].sum()) == positives
        assert row["path"].startswith(str(cache))
        assert len(row["fingerprint"]) == 64


def test_the_report_is_published_as_table_artifacts_and_a_json_file(ingested):
    from prefect import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

    report, cache, key = ingested
    with get_client(sync_client=True) as client:
        (summary,) = client.read_artifacts(artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=[key])))
        (checks,) = client.read_artifacts(
            artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=[f"{key}-wisconsin"]))
        )
    table = json.loads(summary.data) if isinstance(summary.data, str) else summary.data
    assert [row["dataset"] for row in table] == list(EXPECTED)
    assert {row["dataset"]: row["fingerprint"] for row in table} == {
        row["dataset"]: row["fingerprint"] for row in report
    }
    check_rows = json.loads(checks.data) if isinstance(checks.data, str) else checks.data
    assert [row["check"] for row in check_rows] == [
        "raw schema BreastCancerRaw",
        "canonical schema CanonicalDataset",
        "rows",
        "positives",
        "fingerprint",
    ]
    assert all(row["passed"] for row in check_rows)

    written = json.loads((cache / "validation-report.json").read_text())
    assert [row["dataset"] for row in written] == list(EXPECTED)
    assert written[0]["checks"][2] == {"check": "rows", "expected": 569, "actual": 569, "passed": True}


def test_bad_parameters_fail_before_any_dataset_is_touched(prefect_server, tmp_path):
    with pytest.raises(ValidationError) as error:
        IngestParams(datasets=("wisconsin", "no-such-data", "wisconsin"), report_key="Bad Key")
    message = str(error.value)
    assert "datasets lists ['wisconsin'] more than once" in message
    assert "report_key" in message
    cache = tmp_path / "cache"
    with pytest.raises(Exception, match=r"unknown datasets \['no-such-data'\]"):
        ingest({"datasets": ["no-such-data"], "cache_dir": str(cache)})
    assert not cache.exists()
