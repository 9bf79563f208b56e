"""A dataset as an MLflow run's input: its schema and rows, digest = its fingerprint, where it came from.

Every accepted state of a dataset has its own fingerprint (and, bound to a source, its version), so a run
records exactly which rows it read: ``mlflow.data.from_pandas`` gives the schema and row count, the digest
is the first 36 characters of the fingerprint (MLflow's limit), the source is the path, URL or glob the
rows came from (a SQL URL without its credentials), and the input tags carry the context (``retrain``,
``score``, ``monitor``), the full fingerprint and the version.
"""

from __future__ import annotations

import warnings

from mlflow import MlflowClient

from tasks.redaction import redact_uri

__all__ = ["DIGEST_LENGTH", "log_dataset_input"]

#: MLflow keeps at most 36 characters of a dataset digest.
DIGEST_LENGTH = 36


def log_dataset_input(
    client: MlflowClient,
    run_id: str,
    frame,
    *,
    name: str,
    fingerprint: str,
    source: str,
    context: str,
    version: int | None = None,
) -> None:
    """Log ``frame`` as an input of run ``run_id`` (see the module docstring)."""
    import mlflow.data
    from mlflow.data.code_dataset_source import CodeDatasetSource
    from mlflow.entities import DatasetInput, InputTag

    tags = [
        InputTag(key="mlflow.data.context", value=context),
        InputTag(key="cslearn.fingerprint", value=fingerprint),
    ]
    if version is not None:
        tags.append(InputTag(key="cslearn.dataset_version", value=str(version)))
    # MLflow infers the frame's schema (on the record's conversion) and hints that integer columns cannot hold
    # missing values: a warning for model inputs, not for the record of a dataset.
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message="Hint: Inferred schema contains integer", category=UserWarning
        )
        logged = mlflow.data.from_pandas(
            frame,
            source=CodeDatasetSource({"source": redact_uri(source)}),
            targets="target" if "target" in frame else None,
            name=name,
            digest=fingerprint[:DIGEST_LENGTH],
        )
        record = logged._to_mlflow_entity()
    client.log_inputs(run_id, datasets=[DatasetInput(dataset=record, tags=tags)])
