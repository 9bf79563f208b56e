"""The tasks of the ``retrain`` flow: holdout, candidates, model logging, champion / challenger registry.

* :func:`make_holdout` draws the deterministic holdout every candidate and the current champion are scored on:
  stratified, seeded by the root seed AND the dataset fingerprint, so the same data and seed always give the
  same rows, and new data gives a new holdout.
* :func:`prepare_retrain_data` fits the dataset's cost model on the training rows only and derives the cost
  matrices of both splits; :func:`fit_and_log_candidate` fits one method with the training costs, scores its
  savings on the holdout and logs a child run with the model.
* :func:`log_sklearn_model` logs a fitted estimator as a first-class MLflow model (``models:/m-<id>``) of a
  run, with signature, input example, explicit pinned ``pip_requirements`` and ``algorithms/`` as a code path
  (so the model loads wherever the pinned libraries are installed). It works through ``MlflowClient`` with an
  explicit tracking URI and run id, never the fluent run stack or the global tracking URI. Serialization is
  skops (safe loading) with an allow-list of trusted types restricted to ``algorithms`` and the scientific
  stack; an estimator skops cannot represent falls back to cloudpickle, and the choice is tagged.
* :func:`register_and_promote` registers the best candidate as a new version of the dataset's model and moves
  the alias ``champion`` to it only when its savings beat the current champion re-scored on the SAME holdout;
  otherwise the new version gets the alias ``challenger``. Registry aliases only, never stages.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import math
import tempfile
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

import mlflow.sklearn
import numpy as np
from mlflow import MlflowClient
from mlflow.artifacts import download_artifacts
from mlflow.entities import LoggedModelOutput
from mlflow.exceptions import MlflowException
from mlflow.models import infer_signature
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from sklearn.model_selection import train_test_split

from algorithms.metrics import savings_score
from tasks.costs import checked_cost_matrix, fit_cost_model
from tasks.datasets import load_dataset
from tasks.evaluate import (
    decision_scores,
    derive_seed,
    evaluate_predictions,
    make_split,
    predict_labels,
)
from tasks.track import PROJECT_ROOT, log_metrics, log_params, tracked_run, tracking_client
from tasks.train import build_estimator, fit_estimator

__all__ = [
    "CHALLENGER",
    "CHAMPION",
    "CandidateResult",
    "Holdout",
    "RetrainData",
    "fit_and_log_candidate",
    "fit_and_log_candidate_task",
    "prepare_retrain_data",
    "prepare_retrain_data_task",
    "RegistryDecision",
    "choose_serialization",
    "decide_alias",
    "holdout_seed",
    "load_model_version",
    "log_model_task",
    "log_sklearn_model",
    "make_holdout",
    "make_holdout_task",
    "model_pip_requirements",
    "register_and_promote",
    "register_and_promote_task",
    "version_with_alias",
]

CHAMPION = "champion"
CHALLENGER = "challenger"

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

#: Prefect retries for registry calls (I/O against the tracking server; never for training).
_REGISTRY_RETRIES = {"retries": 2, "retry_delay_seconds": 2}


# --------------------------------------------------------------------------------------------- holdout


@dataclass(frozen=True)
class Holdout:
    """Row indices of the training split and of the holdout, and the key that identifies the holdout."""

    train: np.ndarray
    holdout: np.ndarray
    key: str


def holdout_seed(seed: int, fingerprint: str) -> int:
    """The holdout's seed: ``derive_seed(seed, h)`` with ``h`` the first 32 bits of SHA-256(fingerprint)."""
    fingerprint_bits = int.from_bytes(hashlib.sha256(fingerprint.encode()).digest()[:4], "big")
    return derive_seed(seed, fingerprint_bits)


def make_holdout(
    target, *, fingerprint: str, seed: int, holdout_fraction: float, max_rows: int | None = None
) -> Holdout:
    """Split the rows into training rows and a stratified holdout, deterministically per data and seed.

    Parameters
    ----------
    target : array-like of shape (n_samples,)
        Binary labels.
    fingerprint : str
        Content hash of the dataset; with ``seed`` it fixes the rows (same data + seed = same holdout).
    seed : int
        Root seed.
    holdout_fraction : float
        Share of the (capped) rows held out for scoring, in (0, 1).
    max_rows : int, optional
        Cap on the rows used at all: a stratified sample of ``max_rows`` rows is drawn first (for tests and
        quick runs).

    Raises
    ------
    ValueError
        If ``target`` does not hold two classes, or the cap leaves a class with fewer than 2 rows.
    """
    target = np.asarray(target)
    split_seed = holdout_seed(seed, fingerprint)
    rows = np.arange(target.shape[0])
    if max_rows is not None and max_rows < rows.size:
        classes, counts = np.unique(target, return_counts=True)
        expected_minority = counts.min() * max_rows / rows.size
        if expected_minority < 2:
            raise ValueError(
                f"max_rows={max_rows} keeps about {expected_minority:.1f} rows of class"
                f" {classes[counts.argmin()]}"
                f" ({counts.min()} of {rows.size}); raise max_rows to at least"
                f" {math.ceil(2 * rows.size / counts.min())}"
            )
        rows, _ = train_test_split(
            rows, train_size=max_rows, stratify=target, random_state=derive_seed(split_seed, 1)
        )
        rows = np.sort(rows)
    split = make_split(
        target[rows], "holdout", repeat=0, seed=split_seed, holdout_test_fraction=holdout_fraction
    )
    key = f"{fingerprint}/seed={seed}/fraction={holdout_fraction}/max_rows={max_rows}"
    return Holdout(train=rows[split.train], holdout=rows[split.test], key=key)


@task(name="make_holdout", cache_policy=NO_CACHE)
def make_holdout_task(target, **kwargs) -> Holdout:
    """Split rows into training rows and the deterministic holdout (see ``make_holdout``)."""
    return make_holdout(target, **kwargs)


@dataclass(frozen=True)
class RetrainData:
    """A business dataset split for retraining: training rows, the holdout, and both cost matrices.

    The cost model is fit on the training rows only (CSDT paper, Section 4: its averages and priors come
    from the training split) and then gives the example-dependent costs ``[C_FP, C_FN, C_TP, C_TN]`` of both.
    """

    dataset: str
    fingerprint: str
    holdout_key: str
    train_features: object
    train_target: np.ndarray
    train_costs: np.ndarray
    holdout_features: object
    holdout_target: np.ndarray
    holdout_costs: np.ndarray
    cost_model: str
    cost_params: dict

    def summary(self) -> dict[str, object]:
        """Counts and identifiers to log with the parent run."""
        return {
            "dataset": self.dataset,
            "fingerprint": self.fingerprint,
            "holdout_key": self.holdout_key,
            "train_rows": int(self.train_target.size),
            "train_positives": int(self.train_target.sum()),
            "holdout_rows": int(self.holdout_target.size),
            "holdout_positives": int(self.holdout_target.sum()),
            "cost_model": self.cost_model,
        }


def prepare_retrain_data(
    dataset,
    *,
    seed: int,
    holdout_fraction: float,
    max_rows: int | None = None,
    cost_params: Mapping | None = None,
) -> RetrainData:
    """Split a loaded business dataset into training rows and the holdout and derive both cost matrices.

    Parameters
    ----------
    dataset : tasks.datasets.Dataset
        A dataset whose ``spec.cost_model`` names a cost model of ``tasks.costs.COST_MODELS``.
    seed, holdout_fraction, max_rows
        See :func:`make_holdout`.
    cost_params : mapping, optional
        Explicit cost-model parameters (default: the paper's).

    Raises
    ------
    ValueError
        If the dataset has no cost model (it is not a business dataset).
    """
    cost_model_name = getattr(dataset.spec, "cost_model", None)
    if not cost_model_name:
        raise ValueError(
            f"dataset {dataset.name!r} has no example-dependent cost model; retrain needs a business dataset"
        )
    holdout = make_holdout(
        dataset.target,
        fingerprint=dataset.fingerprint,
        seed=seed,
        holdout_fraction=holdout_fraction,
        max_rows=max_rows,
    )
    train_features = dataset.features.iloc[holdout.train]
    holdout_features = dataset.features.iloc[holdout.holdout]
    train_target = np.asarray(dataset.target)[holdout.train]
    cost_model = fit_cost_model(cost_model_name, train_features, train_target, **dict(cost_params or {}))
    return RetrainData(
        dataset=dataset.name,
        fingerprint=dataset.fingerprint,
        holdout_key=holdout.key,
        train_features=train_features,
        train_target=train_target,
        train_costs=checked_cost_matrix(cost_model, train_features, on_unreasonable="report").values,
        holdout_features=holdout_features,
        holdout_target=np.asarray(dataset.target)[holdout.holdout],
        holdout_costs=checked_cost_matrix(cost_model, holdout_features, on_unreasonable="report").values,
        cost_model=cost_model_name,
        cost_params=dict(cost_model.params()),
    )


@task(name="prepare_retrain_data", cache_policy=NO_CACHE, retries=1, retry_delay_seconds=5)
def prepare_retrain_data_task(dataset_name: str, *, cache_dir: str | None = None, **kwargs) -> RetrainData:
    """Load a business dataset (ingested on first use), split off the holdout, derive both cost matrices."""
    data = prepare_retrain_data(load_dataset(dataset_name, cache_dir=cache_dir), **kwargs)
    get_run_logger().info("retrain data: %s", data.summary())
    return data


# ------------------------------------------------------------------------------------------ candidates


@dataclass(frozen=True)
class CandidateResult:
    """One candidate method fitted on the training rows and scored on the holdout."""

    method: str
    run_id: str
    model_id: str
    savings: float
    metrics: dict
    fit_seconds: float


def fit_and_log_candidate(
    data: RetrainData,
    method: str,
    *,
    tracking_uri: str,
    experiment_id: str,
    parent_run_id: str,
    method_params: Mapping | None = None,
    seed: int = 0,
) -> CandidateResult:
    """Fit ``method`` with the training costs, score it on the holdout, log a child run with its model.

    The child run holds the estimator's ``get_params()``, every holdout metric (``savings`` and ``cost`` from
    the example-dependent costs, CSDT Eq. 2-4), the fit time, and the model (see :func:`log_sklearn_model`).
    A failing fit marks the child run FAILED and re-raises.
    """
    client = tracking_client(tracking_uri)
    estimator = build_estimator(method, method_params, random_state=derive_seed(seed, 2))
    tags = {
        "cslearn.method": method,
        "cslearn.dataset": data.dataset,
        f"dataset.{data.dataset}.fingerprint": data.fingerprint,
    }
    with tracked_run(
        client, experiment_id, run_name=f"{data.dataset}/{method}", tags=tags, parent_run_id=parent_run_id
    ) as run_id:
        started = time.perf_counter()
        model = fit_estimator(estimator, data.train_features, data.train_target, data.train_costs)
        fit_seconds = time.perf_counter() - started
        predicted = predict_labels(model, data.holdout_features, data.holdout_costs)
        scores = decision_scores(model, data.holdout_features)
        metrics = evaluate_predictions(data.holdout_target, predicted, scores, data.holdout_costs)
        params = {key: value for key, value in model.get_params(deep=False).items()}
        log_params(client, run_id, params)
        model_id = log_sklearn_model(
            client,
            experiment_id,
            run_id,
            model,
            data.holdout_features.head(5),
            params=params,
            tags={**tags, "cslearn.holdout_key": data.holdout_key},
        )
        log_metrics(client, run_id, {**metrics, "fit_seconds": fit_seconds})
    return CandidateResult(method, run_id, model_id, float(metrics["savings"]), metrics, fit_seconds)


@task(name="fit_and_log_candidate", cache_policy=NO_CACHE)
def fit_and_log_candidate_task(data: RetrainData, method: str, **kwargs) -> CandidateResult:
    """Fit one candidate with the training costs, score its savings on the holdout, log run and model."""
    result = fit_and_log_candidate(data, method, **kwargs)
    get_run_logger().info("%s: holdout savings %.4f (fit %.1f s)", method, result.savings, result.fit_seconds)
    return result


# ------------------------------------------------------------------------------------------ logging


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
    model's predictions, the input example itself, explicit pinned ``pip_requirements``, ``algorithms/`` as a
    code path), then attached to the run as a logged model through the client (``models:/<model id>``).
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
            code_paths=[str(PROJECT_ROOT / "algorithms")],
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


@task(name="log_model", cache_policy=NO_CACHE, **_REGISTRY_RETRIES)
def log_model_task(tracking_uri: str, experiment_id: str, run_id: str, model, input_example, **kwargs) -> str:
    """Log a fitted estimator as a model of a run (see ``log_sklearn_model``); returns the model id."""
    return log_sklearn_model(
        MlflowClient(tracking_uri), experiment_id, run_id, model, input_example, **kwargs
    )


# ----------------------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class RegistryDecision:
    """What :func:`register_and_promote` did: the new version, its alias and the scores compared."""

    model_name: str
    version: str
    alias: str
    savings: float
    previous_champion_version: str | None
    previous_champion_savings: float | None
    holdout_key: str

    def as_dict(self) -> dict:
        return asdict(self)


def decide_alias(candidate_savings: float, champion_savings: float | None) -> str:
    """``"champion"`` when there is no scorable champion or the candidate's savings are strictly higher.

    Savings (CSDT paper, Eq. 4) are compared on the same holdout; a tie keeps the incumbent, so the new
    version becomes the ``"challenger"``. A NaN candidate score never wins.
    """
    if math.isnan(candidate_savings):
        return CHALLENGER if champion_savings is not None else CHAMPION
    if champion_savings is None or math.isnan(champion_savings):
        return CHAMPION
    return CHAMPION if candidate_savings > champion_savings else CHALLENGER


def version_with_alias(client: MlflowClient, model_name: str, alias: str):
    """The model version that carries ``alias``, or ``None`` (no such model or alias)."""
    try:
        return client.get_model_version_by_alias(model_name, alias)
    except MlflowException as error:
        if error.error_code in ("RESOURCE_DOES_NOT_EXIST", "NOT_FOUND", "INVALID_PARAMETER_VALUE"):
            return None
        raise


def load_model_version(client: MlflowClient, version):
    """Load a registered model version as the scikit-learn estimator it was logged as."""
    with tempfile.TemporaryDirectory(prefix="cslearn-champion-") as folder:
        artifact_uri = client.get_model_version_download_uri(version.name, version.version)
        local_path = download_artifacts(
            artifact_uri=artifact_uri, dst_path=folder, tracking_uri=client.tracking_uri
        )
        return mlflow.sklearn.load_model(local_path)


def _score_version(client: MlflowClient, version, features, target, cost_matrix) -> float:
    model = load_model_version(client, version)
    return float(savings_score(target, predict_labels(model, features, cost_matrix), cost_matrix))


def register_and_promote(
    client: MlflowClient,
    model_name: str,
    model_id: str,
    run_id: str,
    *,
    savings: float,
    holdout_features,
    holdout_target,
    holdout_cost_matrix,
    holdout_key: str,
    tags: Mapping[str, object] | None = None,
    logger=None,
) -> RegistryDecision:
    """Register ``models:/<model_id>`` as a new version of ``model_name`` and set its alias.

    The current champion (if any) is loaded and re-scored by savings on the given holdout; the new version
    takes ``champion`` only when :func:`decide_alias` says it beats that score, else ``challenger``. A new
    champion clears the ``challenger`` alias (that contender lost to the champion just replaced). A champion
    that cannot score the holdout (for example, the data's columns changed) is replaced, with a warning.
    """
    previous = version_with_alias(client, model_name, CHAMPION)
    previous_savings = None
    if previous is not None:
        try:
            previous_savings = _score_version(
                client, previous, holdout_features, holdout_target, holdout_cost_matrix
            )
        except Exception as error:  # an incompatible champion cannot block a retrain
            if logger is not None:
                logger.warning(
                    "champion %s v%s cannot score the holdout (%s: %s); replacing it",
                    model_name,
                    previous.version,
                    type(error).__name__,
                    error,
                )
    alias = decide_alias(savings, previous_savings)
    try:
        client.get_registered_model(model_name)
    except MlflowException:
        client.create_registered_model(
            model_name, description="Cost-sensitive classifier retrained by cslearn"
        )
    version_tags = {key: str(value) for key, value in (tags or {}).items()}
    version_tags.update(
        {
            "savings": repr(float(savings)),
            "holdout_key": holdout_key,
            "champion_savings_at_registration": repr(previous_savings),
            "champion_version_at_registration": str(previous.version) if previous is not None else "",
        }
    )
    # The artifact location, not ``models:/<id>``: a direct sqlite registry resolves ``models:/`` sources with
    # the global tracking URI instead of this client's (MLflow TODO in ``create_model_version``).
    source = client.get_logged_model(model_id).artifact_location
    version = client.create_model_version(
        model_name, source=source, run_id=run_id, tags=version_tags, model_id=model_id
    )
    client.set_registered_model_alias(model_name, alias, version.version)
    if alias == CHAMPION and version_with_alias(client, model_name, CHALLENGER) is not None:
        client.delete_registered_model_alias(model_name, CHALLENGER)
    return RegistryDecision(
        model_name=model_name,
        version=str(version.version),
        alias=alias,
        savings=float(savings),
        previous_champion_version=str(previous.version) if previous is not None else None,
        previous_champion_savings=previous_savings,
        holdout_key=holdout_key,
    )


@task(name="register_and_promote", cache_policy=NO_CACHE)
def register_and_promote_task(
    tracking_uri: str, model_name: str, model_id: str, run_id: str, **kwargs
) -> dict:
    """Register the best candidate and move ``champion`` only if it beats the champion on the same holdout."""
    decision = register_and_promote(
        MlflowClient(tracking_uri), model_name, model_id, run_id, logger=get_run_logger(), **kwargs
    )
    return decision.as_dict()
