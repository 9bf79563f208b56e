"""Dataset names are checked and every cache path stays in its folder (issue 11, point 2)."""

from __future__ import annotations

import pytest

from tasks.datasets import ingest_file, load_dataset
from tasks.datasets.records import entry_paths
from tests.tasks.datasets.conftest import cached_dataset_files, run_cli

GOOD = "a,b,y\n1,2,no\n3,4,yes\n5,6,no\n7,8,no\n"


@pytest.fixture
def good_csv(tmp_path):
    path = tmp_path / "good.csv"
    path.write_text(GOOD)
    return path


def files_under(root):
    return sorted(path for path in root.rglob("*") if path.is_file())


@pytest.mark.parametrize(
    "name", ["../pima", "/elsewhere/abs", "a/b", "..", ".hidden", "Pima", "with space", ""]
)
def test_unsafe_names_are_refused_before_anything_is_read_or_written(cache_dir, good_csv, tmp_path, name):
    with pytest.raises(
        ValueError, match="is not a valid dataset name: use 1 to 64 lowercase letters, digits"
    ):
        ingest_file(good_csv, target="y", name=name, cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []
    assert not (tmp_path / "pima.parquet").exists() and not (tmp_path.parent / "pima.parquet").exists()


def test_dot_dot_pima_leaves_the_registered_pima_entry_untouched(cache_dir, good_csv, capsys):
    wisconsin = load_dataset("wisconsin", cache_dir=cache_dir)
    before = {path: path.read_bytes() for path in files_under(cache_dir / "datasets")}
    # a usage error (exit 2): refused before the file is read
    assert run_cli(["datasets", "ingest", str(good_csv), "--target", "y", "--name", "../wisconsin"]) == 2
    assert "'../wisconsin' is not a valid dataset name" in capsys.readouterr().err
    assert {path: path.read_bytes() for path in files_under(cache_dir / "datasets")} == before
    assert load_dataset("wisconsin", cache_dir=cache_dir).fingerprint == wisconsin.fingerprint


def test_a_registered_name_is_refused(cache_dir, tmp_path):
    path = tmp_path / "pima.csv"  # the default name is the stem: also checked
    path.write_text(GOOD)
    for name in ("pima", None):
        with pytest.raises(
            ValueError, match="'pima' is a registered dataset; a user dataset needs another name"
        ):
            ingest_file(path, target="y", name=name, cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []
    assert ingest_file(path, target="y", name="pima-mine", cache_dir=cache_dir).name == "pima-mine"


def test_an_overlong_default_name_asks_for_one(cache_dir, tmp_path):
    path = tmp_path / f"{'x' * 70}.csv"
    path.write_text(GOOD)
    with pytest.raises(ValueError, match="is not a valid dataset name.*; pass --name NAME"):
        ingest_file(path, target="y", cache_dir=cache_dir)


def test_another_files_dataset_is_replaced_only_when_asked(cache_dir, good_csv, tmp_path):
    first = ingest_file(good_csv, target="y", name="loans", cache_dir=cache_dir)
    other = tmp_path / "other.csv"
    other.write_text(GOOD.replace("7,8,no", "9,9,no"))
    with pytest.raises(
        ValueError,
        match=rf"user dataset 'loans' already exists, ingested from {good_csv} at .*; pass --force "
        rf"\(replace=True\) to replace it with {other}, or choose another --name",
    ):
        ingest_file(other, target="y", name="loans", cache_dir=cache_dir)
    assert load_dataset("loans", cache_dir=cache_dir).fingerprint == first.fingerprint
    replaced = ingest_file(other, target="y", name="loans", cache_dir=cache_dir, replace=True)
    assert replaced.fingerprint != first.fingerprint
    assert load_dataset("loans", cache_dir=cache_dir).fingerprint == replaced.fingerprint


def test_the_same_file_is_re_ingested_without_force(cache_dir, good_csv):
    ingest_file(good_csv, target="y", cache_dir=cache_dir)
    good_csv.write_text(GOOD + "9,9,yes\n")
    assert ingest_file(good_csv, target="y", cache_dir=cache_dir).n_positives == 2


def test_a_symlink_planted_in_the_cache_is_not_written_through(cache_dir, good_csv, tmp_path):
    outside = tmp_path / "outside.parquet"
    outside.write_bytes(b"precious")
    folder = cache_dir / "datasets" / "user"
    folder.mkdir(parents=True)
    (folder / "good.parquet").symlink_to(outside)
    with pytest.raises(
        ValueError, match=rf"refusing to use {folder / 'good.parquet'}: it resolves to {outside}"
    ):
        ingest_file(good_csv, target="y", cache_dir=cache_dir)
    assert outside.read_bytes() == b"precious"


def test_entry_paths_stay_in_their_folder(cache_dir):
    paths = entry_paths(cache_dir, "loans-2024", user=True)
    assert paths.parquet == cache_dir / "datasets" / "user" / "loans-2024.parquet"
    assert paths.record == cache_dir / "datasets" / "user" / "loans-2024.json"
    assert entry_paths(cache_dir, "pima").record == cache_dir / "datasets" / "pima.json"
    with pytest.raises(ValueError, match="not a valid dataset name"):
        entry_paths(cache_dir, "../pima")
