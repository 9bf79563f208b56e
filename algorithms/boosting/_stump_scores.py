"""The split criteria of the decision stump: a split's score from its leaves' weighted class sums.

For a candidate split into a left leaf L and a right leaf R with weighted class sums ``w_L0, w_L1`` and
``w_R0, w_R1`` (larger scores are better):

- ``"gini"``: ``sum_k w_Lk^2 / w_L + sum_k w_Rk^2 / w_R``, the weighted Gini decrease up to a constant (the
  parent's impurity);
- ``"entropy"``: ``sum_k w_Lk ln(w_Lk / w_L) + sum_k w_Rk ln(w_Rk / w_R)`` (``= -w_L H_L - w_R H_R``), the
  weighted entropy decrease up to a constant;
- ``"error"``: ``-(min(w_L0, w_L1) + min(w_R0, w_R1))``, minus the weighted misclassification of the leaves'
  majority labels, i.e. the misclassified mass ``sum_{i: y_i != h(x_i)} D(i)`` in the denominator of
  AdaBoost's alpha (AdaCC paper, Eq. 2).

Each score is a sum of one term per leaf, and each term is convex in the leaf's class sums (the perspective
of a convex function of the class fraction, or minus a minimum): :func:`corner_score` evaluates it at a
corner of a box of left sums, which bounds every split inside the box (:mod:`algorithms.boosting._stump`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["CRITERIA", "corner_score", "split_score"]

#: Split criteria by name -> the integer code the compiled search loops branch on.
CRITERIA: dict[str, int] = {"gini": 0, "entropy": 1, "error": 2}

GINI, ENTROPY, ERROR = CRITERIA["gini"], CRITERIA["entropy"], CRITERIA["error"]


@njit(cache=True, nogil=True)
def weighted_log_share(class_weight, leaf_weight):
    """``w_k ln(w_k / w)``: a class's term of ``-w * entropy`` of a leaf, with ``0 ln 0 = 0``.

    Rounding residues below zero count as zero.
    """
    return class_weight * np.log(class_weight / leaf_weight) if class_weight > 0.0 else 0.0


@njit(cache=True, nogil=True)
def split_score(criterion, left_neg, left_pos, right_neg, right_pos):
    """Score of one candidate split (larger is better) from the leaves' weighted class sums.

    A side whose weight is not positive (tiny weights beside large ones can round a side's remaining weight
    to zero) is no split: ``-inf``.
    """
    left = left_neg + left_pos
    right = right_neg + right_pos
    if left <= 0.0 or right <= 0.0:
        return -np.inf
    if criterion == GINI:
        return (left_neg * left_neg + left_pos * left_pos) / left + (
            right_neg * right_neg + right_pos * right_pos
        ) / right
    if criterion == ENTROPY:
        return (
            weighted_log_share(left_neg, left)
            + weighted_log_share(left_pos, left)
            + weighted_log_share(right_neg, right)
            + weighted_log_share(right_pos, right)
        )
    return -(min(left_neg, left_pos) + min(right_neg, right_pos))


@njit(cache=True, nogil=True)
def leaf_term(criterion, leaf_neg, leaf_pos):
    """One leaf's term of :func:`split_score`, 0 for an empty leaf: convex in ``(leaf_neg, leaf_pos)``."""
    leaf = leaf_neg + leaf_pos
    if leaf <= 0.0:
        return 0.0
    if criterion == GINI:
        return (leaf_neg * leaf_neg + leaf_pos * leaf_pos) / leaf
    if criterion == ENTROPY:
        return weighted_log_share(leaf_neg, leaf) + weighted_log_share(leaf_pos, leaf)
    return -min(leaf_neg, leaf_pos)


@njit(cache=True, nogil=True)
def corner_score(criterion, left_neg, left_pos, totals):
    """The convex score at left class sums ``(left_neg, left_pos)``, the right leaf holding the rest of
    ``totals = (total_neg, total_pos)``."""
    total_neg, total_pos = totals
    return leaf_term(criterion, left_neg, left_pos) + leaf_term(
        criterion, max(total_neg - left_neg, 0.0), max(total_pos - left_pos, 0.0)
    )
