"""Champion / challenger: the alias moves only when the champion is beaten on the same holdout."""

from __future__ import annotations

import uuid

import numpy as np
import pytest

from tasks.model_registry import (
    CHALLENGER,
    CHAMPION,
    decide_alias,
    load_model_version,
    register_and_promote,
    version_with_alias,
)


@pytest.mark.parametrize(
    ("candidate", "champion", "expected"),
    [
        (0.30, None, CHAMPION),  # first version of a model
        (0.30, 0.20, CHAMPION),  # strictly better
        (0.20, 0.20, CHALLENGER),  # a tie keeps the incumbent
        (0.10, 0.20, CHALLENGER),
        (-0.5, float("nan"), CHAMPION),  # the champion could not be scored
        (float("nan"), 0.20, CHALLENGER),
    ],
)
def test_decide_alias_moves_champion_only_on_strictly_higher_savings(candidate, champion, expected):
    assert decide_alias(candidate, champion) == expected


@pytest.mark.servers
def test_champion_moves_only_when_beaten_on_the_same_holdout(logged_candidates):
    data, client, _, _, results = logged_candidates
    good, bad = results["bmr-lr"], results["adaboost"]
    assert good.savings > bad.savings  # the fixture's premise: cost-aware BMR beats plain AdaBoost here
    name = f"cslearn-test-{uuid.uuid4().hex[:8]}"
    holdout = {
        "holdout_features": data.holdout_features,
        "holdout_target": data.holdout_target,
        "holdout_cost_matrix": data.holdout_costs,
        "holdout_key": data.holdout_key,
    }

    first = register_and_promote(client, name, bad.model_id, bad.run_id, savings=bad.savings, **holdout)
    assert (first.version, first.alias, first.previous_champion_version) == ("1", CHAMPION, None)

    second = register_and_promote(client, name, good.model_id, good.run_id, savings=good.savings, **holdout)
    assert (second.version, second.alias, second.previous_champion_version) == ("2", CHAMPION, "1")
    assert second.previous_champion_savings == pytest.approx(bad.savings)  # re-scored, not read back

    third = register_and_promote(client, name, bad.model_id, bad.run_id, savings=bad.savings, **holdout)
    assert (third.alias, third.previous_champion_version) == (CHALLENGER, "2")
    assert third.previous_champion_savings == pytest.approx(good.savings)

    tie = register_and_promote(client, name, good.model_id, good.run_id, savings=good.savings, **holdout)
    assert tie.alias == CHALLENGER  # equal savings do not dethrone the champion

    assert version_with_alias(client, name, CHAMPION).version in (2, "2")
    assert str(version_with_alias(client, name, CHALLENGER).version) == "4"
    registered = client.get_registered_model(name)
    assert {alias: str(version) for alias, version in registered.aliases.items()} == {
        CHAMPION: "2",
        CHALLENGER: "4",
    }
    assert all(
        version.current_stage in (None, "None") for version in client.search_model_versions(f"name='{name}'")
    )
    champion = client.get_model_version(name, "2")
    assert champion.tags["holdout_key"] == data.holdout_key
    assert float(champion.tags["savings"]) == pytest.approx(good.savings)

    # A new champion clears the stale challenger.
    better = register_and_promote(
        client, name, good.model_id, good.run_id, savings=good.savings + 1.0, **holdout
    )
    assert better.alias == CHAMPION
    assert version_with_alias(client, name, CHALLENGER) is None

    loaded = load_model_version(client, version_with_alias(client, name, CHAMPION))
    np.testing.assert_array_equal(
        loaded.predict(data.holdout_features),
        load_model_version(client, client.get_model_version(name, "2")).predict(data.holdout_features),
    )
