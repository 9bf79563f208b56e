"""The minimum-risk decision: the one rule by which every cslearn method turns a probability and costs into a
label (Elkan 2001; CSDT paper, Section 2.3).

With the positive probability ``p_i`` of row ``i`` and its costs ``[C_FP, C_FN, C_TP, C_TN]``, predicting
positive risks ``R(1|x_i) = C_TP,i p_i + C_FP,i (1 - p_i)`` and predicting negative
``R(0|x_i) = C_TN,i (1 - p_i) + C_FN,i p_i``. Only the *regrets* matter (Elkan 2001): what missing a positive
costs more than catching it, ``r+_i = C_FN,i - C_TP,i``, and what a false alarm costs more than a correct
rejection, ``r-_i = C_FP,i - C_TN,i`` (:func:`outcome_regrets`); ``R(0|x_i) - R(1|x_i) = r+_i p_i - r-_i (1 -
p_i)``. The fixed-cost boosting methods let their class costs ``C+`` and ``C-`` scale the regrets of their
class (``docs/example-dependent-costs.md``), so the rule is

    predict positive iff ``C+ r+_i p_i > C- r-_i (1 - p_i)``   (:func:`minimum_risk_decision`)

(``C+ = C- = 1`` for Bayes minimum risk). When ``C+ r+_i + C- r-_i > 0`` this is ``p_i > t_i`` with the
threshold ``t_i = C- r-_i / (C+ r+_i + C- r-_i)`` (:func:`bayes_minimum_risk_thresholds`, CSDT Section 2.3);
the decision itself needs no such condition: a row whose error is cheaper than its correct decision (a
negative regret) simply gets the cheaper label.

Users: :class:`~algorithms.cost.bayes_minimum_risk.BayesMinimumRiskClassifier` (and, built on it, AdaMEC-Cal
and CGAda-Cal in :mod:`algorithms.boosting.calibrated`), and AdaMEC's per-row decision
(:mod:`algorithms.boosting.adamec`). The fixed-cost boosting rules derive their training costs from the same
regrets (:func:`algorithms.boosting._rules.regrets_from_matrix`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["bayes_minimum_risk_thresholds", "minimum_risk_decision", "outcome_regrets"]


def outcome_regrets(cost_matrix):
    """Per row, ``(r+, r-) = (C_FN - C_TP, C_FP - C_TN)``: what each error costs beyond the correct decision.

    Parameters
    ----------
    cost_matrix : array-like of shape (n_samples, 4)
        ``[C_FP, C_FN, C_TP, C_TN]``.

    Returns
    -------
    positive_regret, negative_regret : ndarray of shape (n_samples,)
        Not clipped: a negative value says the error is the cheaper outcome.
    """
    costs = np.asarray(cost_matrix, dtype=float)
    return costs[:, 1] - costs[:, 2], costs[:, 0] - costs[:, 3]


def minimum_risk_decision(positive_probability, cost_matrix, positive_cost=1.0, negative_cost=1.0):
    """Whether predicting positive has the smaller expected cost: ``C+ r+_i p_i > C- r-_i (1 - p_i)``.

    Parameters
    ----------
    positive_probability : ndarray of shape (n_samples,)
        ``p_i``, the (calibrated) probability that row ``i`` is positive.
    cost_matrix : array-like of shape (n_samples, 4)
        The rows' costs ``[C_FP, C_FN, C_TP, C_TN]`` (:func:`outcome_regrets` gives their regrets).
    positive_cost, negative_cost : float, default=1.0
        ``C+`` and ``C-``, the scales of the positive and the negative regrets (1 for Bayes minimum risk).

    Returns
    -------
    ndarray of bool, shape (n_samples,)
        True where the positive label is strictly cheaper in expectation; a tie is negative.
    """
    regret_positive, regret_negative = outcome_regrets(cost_matrix)
    probability = np.asarray(positive_probability, dtype=float)
    return positive_cost * regret_positive * probability > negative_cost * regret_negative * (
        1.0 - probability
    )


def bayes_minimum_risk_thresholds(cost_matrix, positive_cost=1.0, negative_cost=1.0):
    """Per-row thresholds ``t_i = C- r-_i / (C+ r+_i + C- r-_i)`` on ``p`` of :func:`minimum_risk_decision`.

    With ``C+- = 1`` this is ``(C_FP - C_TN) / (C_FN - C_TN - C_TP + C_FP)`` (CSDT Section 2.3).

    Parameters
    ----------
    cost_matrix : array-like of shape (n_samples, 4)
        ``[C_FP, C_FN, C_TP, C_TN]``.
    positive_cost, negative_cost : float, default=1.0
        ``C+`` and ``C-``, as in :func:`minimum_risk_decision`.

    Returns
    -------
    ndarray of shape (n_samples,)
        ``+inf`` where the denominator is not positive: no threshold on ``p`` describes the decision there
        (the reasonableness conditions fail), and :func:`minimum_risk_decision` decides such rows by their
        risks.
    """
    regret_positive, regret_negative = outcome_regrets(cost_matrix)
    scaled_negative = negative_cost * regret_negative
    denominator = positive_cost * regret_positive + scaled_negative
    return np.divide(
        scaled_negative, denominator, out=np.full(denominator.shape, np.inf), where=denominator > 0
    )
