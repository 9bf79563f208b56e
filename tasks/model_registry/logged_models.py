"""Logging a fitted estimator as a first-class MLflow model, and loading a logged or registered one back.

:func:`log_model` writes one folder with two flavors over one skops file (see :mod:`.serving`): ``sklearn``
(the estimator) and ``python_function`` (:class:`.serving.CostAwareModel`, loaded by the installed
``tasks.model_registry.serving`` module), plus the fitted cost model (``cost_model.json``), a signature
(the feature columns, the optional cost columns ``C_FP, C_FN, C_TP, C_TN``; outputs ``decision``,
``probability``, ``expected_cost`` and the four costs), an input example and pinned ``pip_requirements``. It
carries no code: the model needs the ``cslearn`` package installed where it is loaded (its version is in the
model's metadata and tags), so nothing from the artifact store can shadow it on ``sys.path``.

Everything goes through ``MlflowClient`` with an explicit tracking URI and run id (``models:/m-<id>``), never
the fluent run stack or the global tracking URI.

:func:`load_estimator` and :func:`load_cost_aware_model` read a model by URI (``models:/<name>@champion``,
``models:/<name>/<version>``, ``models:/m-<id>``, a run or a local path) with cslearn's skops allow-list;
a cloudpickle model is refused unless ``allow_pickle=True``.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import tempfile
import warnings
from collections.abc import Mapping
from pathlib import Path

import mlflow.sklearn
from mlflow import MlflowClient
from mlflow.artifacts import download_artifacts
from mlflow.entities import LoggedModelOutput
from mlflow.models import Model, ModelSignature, infer_signature
from mlflow.types import ColSpec, Schema

from algorithms.metrics import COST_COLUMNS
from tasks.cost_models import CostModel
from tasks.datasets.encoding import NUMERIC, RawEncoding
from tasks.model_registry import serving
from tasks.model_registry.serialization import choose_serialization
from tasks.model_registry.serving import (
    COST_MODEL_FILE,
    ENCODING_FILE,
    CostAwareModel,
    cost_model_state,
    load_model_folder,
)

__all__ = [
    "cslearn_version",
    "download_model",
    "load_cost_aware_model",
    "load_estimator",
    "load_model_version",
    "log_model",
    "model_pip_requirements",
    "serving_signature",
]

#: Distributions a logged model needs at load time besides cslearn, pinned to the versions installed here.
_MODEL_DISTRIBUTIONS = (
    "mlflow", "numpy", "scipy", "scikit-learn", "imbalanced-learn", "numba", "pandas", "lightgbm",
)  # fmt: skip


def cslearn_version() -> str:
    """The installed cslearn version (the package a logged model is loaded with)."""
    return importlib.metadata.version("cslearn")


def model_pip_requirements(serialization_format: str) -> list[str]:
    """Pinned requirements of a logged model: the libraries it is built from and its serializer.

    ``cslearn`` itself is not listed: it is not on a public index, so a pip line would invite a
    same-named package from elsewhere. Serve from an environment where it is installed.
    """
    distributions = [*_MODEL_DISTRIBUTIONS, "skops" if serialization_format == "skops" else "cloudpickle"]
    requirements = []
    for distribution in distributions:
        try:
            requirements.append(f"{distribution}=={importlib.metadata.version(distribution)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return requirements


def serving_signature(model: CostAwareModel, input_example) -> ModelSignature:
    """Inputs: the raw columns the model takes (numbers as doubles, categorical columns as strings; with no
    encoding, the feature columns as doubles), required, and ``C_FP, C_FN, C_TP, C_TN`` (optional doubles);
    outputs: the columns of :meth:`.serving.CostAwareModel.predict` on ``input_example``."""
    if model.encoding is not None:
        inputs = [
            ColSpec("double" if column.kind == NUMERIC else "string", column.name)
            for column in model.encoding.columns
        ]
    else:
        inputs = [ColSpec("double", name) for name in model.feature_names]
    costs = [ColSpec("double", column, required=False) for column in COST_COLUMNS]
    with warnings.catch_warnings():  # MLflow's hint on integer columns concerns inputs, not the decision
        warnings.filterwarnings(
            "ignore", message="Hint: Inferred schema contains integer", category=UserWarning
        )
        outputs = infer_signature(input_example, model.predict(input_example)).outputs
    return ModelSignature(inputs=Schema([*inputs, *costs]), outputs=outputs)


def _write_model_folder(
    folder: Path,
    estimator,
    cost_model: CostModel | None,
    input_example,
    *,
    allow_pickle: bool,
    encoding: RawEncoding | None = None,
) -> tuple[str, str]:
    """Save both flavors, the cost model, the encoding and the metadata into ``folder``; ``(format, why not
    skops)``. The input example is ``input_example``'s raw columns when there is an encoding."""
    serialization_format, written, trusted_types, fallback_reason = choose_serialization(
        estimator, allow_pickle=allow_pickle
    )
    model = CostAwareModel(estimator, cost_model, encoding)
    if model.encoding is not None:
        input_example = model.encoding.decode(input_example[model.feature_names])
    mlflow.sklearn.save_model(
        written,
        str(folder),
        serialization_format=serialization_format,
        skops_trusted_types=trusted_types,
        signature=serving_signature(model, input_example),
        input_example=input_example,
        pip_requirements=model_pip_requirements(serialization_format),
        metadata={
            "cslearn_version": cslearn_version(),
            "cost_model": cost_model.name if cost_model is not None else None,
        },
    )
    if cost_model is not None:
        (folder / COST_MODEL_FILE).write_text(json.dumps(cost_model_state(cost_model), indent=2))
    if model.encoding is not None:
        (folder / ENCODING_FILE).write_text(json.dumps(model.encoding.to_record(), indent=2))
    mlmodel = Model.load(str(folder / "MLmodel"))
    pyfunc = mlmodel.flavors["python_function"]
    pyfunc["loader_module"] = serving.__name__  # the cost-aware model, from the installed package
    for key in ("model_path", "predict_fn"):
        pyfunc.pop(key, None)
    mlmodel.save(str(folder / "MLmodel"))
    return serialization_format, fallback_reason


def log_model(
    client: MlflowClient,
    experiment_id: str,
    run_id: str,
    estimator,
    input_example,
    *,
    name: str,
    cost_model: CostModel | None = None,
    encoding: list[dict] | None = None,
    params: Mapping[str, object] | None = None,
    tags: Mapping[str, object] | None = None,
    allow_pickle: bool = False,
) -> str:
    """Log a fitted estimator (and the cost model of its training rows) as a model of run ``run_id``.

    Parameters
    ----------
    client, experiment_id, run_id
        Where the logged model goes; it is attached to the run as an output (``models:/<model id>``).
    estimator : fitted classifier
        Fitted on a ``pandas.DataFrame``.
    input_example : pandas.DataFrame
        A few raw rows (feature columns only).
    name : str
        The logged model's name, ``<dataset>-<method>`` in a retrain.
    cost_model : tasks.cost_models.CostModel, optional
        Fitted on the training rows; the served model derives each row's costs with it.
    encoding : list of dict, optional
        The dataset's raw-column encoding (``RawEncoding.to_record``): the served model then takes the raw
        columns, and its signature and input example are the raw schema.
    params, tags : mapping, optional
        Shown on the logged model's page.
    allow_pickle : bool, default=False
        Write cloudpickle when skops cannot represent the estimator (else that is an error).

    Returns
    -------
    str
        The model id. The logged model is READY, or FAILED when its files could not be logged (the error
        is raised).
    """
    model_tags = {key: str(value) for key, value in (tags or {}).items()}
    with tempfile.TemporaryDirectory(prefix="cslearn-model-") as parent:
        folder = Path(parent) / name
        serialization_format, fallback_reason = _write_model_folder(
            folder,
            estimator,
            cost_model,
            input_example,
            allow_pickle=allow_pickle,
            encoding=RawEncoding.from_record(encoding) if encoding is not None else None,
        )
        model_tags["cslearn.serialization"] = serialization_format
        model_tags["cslearn.version"] = cslearn_version()
        if fallback_reason:
            model_tags["cslearn.skops_unsupported"] = fallback_reason[:5000]
        logged = client.create_logged_model(
            experiment_id,
            name=name,
            source_run_id=run_id,
            params={key: str(value)[:6000] for key, value in (params or {}).items()},
            tags=model_tags,
            model_type="sklearn",
        )
        try:
            client.log_outputs(run_id, [LoggedModelOutput(logged.model_id, step=0)])
            client.log_model_artifacts(logged.model_id, str(folder))
        except BaseException:  # never left PENDING; a process killed here is settled by `runs cleanup`
            with contextlib.suppress(Exception):
                client.finalize_logged_model(logged.model_id, "FAILED")
            raise
    client.finalize_logged_model(logged.model_id, "READY")
    return logged.model_id


def _artifact_location(model_uri: str, tracking_uri: str | None) -> str:
    """Where a ``models:/`` URI's files are, resolved through a client on ``tracking_uri``.

    MLflow's own resolution of ``models:/`` reads the process-wide registry URI, not the one given, so it
    is done here for the three forms cslearn documents: ``models:/m-<id>``, ``models:/<name>@<alias>`` and
    ``models:/<name>/<version>``. Any other URI (``runs:/``, a path) is returned as it is.
    """
    if not model_uri.startswith("models:/"):
        return model_uri
    client = MlflowClient(tracking_uri=tracking_uri, registry_uri=tracking_uri)
    reference = model_uri.removeprefix("models:/").strip("/")
    if reference.startswith("m-") and "/" not in reference and "@" not in reference:
        return client.get_logged_model(reference).artifact_location
    if "@" in reference:
        name, alias = reference.split("@", 1)
        version = client.get_model_version_by_alias(name, alias).version
    elif reference.count("/") == 1 and reference.rsplit("/", 1)[1].isdigit():
        name, version = reference.rsplit("/", 1)
    else:
        raise ValueError(
            f"unsupported model URI {model_uri!r}; use models:/<name>@<alias>, models:/<name>/<version> or"
            " models:/m-<model id>"
        )
    return client.get_model_version_download_uri(name, version)


def download_model(model_uri: str, tracking_uri: str | None, folder: str) -> Path:
    """The local folder of ``model_uri``: a local folder as it is, else its artifacts downloaded into
    ``folder``."""
    if Path(model_uri).is_dir():
        return Path(model_uri)
    location = _artifact_location(model_uri, tracking_uri)
    return Path(download_artifacts(artifact_uri=location, dst_path=folder, tracking_uri=tracking_uri))


def load_cost_aware_model(
    model_uri: str, *, tracking_uri: str | None = None, allow_pickle: bool = False
) -> CostAwareModel:
    """The cost-aware model of a logged cslearn model, as the model server runs it (without a server).

    ``tracking_uri`` defaults to MLflow's (``MLFLOW_TRACKING_URI``). See :mod:`.serving` for what it returns.

    Raises
    ------
    tasks.model_registry.serialization.UntrustedModelError
        A cloudpickle estimator without ``allow_pickle``.
    """
    with tempfile.TemporaryDirectory(prefix="cslearn-load-") as folder:
        return load_model_folder(download_model(model_uri, tracking_uri, folder), allow_pickle=allow_pickle)


def load_estimator(model_uri: str, *, tracking_uri: str | None = None, allow_pickle: bool = False):
    """The fitted scikit-learn estimator of a logged cslearn model (``predict(X, cost_matrix=C)`` works).

    Same arguments and errors as :func:`load_cost_aware_model`.
    """
    return load_cost_aware_model(model_uri, tracking_uri=tracking_uri, allow_pickle=allow_pickle).estimator


def load_model_version(client: MlflowClient, version, *, allow_pickle: bool = False):
    """The fitted estimator of a registered model version (a ``ModelVersion``), from ``client``'s store."""
    return load_estimator(
        f"models:/{version.name}/{version.version}",
        tracking_uri=client.tracking_uri,
        allow_pickle=allow_pickle,
    )
