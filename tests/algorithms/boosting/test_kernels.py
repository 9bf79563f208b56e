"""The compiled per-round reductions (:mod:`algorithms.boosting._kernels`) against their numpy formulas."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from algorithms.boosting import _kernels


def round_arrays(seed, n=2_000, discrete=True):
    """Signed labels, a distribution, outputs (+-1 or real-valued in [-1, 1], some exact zeros), costs."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.2, 1.0, -1.0)
    weights = rng.exponential(size=n)
    weights /= weights.sum()
    output = np.where(rng.random(n) < 0.5, 1.0, -1.0) if discrete else rng.uniform(-1.0, 1.0, n)
    if not discrete:
        output[::97] = 0.0
    return y, weights, output, rng.uniform(0.1, 2.0, n)


def confusion_by_numpy(y, score, mass):
    positive, predicted = y > 0, score > 0
    cells = (positive & predicted, ~positive & predicted, ~positive & ~predicted, positive & ~predicted)
    return tuple(float(mass[cell].sum()) for cell in cells)


@pytest.mark.parametrize("discrete", [True, False], ids=["discrete", "real-valued"])
@pytest.mark.parametrize("seed", range(3))
def test_weighted_error_and_cost_sums_match_numpy(seed, discrete):
    y, weights, output, costs = round_arrays(seed, discrete=discrete)
    assert _kernels.weighted_error(weights, y, output) == pytest.approx(
        float(np.sum(weights * (1.0 - y * output) / 2.0)), rel=1e-12
    )
    signed = y * output
    expected = (
        np.sum(costs * weights),
        np.sum(costs * weights * signed),
        np.sum(costs**2 * weights * signed),
        np.sum((costs * weights)[signed < 0]),
    )
    assert_allclose(_kernels.cost_weighted_sums(weights, y, output, costs), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("discrete", [True, False], ids=["discrete", "real-valued"])
@pytest.mark.parametrize("seed", range(3))
def test_confusion_mass_matches_numpy_and_counts_a_zero_score_as_negative(seed, discrete):
    y, weights, output, _ = round_arrays(seed, discrete=discrete)
    assert_allclose(
        _kernels.confusion_mass(y, output, weights), confusion_by_numpy(y, output, weights), rtol=1e-12
    )
    ones = np.ones_like(y)
    counts = _kernels.confusion_mass(y, output, ones)
    assert counts == confusion_by_numpy(y, output, ones)  # integer counts: exact
    assert sum(counts) == y.size
    assert _kernels.confusion_mass(np.array([1.0, -1.0]), np.zeros(2), np.ones(2)) == (0.0, 0.0, 1.0, 1.0)


@pytest.mark.parametrize("seed", range(3))
def test_ensemble_confusion_adds_the_round_vote_and_stores_only_when_asked(seed):
    y, weights, output, _ = round_arrays(seed, discrete=False)
    rng = np.random.default_rng(seed + 10)
    cumulative = rng.normal(scale=0.5, size=y.size)
    positive_vote, negative_vote = 0.7, 0.3
    margin = cumulative + np.where(output >= 0, positive_vote, negative_vote) * output
    expected = confusion_by_numpy(y, margin, weights)

    untouched = cumulative.copy()
    counts = _kernels.ensemble_confusion(
        untouched, output, positive_vote, negative_vote, y, weights, False, 0.0
    )
    assert_allclose(counts, expected, rtol=1e-12)
    assert_array_equal(untouched, cumulative)

    stored = cumulative.copy()
    counts = _kernels.ensemble_confusion(stored, output, positive_vote, negative_vote, y, weights, True, 0.0)
    assert_allclose(counts, expected, rtol=1e-12)
    assert_array_equal(stored, margin)  # the same arithmetic as numpy, bit for bit


def test_class_sums_split_by_the_sign_of_y():
    y, weights, _, costs = round_arrays(4)
    assert_allclose(
        _kernels.class_sums(costs, y), (costs[y > 0].sum(), costs[y <= 0].sum()), rtol=1e-12, atol=0
    )
    assert _kernels.class_sums(np.array([2.0, 3.0, 5.0]), np.array([1.0, -1.0, 1.0])) == (7.0, 3.0)


def test_ensemble_confusion_counts_a_margin_within_the_tie_as_negative():
    """A margin at or below ``tie`` is a zero vote (negative); just above it, a positive prediction."""
    y = np.array([1.0, 1.0, -1.0])
    cumulative = np.array([-2.0, -2.0, -2.0])
    output = np.ones(3)
    mass = np.ones(3)
    residue = 4e-16  # what alpha_2 - alpha_1 leaves when two mirror-image rounds cancel
    assert _kernels.ensemble_confusion(cumulative, output, 2.0 + residue, 0.0, y, mass, False, 0.0) == (
        2.0,
        1.0,
        0.0,
        0.0,
    )
    assert _kernels.ensemble_confusion(cumulative, output, 2.0 + residue, 0.0, y, mass, False, 1e-9) == (
        0.0,
        0.0,
        1.0,
        2.0,
    )
