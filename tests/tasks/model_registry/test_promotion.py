"""Champion / challenger: the alias moves only when the champion is beaten on the same holdout; versions are
registered from their logged model, described, and not registered at all when they repeat the champion."""

from __future__ import annotations

import dataclasses
import json
import logging
import uuid

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from algorithms.metrics import savings_score
from tasks.model_registry import (
    CHALLENGER,
    CHAMPION,
    UNCHANGED,
    CandidateResult,
    UntrustedModelError,
    decide_alias,
    load_model_version,
    log_model,
    register_and_promote,
    version_with_alias,
)
from tasks.tracking.mlflow_runs import start_run


@pytest.mark.parametrize(
    ("candidate", "champion", "expected"),
    [
        (0.30, None, CHAMPION),  # first version of a model
        (0.30, 0.20, CHAMPION),  # strictly better
        (0.20, 0.20, CHALLENGER),  # a tie keeps the incumbent
        (0.10, 0.20, CHALLENGER),
        (0.10, float("nan"), CHAMPION),  # the champion could not be scored
        (float("nan"), 0.20, CHALLENGER),
        (-1.82, None, CHALLENGER),  # losing money is never promoted, even as the first champion
        (0.0, None, CHALLENGER),  # saving nothing neither
        (-0.5, float("nan"), CHALLENGER),  # nothing shows it saves anything
        (-0.1, -0.4, CHAMPION),  # loses less than a champion that loses more (with a warning)
    ],
)
def test_decide_alias_moves_champion_only_on_strictly_higher_positive_savings(candidate, champion, expected):
    assert decide_alias(candidate, champion) == expected


def _name() -> str:
    return f"cslearn-test-{uuid.uuid4().hex[:8]}"


@pytest.mark.servers
def test_champion_moves_only_when_beaten_on_the_same_holdout(logged_candidates):
    data, client, _, _, results = logged_candidates
    good, bad = results["bmr-lr"], results["cgada"]
    assert good.savings > bad.savings > 0  # the fixture's premise: BMR beats CGAda here, both save money
    name = _name()

    first = register_and_promote(client, name, bad, data)
    assert (first.version, first.alias, first.previous_champion_version) == ("1", CHAMPION, None)

    second = register_and_promote(client, name, good, data)
    assert (second.version, second.alias, second.previous_champion_version) == ("2", CHAMPION, "1")
    assert second.previous_champion_savings == pytest.approx(bad.savings)  # re-scored, not read back
    assert second.margin == pytest.approx(good.savings - bad.savings)  # the paired bootstrap's observed gain
    assert second.lower_bound > 0 and second.confidence == 0.95 and second.p_value < 0.05
    assert (
        "Better by more than the noise? savings difference" in client.get_model_version(name, "2").description
    )

    third = register_and_promote(client, name, bad, data)
    assert (third.alias, third.previous_champion_version) == (CHALLENGER, "2")
    assert third.previous_champion_savings == pytest.approx(good.savings)

    tie = register_and_promote(client, name, good, data)  # no known commit: not a repeat of the champion
    assert tie.alias == CHALLENGER and tie.registered  # equal savings do not dethrone the champion

    assert version_with_alias(client, name, CHAMPION).version in (2, "2")
    assert str(version_with_alias(client, name, CHALLENGER).version) == "4"
    registered = client.get_registered_model(name)
    assert {alias: str(version) for alias, version in registered.aliases.items()} == {
        CHAMPION: "2",
        CHALLENGER: "4",
    }
    assert "Serve the champion: `cslearn serve " in registered.description
    assert all(
        version.current_stage in (None, "None") for version in client.search_model_versions(f"name='{name}'")
    )
    champion = client.get_model_version(name, "2")
    assert champion.tags["holdout_key"] == data.holdout_key
    assert float(champion.tags["savings"]) == pytest.approx(good.savings)

    # A claim of higher savings with the champion's very decisions is no gain: the bootstrap sees none.
    same_decisions = dataclasses.replace(good, savings=good.savings + 1.0)
    claimed = register_and_promote(client, name, same_decisions, data)
    assert claimed.alias == CHALLENGER and claimed.margin == 0.0 and claimed.p_value == 1.0
    # Without decisions to resample the savings are compared as they are; a new champion clears the
    # stale challenger.
    better = register_and_promote(
        client, name, dataclasses.replace(good, savings=good.savings + 1.0, holdout_decisions=None), data
    )
    assert better.alias == CHAMPION and better.margin is None
    assert version_with_alias(client, name, CHALLENGER) is None

    loaded = load_model_version(client, version_with_alias(client, name, CHAMPION))
    np.testing.assert_array_equal(
        loaded.predict(data.holdout_features),
        load_model_version(client, client.get_model_version(name, "2")).predict(data.holdout_features),
    )


@pytest.mark.servers
def test_a_version_links_to_its_logged_model_and_describes_the_comparison(logged_candidates):
    data, client, _, _, results = logged_candidates
    good, bad = results["bmr-lr"], results["cgada"]
    name = _name()
    register_and_promote(client, name, good, data, commit="0123456789abcdef")
    decision = register_and_promote(client, name, bad, data, commit="0123456789abcdef")

    version = client.get_model_version(name, decision.version)
    assert version.source == f"models:/{bad.model_id}" and version.run_id == bad.run_id
    listed = json.loads(client.get_logged_model(bad.model_id).tags["mlflow.modelVersions"])
    assert {"name": name, "version": int(decision.version)} in listed  # the logged model's page lists it
    description = version.description
    assert f"**cgada** on `synthetic`: holdout savings **{bad.savings:.4f}**" in description
    assert f"| savings | {bad.savings:.4f} |" in description and "| auc |" in description
    difference = bad.savings - good.savings
    assert (
        f"Against champion v1 (bmr-lr), re-scored on the same holdout: savings {good.savings:.4f},"
        f" difference {difference:+.4f}; v2 does not beat it: challenger." in description
    )
    assert "code commit `0123456789abcdef`" in description and f"holdout `{data.holdout_key}`" in description
    assert (
        version.tags["git.commit"] == "0123456789abcdef"
        and version.tags["cslearn.fingerprint"] == "synthetic"
    )


@pytest.mark.servers
def test_a_retrain_that_repeats_the_champion_registers_nothing_and_says_so(logged_candidates):
    data, client, experiment_id, _, results = logged_candidates
    good = results["bmr-lr"]
    name = _name()
    register_and_promote(client, name, good, data, commit="c0ffee")
    parent = start_run(client, experiment_id, run_name="retrain again")
    again = register_and_promote(client, name, good, data, commit="c0ffee", parent_run_id=parent)
    assert (again.registered, again.outcome, again.version, again.alias) == (False, UNCHANGED, None, None)
    assert again.previous_champion_savings == pytest.approx(good.savings)
    assert again.reason == (
        f"nothing registered: bmr-lr (savings {good.savings:.4f}) repeats champion v1: same method, data"
        " fingerprint, code commit c0ffee, holdout and score"
    )
    assert [str(version.version) for version in client.search_model_versions(f"name='{name}'")] == ["1"]
    tags = client.get_run(parent).data.tags
    assert tags["cslearn.registry.outcome"] == UNCHANGED and tags["cslearn.registry.reason"] == again.reason
    # New code is a new model even when it scores the same: registered, and the tie keeps the champion.
    new_code = register_and_promote(client, name, good, data, commit="decade")
    assert (new_code.registered, new_code.version, new_code.alias) == (True, "2", CHALLENGER)


@pytest.mark.servers
def test_a_pickled_champion_is_not_unpickled_unless_the_caller_opts_in(logged_candidates, caplog):
    data, client, experiment_id, parent, results = logged_candidates
    run_id = start_run(client, experiment_id, run_name="pickled", parent_run_id=parent)
    pickled = LogisticRegression().fit(data.train_features, data.train_target)
    pickled.callback_ = lambda values: values  # skops cannot store it: cloudpickle, on opt-in only
    model_id = log_model(
        client,
        experiment_id,
        run_id,
        pickled,
        data.holdout_features.head(5),
        name="pickled",
        allow_pickle=True,
    )
    assert client.get_logged_model(model_id).tags["cslearn.serialization"] == "cloudpickle"
    name = _name()
    candidate = CandidateResult("logistic", run_id, model_id, 0.1, {"savings": 0.1}, 0.1)
    register_and_promote(client, name, candidate, data)
    champion = client.get_model_version(name, "1")
    with pytest.raises(UntrustedModelError, match="serialized with cloudpickle, which runs arbitrary code"):
        load_model_version(client, champion)
    assert isinstance(load_model_version(client, champion, allow_pickle=True), LogisticRegression)

    logger = logging.getLogger("test-promotion")
    with caplog.at_level(logging.WARNING, logger="test-promotion"):
        replaced = register_and_promote(client, name, results["cgada"], data, logger=logger)
    assert (replaced.alias, replaced.previous_champion_savings) == (CHAMPION, None)
    assert "cannot be re-scored" in caplog.text and "UntrustedModelError" in caplog.text
    description = client.get_model_version(name, replaced.version).description
    assert "Champion v1 could not be re-scored on this holdout (UntrustedModelError:" in description


@pytest.mark.servers
def test_a_model_that_loses_money_is_never_a_first_champion_and_says_why(logged_candidates):
    """Issue 25: with ``--max-rows 20`` a first version whose savings were -1.82 became champion unsaid."""
    data, client, _, _, results = logged_candidates
    losing, good = results["adaboost"], results["bmr-lr"]
    assert losing.savings < 0  # the fixture's premise: plain AdaBoost costs more than flagging no row
    name = _name()

    first = register_and_promote(client, name, losing, data)
    assert (first.registered, first.version, first.alias, first.previous_champion_version) == (
        True,
        "1",
        CHALLENGER,
        None,
    )
    assert first.reason == (
        f"v1 is not promoted: its holdout savings {losing.savings:.4f} are not positive: it saves nothing"
        " over the cheaper of flagging every row or none; the model has no champion yet"
    )
    assert version_with_alias(client, name, CHAMPION) is None
    description = client.get_model_version(name, "1").description
    assert "registered as `challenger`." in description
    assert (
        f"Not promoted: its holdout savings {losing.savings:.4f} are not positive: it saves nothing over the"
        " cheaper of flagging every row or none." in description
    )
    assert "The model has no champion yet." in description and "First champion" not in description
    assert client.get_model_version(name, "1").tags["cslearn.promotion"] == CHALLENGER

    second = register_and_promote(client, name, good, data)
    assert (second.alias, second.reason) == (CHAMPION, "v2 is the first champion")
    third = register_and_promote(client, name, losing, data)
    assert third.alias == CHALLENGER and third.previous_champion_version == "2"
    expected = f"v3 ({losing.savings:.4f}) does not beat champion v2 ({good.savings:.4f}) on the same holdout"
    assert third.reason.startswith(expected)
    assert str(version_with_alias(client, name, CHAMPION).version) == "2"


@pytest.mark.servers
def test_a_model_that_loses_less_than_a_money_losing_champion_replaces_it_with_a_warning(logged_candidates):
    """Keeping a champion that loses more money would serve the worse model: the loop under drift (the
    replay) depends on replacing it. The champion here is a money-losing version given the alias by hand."""
    data, client, _, _, results = logged_candidates
    losing, good = results["adaboost"], results["bmr-lr"]
    name = _name()
    register_and_promote(client, name, losing, data)
    client.set_registered_model_alias(name, CHAMPION, "1")  # say, a champion the data drifted away from
    half = len(data.holdout_target) // 2  # half of bmr-lr's decisions: loses money, less than AdaBoost
    decisions = np.concatenate([good.holdout_decisions[:half], losing.holdout_decisions[half:]])
    savings = float(savings_score(data.holdout_target, decisions, data.holdout_costs))
    assert losing.savings < savings < 0
    decision = register_and_promote(
        client, name, dataclasses.replace(good, savings=savings, holdout_decisions=decisions), data
    )
    assert (decision.alias, decision.previous_champion_version) == (CHAMPION, "1")
    warning = (
        f"the new champion's holdout savings {savings:.4f} are not positive: it loses less money than the"
        " champion it replaces, yet more than the cheaper of flagging every row or none; look at the data"
        " (drift?) before trusting it"
    )
    assert decision.warnings == (warning,)
    assert f"Warning: {warning}." in client.get_model_version(name, "2").description


@pytest.mark.servers
def test_a_holdout_with_few_positives_is_named_as_too_small_to_tell(logged_candidates):
    data, client, _, _, results = logged_candidates
    rows = (
        np.flatnonzero(data.holdout_target == 0)[:50].tolist()
        + np.flatnonzero(data.holdout_target)[:8].tolist()
    )
    small = dataclasses.replace(
        data,
        holdout_features=data.holdout_features.iloc[rows],
        holdout_target=data.holdout_target[rows],
        holdout_costs=data.holdout_costs[rows],
    )
    best = results["bmr-lr"]
    decisions = best.holdout_decisions[rows]
    savings = float(savings_score(small.holdout_target, decisions, small.holdout_costs))
    candidate = dataclasses.replace(best, savings=savings, holdout_decisions=decisions)
    assert savings > 0
    name = _name()
    decision = register_and_promote(client, name, candidate, small)
    warning = (
        "the holdout has 8 positive rows (fewer than 30): its savings are too noisy to tell a good model from"
        " a lucky one; retrain with more rows (--max-rows) or a larger --holdout-fraction"
    )
    assert decision.alias == CHAMPION and decision.warnings == (warning,)  # said, not refused
    assert f"Warning: {warning}." in client.get_model_version(name, "1").description
    assert register_and_promote(client, _name(), best, data).warnings == ()  # 56 positives
