"""A dataset recorded as an MLflow run's input, on a real sqlite store (tasks.tracking.dataset_inputs)."""

from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

from tasks.tracking import mlflow_runs
from tasks.tracking.dataset_inputs import DIGEST_LENGTH, log_dataset_input


def test_the_record_has_schema_digest_redacted_source_and_tags_and_warns_about_nothing(tmp_path):
    client = mlflow_runs.tracking_client(f"sqlite:///{tmp_path / 'mlflow.db'}")
    experiment_id = mlflow_runs.ensure_experiment(
        client, "inputs", artifact_location=(tmp_path / "artifacts").as_uri()
    )
    run_id = client.create_run(experiment_id).info.run_id
    # Integer columns, which MLflow's schema inference hints about for model inputs.
    frame = pd.DataFrame(
        {"age": [30, 41, 52], "job": ["admin.", "blue-collar", "retired"], "target": [0, 1, 0]}
    )
    fingerprint = "f" * 64

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        log_dataset_input(
            client,
            run_id,
            frame,
            name="calls",
            fingerprint=fingerprint,
            source="postgresql://analyst:s3cret@127.0.0.1:5432/bank",
            context="retrain",
            version=3,
        )

    assert [str(warning.message) for warning in caught] == []
    (recorded,) = client.get_run(run_id).inputs.dataset_inputs
    assert recorded.dataset.name == "calls"
    assert recorded.dataset.digest == fingerprint[:DIGEST_LENGTH]
    assert "s3cret" not in recorded.dataset.source
    assert "127.0.0.1:5432/bank" in recorded.dataset.source
    schema = json.loads(recorded.dataset.schema)["mlflow_colspec"]
    assert {column["name"]: column["type"] for column in schema} == {
        "age": "long",
        "job": "string",
        "target": "long",
    }
    assert {tag.key: tag.value for tag in recorded.tags} == {
        "mlflow.data.context": "retrain",
        "cslearn.fingerprint": fingerprint,
        "cslearn.dataset_version": "3",
    }


def _store(tmp_path):
    client = mlflow_runs.tracking_client(f"sqlite:///{tmp_path / 'mlflow.db'}")
    experiment_id = mlflow_runs.ensure_experiment(
        client, "inputs", artifact_location=(tmp_path / "artifacts").as_uri()
    )
    return client, experiment_id


@pytest.mark.parametrize(
    ("source", "recorded"),
    [
        ("/home/alice/exports/loans.csv", "loans.csv"),
        ("file:///home/alice/exports/loans.csv", "loans.csv"),
        ("/home/alice/exports/tx-*.parquet", "tx-*.parquet"),
        ("sqlite:////home/alice/live.db (table tx)", "sqlite:///live.db (table tx)"),
        (
            "postgresql://analyst:s3cret@db:5432/bank?password=s3cret",
            "postgresql://***@db:5432/bank?password=***",
        ),
        (
            "https://archive.ics.uci.edu/static/public/222/bank.zip",
            "https://archive.ics.uci.edu/static/public/222/bank.zip",
        ),
    ],
)
def test_a_local_source_is_recorded_by_its_name_and_checksum_never_its_path(tmp_path, source, recorded):
    client, experiment_id = _store(tmp_path)
    run_id = client.create_run(experiment_id).info.run_id
    frame = pd.DataFrame({"x": [1.0, 2.0], "target": [0, 1]})

    log_dataset_input(
        client,
        run_id,
        frame,
        name="loans",
        fingerprint="f" * 64,
        source=source,
        context="retrain",
        sha256="a" * 64,
    )

    (logged,) = client.get_run(run_id).inputs.dataset_inputs
    assert json.loads(logged.dataset.source)["tags"] == {"source": recorded, "sha256": "a" * 64}
    assert "/home/alice" not in logged.dataset.source and "s3cret" not in logged.dataset.source


def test_the_compare_record_of_a_user_dataset_holds_its_file_name_and_sha256(tmp_path, monkeypatch):
    """``cslearn compare``'s parent run input (``tasks.compare.comparison_runs.log_dataset_inputs_task``)."""
    from tasks.compare.cell_compute import describe_dataset
    from tasks.compare.comparison_runs import log_dataset_inputs_task
    from tasks.datasets.cache import sha256_file
    from tasks.datasets.user_files import ingest_file
    from tasks.tracking.mlflow_runs import ParentRun
    from tests.user_data import PAYMENT_COST_COLUMNS, write_payments_csv

    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    (tmp_path / "exports").mkdir()
    csv = write_payments_csv(tmp_path / "exports" / "payments.csv")
    ingest_file(csv, target="fraud", positive="yes", cost_columns=PAYMENT_COST_COLUMNS, name="payments")
    client, experiment_id = _store(tmp_path)
    run_id = client.create_run(experiment_id).info.run_id

    log_dataset_inputs_task.fn(
        ParentRun(client.tracking_uri, experiment_id, run_id), [describe_dataset("payments")]
    )

    (logged,) = client.get_run(run_id).inputs.dataset_inputs
    assert json.loads(logged.dataset.source)["tags"] == {"source": "payments.csv", "sha256": sha256_file(csv)}
    assert str(tmp_path) not in logged.dataset.source and "file://" not in logged.dataset.source
