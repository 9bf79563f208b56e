"""A dataset recorded as an MLflow run's input, on a real sqlite store (tasks.tracking.dataset_inputs)."""

from __future__ import annotations

import json
import warnings

import pandas as pd

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
