"""A registered model's versions as a retrain writes them: created pending, then decided, or abandoned.

A retrain registers its best candidate in steps (``tasks.model_registry.promotion``):

1. the registered model is created if absent (:func:`ensure_registered_model`; another retrain creating it
   at the same moment is no error);
2. the version is created from its logged model with the state ``pending`` (tag ``cslearn.promotion``), the
   process that owns it (host, pid, start time, as for runs: ``tasks.tracking.orphan_runs``) and a
   description saying its alias is being decided (:func:`create_pending_version`);
3. its alias is set, and only then its state (``champion``, ``challenger``) and full description
   (:func:`record_decision`), so that a description never claims an alias its version does not hold.

A process that dies between steps 2 and 3 leaves a ``pending`` version. The next retrain of the model settles
it before deciding (:func:`settle_pending_versions`): a version whose alias was set gets its state; the very
model that retrain is about to register (same method, data fingerprint, known code commit, holdout and
savings) is adopted, its decision finished instead of registering a copy; any other is marked ``abandoned``,
with a description that says so. A pending version whose process still runs, or ran on another host, is left
alone.
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime

from mlflow import MlflowClient
from mlflow.entities.model_registry import ModelVersion
from mlflow.exceptions import MlflowException
from mlflow.tracking._tracking_service.utils import _use_tracking_uri
from mlflow.utils.mlflow_tags import MLFLOW_MODEL_VERSIONS

from tasks.tracking.orphan_runs import OWNER_HOST_TAG, OWNER_PID_TAG, ended_owner, owner_tags

__all__ = [
    "ABANDONED",
    "CLAIM_TAG",
    "OPPONENT_TAG",
    "PENDING",
    "STATE_TAG",
    "create_pending_version",
    "ensure_registered_model",
    "model_versions",
    "record_decision",
    "settle_pending_versions",
    "version_with_alias",
]

#: The version's state in its retrain's decision: ``pending``, ``champion``, ``challenger`` or ``abandoned``.
STATE_TAG = "cslearn.promotion"
#: The champion version a decided version was last compared with (empty: none).
OPPONENT_TAG = "cslearn.promotion.opponent"
#: ``champion`` on a version whose retrain, on a tracking server, is about to set the alias to it: the other
#: retrains deciding at the same time compare with it (``tasks.model_registry.promotion``).
CLAIM_TAG = "cslearn.promotion.claim"
PENDING = "pending"
ABANDONED = "abandoned"

#: Registry reads per page.
_PAGE = 1000

#: Guards the process-wide tracking URI while a version is created (see ``create_pending_version``).
_GLOBAL_TRACKING_URI = threading.Lock()


def ensure_registered_model(client: MlflowClient, name: str, description: str) -> None:
    """Create the registered model ``name`` unless it exists; one created meanwhile by another retrain is
    kept as it is."""
    try:
        client.create_registered_model(name, description=description)
    except MlflowException as error:
        if error.error_code != "RESOURCE_ALREADY_EXISTS":
            raise


def model_versions(client: MlflowClient, name: str) -> list[ModelVersion]:
    """Every version of the registered model ``name``, all pages read (aliases not filled in)."""
    versions, token = [], None
    while True:
        page = client.search_model_versions(f"name='{name}'", max_results=_PAGE, page_token=token)
        versions.extend(page)
        token = page.token
        if not token:
            return versions


def version_with_alias(client: MlflowClient, model_name: str, alias: str) -> ModelVersion | None:
    """The model version that carries ``alias``, or ``None`` (no such model or alias)."""
    try:
        return client.get_model_version_by_alias(model_name, alias)
    except MlflowException as error:
        if error.error_code in ("RESOURCE_DOES_NOT_EXIST", "NOT_FOUND", "INVALID_PARAMETER_VALUE"):
            return None
        raise


def create_pending_version(
    client: MlflowClient, name: str, *, model_id: str, run_id: str, method: str, tags: dict[str, str]
) -> ModelVersion:
    """Register the logged model ``models:/<model_id>`` (of run ``run_id``, a fit of ``method``) as a
    ``pending`` version of ``name`` owned by this process.

    A sqlite store resolves a ``models:/`` source through the process-wide tracking URI instead of the
    client's (an MLflow TODO in ``SqlAlchemyStore.create_model_version``), so it is pointed at the client's
    store for that call. A tracking server tags the logged model with its versions
    (``mlflow.modelVersions``); a direct store does not, so the tag is completed here.
    """
    owner = owner_tags()
    with _GLOBAL_TRACKING_URI:
        configured = os.environ.get("MLFLOW_TRACKING_URI")  # MLflow unsets it when restoring "no URI"
        try:
            with _use_tracking_uri(client.tracking_uri):
                version = client.create_model_version(
                    name,
                    source=f"models:/{model_id}",
                    run_id=run_id,
                    tags={**tags, **owner, STATE_TAG: PENDING},
                    model_id=model_id,
                    description=(
                        f"**{method}**: being registered by a retrain (process"
                        f" {owner[OWNER_PID_TAG]} on {owner[OWNER_HOST_TAG]}); its alias is being decided."
                    ),
                )
        finally:
            if configured is not None:
                os.environ["MLFLOW_TRACKING_URI"] = configured
    entry = {"name": name, "version": int(version.version)}  # as MLflow's server writes it
    listed = json.loads(client.get_logged_model(model_id).tags.get(MLFLOW_MODEL_VERSIONS) or "[]")
    if not any(
        str(item.get("version")) == str(entry["version"]) and item.get("name") == name for item in listed
    ):
        client.set_logged_model_tags(model_id, {MLFLOW_MODEL_VERSIONS: json.dumps([*listed, entry])})
    return version


def record_decision(
    client: MlflowClient, name: str, version: str, state: str, opponent: str | None, description: str
) -> None:
    """Write a decided version's state, the champion it was compared with and its description (once its
    alias, if any, is set)."""
    client.set_model_version_tag(name, version, OPPONENT_TAG, opponent or "")
    client.set_model_version_tag(name, version, STATE_TAG, state)
    client.update_model_version(name, version, description=description)


def _same_model(tags: dict[str, str], identity: dict[str, str], savings: float) -> bool:
    """The version holds the model a retrain is about to register: same method, data fingerprint, known
    code commit, holdout and holdout savings."""
    if not identity.get("git.commit"):
        return False
    same = all(tags.get(key) == value for key, value in identity.items())
    return same and tags.get("savings") == repr(float(savings))


def _abandoned_description(version: ModelVersion, pid: int, name: str) -> str:
    found = datetime.now(tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
    method = version.tags.get("cslearn.method", "?")
    return (
        f"**{method}**: **abandoned**. The retrain that registered v{version.version} (process {pid} on"
        f" {version.tags.get(OWNER_HOST_TAG, '?')}) ended before choosing its alias, so it was never compared"
        f" with the champion and holds no alias. Found by the next retrain of `{name}` on {found}; its model"
        f" stays available as `models:/{name}/{version.version}`, and a new retrain competes again."
    )


def settle_pending_versions(
    client: MlflowClient, name: str, identity: dict[str, str], savings: float, logger=None
) -> ModelVersion | None:
    """Settle the ``pending`` versions of ``name`` whose retrain ended (see the module docstring).

    Returns the pending version that holds the very model about to be registered (``identity`` and
    ``savings``, as :func:`create_pending_version` tagged it), whose decision the caller finishes, or
    ``None``.
    """
    aliases = client.get_registered_model(name).aliases
    holders = {str(number): alias for alias, number in aliases.items()}
    adopted = None
    for version in model_versions(client, name):
        if version.tags.get(STATE_TAG) != PENDING:
            continue
        pid = ended_owner(version.tags)
        if pid is None:  # its retrain is still deciding, or ran on another host
            continue
        number = str(version.version)
        if number in holders:  # the alias was set; only its record was lost
            note = (
                f"\n\nThe retrain that registered v{number} (process {pid}) ended after setting its alias"
                f" `{holders[number]}` and before recording its decision."
            )
            client.set_model_version_tag(name, number, STATE_TAG, holders[number])
            client.update_model_version(name, number, description=(version.description or "") + note)
        elif adopted is None and _same_model(version.tags, identity, savings):
            adopted = version
        else:
            client.set_model_version_tag(name, number, STATE_TAG, ABANDONED)
            client.update_model_version(name, number, description=_abandoned_description(version, pid, name))
            if logger is not None:
                logger.warning(
                    "%s v%s was left undecided by a retrain that ended (process %d); marked abandoned",
                    name,
                    number,
                    pid,
                )
    if adopted is not None:
        for key, value in owner_tags().items():  # this retrain finishes its decision
            client.set_model_version_tag(name, str(adopted.version), key, value)
        if logger is not None:
            logger.info(
                "%s v%s, left undecided by a retrain that ended, is this very model: its decision is finished"
                " instead of registering a copy",
                name,
                adopted.version,
            )
    return adopted
