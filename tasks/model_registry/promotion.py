"""The champion / challenger registry: one registered model per business dataset, aliases only.

:func:`register_and_promote` registers the best candidate as a new version of the dataset's model and moves
the alias ``champion`` to it only when its savings beat the current champion re-scored on the SAME holdout;
otherwise the new version gets the alias ``challenger``. Registry aliases only, never stages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from mlflow import MlflowClient
from mlflow.exceptions import MlflowException
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from algorithms.metrics import savings_score
from tasks.evaluate import predict_labels
from tasks.model_registry.candidates import CandidateResult
from tasks.model_registry.holdout import RetrainData
from tasks.model_registry.serialization import load_model_version

__all__ = [
    "CHALLENGER",
    "CHAMPION",
    "RegistryDecision",
    "decide_alias",
    "register_and_promote",
    "register_and_promote_task",
    "version_with_alias",
]

CHAMPION = "champion"
CHALLENGER = "challenger"


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
    tracking_uri: str, model_name: str, best: CandidateResult, data: RetrainData
) -> dict:
    """Register the best candidate and move ``champion`` only if it beats the champion on the same holdout."""
    decision = register_and_promote(
        MlflowClient(tracking_uri),
        model_name,
        best.model_id,
        best.run_id,
        savings=best.savings,
        holdout_features=data.holdout_features,
        holdout_target=data.holdout_target,
        holdout_cost_matrix=data.holdout_costs,
        holdout_key=data.holdout_key,
        tags={"cslearn.method": best.method, "cslearn.dataset": data.dataset},
        logger=get_run_logger(),
    )
    return decision.as_dict()
