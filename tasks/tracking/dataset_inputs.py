"""A dataset as an MLflow run's input: its schema and rows, digest = its fingerprint, where it came from.

Every accepted state of a dataset has its own fingerprint (and, bound to a source, its version), so a run
records exactly which rows it read: ``mlflow.data.from_pandas`` gives the schema and row count, the digest
is the first 36 characters of the fingerprint (MLflow's limit), and the input tags carry the context
(``retrain``, ``score``, ``monitor``), the full fingerprint and the version.

Where the rows came from is recorded by :func:`recorded_source`, never as a path of the machine that ran:
a local file, folder or glob by its name (``loans.csv``, ``tx-*.parquet``), a sqlite database by its file
name, any other URL without its credentials (:func:`tasks.redaction.redact_uri`), each with the source
file's sha256 when it is known (a user's file: the checksum recorded when it was ingested). Runs are read by
everyone who can reach the tracking server; a home folder's layout is not theirs to read.
"""

from __future__ import annotations

import warnings
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from mlflow import MlflowClient

from tasks.redaction import redact_uri

__all__ = ["DIGEST_LENGTH", "dataset_source", "log_dataset_input", "recorded_source"]

#: MLflow keeps at most 36 characters of a dataset digest.
DIGEST_LENGTH = 36


def _name(path: str) -> str:
    """The last part of a path (a file, a folder or a glob), whichever separator it uses."""
    return PurePosixPath(path.replace("\\", "/").rstrip("/")).name


def recorded_source(source: str, *, sha256: str | None = None) -> dict[str, str]:
    """Where rows came from as a run records it, ``{"source": ..., "sha256": ...}`` (module docstring).

    >>> recorded_source("/home/alice/exports/loans.csv", sha256="ab12")
    {'source': 'loans.csv', 'sha256': 'ab12'}
    >>> recorded_source("postgresql://alice:s3cret@db/bank")
    {'source': 'postgresql://***@db/bank'}
    """
    parts = urlsplit(source)
    if parts.scheme == "file":
        shown = _name(unquote(parts.path))
    elif len(parts.scheme) <= 1:  # a path (a Windows drive letter reads as a one-letter scheme)
        shown = _name(source)
    elif parts.scheme.startswith("sqlite"):  # sqlite:///path/to/file.db: a local file too
        shown = f"{parts.scheme}:///{_name(parts.path)}"
    else:
        shown = redact_uri(source)
    return {"source": shown} | ({"sha256": sha256} if sha256 else {})


def dataset_source(source: str, *, sha256: str | None = None):
    """:func:`recorded_source` as an MLflow dataset source (``mlflow.data.code_dataset_source``)."""
    from mlflow.data.code_dataset_source import CodeDatasetSource

    return CodeDatasetSource(recorded_source(source, sha256=sha256))


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
    sha256: str | None = None,
) -> None:
    """Log ``frame`` as an input of run ``run_id`` (see the module docstring); ``source`` is recorded by
    :func:`recorded_source` (with ``sha256``, the source file's checksum, when given)."""
    import mlflow.data
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
            source=dataset_source(source, sha256=sha256),
            targets="target" if "target" in frame else None,
            name=name,
            digest=fingerprint[:DIGEST_LENGTH],
        )
        record = logged._to_mlflow_entity()
    client.log_inputs(run_id, datasets=[DatasetInput(dataset=record, tags=tags)])
