"""Logging a fitted estimator as an MLflow model, and loading one back.

:func:`log_sklearn_model` logs a fitted estimator as a first-class MLflow model (``models:/m-<id>``) of a run,
with signature, input example, explicit pinned ``pip_requirements`` and the ``algorithms`` package as a code
path (so the model loads wherever the pinned libraries are installed). It works through ``MlflowClient`` with
an explicit tracking URI and run id, never the fluent run stack or the global tracking URI. Serialization is
skops (safe loading) with an allow-list of trusted types restricted to ``algorithms`` and the scientific
stack; an estimator skops cannot represent falls back to cloudpickle, and the choice is tagged.
"""

from __future__ import annotations

import importlib.metadata
import tempfile
from collections.abc import Mapping
from pathlib import Path

import mlflow.sklearn
from mlflow import MlflowClient
from mlflow.artifacts import download_artifacts
from mlflow.entities import LoggedModelOutput
from mlflow.models import infer_signature

import algorithms

__all__ = [
    "TRUSTED_MODULE_PREFIXES",
    "choose_serialization",
    "load_model_version",
    "log_sklearn_model",
    "model_pip_requirements",
    "skops_trusted_types",
]

#: Module prefixes whose types a skops-serialized model may contain without review: our estimators and
#: the libraries they are built from. Anything else makes :func:`skops_trusted_types` refuse.
TRUSTED_MODULE_PREFIXES = (
    "algorithms.",
    "sklearn.",
    "imblearn.",
    "numpy.",
    "scipy.",
    "builtins.",
    "collections.",
)

#: Distributions a logged model needs at load time, pinned to the versions installed here.
_MODEL_DISTRIBUTIONS = ("mlflow", "numpy", "scipy", "scikit-learn", "imbalanced-learn", "numba", "pandas")

#: The ``algorithms`` package, shipped with every logged model as a code path.
_ALGORITHMS_PACKAGE = Path(algorithms.__file__).resolve().parent


def model_pip_requirements(serialization_format: str) -> list[str]:
    """Pinned requirements of a logged model: the libraries it is built from and its serializer."""
    distributions = [*_MODEL_DISTRIBUTIONS, "skops" if serialization_format == "skops" else "cloudpickle"]
    requirements = []
    for distribution in distributions:
        try:
            requirements.append(f"{distribution}=={importlib.metadata.version(distribution)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return requirements


def skops_trusted_types(model) -> list[str]:
    """Types skops will not load by default that the model holds, all within ``TRUSTED_MODULE_PREFIXES``.

    Raises
    ------
    ValueError
        If the model holds a type from any other module (it would need a human to review it).
    """
    import skops.io

    untrusted = skops.io.get_untrusted_types(data=skops.io.dumps(model))
    foreign = sorted(name for name in untrusted if not name.startswith(TRUSTED_MODULE_PREFIXES))
    if foreign:
        raise ValueError(
            f"{type(model).__name__} holds types outside {TRUSTED_MODULE_PREFIXES} that skops would have to"
            f" trust: {foreign}"
        )
    return sorted(untrusted)


def choose_serialization(model) -> tuple[str, list[str] | None, str]:
    """``("skops", trusted_types, "")`` if skops can represent the model safely, else cloudpickle and why."""
    try:
        return "skops", skops_trusted_types(model), ""
    except Exception as error:  # skops raises TypeError and others on unsupported objects
        return "cloudpickle", None, f"{type(error).__name__}: {error}"


def log_sklearn_model(
    client: MlflowClient,
    experiment_id: str,
    run_id: str,
    model,
    input_example,
    *,
    name: str = "model",
    params: Mapping[str, object] | None = None,
    tags: Mapping[str, object] | None = None,
) -> str:
    """Log a fitted estimator as an MLflow model output of run ``run_id``; returns the model id.

    The model is saved by ``mlflow.sklearn.save_model`` (signature inferred from ``input_example`` and the
    model's predictions, the input example itself, explicit pinned ``pip_requirements``, the ``algorithms``
    package as a code path), then attached to the run as a logged model through the client
    (``models:/<model id>``).
    """
    serialization_format, trusted_types, fallback_reason = choose_serialization(model)
    signature = infer_signature(input_example, model.predict(input_example))
    model_tags = {key: str(value) for key, value in (tags or {}).items()}
    model_tags["cslearn.serialization"] = serialization_format
    if fallback_reason:
        model_tags["cslearn.skops_unsupported"] = fallback_reason[:5000]
    with tempfile.TemporaryDirectory(prefix="cslearn-model-") as folder:
        local_path = Path(folder) / name
        mlflow.sklearn.save_model(
            model,
            str(local_path),
            serialization_format=serialization_format,
            skops_trusted_types=trusted_types,
            signature=signature,
            input_example=input_example,
            pip_requirements=model_pip_requirements(serialization_format),
            code_paths=[str(_ALGORITHMS_PACKAGE)],
        )
        for cache in local_path.rglob("__pycache__"):
            for compiled in cache.iterdir():
                compiled.unlink()
            cache.rmdir()
        logged = client.create_logged_model(
            experiment_id,
            name=name,
            source_run_id=run_id,
            params={key: str(value)[:6000] for key, value in (params or {}).items()},
            tags=model_tags,
            model_type="sklearn",
        )
        client.log_outputs(run_id, [LoggedModelOutput(logged.model_id, step=0)])
        client.log_model_artifacts(logged.model_id, str(local_path))
    client.finalize_logged_model(logged.model_id, "READY")
    return logged.model_id


def load_model_version(client: MlflowClient, version):
    """Load a registered model version as the scikit-learn estimator it was logged as."""
    with tempfile.TemporaryDirectory(prefix="cslearn-champion-") as folder:
        artifact_uri = client.get_model_version_download_uri(version.name, version.version)
        local_path = download_artifacts(
            artifact_uri=artifact_uri, dst_path=folder, tracking_uri=client.tracking_uri
        )
        return mlflow.sklearn.load_model(local_path)
