"""Damaged but readable cache files are validated, then rebuilt or named with the fix (issue 11, point 5).

Registered datasets are rebuilt from their source; a user dataset is rebuilt from its source file when that
is unchanged, otherwise the error names the damaged file and the command that ingests it again. Never a
traceback in the CLI.
"""

from __future__ import annotations

import json

import pytest

from tasks.datasets import (
    ChecksumError,
    DamagedRecordError,
    UserDatasetError,
    dataset_entry,
    ingest_dataset,
    ingest_file,
    load_dataset,
)
from tasks.datasets.cache import RecordedChecksums
from tasks.datasets.records import read_record
from tests.tasks.datasets.conftest import FIXTURES, run_cli

COSTS = ["cost_fp", "cost_fn", "cost_tp", "cost_tn"]

DAMAGES = {
    "an empty list": ("[]", "expected a JSON object, found list '[]'"),
    "broken JSON": ('{"name": "wisconsin", ', "not valid JSON (Expecting property name"),
    "a string": ('"wisconsin"', "expected a JSON object, found str"),
    "a wrong field type": (None, "rows: Input should be a valid integer (found '569')"),
    "a future format": (None, "format_version: Input should be 1 (found 2)"),
    "another name": (None, "it records the dataset 'pima', not 'wisconsin'"),
    "an unknown field": (None, "surprise: Extra inputs are not permitted"),
}


def damage(record_path, how: str) -> str:
    text, reason = DAMAGES[how]
    if text is None:
        record = json.loads(record_path.read_text())
        record |= {
            "a wrong field type": {"rows": "569"},
            "a future format": {"format_version": 2},
            "another name": {"name": "pima"},
            "an unknown field": {"surprise": True},
        }[how]
        text = json.dumps(record)
    record_path.write_text(text)
    return reason


@pytest.mark.parametrize("how", list(DAMAGES))
def test_a_damaged_registered_record_is_named_and_rebuilt(cache_dir, caplog, how):
    first = load_dataset("wisconsin", cache_dir=cache_dir)
    record_path = cache_dir / "datasets" / "wisconsin.json"
    reason = damage(record_path, how)
    with pytest.raises(DamagedRecordError, match=f"{record_path} is damaged: ") as raised:
        read_record(record_path, "wisconsin")
    assert reason in str(raised.value)
    entry = dataset_entry("wisconsin", cache_dir=cache_dir)
    assert entry.record is None and reason in entry.problem
    assert entry.problem.endswith(
        "it is rebuilt from the source on the next load (`cslearn datasets ingest wisconsin`)"
    )
    with caplog.at_level("WARNING"):
        again = load_dataset("wisconsin", cache_dir=cache_dir)
    assert f"{record_path} is damaged" in caplog.text and "rebuilding it from the source" in caplog.text
    assert again.fingerprint == first.fingerprint
    assert read_record(record_path, "wisconsin")["fingerprint"] == first.fingerprint


def test_ingest_rebuilds_an_empty_list_record(cache_dir):
    first = ingest_dataset(dataset_entry("wisconsin", cache_dir=cache_dir).spec, cache_dir=cache_dir)
    (cache_dir / "datasets" / "wisconsin.json").write_text("[]")
    assert ingest_dataset(first.spec, cache_dir=cache_dir).fingerprint == first.fingerprint


def test_records_written_before_the_format_version_read_as_version_1(cache_dir):
    first = load_dataset("wisconsin", cache_dir=cache_dir)
    record_path = cache_dir / "datasets" / "wisconsin.json"
    record = json.loads(record_path.read_text())
    assert record["format_version"] == 1
    del record["format_version"]
    record_path.write_text(json.dumps(record))
    modified = first.path.stat().st_mtime_ns
    assert load_dataset("wisconsin", cache_dir=cache_dir).fingerprint == first.fingerprint
    assert first.path.stat().st_mtime_ns == modified  # read, not rebuilt


def test_cli_list_and_show_name_a_damaged_record_without_a_traceback(cache_dir, capsys):
    load_dataset("wisconsin", cache_dir=cache_dir)
    record_path = cache_dir / "datasets" / "wisconsin.json"
    record_path.write_text("{broken")
    assert run_cli(["datasets", "list", "--json"]) == 0
    captured = capsys.readouterr()
    (wisconsin,) = [json.loads(line) for line in captured.out.splitlines() if '"wisconsin"' in line]
    assert wisconsin["cached"] is False and wisconsin["cache_problem"].startswith(f"{record_path} is damaged")
    assert run_cli(["datasets", "list"]) == 0
    assert f"note: wisconsin: {record_path} is damaged: not valid JSON" in capsys.readouterr().err
    assert run_cli(["datasets", "show", "wisconsin", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["cache"] is None and "not valid JSON" in shown["cache_problem"]


# --- user datasets ------------------------------------------------------------------------------------


@pytest.fixture
def user_costs(cache_dir, tmp_path):
    source = tmp_path / "claims.csv"
    source.write_text((FIXTURES / "user_costs.csv").read_text())
    dataset = ingest_file(source, target="fraud", cost_columns=COSTS, cache_dir=cache_dir)
    return source, dataset


def test_a_user_record_that_is_an_empty_list_is_named_with_the_fix(cache_dir, user_costs, capsys):
    record_path = cache_dir / "datasets" / "user" / "claims.json"
    record_path.write_text("[]")
    expected = (
        f"user dataset 'claims': {record_path} is damaged: expected a JSON object, found list '[]'. The "
        "record names the source file and the options it was read with, so the dataset cannot be rebuilt "
        "without it: ingest the file again with `cslearn datasets ingest FILE --target COLUMN --name claims "
        f"--force` (and the options you used), or delete {record_path} and "
        f"{record_path.with_suffix('.parquet')} to forget it"
    )
    with pytest.raises(UserDatasetError) as raised:
        load_dataset("claims", cache_dir=cache_dir)
    assert str(raised.value) == expected
    assert run_cli(["datasets", "show", "claims"]) == 1
    assert capsys.readouterr().err == f"error: {expected}\n"
    assert run_cli(["datasets", "ingest", "claims"]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_replacing_a_damaged_user_dataset_needs_force(cache_dir, user_costs):
    source, dataset = user_costs
    (cache_dir / "datasets" / "user" / "claims.json").write_text("{")
    with pytest.raises(
        ValueError, match="user dataset 'claims' exists but .*claims.json is damaged: not valid JSON"
    ):
        ingest_file(source, target="fraud", cost_columns=COSTS, cache_dir=cache_dir)
    again = ingest_file(source, target="fraud", cost_columns=COSTS, cache_dir=cache_dir, replace=True)
    assert again.fingerprint == dataset.fingerprint


def test_a_damaged_user_parquet_is_rebuilt_from_the_unchanged_source(cache_dir, user_costs, caplog):
    _, dataset = user_costs
    dataset.path.write_bytes(dataset.path.read_bytes()[:200])
    with caplog.at_level("WARNING"):
        again = load_dataset("claims", cache_dir=cache_dir)
    assert "rebuilding it from" in caplog.text and "claims.parquet is unreadable" in caplog.text
    assert again.fingerprint == dataset.fingerprint
    assert again.cost_matrix.tolist() == dataset.cost_matrix.tolist()


def test_a_damaged_user_parquet_whose_source_is_gone_gives_the_command(cache_dir, user_costs):
    source, dataset = user_costs
    dataset.path.write_bytes(b"not parquet")
    source.unlink()
    with pytest.raises(UserDatasetError) as raised:
        load_dataset("claims", cache_dir=cache_dir)
    message = str(raised.value)
    assert message.startswith(f"user dataset 'claims': {dataset.path} is unreadable (")
    assert (
        f"and its source {source} is gone, so it cannot be rebuilt as it was: ingest it again with "
        f"`cslearn datasets ingest {source} --target fraud --cost-columns cost_fp cost_fn cost_tp cost_tn "
        "--name claims`"
    ) in message


def test_an_altered_user_parquet_with_a_changed_source_is_refused(cache_dir, user_costs):
    source, dataset = user_costs
    import pandas as pd

    frame = pd.read_parquet(dataset.path)
    frame.iloc[0, 0] += 1
    frame.to_parquet(dataset.path, index=False)
    source.write_text(source.read_text().replace("1200.5", "1300.5"))
    with pytest.raises(
        UserDatasetError, match=r"does not match the fingerprint in claims.json .* changed since "
    ):
        load_dataset("claims", cache_dir=cache_dir)


def test_an_unfinished_user_entry_is_named(cache_dir, user_costs):
    (cache_dir / "datasets" / "user" / "claims.json").unlink()
    with pytest.raises(
        UserDatasetError, match=r"claims.parquet has no record claims.json \(an ingestion that did "
    ):
        load_dataset("claims", cache_dir=cache_dir)


def test_a_user_record_with_inconsistent_costs_is_damaged(cache_dir, user_costs):
    record_path = cache_dir / "datasets" / "user" / "claims.json"
    record = json.loads(record_path.read_text())
    record_path.write_text(json.dumps(record | {"cost_columns": ["cost_fp"]}))
    with pytest.raises(UserDatasetError, match="cost_columns must name 4 columns or none"):
        load_dataset("claims", cache_dir=cache_dir)


def test_a_damaged_recorded_checksums_file_is_named_not_trusted_away(cache_dir):
    checksums = RecordedChecksums(cache_dir)
    cache_dir.mkdir(parents=True)
    for text, reason in (
        ("[]", "expected a JSON object"),
        ("{", "not valid JSON"),
        ('{"u": "x"}', "expected"),
    ):
        checksums.path.write_text(text)
        with pytest.raises(
            ChecksumError, match=f"{checksums.path} is damaged: {reason}.*delete it to record"
        ):
            checksums.get("https://example.org/data.csv")
    checksums.path.unlink()
    checksums.record("https://example.org/data.csv", "a" * 64)
    assert checksums.get("https://example.org/data.csv") == "a" * 64
