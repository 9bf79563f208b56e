"""Cost matrices of the example-dependent cost-sensitive estimators (``algorithms.tree`` and ``.cost``).

Without an explicit cost matrix they use unit costs ``C_FP = C_FN = 1, C_TP = C_TN = 0``, so that a
cost-sensitive model reduces to an error-minimising one (the oracle scikit-learn's common checks rely on).
Their targets are coded by :func:`algorithms._validation.encode_binary_target`.
"""

from __future__ import annotations

import numpy as np

from algorithms.metrics import check_cost_matrix

__all__ = ["example_costs", "unit_cost_matrix"]


def unit_cost_matrix(n_samples):
    """The cost matrix of plain misclassification: ``C_FP = C_FN = 1`` and ``C_TP = C_TN = 0`` per row."""
    costs = np.zeros((n_samples, 4))
    costs[:, :2] = 1.0
    return costs


def example_costs(cost_matrix, n_samples):
    """A validated float copy of ``cost_matrix``, or unit costs when it is ``None``.

    The reasonableness conditions of Elkan (2001), ``C_FP > C_TN`` and ``C_FN > C_TP`` (CSDT paper, Section
    2.1), are not enforced: a row that violates them simply makes the opposite decision the cheaper one.
    """
    if cost_matrix is None:
        return unit_cost_matrix(n_samples)
    return check_cost_matrix(cost_matrix, n_samples).copy()
