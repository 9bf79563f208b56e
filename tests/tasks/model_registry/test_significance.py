"""The paired bootstrap on the savings difference: values by hand, and its verdicts."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms.metrics import savings_score
from tasks.model_registry.significance import paired_savings_bootstrap, per_row_costs

COSTS = np.array([[1.0, 10.0, 1.0, 0.0]] * 4)


def test_per_row_costs_are_the_terms_of_the_cost_equation():
    target = np.array([1, 1, 0, 0])
    decisions = np.array([1, 0, 1, 0])
    np.testing.assert_array_equal(per_row_costs(target, decisions, COSTS), [1.0, 10.0, 1.0, 0.0])


def test_the_observed_margin_is_the_savings_difference_and_identical_models_never_win():
    rng = np.random.default_rng(0)
    target = (rng.random(400) < 0.2).astype(int)
    costs = np.column_stack([np.ones(400), rng.uniform(5, 50, 400), np.ones(400), np.zeros(400)])
    champion = np.where(rng.random(400) < 0.5, target, 0)
    challenger = np.where(rng.random(400) < 0.9, target, 0)
    result = paired_savings_bootstrap(target, champion, challenger, costs, resamples=500, seed=1)
    expected = savings_score(target, challenger, costs) - savings_score(target, champion, costs)
    assert result.margin == pytest.approx(expected, abs=1e-12)
    assert result.beats and result.low > 0 and result.p_value < 0.05
    assert "more than the noise" in result.sentence()

    same = paired_savings_bootstrap(target, champion, champion, costs, resamples=200)
    assert (same.margin, same.low, same.p_value, same.beats) == (0.0, 0.0, 1.0, False)


def test_a_gain_on_a_handful_of_rows_is_within_the_noise():
    rng = np.random.default_rng(3)
    target = (rng.random(300) < 0.05).astype(int)
    costs = np.column_stack([np.ones(300), rng.uniform(5, 50, 300), np.ones(300), np.zeros(300)])
    champion = target.copy()
    champion[np.flatnonzero(target)[:2]] = 0  # misses two frauds
    challenger = target.copy()
    challenger[np.flatnonzero(target)[:1]] = 0  # misses one
    result = paired_savings_bootstrap(target, champion, challenger, costs, resamples=1000, seed=0)
    assert result.margin > 0 and not result.beats  # better on one row: not better than the noise
    margin = paired_savings_bootstrap(target, champion, target, costs, min_margin=0.5, seed=0)
    assert not margin.beats and margin.min_margin == 0.5  # a margin asked for must be cleared too


def test_rows_that_cost_nothing_either_way_are_refused():
    free = np.zeros((3, 4))
    with pytest.raises(ValueError, match="savings are undefined"):
        paired_savings_bootstrap([0, 1, 0], [0, 0, 0], [0, 1, 0], free)
