"""What a retrain answers, on its MLflow parent run: did the champion change, and by how much.

:func:`log_retrain_answer` turns the registry decision (``tasks.model_registry.promotion``) into

- metrics of the parent run, so that MLflow's charts and run comparison show a scheduled series of retrains
  on one chart: ``best/savings`` (the best candidate's holdout savings), ``champion/savings`` (the champion
  it competed against, re-scored on the same holdout; absent when there was none, or it could not be
  re-scored), ``best/margin`` (the decision's margin, else ``best/savings - champion/savings``) and
  ``registry/promoted`` (1 when the best became champion, else 0);
- tags: ``cslearn.registry.champion`` (the champion it competed against, ``v1 bmr-lr``) and
  ``cslearn.registry.verdict``, the decision in one line (:func:`registry_verdict`), which the report's header
  and the command line show first (``cslearn.registry.outcome`` is set by the promotion itself).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from mlflow import MlflowClient
from mlflow.exceptions import MlflowException
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from algorithms.metrics import METRICS
from tasks.model_registry.promotion import CHAMPION, UNCHANGED
from tasks.tracking.mlflow_runs import ParentRun, log_metrics, tracking_client

__all__ = ["champion_label", "log_retrain_answer", "log_retrain_answer_task", "registry_verdict"]


def _savings(value: float) -> str:
    return format(value, METRICS["savings"].format)


def champion_label(client: MlflowClient, model_name: str, version: str | None) -> str | None:
    """``v<version> <method>`` of a registered version (its ``cslearn.method`` tag), ``None`` without one."""
    if version is None:
        return None
    try:
        method = client.get_model_version(model_name, version).tags.get("cslearn.method")
    except MlflowException:
        method = None
    return f"v{version} {method}" if method else f"v{version}"


def _margin(decision: Mapping) -> float | None:
    """The decision's own margin when it has one, else best minus champion savings (``None`` without a
    scored champion)."""
    margin = decision.get("margin")
    if margin is not None and math.isfinite(float(margin)):
        return float(margin)
    champion = decision.get("previous_champion_savings")
    if champion is None or not math.isfinite(champion):
        return None
    return float(decision["savings"]) - float(champion)


def registry_verdict(decision: Mapping, best_method: str, champion: str | None) -> str:
    """The registry decision in one line, verdict first.

    ``decision`` is ``RegistryDecision.as_dict()``; ``champion`` the :func:`champion_label` of the champion
    the best candidate competed against. For example ``champion kept: v1 bmr-lr 0.676; best new cgada 0.649
    (-0.028), registered as challenger v3``, ``new champion: v3 cgada 0.701 (+0.025 over v2 bmr-lr 0.676)``,
    ``unchanged: the data and code are those of the champion v1 bmr-lr 0.676``, ``not promoted: best new
    csdt -1.821 saves nothing on the holdout (savings not positive), registered as challenger v1;
    cslearn-direct-marketing has no champion yet``.
    """
    best = f"{best_method} {_savings(decision['savings'])}"
    previous = decision.get("previous_champion_savings")
    held = f"{champion} {_savings(previous)}" if champion and previous is not None else champion
    margin = _margin(decision)
    if decision["outcome"] == UNCHANGED:
        return f"unchanged: the data and code are those of the champion {held}; nothing registered"
    if decision["outcome"] == CHAMPION:
        if champion is None:
            return f"new champion: v{decision['version']} {best}, the first of {decision['model_name']}"
        if margin is None:
            return (
                f"new champion: v{decision['version']} {best}; champion {champion} could not be re-scored on "
                "this holdout"
            )
        return f"new champion: v{decision['version']} {best} ({margin:+.3f} over {held})"
    change = f" ({margin:+.3f})" if margin is not None else ""
    challenger = f"registered as challenger v{decision['version']}"
    if not decision["savings"] > 0:  # never promoted, whatever the champion
        if champion is None:
            return (
                f"not promoted: best new {best} saves nothing on the holdout (savings not positive),"
                f" {challenger}; {decision['model_name']} has no champion yet"
            )
        return f"champion kept: {held}; best new {best}{change} saves nothing on the holdout, {challenger}"
    return f"champion kept: {held}; best new {best}{change}, {challenger}"


def log_retrain_answer(tracking_uri: str, run_id: str, decision: Mapping, best_method: str) -> str:
    """Log the answer of a retrain on its parent run ``run_id`` (see the module docstring); returns the
    verdict."""
    client = tracking_client(tracking_uri)
    champion = champion_label(client, decision["model_name"], decision.get("previous_champion_version"))
    metrics = {
        "best/savings": decision["savings"],
        "registry/promoted": float(decision["outcome"] == CHAMPION),
    }
    previous = decision.get("previous_champion_savings")
    if previous is not None and math.isfinite(previous):
        metrics["champion/savings"] = previous
    margin = _margin(decision)
    if margin is not None:
        metrics["best/margin"] = margin
    log_metrics(client, run_id, metrics)
    verdict = registry_verdict(decision, best_method, champion)
    client.set_tag(run_id, "cslearn.registry.verdict", verdict)
    if champion is not None:
        client.set_tag(run_id, "cslearn.registry.champion", champion)
    return verdict


@task(name="log_retrain_answer", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=2)
def log_retrain_answer_task(run: ParentRun, decision: Mapping, best_method: str) -> str:
    """Log best and champion savings, the margin and the verdict on the retrain's parent run."""
    verdict = log_retrain_answer(run.tracking_uri, run.run_id, decision, best_method)
    get_run_logger().info("Registry: %s.", verdict)
    return verdict
