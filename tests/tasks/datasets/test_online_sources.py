"""The online path (HTTP download, archive member, OpenML) against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import tarfile
import time
from functools import partial

import numpy as np
import pytest

from tasks.datasets import DATASETS, ChecksumError, DownloadError, HttpOptions, ingest_dataset, parsers
from tasks.datasets.cache import RecordedChecksums
from tasks.datasets.sources import ArchiveMembers, OpenMLDataset, UrlFile, ensure_url
from tests.tasks.datasets.conftest import FIXTURES, Route, cached_dataset_files

FAST = HttpOptions(timeout=2.0, retries=2, backoff=0.01)
CREDIT_CSV = (FIXTURES / "credit_scoring_small.csv").read_bytes()
CREDIT_SHA256 = hashlib.sha256(CREDIT_CSV).hexdigest()


def credit_scoring_from(url: str, sha256: str | None) -> object:
    """The registered credit-scoring entry fetched from ``url`` (real raw model, recipe, canonical checks).

    The fixture's 12 rows keep 8 after the filter (rows 7-10 fail: NA income, income 0, NA dependents,
    DebtRatio == 1), of which rows 1, 5 and 11 are positive.
    """
    return dataclasses.replace(
        DATASETS["credit-scoring"],
        name="credit-scoring-online",
        source=UrlFile(url=url, sha256=sha256),
        parser=partial(parsers.read_delimited, member="credit.csv"),
        expected_rows=8,
        expected_positives=3,
    )


def test_good_checksum_ingests_and_caches(http_server, cache_dir):
    http_server.routes["/credit.csv"] = Route(CREDIT_CSV)
    dataset = ingest_dataset(
        credit_scoring_from(http_server.url("/credit.csv"), CREDIT_SHA256), cache_dir=cache_dir, options=FAST
    )
    assert len(dataset.target) == 8 and dataset.n_positives == 3
    assert dataset.target.tolist() == [1, 0, 0, 0, 1, 0, 1, 0]
    assert dataset.features["MonthlyIncome"].tolist() == [9120, 2600, 3042, 3300, 63588, 3500, 5000, 7500]
    assert dataset.path.exists() and dataset.metadata["source_checksums"] == {
        http_server.url("/credit.csv"): CREDIT_SHA256
    }
    again = ingest_dataset(
        credit_scoring_from(http_server.url("/credit.csv"), CREDIT_SHA256), cache_dir=cache_dir, options=FAST
    )
    assert again.fingerprint == dataset.fingerprint
    assert http_server.hits["/credit.csv"] == 1  # the second call read the cache


def test_bad_checksum_raises_and_caches_nothing(http_server, cache_dir):
    http_server.routes["/credit.csv"] = Route(CREDIT_CSV)
    wrong = "0" * 64
    with pytest.raises(
        ChecksumError, match=f"sha256 mismatch for .*credit.csv: expected {wrong}, got {CREDIT_SHA256}"
    ):
        ingest_dataset(
            credit_scoring_from(http_server.url("/credit.csv"), wrong), cache_dir=cache_dir, options=FAST
        )
    assert http_server.hits["/credit.csv"] == 1  # a checksum mismatch is not retried
    assert cached_dataset_files(cache_dir) == []
    assert not [path for path in (cache_dir / "downloads").rglob("*") if path.is_file()]


def test_http_500_is_retried_then_succeeds(http_server, cache_dir):
    http_server.routes["/flaky.csv"] = Route(CREDIT_CSV, failures=2)
    path = ensure_url(http_server.url("/flaky.csv"), cache_dir, sha256=CREDIT_SHA256, options=FAST)
    assert path.read_bytes() == CREDIT_CSV
    assert http_server.hits["/flaky.csv"] == 3


def test_http_500_on_every_attempt_names_the_failure(http_server, cache_dir):
    http_server.routes["/down.csv"] = Route(CREDIT_CSV, failures=10)
    with pytest.raises(DownloadError, match=r"GET .*/down.csv failed after 3 attempt\(s\): HTTP 500"):
        ensure_url(http_server.url("/down.csv"), cache_dir, sha256=CREDIT_SHA256, options=FAST)
    assert http_server.hits["/down.csv"] == 3


def test_http_404_is_not_retried(http_server, cache_dir):
    with pytest.raises(DownloadError, match="answered HTTP 404; not retried"):
        ensure_url(http_server.url("/missing.csv"), cache_dir, sha256=None, options=FAST)
    assert http_server.hits["/missing.csv"] == 1


def test_stalled_response_hits_the_timeout(http_server, cache_dir):
    http_server.routes["/stall.csv"] = Route(CREDIT_CSV, stall_seconds=30)
    options = HttpOptions(timeout=0.3, retries=1, backoff=0.01)
    started = time.monotonic()
    with pytest.raises(
        DownloadError, match=r"failed after 2 attempt\(s\): timed out after 0.3 s \(ReadTimeout\)"
    ):
        ensure_url(http_server.url("/stall.csv"), cache_dir, sha256=CREDIT_SHA256, options=options)
    assert time.monotonic() - started < 10
    assert http_server.hits["/stall.csv"] == 2
    assert not [path for path in (cache_dir / "downloads").rglob("*") if path.is_file()]


def test_unpinned_checksum_is_recorded_then_enforced(http_server, cache_dir):
    url = http_server.url("/unpinned.csv")
    http_server.routes["/unpinned.csv"] = Route(CREDIT_CSV)
    ensure_url(url, cache_dir, sha256=None, options=FAST)
    assert RecordedChecksums(cache_dir).get(url) == CREDIT_SHA256
    # the upstream file changes and the cached copy is lost: the new bytes no longer match the record
    http_server.routes["/unpinned.csv"] = Route(CREDIT_CSV + b"13,0,0.1,30,0,0.1,1000,1,0,0,0,0\n")
    next(path for path in (cache_dir / "downloads" / "http").rglob("unpinned.csv")).unlink()
    with pytest.raises(
        ChecksumError, match=f"expected {CREDIT_SHA256}.*delete its entry in .*recorded-checksums.json"
    ):
        ensure_url(url, cache_dir, sha256=None, options=FAST)


def test_corrupted_cached_download_is_fetched_again(http_server, cache_dir):
    url = http_server.url("/credit.csv")
    http_server.routes["/credit.csv"] = Route(CREDIT_CSV)
    path = ensure_url(url, cache_dir, sha256=CREDIT_SHA256, options=FAST)
    path.write_bytes(CREDIT_CSV[:100])  # truncated on disk
    assert ensure_url(url, cache_dir, sha256=CREDIT_SHA256, options=FAST).read_bytes() == CREDIT_CSV
    assert http_server.hits["/credit.csv"] == 2


def _imblearn_style_archive(data: np.ndarray, label: np.ndarray) -> bytes:
    arrays = io.BytesIO()
    np.savez(arrays, data=data, label=label)
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w:gz") as tar:
        for name, payload in (("zenodo/x25data.npz", arrays.getvalue()), ("zenodo/README", b"benchmark")):
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))
    return archive.getvalue()


def test_archive_member_through_the_registered_mammography_entry(http_server, cache_dir):
    data = np.arange(12, dtype=float).reshape(6, 2)
    label = np.array([-1, -1, 1, -1, -1, 1])
    http_server.routes["/benchmark.tar.gz"] = Route(_imblearn_style_archive(data, label))
    registered = DATASETS["mammography"]
    spec = dataclasses.replace(
        registered,
        source=dataclasses.replace(registered.source, url=http_server.url("/benchmark.tar.gz")),
        expected_rows=6,
    )
    dataset = ingest_dataset(spec, cache_dir=cache_dir, options=FAST)
    assert dataset.target.tolist() == [0, 0, 1, 0, 0, 1]
    np.testing.assert_array_equal(dataset.features.to_numpy(), data)


def test_archive_without_the_member_names_it(http_server, cache_dir):
    http_server.routes["/benchmark.tar.gz"] = Route(
        _imblearn_style_archive(np.zeros((2, 1)), np.array([1, -1]))
    )
    source = ArchiveMembers(url=http_server.url("/benchmark.tar.gz"), members=("x9data.npz",))
    with pytest.raises(ValueError, match=r"lacks the member\(s\) \['x9data.npz'\]"):
        source.fetch(cache_dir, options=FAST)


ARFF = b"""@relation toy
@attribute width numeric
@attribute colour {red,blue}
@attribute Class {1,2}
@data
1.5,red,1
2.0,blue,2
3.5,red,1
4.0,?,1
"""


def test_openml_description_then_md5_checked_arff(http_server, cache_dir):
    description = {
        "data_set_description": {
            "url": http_server.url("/data/v1/download/7/toy.arff"),
            "md5_checksum": hashlib.md5(ARFF).hexdigest(),
            "default_target_attribute": "Class",
        }
    }
    http_server.routes["/api/v1/json/data/1464"] = Route(json.dumps(description).encode())
    http_server.routes["/data/v1/download/7/toy.arff"] = Route(ARFF)
    registered = DATASETS["blood-transfusion"]  # positive = OpenML class "2"
    spec = dataclasses.replace(
        registered,
        source=OpenMLDataset(data_id=1464, api_base=http_server.base_url),
        expected_rows=4,
        expected_positives=1,
    )
    dataset = ingest_dataset(spec, cache_dir=cache_dir, options=FAST)
    assert dataset.target.tolist() == [0, 1, 0, 0]
    assert dataset.features.columns.tolist() == ["width", "colour=blue", "colour=red"]
    assert dataset.features.to_numpy().tolist() == [[1.5, 0, 1], [2.0, 1, 0], [3.5, 0, 1], [4.0, 0, 0]]


def test_openml_md5_mismatch_is_refused(http_server, cache_dir):
    description = {
        "data_set_description": {
            "url": http_server.url("/toy.arff"),
            "md5_checksum": "f" * 32,
            "default_target_attribute": "Class",
        }
    }
    http_server.routes["/api/v1/json/data/5"] = Route(json.dumps(description).encode())
    http_server.routes["/toy.arff"] = Route(ARFF)
    with pytest.raises(ChecksumError, match="md5 mismatch"):
        OpenMLDataset(data_id=5, api_base=http_server.base_url).fetch(cache_dir, options=FAST)


def test_truncated_openml_description_is_fetched_again(http_server, cache_dir):
    description = {
        "data_set_description": {
            "url": http_server.url("/toy.arff"),
            "md5_checksum": hashlib.md5(ARFF).hexdigest(),
            "default_target_attribute": "Class",
        }
    }
    body = json.dumps(description).encode()
    http_server.routes["/api/v1/json/data/9"] = Route(body)
    http_server.routes["/toy.arff"] = Route(ARFF)
    source = OpenMLDataset(data_id=9, api_base=http_server.base_url)
    assert source.fetch(cache_dir, options=FAST)["dataset.arff"] == ARFF
    cached = next((cache_dir / "downloads" / "http").rglob("description.json"))
    cached.write_bytes(body[: len(body) // 2])  # an interrupted write left half of the JSON
    files = source.fetch(cache_dir, options=FAST)
    assert http_server.hits["/api/v1/json/data/9"] == 2
    assert json.loads(files["description.json"]) == description
    assert cached.read_bytes() == body


def test_openml_answer_without_a_description_caches_nothing(http_server, cache_dir):
    answer = b'{"error": {"code": "111", "message": "Unknown dataset"}}'
    http_server.routes["/api/v1/json/data/11"] = Route(answer)
    with pytest.raises(ValueError, match="is not a dataset description .*nothing was cached"):
        OpenMLDataset(data_id=11, api_base=http_server.base_url).fetch(cache_dir, options=FAST)
    assert list((cache_dir / "downloads").rglob("description.json")) == []


def test_skin_through_its_registered_url_entry(http_server, cache_dir):
    """The UCI skin layout (tab-separated B, G, R, label 1 = skin, 2 = non-skin) through the real entry."""
    http_server.routes["/Skin_NonSkin.txt"] = Route(b"74\t85\t123\t1\n73\t84\t122\t1\n200\t210\t220\t2\n")
    registered = DATASETS["skin"]
    spec = dataclasses.replace(
        registered,
        source=UrlFile(url=http_server.url("/Skin_NonSkin.txt")),
        expected_rows=3,
        expected_positives=2,
    )
    dataset = ingest_dataset(spec, cache_dir=cache_dir, options=FAST)
    assert dataset.target.tolist() == [1, 1, 0]
    assert dataset.features.to_numpy().tolist() == [[74, 85, 123], [73, 84, 122], [200, 210, 220]]
