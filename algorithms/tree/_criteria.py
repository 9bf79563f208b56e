"""Split criteria of the decision tree: the example-dependent cost impurity and the classical Gini and
entropy.

Every criterion describes a node by two additive *masses* per sample, so that the masses of any left child are
a cumulative sum over the samples sorted by a feature (the basis of the exact O(n) split search):

- ``"cost"`` (CSDT paper, Eq. 10-11): mass 0 = the weighted cost of predicting the sample negative,
  ``w_i (y_i C_FN,i + (1 - y_i) C_TN,i)``; mass 1 = the weighted cost of predicting it positive,
  ``w_i (y_i C_TP,i + (1 - y_i) C_FP,i)``. The node's masses are ``Cost(f0(S))`` and ``Cost(f1(S))`` (Eq.
  2-3), its impurity is their minimum (Eq. 10), its label the cheaper class with ties going to 0 (Eq. 11),
  and the gain of a split is **unweighted**: ``I(S) - (I(S_l) + I(S_r))`` (Section 4.1 uses Eq. 7 without the
  size ratios).
- ``"gini"`` / ``"entropy"`` (Eq. 7 and Section 3): masses are the weighted class counts; impurity
  ``2 pi (1 - pi)`` (the two-class Gini ``1 - pi^2 - (1 - pi)^2``) or ``-pi log2 pi - (1 - pi) log2(1 - pi)``;
  the gain weights the children by their share of the node's weight; the label is the weighted majority class.

A sample weight enters every criterion as a multiplicity: weight 2 counts like the sample twice.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "CRITERIA",
    "Criterion",
    "cost_impurity",
    "entropy_impurity",
    "gini_impurity",
    "weighted_class_counts",
    "weighted_prediction_costs",
]


@njit(cache=True, nogil=True)
def cost_impurity(mass0, mass1):
    """``I_c(S) = min(Cost(f0(S)), Cost(f1(S)))`` (CSDT Eq. 10); the masses are the two costs."""
    return min(mass0, mass1)


@njit(cache=True, nogil=True)
def gini_impurity(mass0, mass1):
    """Two-class Gini ``2 pi (1 - pi)`` with ``pi = mass1 / (mass0 + mass1)`` (CSDT Section 3); 0 if empty."""
    total = mass0 + mass1
    if total <= 0.0:
        return 0.0
    positive_fraction = mass1 / total
    return 2.0 * positive_fraction * (1.0 - positive_fraction)


@njit(cache=True, nogil=True)
def entropy_impurity(mass0, mass1):
    """Entropy ``-pi log2 pi - (1 - pi) log2 (1 - pi)`` (CSDT Section 3); 0 if empty."""
    total = mass0 + mass1
    entropy = 0.0
    if total <= 0.0:
        return entropy
    for mass in (mass0, mass1):
        if mass > 0.0:
            fraction = mass / total
            entropy -= fraction * np.log2(fraction)
    return entropy


@njit(cache=True, nogil=True, inline="always")
def impurity_by_code(code, mass0, mass1):
    """Impurity of criterion number ``code`` (:attr:`Criterion.code`) for the compiled split scan.

    numba caches kernels on disk only when they take no function arguments, so the scan receives the
    criterion's number rather than its impurity function; the branch is resolved once per call in machine
    code.
    """
    if code == 0:
        return cost_impurity(mass0, mass1)
    if code == 1:
        return gini_impurity(mass0, mass1)
    return entropy_impurity(mass0, mass1)


class Criterion:
    """A split criterion: per-sample masses, impurity of a pair of masses, children weighting and leaf label.

    Parameters
    ----------
    name : str
        Key in :data:`CRITERIA`.
    code : int
        Number of the criterion in :func:`impurity_by_code`.
    impurity : numba function
        ``impurity(mass0, mass1) -> float`` of one node, compiled so that the split scan calls it inline.
    weighted_gain : bool
        Whether the children's impurities are weighted by their share of the node's mass (Eq. 7) or summed
        (the cost criterion).
    cost_masses : bool
        Whether the masses are the costs of predicting 0 / 1 (else the weighted class counts).
    """

    def __init__(self, name, code, impurity, *, weighted_gain, cost_masses):
        self.name = name
        self.code = code
        self.impurity = impurity
        self.weighted_gain = weighted_gain
        self.cost_masses = cost_masses

    def split_masses(self, class_counts, prediction_costs):
        """The masses this criterion splits by: ``prediction_costs`` or ``class_counts`` (module docstring).

        Both arguments are arrays of the same shape ending in the two masses, per sample
        (:func:`weighted_class_counts`, :func:`weighted_prediction_costs`) or summed over a node.
        """
        return prediction_costs if self.cost_masses else class_counts

    def leaf_label(self, mass0, mass1):
        """Predicted class of a node: 1 iff mass 1 is strictly cheaper (cost, Eq. 11) or strictly larger."""
        if self.cost_masses:
            return np.asarray(mass1 < mass0, dtype=np.int64)
        return np.asarray(mass1 > mass0, dtype=np.int64)


def weighted_class_counts(y01, sample_weight):
    """Weighted class counts of each sample: ``w_i (1 - y_i)`` (column 0) and ``w_i y_i`` (column 1).

    Parameters
    ----------
    y01 : ndarray of shape (n_samples,)
        True labels coded 0/1.
    sample_weight : ndarray of shape (n_samples,)
    """
    return np.column_stack([sample_weight * (1 - y01), sample_weight * y01])


def weighted_prediction_costs(y01, costs, sample_weight):
    """Weighted cost of predicting each sample negative (column 0) and positive (column 1) (CSDT Eq. 2-3).

    Parameters
    ----------
    y01 : ndarray of shape (n_samples,)
        True labels coded 0/1.
    costs : ndarray of shape (n_samples, 4)
        Columns ``[C_FP, C_FN, C_TP, C_TN]``.
    sample_weight : ndarray of shape (n_samples,)
        Multiplies each sample's costs.
    """
    c_fp, c_fn, c_tp, c_tn = costs.T
    cost_if_negative = np.where(y01 == 1, c_fn, c_tn)
    cost_if_positive = np.where(y01 == 1, c_tp, c_fp)
    return np.column_stack([sample_weight * cost_if_negative, sample_weight * cost_if_positive])


#: Split criteria by name (like scikit-learn's ``CRITERIA_CLF``).
CRITERIA: dict[str, Criterion] = {
    "cost": Criterion("cost", 0, cost_impurity, weighted_gain=False, cost_masses=True),
    "gini": Criterion("gini", 1, gini_impurity, weighted_gain=True, cost_masses=False),
    "entropy": Criterion("entropy", 2, entropy_impurity, weighted_gain=True, cost_masses=False),
}
