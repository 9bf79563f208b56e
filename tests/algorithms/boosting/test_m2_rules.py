"""The pure rules of binary AdaBoost.M2 and of the synthetic minority sets (WOTBoost paper, Algorithms 1-2).

Expected values are worked out here from the paper's formulas in plain Python (pseudo-loss in its
``1/2 (1 - h(x_i, y_i) + h(x_i, ybar_i))`` form, the standard Freund-Schapire exponent), and the neighbour
search is checked against a brute-force distance matrix.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms.boosting import _m2_rules
from algorithms.boosting._kernels import weighted_error

# four samples: two positives, two negatives; the learner's p(+|x) for each
WEIGHTS = [0.1, 0.2, 0.3, 0.4]
SIGNED = [1.0, -1.0, 1.0, -1.0]
P_POSITIVE = [0.9, 0.3, 0.4, 0.1]
# h(x_i, y_i) = p(y_i | x_i), h(x_i, ybar_i) = 1 - h(x_i, y_i)
H_TRUE = [0.9, 0.7, 0.4, 0.9]
H_WRONG = [0.1, 0.3, 0.6, 0.1]


def _arrays():
    output = np.array([2.0 * p - 1.0 for p in P_POSITIVE])
    return np.array(WEIGHTS), np.array(SIGNED), output


def test_pseudo_loss_beta_vote_and_update_by_hand():
    weights, y, output = _arrays()
    # Algorithm 1, line 5: 1/2 sum D (1 - h(x, y) + h(x, ybar)) = .1*.1 + .2*.3 + .3*.6 + .4*.1 = 0.29
    expected_loss = sum(0.5 * d * (1 - ht + hw) for d, ht, hw in zip(WEIGHTS, H_TRUE, H_WRONG, strict=True))
    assert expected_loss == pytest.approx(0.29, abs=1e-15)
    loss = weighted_error(weights, y, output)  # the loop's weighted error of 2 p - 1 is M2's pseudo-loss
    assert loss == pytest.approx(expected_loss, abs=1e-15)

    beta = 0.29 / 0.71  # line 6
    assert _m2_rules.m2_beta(loss) == pytest.approx(beta, abs=1e-15)
    assert _m2_rules.m2_vote_weight(loss) == pytest.approx(math.log(0.71 / 0.29), abs=1e-12)

    # Freund & Schapire 1997: D_t(i) beta^{1/2 (1 + h(x_i, y_i) - h(x_i, ybar_i))}, then normalised
    raw = [d * beta ** (0.5 * (1 + ht - hw)) for d, ht, hw in zip(WEIGHTS, H_TRUE, H_WRONG, strict=True)]
    expected = [value / sum(raw) for value in raw]
    updated = _m2_rules.m2_update(weights, y, output, _m2_rules.m2_beta(loss))
    np.testing.assert_allclose(updated / updated.sum(), expected, rtol=0, atol=1e-12)


def test_update_raises_the_share_of_the_misclassified_sample_unlike_the_printed_exponent():
    weights, y, output = _arrays()
    beta = _m2_rules.m2_beta(weighted_error(weights, y, output))
    updated = _m2_rules.m2_update(weights, y, output, beta)
    updated = updated / updated.sum()
    # sample 2 is the only one the learner gets wrong (p(y|x) = 0.4): its share grows, the others' shrink
    growth = updated / weights
    assert growth[2] > 1.0
    assert np.all(np.delete(growth, 2) < 1.0)
    # the growth factor falls as p(y_i|x_i) rises: 0.4 < 0.7 < 0.9 = 0.9
    assert growth[2] > growth[1] > growth[0]
    assert growth[0] == pytest.approx(growth[3], rel=1e-12)
    # the exponent as the WOTBoost paper prints it (line 7) would shrink the misclassified sample instead
    printed = np.array(
        [d * beta ** (0.5 * (1 - ht + hw)) for d, ht, hw in zip(WEIGHTS, H_TRUE, H_WRONG, strict=True)]
    )
    assert (printed / printed.sum())[2] < weights[2]


@pytest.mark.parametrize(("loss", "sign"), [(0.5, 0), (0.57, -1), (0.3, 1)])
def test_vote_weight_is_positive_only_below_one_half(loss, sign):
    assert np.sign(round(_m2_rules.m2_vote_weight(loss), 12)) == sign


def test_zero_pseudo_loss_gets_a_large_finite_vote():
    vote = _m2_rules.m2_vote_weight(0.0)
    assert np.isfinite(vote)
    assert vote == pytest.approx(math.log((1 - 1e-10) / 1e-10))


# ------------------------------------------------------------------------------------------- allotments
def test_largest_remainder_by_hand():
    # exact shares 3.5, 2.1, 1.4 -> floors 3, 2, 1 (6); the one left over goes to the largest remainder .5
    allotment = _m2_rules.largest_remainder_allotment(7, np.array([0.5, 0.3, 0.2]), np.random.RandomState(0))
    np.testing.assert_array_equal(allotment, [4, 2, 1])
    # unnormalised shares give the same answer
    allotment = _m2_rules.largest_remainder_allotment(7, np.array([5.0, 3.0, 2.0]), np.random.RandomState(1))
    np.testing.assert_array_equal(allotment, [4, 2, 1])


def test_equal_remainders_are_broken_at_random():
    patterns = {
        tuple(_m2_rules.uniform_allotment(5, np.ones(3), np.random.RandomState(seed))) for seed in range(30)
    }
    assert patterns == {(2, 2, 1), (2, 1, 2), (1, 2, 2)}


def test_all_zero_shares_are_treated_as_equal():
    allotment = _m2_rules.weighted_allotment(6, np.zeros(3), np.random.RandomState(0))
    np.testing.assert_array_equal(allotment, [2, 2, 2])


def test_uniform_allotment_ignores_the_weights():
    weights = np.array([0.7, 0.1, 0.1, 0.1])
    np.testing.assert_array_equal(_m2_rules.uniform_allotment(8, weights, np.random.RandomState(0)), [2] * 4)
    np.testing.assert_array_equal(
        _m2_rules.weighted_allotment(8, weights, np.random.RandomState(0)), [5, 1, 1, 1]
    )


@settings(max_examples=200, deadline=None)
@given(
    total=st.integers(0, 500),
    shares=st.lists(st.floats(0.0, 1.0, allow_subnormal=False), min_size=1, max_size=30),
    seed=st.integers(0, 2**31 - 1),
)
def test_allotment_sums_to_n_and_rounds_each_exact_share(total, shares, seed):
    shares = np.array(shares)
    allotment = _m2_rules.weighted_allotment(total, shares, np.random.RandomState(seed))
    assert allotment.sum() == total
    assert allotment.dtype.kind == "i"
    if shares.sum() > 0:
        exact = total * shares / shares.sum()
        assert np.all(allotment >= np.floor(exact) - 1e-9)
        assert np.all(allotment <= np.ceil(exact) + 1e-9)
        # proportional: a strictly larger share never gets fewer samples
        order = np.argsort(shares, kind="stable")
        strictly_larger = np.diff(shares[order]) > 0
        assert np.all(np.diff(allotment[order])[strictly_larger] >= 0)


# --------------------------------------------------------------------------------- neighbours, synthesis
def _brute_force_neighbours(X, k):
    distances = np.linalg.norm(X[:, None, :] - X[None, :, :], axis=-1)
    np.fill_diagonal(distances, np.inf)
    return np.argsort(distances, axis=1)[:, :k]


def test_minority_neighbours_match_brute_force_and_exclude_the_sample_itself():
    X = np.random.RandomState(3).normal(size=(25, 3))
    neighbours = _m2_rules.minority_neighbours(X, 5)
    assert neighbours.shape == (25, 5)
    assert not np.any(neighbours == np.arange(25)[:, None])
    for found, expected in zip(neighbours, _brute_force_neighbours(X, 5), strict=True):
        assert set(found) == set(expected)


def test_neighbour_count_is_capped_by_the_minority_size():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    np.testing.assert_array_equal(
        np.sort(_m2_rules.minority_neighbours(X, 5), axis=1), [[1, 2], [0, 2], [0, 1]]
    )
    np.testing.assert_array_equal(_m2_rules.minority_neighbours(X[:1], 5), [[0]])


def test_synthetic_samples_lie_on_segments_to_a_chosen_neighbour():
    rng = np.random.RandomState(5)
    X = rng.normal(size=(12, 4))
    neighbours = _m2_rules.minority_neighbours(X, 5)
    allotment = np.array([0, 3, 1, 0, 2, 5, 0, 0, 1, 1, 4, 2])
    X_synthetic, parents, chosen = _m2_rules.synthesise_minority(X, neighbours, allotment, rng)
    assert X_synthetic.shape == (allotment.sum(), 4)
    np.testing.assert_array_equal(np.bincount(parents, minlength=12), allotment)
    for x_new, parent, neighbour in zip(X_synthetic, parents, chosen, strict=True):
        assert neighbour in neighbours[parent]
        direction = X[neighbour] - X[parent]
        step = float(np.dot(x_new - X[parent], direction) / np.dot(direction, direction))
        assert 0.0 <= step <= 1.0
        np.testing.assert_allclose(x_new, X[parent] + step * direction, atol=1e-12)


def test_children_written_into_out_equal_the_interpolation_bit_for_bit():
    X = np.random.RandomState(2).normal(size=(30, 5))
    neighbours = _m2_rules.minority_neighbours(X, 5)
    allotment = np.random.RandomState(4).randint(0, 4, size=30)
    draws = np.random.RandomState(3)
    parents = np.repeat(np.arange(30), allotment)
    columns = draws.randint(neighbours.shape[1], size=parents.size)
    step = draws.uniform(0.0, 1.0, size=(parents.size, 1))
    expected = X[parents] + step * (X[neighbours[parents, columns]] - X[parents])

    matrix = np.full((2 + allotment.sum(), 5), np.nan)
    written, got_parents, _ = _m2_rules.synthesise_minority(
        X, neighbours, allotment, np.random.RandomState(3), out=matrix[2:]
    )
    assert np.shares_memory(written, matrix) and np.isnan(matrix[:2]).all()
    np.testing.assert_array_equal(matrix[2:], expected)
    np.testing.assert_array_equal(got_parents, parents)
    alone, _, _ = _m2_rules.synthesise_minority(X, neighbours, allotment, np.random.RandomState(3))
    np.testing.assert_array_equal(alone, expected)


def test_float32_children_round_like_numpys_in_place_steps():
    """The product is rounded to float32 before the parent is added, as ``out *= step; out += parent`` did."""
    X = np.random.RandomState(6).normal(size=(40, 6)).astype(np.float32)
    neighbours = _m2_rules.minority_neighbours(X, 5)
    allotment = np.random.RandomState(7).randint(0, 5, size=40)
    draws = np.random.RandomState(8)
    parents = np.repeat(np.arange(40), allotment)
    columns = draws.randint(neighbours.shape[1], size=parents.size)
    step = draws.uniform(0.0, 1.0, size=(parents.size, 1))
    expected = X[neighbours[parents, columns]]
    expected -= X[parents]
    expected *= step
    expected += X[parents]
    children, _, _ = _m2_rules.synthesise_minority(X, neighbours, allotment, np.random.RandomState(8))
    assert children.dtype == np.float32
    np.testing.assert_array_equal(children, expected)
    # rounding the float64 expression once instead differs in the last bit for about a quarter of the values
    rounded_once = (X[parents] + step * (X[neighbours[parents, columns]] - X[parents])).astype(np.float32)
    assert not np.array_equal(children, rounded_once)


def test_children_share_their_parent_weight_evenly():
    minority_weights = np.array([0.2, 0.05, 0.0, 0.15])
    weights = np.concatenate([[0.1, 0.3, 0.2], minority_weights])  # three majority samples first
    minority = np.arange(3, 7)
    allotment = np.array([4, 1, 0, 3])
    parents = np.repeat(np.arange(4), allotment)
    child_weights = _m2_rules.split_parent_weights(weights, minority, allotment, parents)
    np.testing.assert_allclose(child_weights, [0.05] * 4 + [0.05] + [0.05] * 3, atol=1e-15)
    np.testing.assert_allclose(np.bincount(parents, child_weights, minlength=4), [0.2, 0.05, 0.0, 0.15])


def test_the_other_synthetic_weights_by_hand():
    weights = np.array([0.1, 0.3, 0.2, 0.2, 0.05, 0.0, 0.15])  # positives: the last four, W+ = 0.4
    minority = np.arange(3, 7)
    allotment = np.array([2, 1, 0, 1])
    parents = np.repeat(np.arange(4), allotment)
    np.testing.assert_allclose(
        _m2_rules.uniform_weights(weights, minority, allotment, parents), [1 / 7] * 4, atol=1e-15
    )
    np.testing.assert_allclose(
        _m2_rules.mean_positive_weights(weights, minority, allotment, parents), [0.1] * 4, atol=1e-15
    )
    # W- - W+ = 0.6 - 0.4 = 0.2 shared by 4 children
    np.testing.assert_allclose(
        _m2_rules.balancing_weights(weights, minority, allotment, parents), [0.05] * 4, atol=1e-15
    )
    # positives already heavier: nothing to add
    heavy = np.array([0.1, 0.1, 0.1, 0.3, 0.2, 0.1, 0.1])
    np.testing.assert_allclose(_m2_rules.balancing_weights(heavy, minority, allotment, parents), 0.0)
