"""The expected-cost loss of a logit model, shared by ``cslogit`` and ``csboost`` (Höppner et al. 2022).

With ``p_i = sigma(z_i)`` the probability a model with logit ``z_i`` gives row ``i``, the row's expected cost
(the cost of Eq. 2-3 of the CSDT paper with the 0/1 decision replaced by ``p_i``) is

    e_i(z_i) = a_i + p_i r_i,    a_i = y_i C_FN,i + (1 - y_i) C_TN,i,    r_i = b_i - a_i,
    b_i = y_i C_TP,i + (1 - y_i) C_FP,i,

``a_i`` and ``b_i`` being the costs of deciding negative and positive. ``r_i`` is the signed regret of the
positive decision: ``C_TP - C_FN < 0`` for a positive that should be flagged, ``C_FP - C_TN > 0`` for a
negative. Its derivatives in the logit are

    de_i/dz_i = r_i p_i (1 - p_i),    d2e_i/dz_i2 = r_i p_i (1 - p_i) (1 - 2 p_i).

The second one changes sign at ``p_i = 1/2`` and with the sign of ``r_i``: the loss is not convex in ``z``.

Both estimators divide the loss by the (sample-weighted) mean regret ``mean_i |r_i|``: the minimiser is then
the same whatever the currency of the costs (multiplying every cost by ``k`` leaves the fit unchanged), and a
penalty strength or learning rate means the same on every dataset.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

__all__ = ["normalised_regrets", "decision_costs", "logit_derivatives"]


def decision_costs(y01, costs):
    """``(a, b)``: each row's cost of the negative and of the positive decision, given its true class."""
    c_fp, c_fn, c_tp, c_tn = np.asarray(costs, dtype=float).T
    positive = np.asarray(y01) == 1
    return np.where(positive, c_fn, c_tn), np.where(positive, c_tp, c_fp)


def normalised_regrets(y01, costs, weights, *, estimator_name="the estimator"):
    """``(w_i r_i / sum_j w_j |r_j|, a_i w_i / sum_j w_j |r_j|)``: the loss's per-row slopes and constants.

    With these, the normalised objective is ``sum_i constant_i + slope_i p_i``; its value for unit weights is
    the average expected cost divided by the mean regret.

    Raises
    ------
    ValueError
        If every row's regret is zero (no decision changes any cost: there is nothing to learn).
    """
    cost_negative, cost_positive = decision_costs(y01, costs)
    regrets = cost_positive - cost_negative
    total = float(np.sum(weights * np.abs(regrets)))
    if not total > 0:
        raise ValueError(
            f"{estimator_name} cannot learn from these costs: every row costs the same whichever class is "
            "predicted (C_TP = C_FN on the positives and C_FP = C_TN on the negatives, or zero weights)"
        )
    return weights * regrets / total, weights * cost_negative / total


def logit_derivatives(logits, slopes):
    """First and second derivative of ``slope_i sigma(z_i)`` in ``z_i``, row by row (module docstring)."""
    proba = expit(logits)
    spread = proba * expit(-logits)  # p (1 - p), accurate in both tails
    gradient = slopes * spread
    return gradient, gradient * (1.0 - 2.0 * proba)
