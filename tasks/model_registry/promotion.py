"""The champion / challenger registry: one registered model per business dataset, aliases only.

:func:`register_and_promote` registers the best candidate from its logged model (source ``models:/m-<id>``,
so the version links to the logged model and the logged model lists the version) and moves the alias
``champion`` to it only when it beats the current champion re-scored on the SAME holdout by more than the
noise: the lower bound of a one-sided paired bootstrap interval of the savings difference exceeds the margin
asked for (:mod:`.significance`); otherwise the new version gets the alias ``challenger``. A model whose
holdout savings are not positive saves nothing over flagging every row or none: it never becomes a model's
first champion (nor replaces one that cannot be re-scored), and when it beats a champion that loses even
more on the same holdout it replaces it with a warning. A holdout with fewer than
:data:`MIN_HOLDOUT_POSITIVES` positive rows is named as too small to tell. A retrain
that would only repeat the champion (same method, data fingerprint, code commit, holdout and score)
registers nothing and says so. Every version carries a description with its holdout metrics and the
comparison against the champion. Registry aliases only, never stages.

Moving the alias is a compare-and-set, so that two retrains of one model at once never lose the better
version:

- on a local (sqlite) store the whole promotion holds the model's lock (``tasks.tracking.store_locks``): a
  second retrain waits, then reads the champion the first one left and compares against it;
- on a tracking server, where no lock spans machines, the alias is read again right before it is set (a
  champion that changed meanwhile is compared first), and again after a pause once it is set: a version that
  a retrain running at the same time registered and set as champion is compared too, the one registered
  first being the incumbent (:mod:`.holdout_judge`), so both retrains reach the same verdict and the loser
  gives the alias back.

Versions are created ``pending`` and get their state and description after their alias
(:mod:`.registry_versions`); versions left pending by a retrain that died are settled first.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass

from mlflow import MlflowClient
from mlflow.exceptions import MlflowException
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from algorithms.metrics import VIEWS
from tasks.model_registry.candidates import CandidateResult
from tasks.model_registry.holdout import RetrainData
from tasks.model_registry.holdout_judge import Contest, HoldoutJudge, beats
from tasks.model_registry.logged_models import cslearn_version
from tasks.model_registry.registry_versions import (
    CLAIM_TAG,
    OPPONENT_TAG,
    PENDING,
    STATE_TAG,
    create_pending_version,
    ensure_registered_model,
    model_versions,
    record_decision,
    settle_pending_versions,
    version_with_alias,
)
from tasks.model_registry.significance import SavingsComparison
from tasks.report.text import plain_number
from tasks.tracking.mlflow_runs import git_commit, tracking_client
from tasks.tracking.store_locks import store_lock

__all__ = [
    "CHALLENGER",
    "CHAMPION",
    "MIN_HOLDOUT_POSITIVES",
    "UNCHANGED",
    "RegistryDecision",
    "decide_alias",
    "decision_warnings",
    "holdout_warning",
    "register_and_promote",
    "register_and_promote_task",
    "version_description",
    "version_with_alias",
]

CHAMPION = "champion"
CHALLENGER = "challenger"
#: The outcome of a retrain that registered nothing because it would repeat the champion.
UNCHANGED = "unchanged"

#: Below this many positive rows a holdout's savings are too noisy to tell models apart: said, not refused.
MIN_HOLDOUT_POSITIVES = 30
#: Seconds a retrain waits for another one promoting the same model on a local store.
REGISTRY_LOCK_SECONDS = 900.0
#: Seconds between setting the alias on a tracking server and reading it again (longer than the time
#: between another retrain's last read of the alias and its write).
RECONCILE_PAUSE_SECONDS = 2.0
#: Reads of the alias after which a retrain on a tracking server keeps the decision it has.
MAX_ALIAS_ROUNDS = 10
#: Attempts at setting an alias that another retrain creates at the same moment.
_ALIAS_ATTEMPTS = 3
#: A pending version younger than this is a retrain still deciding, which a retrain that took the alias
#: waits for; an older one was left by a retrain that died (settled by the next retrain).
PENDING_RECENT_SECONDS = 600.0


@dataclass(frozen=True)
class RegistryDecision:
    """What :func:`register_and_promote` did: the new version (if any), its alias and the scores compared.

    ``outcome`` is ``"champion"``, ``"challenger"`` or ``"unchanged"`` (nothing registered: ``version`` and
    ``alias`` are ``None``); ``reason`` says why in one sentence. ``previous_champion_version`` and
    ``previous_champion_savings`` are the champion the version was finally compared with (the one a retrain
    running at the same time crowned, if it did so first). Against a scorable champion, ``margin`` is the
    savings difference (new minus champion), ``lower_bound`` its one-sided paired-bootstrap bound at
    ``confidence``, ``p_value`` the share of resamples without gain, ``bootstrap_resamples`` their number
    (all ``None`` without such a champion). ``warnings`` says why the decision deserves a second look: a
    holdout too small to tell, a champion that still loses money (:func:`decision_warnings`).
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
    warnings: tuple[str, ...] = ()

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
    """``"champion"`` when the candidate may take the champion's place, else ``"challenger"``.

    Savings (CSDT paper, Eq. 4) are compared on the same holdout. Without a scorable champion the candidate
    needs positive savings: one that saves nothing over flagging every row or none is never a first
    champion. Against a scored champion it wins, with the paired bootstrap ``comparison``, when its lower
    bound exceeds the margin (:mod:`.significance`); without one, when its savings are strictly higher. A
    tie keeps the incumbent; a NaN score never wins (:func:`.holdout_judge.beats`).
    """
    return CHAMPION if beats(candidate_savings, champion_savings, comparison) else CHALLENGER


def decision_warnings(savings: float, alias: str, data: RetrainData) -> tuple[str, ...]:
    """Why a decision deserves a second look: a holdout too small to tell (:func:`holdout_warning`), a new
    champion whose savings are not positive (it loses less than the champion it replaced, yet more than
    the cheaper of flagging every row or none)."""
    warnings = [] if (small := holdout_warning(data)) is None else [small]
    if alias == CHAMPION and not savings > 0:
        warnings.append(
            f"the new champion's holdout savings {plain_number(savings)} are not positive: it loses less"
            " money than the champion it replaces, yet more than the cheaper of flagging every row or none;"
            " look at the data (drift?) before trusting it"
        )
    return tuple(warnings)


def holdout_warning(data: RetrainData) -> str | None:
    """Why the holdout is too small to tell a good model from a lucky one, or ``None``."""
    positives = int(data.holdout_target.sum())
    if positives >= MIN_HOLDOUT_POSITIVES:
        return None
    return (
        f"the holdout has {positives} positive row{'s' * (positives != 1)} (fewer than"
        f" {MIN_HOLDOUT_POSITIVES}): its savings are too noisy to tell a good model from a lucky one; retrain"
        " with more rows (--max-rows) or a larger --holdout-fraction"
    )


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


def _not_positive(savings: float) -> str:
    return (
        f"its holdout savings {plain_number(savings)} are not positive: it saves nothing over the cheaper of"
        " flagging every row or none"
    )


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
    note: str = "",
) -> str:
    """A version's description (Markdown): holdout metrics, comparison against the champion (the savings
    difference with its paired-bootstrap bound and confidence), why it was not promoted, a holdout too
    small to tell, how the champion changed during the decision (``note``), provenance."""
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
    if alias != CHAMPION and champion_savings is None and not best.savings > 0:
        lines += [f"Not promoted: {_not_positive(best.savings)}.", ""]
    if champion is None:
        lines.append(
            "First champion of this model." if alias == CHAMPION else "The model has no champion yet."
        )
    elif champion_savings is None:
        verdict = f"v{version} replaces it" if alias == CHAMPION else "it stays champion"
        lines.append(
            f"Champion v{champion.version} could not be re-scored on this holdout ({champion_problem});"
            f" {verdict}."
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
    if note:
        lines += ["", note]
    for warning in decision_warnings(best.savings, alias, data):
        lines += ["", f"Warning: {warning}."]
    summary = data.summary()
    lines += [
        "",
        f"Data fingerprint `{data.fingerprint}`, code commit `{commit or 'unknown'}`, cslearn"
        f" {cslearn_version()}; holdout `{data.holdout_key}` ({summary['holdout_rows']:,} rows,"
        f" {summary['holdout_positives']:,} positive; trained on {summary['train_rows']:,}).",
        f"Serve: `cslearn serve {data.dataset} --model models:/{model_name}/{version}`.",
    ]
    return "\n".join(lines)


def _registered_model_description(dataset: str) -> str:
    return (
        f"Cost-sensitive classifier for `{dataset}`, retrained by cslearn (`cslearn retrain {dataset}`)."
        " Each version holds the estimator and the cost model fitted on its training rows: served, it"
        " derives each row's costs from the row (or takes the columns C_FP, C_FN, C_TP, C_TN) and returns"
        " the cost-minimising `decision`, `probability`, `expected_cost` and the costs used."
        f" Serve the champion: `cslearn serve {dataset}` (it serves `models:/<this model>@{CHAMPION}`)."
    )


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
    :func:`decide_alias` says it beats the champion's score (never with savings that are not positive), else
    ``challenger``; a new champion clears the ``challenger`` alias of a contender that lost to the champion
    just replaced. A champion that cannot be re-scored (the data's columns changed, a refused cloudpickle
    file) is replaced, with a warning. The alias moves as a compare-and-set (see the module docstring). With
    ``parent_run_id`` the outcome is also set as tags of that run (``cslearn.registry.*``). ``promotion``
    sets the paired bootstrap (``confidence``, ``min_margin``, ``resamples``, ``seed``; defaults of
    :func:`.significance.paired_savings_bootstrap`); the candidate's holdout decisions are those it carries
    (``CandidateResult.holdout_decisions``) or, without them, its savings are compared as they are.

    Raises
    ------
    tasks.tracking.store_locks.StoreLockTimeout
        When another retrain held the model's lock of a local store for longer than
        :data:`REGISTRY_LOCK_SECONDS`.
    """
    identity = _identity(best.method, data, commit)

    def say_waiting(path) -> None:
        if logger is not None:
            logger.info(
                "another retrain is promoting a version of %s; waiting for it (lock %s)", model_name, path
            )

    with store_lock(
        client.tracking_uri,
        f"registered-models/{model_name}",
        timeout=REGISTRY_LOCK_SECONDS,
        what=f"the promotion of {model_name}",
        on_wait=say_waiting,
    ) as locked:
        ensure_registered_model(client, model_name, _registered_model_description(data.dataset))
        adopted = settle_pending_versions(client, model_name, identity, best.savings, logger)
        judge = HoldoutJudge(client, data, best, allow_pickle=allow_pickle, promotion=promotion)
        decision = _promote(client, model_name, best, data, commit, identity, judge, adopted, locked, logger)
    for warning in decision.warnings if logger is not None else ():
        logger.warning("%s: %s", model_name, warning)
    if parent_run_id is not None:
        client.set_tag(parent_run_id, "cslearn.registry.outcome", decision.outcome)
        client.set_tag(parent_run_id, "cslearn.registry.version", decision.version or "")
        client.set_tag(parent_run_id, "cslearn.registry.reason", decision.reason)
    return decision


def _promote(
    client, model_name, best, data, commit, identity, judge, adopted, locked, logger
) -> RegistryDecision:
    champion = version_with_alias(client, model_name, CHAMPION)
    first = judge.score(champion) if champion is not None else None
    if first is not None and first.problem and logger is not None:
        logger.warning(
            "champion %s v%s cannot be re-scored on the holdout (%s)",
            model_name,
            champion.version,
            first.problem,
        )
    if (
        adopted is None
        and champion is not None
        and _repeats_champion(champion, identity, best.savings, first.savings)
    ):
        return RegistryDecision(
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
            previous_champion_version=str(champion.version),
            previous_champion_savings=first.savings,
            holdout_key=data.holdout_key,
        )
    tags = {
        **identity,
        "cslearn.dataset": data.dataset,
        "cslearn.version": cslearn_version(),
        "savings": repr(float(best.savings)),
        "champion_savings_at_registration": repr(first.savings if first is not None else None),
        "champion_version_at_registration": str(champion.version) if champion is not None else "",
        "cslearn.time_cutoff": "" if data.time_cutoff is None else repr(float(data.time_cutoff)),
        "cslearn.dataset_version": "" if data.dataset_version is None else str(data.dataset_version),
    }
    version = adopted or create_pending_version(
        client, model_name, model_id=best.model_id, run_id=best.run_id, method=best.method, tags=tags
    )
    mine = str(version.version)
    alias, decisive = _move_alias(client, model_name, mine, champion, best, judge, locked, logger)
    if alias == CHAMPION:
        _clear_beaten_challenger(client, model_name, mine)
    else:
        _set_alias(client, model_name, CHALLENGER, mine)
    opponent = decisive.opponent if decisive is not None else None
    note = _race_note(decisive, champion, mine, alias)
    comparison = decisive.comparison if decisive is not None else None
    description = version_description(
        best,
        data,
        model_name=model_name,
        version=mine,
        alias=alias,
        commit=commit,
        champion=opponent.version if opponent is not None else None,
        champion_savings=opponent.savings if opponent is not None else None,
        champion_problem=opponent.problem if opponent is not None else "",
        comparison=comparison,
        note=note,
    )
    record_decision(client, model_name, mine, alias, str(opponent.number) if opponent else None, description)
    return RegistryDecision(
        model_name=model_name,
        registered=True,
        outcome=alias,
        version=mine,
        alias=alias,
        reason=_reason(best, mine, alias, opponent, comparison, note),
        savings=float(best.savings),
        previous_champion_version=str(opponent.number) if opponent is not None else None,
        previous_champion_savings=opponent.savings if opponent is not None else None,
        holdout_key=data.holdout_key,
        warnings=decision_warnings(best.savings, alias, data),
        **_comparison_fields(comparison),
    )


def _number(version) -> int | None:
    return None if version is None else int(version.version)


def _set_alias(client, model_name: str, alias: str, version: str) -> None:
    """Point ``alias`` at ``version``. A tracking server creates a new alias by an insert that fails when
    another retrain created it at the same moment; the alias then exists, and setting it again updates it."""
    for attempt in range(_ALIAS_ATTEMPTS):
        try:
            client.set_registered_model_alias(model_name, alias, version)
            return
        except MlflowException:
            if attempt == _ALIAS_ATTEMPTS - 1 or version_with_alias(client, model_name, alias) is None:
                raise


def _others_in_flight(client, model_name: str, baseline: int, mine: int, skip: set[int]):
    """Versions registered after ``baseline`` by other retrains: those that claim ``champion`` (and are not
    in ``skip``), and how many are still being decided (``pending`` and recent)."""
    claims, undecided = [], 0
    recent = (time.time() - PENDING_RECENT_SECONDS) * 1000
    for version in model_versions(client, model_name):
        number = int(version.version)
        if number <= baseline or number == mine:
            continue
        state, claim = version.tags.get(STATE_TAG), version.tags.get(CLAIM_TAG)
        if claim == CHAMPION and state in (PENDING, CHAMPION):
            if number not in skip:
                claims.append(version)
        elif state == PENDING and (version.creation_timestamp or 0) >= recent:
            undecided += 1
    return claims, undecided


def _move_alias(
    client, model_name: str, mine: str, champion, best: CandidateResult, judge: HoldoutJudge, locked, logger
) -> tuple[str, Contest | None]:
    """Set ``champion`` to version ``mine`` when it wins every contest, as a compare-and-set.

    Returns the alias the version ends with and the contest that decided it: the one it lost, else the
    champion it replaced (``None`` without any). Each round reads the alias: a holder this version has not
    been compared with is contested first (a retrain running at the same time crowned it); a version this
    one beat, or none, is replaced. Under the model's lock one round decides. Without it, a version that
    took the alias pauses and reads again: it contests the versions other retrains claimed as champion
    meanwhile, hands the alias to one that beats it, and confirms only once no other retrain is still
    deciding.
    """
    number = int(mine)
    baseline = _number(champion) or 0
    contests: dict[int, Contest] = {}
    decisive: Contest | None = None
    took_alias = False
    for _ in range(MAX_ALIAS_ROUNDS):
        holder = version_with_alias(client, model_name, CHAMPION)
        rivals = [] if holder is None or _number(holder) in (number, *contests) else [holder]
        undecided = 0
        if took_alias and not locked:
            claims, undecided = _others_in_flight(
                client, model_name, baseline, number, {*contests, _number(holder) or 0}
            )
            rivals += claims
        for rival in rivals:
            contest = judge.contest(rival, number)
            contests[contest.opponent.number] = contest
            if rival is holder or decisive is None:
                decisive = contest
            if not contest.candidate_wins:
                if _number(holder) == number:  # hand the alias to the version that beats this one
                    _set_alias(client, model_name, CHAMPION, str(contest.opponent.number))
                return CHALLENGER, contest
        if holder is None and not best.savings > 0:  # no champion: nothing it loses less than
            return CHALLENGER, decisive
        if _number(holder) == number and (locked or not (rivals or undecided)):
            return CHAMPION, decisive
        if _number(holder) != number:
            if not locked:  # claimed before it is set, for the other retrains to see
                client.set_model_version_tag(model_name, mine, CLAIM_TAG, CHAMPION)
            _set_alias(client, model_name, CHAMPION, mine)
            took_alias = True
            if locked:
                return CHAMPION, decisive
        time.sleep(RECONCILE_PAUSE_SECONDS)
    if logger is not None:
        logger.warning("%s: the champion alias kept moving; v%s keeps the decision it has", model_name, mine)
    return (CHAMPION if took_alias else CHALLENGER), decisive


def _clear_beaten_challenger(client, model_name: str, mine: str) -> None:
    """Remove ``challenger`` from a version that lost to a champion other than ``mine`` (that champion is
    replaced); one that lost to ``mine`` itself keeps it."""
    challenger = version_with_alias(client, model_name, CHALLENGER)
    if challenger is not None and challenger.tags.get(OPPONENT_TAG) != mine:
        client.delete_registered_model_alias(model_name, CHALLENGER)


def _race_note(decisive: Contest | None, champion, mine: str, alias: str) -> str:
    """What happened to the alias while this version was decided, when another retrain moved it."""
    if decisive is None or _number(champion) == decisive.opponent.number:
        return ""
    other = decisive.opponent.number
    if not decisive.opponent_came_later:
        return (
            f"v{other} became champion while this retrain was deciding, set by another retrain of the model"
            f" running at the same time; v{mine} was compared with it."
        )
    if alias == CHAMPION:
        relation = f"does not beat it on this holdout; v{mine} keeps the alias"
    else:
        relation = "beats it on this holdout and holds the alias"
    return f"v{other}, registered after v{mine} by another retrain running at the same time, {relation}."


def _reason(best, mine: str, alias: str, opponent, comparison, note: str) -> str:
    """The decision in one sentence (the log, the parent run's tag, the command line)."""
    race = f"; {note.rstrip('.')}" if note else ""
    if opponent is None:
        if alias == CHAMPION:
            return f"v{mine} is the first champion"
        return f"v{mine} is not promoted: {_not_positive(best.savings)}; the model has no champion yet"
    if opponent.savings is None and alias == CHAMPION:
        return f"v{mine} replaces champion v{opponent.number}, which could not be re-scored{race}"
    if opponent.savings is None:
        return (
            f"v{mine} is not promoted: {_not_positive(best.savings)}; champion v{opponent.number}, which"
            f" could not be re-scored, stays{race}: {alias}"
        )
    relation = "beats" if alias == CHAMPION else "does not beat"
    noise = ""
    if comparison is not None:
        noise = (
            f" (difference {comparison.margin:+.4f}, {comparison.confidence:.0%} lower bound"
            f" {comparison.low:+.4f}: {'more' if comparison.beats else 'not more'} than the noise)"
        )
    return (
        f"v{mine} ({best.savings:.4f}) {relation} champion v{opponent.number}"
        f" ({opponent.savings:.4f}) on the same holdout{noise}{race}: {alias}"
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
