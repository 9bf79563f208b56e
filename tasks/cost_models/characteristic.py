"""The cost characteristic ``b_i`` of a cost matrix and its summary (CSDT paper, Section 2.1, Eq. 1).

Scaling and shifting each example's cost matrix by ``C_FP_i - C_TN_i`` and ``C_TN_i`` leaves one degree of
freedom (Elkan 2001; CSDT Table 2): ``C*_FN_i = (C_FN_i - C_TN_i) / (C_FP_i - C_TN_i)`` and
``C*_TP_i = (C_TP_i - C_TN_i) / (C_FP_i - C_TN_i)``. The cost characteristic is

    b_i = C*_FN_i - C*_TP_i = (C_FN_i - C_TP_i) / (C_FP_i - C_TN_i)          (Eq. 1)

and its mean ``mu_b`` and standard deviation ``sigma_b`` classify the problem: ``mu_b = 1, sigma_b = 0`` is
cost-insensitive, ``mu_b != 1, sigma_b = 0`` class-dependent, ``sigma_b != 0`` example-dependent.
``b_i`` is undefined where ``C_FP_i == C_TN_i`` (a row breaking ``C_FP > C_TN``): such rows are counted
and left out of the mean and standard deviation.
"""

from __future__ import annotations

import numpy as np

from algorithms.metrics import check_cost_matrix

__all__ = ["cost_characteristic", "cost_characteristic_summary"]

#: Relative tolerance under which ``sigma_b`` counts as 0 and ``mu_b`` as 1.
TOLERANCE = 1e-9


def cost_characteristic(cost_matrix) -> np.ndarray:
    """``b_i = (C_FN_i - C_TP_i) / (C_FP_i - C_TN_i)`` per example (CSDT Eq. 1), NaN where undefined.

    ``b_i`` is undefined (NaN) where ``C_FP_i == C_TN_i``.

    Parameters
    ----------
    cost_matrix : array-like of shape (n_examples, 4)
        Columns ``[C_FP, C_FN, C_TP, C_TN]``, finite and non-negative.
    """
    costs = _checked(cost_matrix)
    c_fp, c_fn, c_tp, c_tn = costs.T
    scale = c_fp - c_tn
    b = np.full(costs.shape[0], np.nan)
    defined = scale != 0
    b[defined] = (c_fn[defined] - c_tp[defined]) / scale[defined]
    return b


def cost_characteristic_summary(cost_matrix) -> dict:
    """Mean and standard deviation of ``b_i``, the problem type, and counts of unreasonable rows.

    Parameters
    ----------
    cost_matrix : array-like of shape (n_examples, 4)
        Columns ``[C_FP, C_FN, C_TP, C_TN]``.

    Returns
    -------
    dict
        ``n_examples``; ``n_characteristic_defined`` (rows with ``C_FP != C_TN``);
        ``cost_characteristic_mean`` / ``_std`` (``mu_b``, population ``sigma_b``) / ``_min`` / ``_max`` over
        those rows (NaN when none); ``problem_type`` (``"cost-insensitive"``, ``"class-dependent"``,
        ``"example-dependent"`` or ``"undefined"``); ``n_false_positive_not_above_true_negative`` and
        ``n_false_negative_not_above_true_positive``, the rows breaking each reasonableness condition.
    """
    costs = _checked(cost_matrix)
    c_fp, c_fn, c_tp, c_tn = costs.T
    b = cost_characteristic(costs)
    defined = b[~np.isnan(b)]
    if defined.size:
        mean, std = float(defined.mean()), float(defined.std())
        scale = max(1.0, abs(mean))
        if std > TOLERANCE * scale:
            problem_type = "example-dependent"
        elif abs(mean - 1.0) <= TOLERANCE:
            problem_type = "cost-insensitive"
        else:
            problem_type = "class-dependent"
        low, high = float(defined.min()), float(defined.max())
    else:
        mean = std = low = high = float("nan")
        problem_type = "undefined"
    return {
        "n_examples": int(costs.shape[0]),
        "n_characteristic_defined": int(defined.size),
        "cost_characteristic_mean": mean,
        "cost_characteristic_std": std,
        "cost_characteristic_min": low,
        "cost_characteristic_max": high,
        "problem_type": problem_type,
        "n_false_positive_not_above_true_negative": int(np.count_nonzero(~(c_fp > c_tn))),
        "n_false_negative_not_above_true_positive": int(np.count_nonzero(~(c_fn > c_tp))),
    }


def _checked(cost_matrix) -> np.ndarray:
    costs = np.atleast_2d(np.asarray(cost_matrix, dtype=float)) if np.ndim(cost_matrix) else np.asarray([])
    return check_cost_matrix(costs, costs.shape[0])
