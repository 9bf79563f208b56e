"""The minimum-risk decision (algorithms.cost.minimum_risk) by hand: regrets, decision and thresholds."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose, assert_array_equal

from algorithms.cost.minimum_risk import bayes_minimum_risk_thresholds, minimum_risk_decision, outcome_regrets

# columns [C_FP, C_FN, C_TP, C_TN]
MATRIX = np.array(
    [
        [1.0, 11.0, 1.0, 0.0],  # r+ = 10, r- = 1
        [1.0, 3.0, 1.0, 0.0],  # r+ = 2, r- = 1
        [1.0, 0.0, 1.0, 0.0],  # r+ = -1 (catching a positive costs more than missing it), r- = 1
        [3.0, 0.0, 0.0, 1.0],  # r+ = 0, r- = 2
        [2.0, 0.0, 0.0, 2.5],  # r+ = 0, r- = -0.5 (a false alarm is cheaper than a correct rejection)
    ]
)


def test_regrets_are_the_cost_differences_of_each_row():
    positive, negative = outcome_regrets(MATRIX)
    assert_array_equal(positive, [10.0, 2.0, -1.0, 0.0, 0.0])
    assert_array_equal(negative, [1.0, 1.0, 1.0, 2.0, -0.5])


def test_the_decision_compares_the_two_risks():
    probability = np.array([0.1, 0.3, 0.9, 0.99, 0.2])
    # R(0) - R(1) = r+ p - r- (1 - p): 1 - 0.9, 0.6 - 0.7, -0.9 - 0.1, 0 - 0.02, 0 + 0.4
    assert_array_equal(minimum_risk_decision(probability, MATRIX), [True, False, False, False, True])
    c_fp, c_fn, c_tp, c_tn = MATRIX.T
    risk_positive = c_tp * probability + c_fp * (1 - probability)
    risk_negative = c_tn * (1 - probability) + c_fn * probability
    assert_array_equal(minimum_risk_decision(probability, MATRIX), risk_positive < risk_negative)


def test_class_costs_scale_their_class_regret():
    """C- = 3: 0.3 r+ = 0.6 against 3 * 0.7 r- = 2.1 (negative); C+ = 4: 2.4 > 0.7 (positive)."""
    probability = np.full(5, 0.3)
    assert not minimum_risk_decision(probability, MATRIX, 1.0, 3.0)[1]
    assert minimum_risk_decision(probability, MATRIX, 4.0, 1.0)[1]
    assert_array_equal(
        minimum_risk_decision(probability, MATRIX, 2.0, 6.0),
        minimum_risk_decision(probability, MATRIX, 1.0, 3.0),
    )


def test_thresholds_are_the_decision_where_one_exists():
    # C- r- / (C+ r+ + C- r-): 1 / 11, 1 / 3, none (denominator 0), 2 / 2, none (denominator -0.5)
    thresholds = bayes_minimum_risk_thresholds(MATRIX)
    assert_allclose(thresholds[[0, 1, 3]], [1 / 11, 1 / 3, 1.0], rtol=1e-15)
    assert np.isinf(thresholds[[2, 4]]).all()
    assert_allclose(
        bayes_minimum_risk_thresholds(MATRIX, 1.0, 3.0)[[0, 1, 3]], [3 / 13, 3 / 5, 1.0], rtol=1e-15
    )
    probability = np.linspace(0.0, 1.0, 101)[:, None].repeat(5, axis=1)
    for row in (0, 1, 3):
        costs = np.repeat(MATRIX[[row]], 101, axis=0)
        decided = minimum_risk_decision(probability[:, row], costs, 1.0, 3.0)
        threshold = bayes_minimum_risk_thresholds(costs, 1.0, 3.0)
        assert_array_equal(decided, probability[:, row] > threshold)
