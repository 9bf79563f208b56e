"""The champion / challenger registry: one registered model per business dataset, aliases only.

:func:`register_and_promote` registers the best candidate from its logged model (source ``models:/m-<id>``,
so the version links to the logged model and the logged model lists the version) and moves the alias
``champion`` to it only when it beats the current champion re-scored on the SAME holdout by more than the
noise: the lower bound of a one-sided paired bootstrap interval of the savings difference exceeds the margin
asked for (:mod:`.significance`); otherwise the new version gets the alias ``challenger``. A retrain that
would only repeat the champion (same method,
data fingerprint, code commit, holdout and score) registers nothing and says so. Every version carries a
description with its holdout metrics and the comparison against the champion. Registry aliases only, never
stages.
"""

from __future__ import annotations

import json
import math
import os
import threading
from dataclasses import asdict, dataclass

from mlflow import MlflowClient
from mlflow.exceptions import MlflowException
from mlflow.tracking._tracking_service.utils import _use_tracking_uri
from mlflow.utils.mlflow_tags import MLFLOW_MODEL_VERSIONS
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from algorithms.metrics import VIEWS, savings_score
from tasks.datasets.encoding import align_features
from tasks.fitting.evaluate import predict_labels
from tasks.model_registry.candidates import CandidateResult
from tasks.model_registry.holdout import RetrainData
from tasks.model_registry.logged_models import cslearn_version, load_model_version
from tasks.model_registry.significance import SavingsComparison, paired_savings_bootstrap
from tasks.report.text import plain_number
from tasks.tracking.mlflow_runs import git_commit, tracking_client

__all__ = [
    "CHALLENGER",
    "CHAMPION",
    "UNCHANGED",
    "RegistryDecision",
    "decide_alias",
    "register_and_promote",
    "register_and_promote_task",
    "version_description",
    "version_with_alias",
]

CHAMPION = "champion"
CHALLENGER = "challenger"
#: The outcome of a retrain that registered nothing because it would repeat the champion.
UNCHANGED = "unchanged"

#: Guards the process-wide tracking URI while a version is created (see ``_create_version``).
_GLOBAL_TRACKING_URI = threading.Lock()


@dataclass(frozen=True)
class RegistryDecision:
    """What :func:`register_and_promote` did: the new version (if any), its alias and the scores compared.

    ``outcome`` is ``"champion"``, ``"challenger"`` or ``"unchanged"`` (nothing registered: ``version`` and
    ``alias`` are ``None``); ``reason`` says why in one sentence. Against a scorable champion, ``margin`` is
    the savings difference (new minus champion), ``lower_bound`` its one-sided paired-bootstrap bound at
    ``confidence``, ``p_value`` the share of resamples without gain, ``bootstrap_resamples`` their number
    (all ``None`` without such a champion).
    """

    model_name: str
    registered: bool
    outcome: str
    version: str | None
    alias: str | None
    reason: str
    savings: float
    previous_champion_version: str | None
    previous_champion_savings: float | None
    holdout_key: str
    margin: float | None = None
    lower_bound: float | None = None
    confidence: float | None = None
    p_value: float | None = None
    bootstrap_resamples: int | None = None
    min_margin: float | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def _comparison_fields(comparison: SavingsComparison | None) -> dict:
    if comparison is None:
        return {}
    return {
        "margin": comparison.margin,
        "lower_bound": comparison.low,
        "confidence": comparison.confidence,
        "p_value": comparison.p_value,
        "bootstrap_resamples": comparison.resamples,
        "min_margin": comparison.min_margin,
    }


def decide_alias(
    candidate_savings: float, champion_savings: float | None, comparison: SavingsComparison | None = None
) -> str:
    """``"champion"`` when there is no scorable champion, or the candidate beats it by more than the noise.

    Savings (CSDT paper, Eq. 4) are compared on the same holdout. With the paired bootstrap ``comparison``
    the candidate wins when its lower bound exceeds the margin (:mod:`.significance`); without one, when its
    savings are strictly higher. A tie keeps the incumbent, so the new version becomes the
    ``"challenger"``. A NaN candidate score never wins.
    """
    if math.isnan(candidate_savings):
        return CHALLENGER if champion_savings is not None else CHAMPION
    if champion_savings is None or math.isnan(champion_savings):
        return CHAMPION
    if comparison is not None:
        return CHAMPION if comparison.beats else CHALLENGER
    return CHAMPION if candidate_savings > champion_savings else CHALLENGER


def version_with_alias(client: MlflowClient, model_name: str, alias: str):
    """The model version that carries ``alias``, or ``None`` (no such model or alias)."""
    try:
        return client.get_model_version_by_alias(model_name, alias)
    except MlflowException as error:
        if error.error_code in ("RESOURCE_DOES_NOT_EXIST", "NOT_FOUND", "INVALID_PARAMETER_VALUE"):
            return None
        raise


def _champion_decisions(client: MlflowClient, version, data: RetrainData, allow_pickle: bool):
    """The champion's decisions on the holdout, its rows fitted to the champion's columns (a level it never
    saw sets none of its columns)."""
    model = load_model_version(client, version, allow_pickle=allow_pickle)
    features = align_features(
        data.holdout_features, getattr(model, "feature_names_in_", data.holdout_features.columns)
    )
    return predict_labels(model, features, data.holdout_costs)


def _identity(method: str, data: RetrainData, commit: str | None) -> dict[str, str]:
    """What makes two registered versions the same model: method, data, code and holdout (version tags)."""
    return {
        "cslearn.method": method,
        "cslearn.fingerprint": data.fingerprint,
        "git.commit": commit or "",
        "holdout_key": data.holdout_key,
    }


def _repeats_champion(champion, identity: dict[str, str], savings: float, champion_savings) -> bool:
    """Same method, data fingerprint, known code commit and holdout as the champion, and the same score."""
    if champion_savings is None or not identity["git.commit"]:
        return False
    same_model = all(champion.tags.get(key) == value for key, value in identity.items())
    return same_model and math.isclose(savings, champion_savings, rel_tol=1e-12, abs_tol=1e-12)


def version_description(
    best: CandidateResult,
    data: RetrainData,
    *,
    model_name: str,
    version: str,
    alias: str,
    commit: str | None,
    champion=None,
    champion_savings: float | None = None,
    champion_problem: str = "",
    comparison: SavingsComparison | None = None,
) -> str:
    """A version's description (Markdown): holdout metrics, comparison against the champion (the savings
    difference with its paired-bootstrap bound and confidence), provenance."""
    lines = [
        f"**{best.method}** on `{data.dataset}`: holdout savings **{plain_number(best.savings)}**,"
        f" registered as `{alias}`.",
        "",
        "| holdout metric | value |",
        "|---|---|",
        *(f"| {name} | {plain_number(best.metrics.get(name))} |" for name in VIEWS["version"]),
        f"| fit seconds | {plain_number(best.fit_seconds)} |",
        "",
    ]
    if champion is None:
        lines.append("First champion of this model.")
    elif champion_savings is None:
        lines.append(
            f"Champion v{champion.version} could not be re-scored on this holdout ({champion_problem});"
            f" v{version} replaces it."
        )
    else:
        difference = best.savings - champion_savings
        verdict = "beats it: new champion" if alias == CHAMPION else "does not beat it: challenger"
        lines.append(
            f"Against champion v{champion.version} ({champion.tags.get('cslearn.method', '?')}), re-scored on"
            f" the same holdout: savings {plain_number(champion_savings)}, difference {difference:+.4f};"
            f" v{version} {verdict}."
        )
        if comparison is not None:
            lines += ["", f"Better by more than the noise? {comparison.sentence()}."]
    summary = data.summary()
    lines += [
        "",
        f"Data fingerprint `{data.fingerprint}`, code commit `{commit or 'unknown'}`, cslearn"
        f" {cslearn_version()}; holdout `{data.holdout_key}` ({summary['holdout_rows']:,} rows,"
        f" {summary['holdout_positives']:,} positive; trained on {summary['train_rows']:,}).",
        f"Serve: `mlflow models serve -m models:/{model_name}/{version} --env-manager local`.",
    ]
    return "\n".join(lines)


def _registered_model_description(dataset: str) -> str:
    return (
        f"Cost-sensitive classifier for `{dataset}`, retrained by cslearn (`cslearn retrain {dataset}`)."
        " Each version holds the estimator and the cost model fitted on its training rows: served, it"
        " derives each row's costs from the row (or takes the columns C_FP, C_FN, C_TP, C_TN) and returns"
        " the cost-minimising `decision`, `probability`, `expected_cost` and the costs used."
        f" Serve the champion: `mlflow models serve -m models:/<this model>@{CHAMPION} --env-manager local`."
    )


def _create_version(client: MlflowClient, model_name: str, best: CandidateResult, tags):
    """Register ``models:/<model id>`` with the version linked to the logged model and back.

    A sqlite store resolves a ``models:/`` source through the process-wide tracking URI instead of the
    client's (an MLflow TODO in ``SqlAlchemyStore.create_model_version``), so it is pointed at the client's
    store for that call. A tracking server tags the logged model with its versions
    (``mlflow.modelVersions``); a direct store does not, so the tag is completed here.
    """
    with _GLOBAL_TRACKING_URI:
        configured = os.environ.get("MLFLOW_TRACKING_URI")  # MLflow unsets it when restoring "no URI"
        try:
            with _use_tracking_uri(client.tracking_uri):
                version = client.create_model_version(
                    model_name,
                    source=f"models:/{best.model_id}",
                    run_id=best.run_id,
                    tags=tags,
                    model_id=best.model_id,
                )
        finally:
            if configured is not None:
                os.environ["MLFLOW_TRACKING_URI"] = configured
    entry = {"name": model_name, "version": int(version.version)}  # as MLflow's server writes it
    listed = json.loads(client.get_logged_model(best.model_id).tags.get(MLFLOW_MODEL_VERSIONS) or "[]")
    if not any(
        str(item.get("version")) == str(entry["version"]) and item.get("name") == model_name
        for item in listed
    ):
        client.set_logged_model_tags(best.model_id, {MLFLOW_MODEL_VERSIONS: json.dumps([*listed, entry])})
    return version


def register_and_promote(
    client: MlflowClient,
    model_name: str,
    best: CandidateResult,
    data: RetrainData,
    *,
    commit: str | None = None,
    parent_run_id: str | None = None,
    allow_pickle: bool = False,
    logger=None,
    promotion: dict | None = None,
) -> RegistryDecision:
    """Register the best candidate as a new version of ``model_name`` and set its alias, unless it repeats
    the champion.

    The current champion (if any) is loaded (skops allow-list; a cloudpickle champion only with
    ``allow_pickle``) and re-scored by savings on ``data``'s holdout. When the candidate has the champion's
    method, data fingerprint, code commit (``commit``, known) and holdout, and the same score, nothing is
    registered (outcome ``"unchanged"``). Otherwise the new version takes ``champion`` only when
    :func:`decide_alias` says it beats the champion's score, else ``challenger``; a new champion clears the
    ``challenger`` alias (that contender lost to the champion just replaced). A champion that cannot be
    re-scored (the data's columns changed, a refused cloudpickle file) is replaced, with a warning. With
    ``parent_run_id`` the outcome is also set as tags of that run (``cslearn.registry.*``). ``promotion``
    sets the paired bootstrap (``confidence``, ``min_margin``, ``resamples``, ``seed``; defaults of
    :func:`.significance.paired_savings_bootstrap`); the candidate's holdout decisions are those it carries
    (``CandidateResult.holdout_decisions``) or, without them, its savings are compared as they are.
    """
    champion = version_with_alias(client, model_name, CHAMPION)
    champion_savings, champion_problem, comparison = None, "", None
    if champion is not None:
        try:
            decisions = _champion_decisions(client, champion, data, allow_pickle)
            champion_savings = float(savings_score(data.holdout_target, decisions, data.holdout_costs))
            if best.holdout_decisions is not None and not math.isnan(best.savings):
                comparison = paired_savings_bootstrap(
                    data.holdout_target,
                    decisions,
                    best.holdout_decisions,
                    data.holdout_costs,
                    **(promotion or {}),
                )
        except Exception as error:  # an incompatible champion cannot block a retrain
            champion_problem = f"{type(error).__name__}: {error}"
            if logger is not None:
                logger.warning(
                    "champion %s v%s cannot be re-scored on the holdout (%s); replacing it",
                    model_name,
                    champion.version,
                    champion_problem,
                )
    identity = _identity(best.method, data, commit)
    previous_version = str(champion.version) if champion is not None else None
    if champion is not None and _repeats_champion(champion, identity, best.savings, champion_savings):
        decision = RegistryDecision(
            model_name=model_name,
            registered=False,
            outcome=UNCHANGED,
            version=None,
            alias=None,
            reason=(
                f"nothing registered: {best.method} (savings {best.savings:.4f}) repeats champion"
                f" v{champion.version}: same method, data fingerprint, code commit {commit[:12]}, holdout and"
                " score"
            ),
            savings=float(best.savings),
            previous_champion_version=previous_version,
            previous_champion_savings=champion_savings,
            holdout_key=data.holdout_key,
        )
    else:
        decision = _register(
            client,
            model_name,
            best,
            data,
            commit,
            identity,
            champion,
            champion_savings,
            champion_problem,
            comparison,
        )
    if parent_run_id is not None:
        client.set_tag(parent_run_id, "cslearn.registry.outcome", decision.outcome)
        client.set_tag(parent_run_id, "cslearn.registry.version", decision.version or "")
        client.set_tag(parent_run_id, "cslearn.registry.reason", decision.reason)
    return decision


def _register(
    client, model_name, best, data, commit, identity, champion, champion_savings, champion_problem, comparison
) -> RegistryDecision:
    alias = decide_alias(best.savings, champion_savings, comparison)
    try:
        client.get_registered_model(model_name)
    except MlflowException:
        client.create_registered_model(model_name, description=_registered_model_description(data.dataset))
    tags = {
        **identity,
        "cslearn.dataset": data.dataset,
        "cslearn.version": cslearn_version(),
        "savings": repr(float(best.savings)),
        "champion_savings_at_registration": repr(champion_savings),
        "champion_version_at_registration": str(champion.version) if champion is not None else "",
        "cslearn.time_cutoff": "" if data.time_cutoff is None else repr(float(data.time_cutoff)),
        "cslearn.dataset_version": "" if data.dataset_version is None else str(data.dataset_version),
    }
    version = _create_version(client, model_name, best, tags)
    description = version_description(
        best,
        data,
        model_name=model_name,
        version=str(version.version),
        alias=alias,
        commit=commit,
        champion=champion,
        champion_savings=champion_savings,
        champion_problem=champion_problem,
        comparison=comparison,
    )
    client.update_model_version(model_name, version.version, description=description)
    client.set_registered_model_alias(model_name, alias, version.version)
    if alias == CHAMPION and version_with_alias(client, model_name, CHALLENGER) is not None:
        client.delete_registered_model_alias(model_name, CHALLENGER)
    if champion is None:
        reason = f"v{version.version} is the first champion"
    elif champion_savings is None:
        reason = f"v{version.version} replaces champion v{champion.version}, which could not be re-scored"
    else:
        relation = "beats" if alias == CHAMPION else "does not beat"
        noise = ""
        if comparison is not None:
            noise = (
                f" (difference {comparison.margin:+.4f}, {comparison.confidence:.0%} lower bound"
                f" {comparison.low:+.4f}: {'more' if comparison.beats else 'not more'} than the noise)"
            )
        reason = (
            f"v{version.version} ({best.savings:.4f}) {relation} champion v{champion.version}"
            f" ({champion_savings:.4f}) on the same holdout{noise}: {alias}"
        )
    return RegistryDecision(
        model_name=model_name,
        registered=True,
        outcome=alias,
        version=str(version.version),
        alias=alias,
        reason=reason,
        savings=float(best.savings),
        previous_champion_version=str(champion.version) if champion is not None else None,
        previous_champion_savings=champion_savings,
        holdout_key=data.holdout_key,
        **_comparison_fields(comparison),
    )


@task(name="register_and_promote", cache_policy=NO_CACHE)
def register_and_promote_task(
    tracking_uri: str,
    model_name: str,
    best: CandidateResult,
    data: RetrainData,
    parent_run_id: str,
    promotion: dict | None = None,
) -> dict:
    """Register the best candidate (unless it repeats the champion); move ``champion`` only if it wins."""
    logger = get_run_logger()
    decision = register_and_promote(
        tracking_client(tracking_uri),
        model_name,
        best,
        data,
        commit=git_commit(),
        parent_run_id=parent_run_id,
        logger=logger,
        promotion=promotion,
    )
    logger.info("%s: %s", model_name, decision.reason)
    return decision.as_dict()


@task(name="champion_fingerprint", cache_policy=NO_CACHE)
def champion_fingerprint_task(tracking_uri: str | None, model_name: str) -> str | None:
    """The data fingerprint the champion of ``model_name`` was trained on (``None``: no champion), so that a
    refresh that leaves the data as the champion saw it retrains nothing."""
    champion = version_with_alias(tracking_client(tracking_uri), model_name, CHAMPION)
    return None if champion is None else champion.tags.get("cslearn.fingerprint")
