"""load_dataset / ingest_file: canonical result, parquet cache, fingerprints, corruption, staleness."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from tasks.datasets import (
    DATASETS,
    ChecksumError,
    content_fingerprint,
    ingest_dataset,
    ingest_file,
    load_dataset,
)
from tasks.datasets.cache import resolve_cache_dir
from tasks.datasets.encoding import encode_features
from tests.tasks.datasets.conftest import FIXTURES


def test_wisconsin_loads_offline_into_the_cache_from_the_environment(cache_dir):
    dataset = load_dataset("wisconsin")  # no cache_dir: CSLEARN_CACHE (set by the fixture) decides
    assert dataset.path == cache_dir / "datasets" / "wisconsin.parquet" and dataset.path.exists()
    assert dataset.features.shape == (569, 30) and dataset.n_positives == 212
    assert set(dataset.features.dtypes) == {np.dtype("float64")}
    assert dataset.target.dtype == np.int64 and set(np.unique(dataset.target)) == {0, 1}
    assert "mean radius" in dataset.features.columns
    assert dataset.spec is DATASETS["wisconsin"]
    metadata = json.loads((cache_dir / "datasets" / "wisconsin.json").read_text())
    assert metadata["fingerprint"] == dataset.fingerprint
    assert (metadata["rows"], metadata["features"], metadata["positives"]) == (569, 30, 212)


def test_second_load_reads_the_cache(cache_dir):
    first = load_dataset("wisconsin", cache_dir=cache_dir)
    modified = first.path.stat().st_mtime_ns
    second = load_dataset("wisconsin", cache_dir=cache_dir)
    assert second.path.stat().st_mtime_ns == modified
    assert second.fingerprint == first.fingerprint
    pd.testing.assert_frame_equal(second.features, first.features)


def test_corrupted_parquet_is_rebuilt(cache_dir):
    first = load_dataset("wisconsin", cache_dir=cache_dir)
    first.path.write_bytes(first.path.read_bytes()[:1000])  # truncated
    again = load_dataset("wisconsin", cache_dir=cache_dir)
    assert again.fingerprint == first.fingerprint and again.features.shape == (569, 30)


def test_parquet_with_altered_content_is_rebuilt(cache_dir):
    first = load_dataset("wisconsin", cache_dir=cache_dir)
    tampered = pd.read_parquet(first.path)
    tampered.iloc[0, 0] += 1.0
    tampered.to_parquet(first.path, index=False)
    again = load_dataset("wisconsin", cache_dir=cache_dir)
    assert again.fingerprint == first.fingerprint
    assert again.features.iloc[0, 0] == first.features.iloc[0, 0]


def test_missing_metadata_means_unfinished_entry(cache_dir):
    first = load_dataset("wisconsin", cache_dir=cache_dir)
    (cache_dir / "datasets" / "wisconsin.json").unlink()
    assert load_dataset("wisconsin", cache_dir=cache_dir).fingerprint == first.fingerprint
    assert (cache_dir / "datasets" / "wisconsin.json").exists()


def test_changed_definition_rebuilds_the_entry(cache_dir):
    load_dataset("wisconsin", cache_dir=cache_dir)
    changed = dataclasses.replace(DATASETS["wisconsin"], minority_rule="malignant (re-worded)")
    rebuilt = ingest_dataset(changed, cache_dir=cache_dir)
    assert (
        json.loads((cache_dir / "datasets" / "wisconsin.json").read_text())["definition_digest"]
        == changed.digest
    )
    assert rebuilt.n_positives == 212


def test_unknown_name_lists_the_known_ones(cache_dir):
    with pytest.raises(
        KeyError, match="unknown dataset 'wdbc'; known datasets: abalone, abalone-9-18, abalone19, adult"
    ):
        load_dataset("wdbc", cache_dir=cache_dir)


def test_cache_dir_resolution(tmp_path, monkeypatch):
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "from-env"))
    assert resolve_cache_dir() == tmp_path / "from-env"
    assert resolve_cache_dir(tmp_path / "explicit") == tmp_path / "explicit"
    monkeypatch.delenv("CSLEARN_CACHE")
    assert resolve_cache_dir().name == "cslearn"


def test_fingerprint_depends_on_content_only():
    frame = pd.DataFrame({"a": [1.0, 2.0], "target": np.array([0, 1], dtype=np.int8)})
    assert content_fingerprint(frame) == content_fingerprint(frame.copy())
    assert content_fingerprint(frame) != content_fingerprint(frame.assign(a=[1.0, 2.5]))
    assert content_fingerprint(frame) != content_fingerprint(frame.rename(columns={"a": "b"}))
    assert content_fingerprint(frame) == content_fingerprint(frame.set_axis([10, 11]))


def test_user_file_with_costs(cache_dir):
    dataset = ingest_file(
        FIXTURES / "user_costs.csv",
        target="fraud",
        cost_columns=["cost_fp", "cost_fn", "cost_tp", "cost_tn"],
        cache_dir=cache_dir,
    )
    assert dataset.name == "user-costs"
    assert dataset.path == cache_dir / "datasets" / "user" / "user-costs.parquet"
    assert dataset.target.tolist() == [0, 0, 1, 0, 0, 1, 0, 0]  # "yes" is the rarer value
    assert dataset.features.columns.tolist() == ["income", "region=east", "region=north", "region=south"]
    assert dataset.features.iloc[0].tolist() == [1200.5, 0.0, 1.0, 0.0]
    assert dataset.cost_matrix[:2].tolist() == [[5, 120.5, 5, 0], [5, 80, 5, 0]]
    assert dataset.metadata["cost_columns"] == ["cost_fp", "cost_fn", "cost_tp", "cost_tn"]


def test_user_parquet_with_explicit_positive(cache_dir, tmp_path):
    path = tmp_path / "Loans 2024.parquet"
    pd.DataFrame({"amount": [10, 20, 30, 40], "status": [1, 0, 1, 1]}).to_parquet(path)
    dataset = ingest_file(path, target="status", positive="0", cache_dir=cache_dir)
    assert dataset.name == "loans-2024" and dataset.target.tolist() == [0, 1, 0, 0]


def test_encoding_hand_computed():
    frame = pd.DataFrame({"n": [1, 2, 3], "flag": [True, False, True], "colour": ["red", None, "blue"]})
    encoded = encode_features(frame)
    assert encoded.columns.tolist() == ["n", "flag", "colour=blue", "colour=red"]
    assert encoded.to_numpy().tolist() == [[1, 1, 0, 1], [2, 0, 0, 0], [3, 1, 1, 0]]
    assert set(encoded.dtypes) == {np.dtype("float64")}


def test_user_costs_breaking_reasonableness_are_counted_and_warned(cache_dir, tmp_path, caplog):
    path = tmp_path / "costs.csv"
    # row 4: C_FN = 3 is not above C_TP = 5 (Elkan's condition C_FN > C_TP)
    path.write_text(
        (FIXTURES / "user_costs.csv").read_text().replace("410,south,no,5,41,5,0", "410,south,no,5,3,5,0")
    )
    with caplog.at_level("WARNING", logger="tasks.datasets.ingestion"):
        dataset = ingest_file(
            path,
            target="fraud",
            cost_columns=["cost_fp", "cost_fn", "cost_tp", "cost_tn"],
            cache_dir=cache_dir,
        )
    assert dataset.metadata["unreasonable_cost_rows"] == 1
    assert "costs: 1 row(s) break C_FN > C_TP; e.g. rows [4]" in caplog.text
    clean = ingest_file(
        FIXTURES / "user_costs.csv",
        target="fraud",
        cost_columns=["cost_fp", "cost_fn", "cost_tp", "cost_tn"],
        cache_dir=cache_dir,
    )
    assert clean.metadata["unreasonable_cost_rows"] == 0


def test_bundled_scikit_learn_data_is_checked_against_its_pin(cache_dir):
    registered = DATASETS["wisconsin"]
    tampered = dataclasses.replace(registered, source=dataclasses.replace(registered.source, sha256="0" * 64))
    with pytest.raises(ChecksumError, match="sha256 mismatch for scikit-learn's bundled breast_cancer.csv"):
        ingest_dataset(tampered, cache_dir=cache_dir)
    assert not (cache_dir / "datasets" / "wisconsin.parquet").exists()
