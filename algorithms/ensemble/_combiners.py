"""How an ensemble of cost-sensitive trees combines its members' votes (Correa Bahnsen et al. 2015, Sec. 3).

Each combiner is fitted on the training rows' vote matrix ``V`` (``V[i, j] = 1`` when tree ``j`` labels row
``i`` positive), the trees' in-bag masks, the 0/1 target and the costs. It returns either the trees' vote
weights (the positive probability is then ``V @ weights``, positive above 1/2) or a fitted cslogit on the
votes:

- ``"majority"``: the share of trees voting positive; positive when more than half do;
- ``"weighted"``: each tree's vote weighted by its out-of-bag savings ``max(0, Savings_j)`` (CSDT Eq. 4 on
  the rows the tree did not see; on all its training rows when it saw every row), normalised to sum to 1;
  positive when the weighted share exceeds 1/2. All weights 0 falls back to the majority vote;
- ``"stacking"``: a cost-sensitive logistic regression (``cslogit``) on the votes, fitted with the training
  rows' costs (as the paper, on the training rows' in-sample votes), deciding by each row's minimum-risk
  threshold when the rows' costs are given at predict time.
"""

from __future__ import annotations

import numpy as np

from algorithms.linear import CostSensitiveLogisticRegression
from algorithms.metrics import savings_score

__all__ = ["COMBINERS", "out_of_bag_savings"]


def out_of_bag_savings(votes, in_bag, y01, costs):
    """``max(0, Savings)`` of each tree on its out-of-bag rows (all rows when it has none), CSDT Eq. 4.

    Parameters
    ----------
    votes : ndarray of shape (n_samples, n_trees)
    in_bag : ndarray of bool of shape (n_samples, n_trees)
    y01 : ndarray of shape (n_samples,)
    costs : ndarray of shape (n_samples, 4)
    """
    savings = np.empty(votes.shape[1])
    for tree in range(votes.shape[1]):
        rows = ~in_bag[:, tree]
        if not rows.any():
            rows = np.ones_like(rows)
        value = savings_score(y01[rows], votes[rows, tree], costs[rows])
        savings[tree] = max(0.0, value) if np.isfinite(value) else 0.0
    return savings


def _majority(votes, in_bag, y01, costs, weights):
    return np.full(votes.shape[1], 1.0 / votes.shape[1])


def _weighted(votes, in_bag, y01, costs, weights):
    savings = out_of_bag_savings(votes, in_bag, y01, costs)
    if savings.sum() <= 0:
        return _majority(votes, in_bag, y01, costs, weights)
    return savings / savings.sum()


def _stacking(votes, in_bag, y01, costs, weights):
    model = CostSensitiveLogisticRegression(pos_label=1)
    return model.fit(votes, y01, sample_weight=weights, cost_matrix=costs)


#: Combiners by name: ``fit(votes, in_bag, y01, costs, sample_weight)`` -> vote weights or a fitted cslogit.
COMBINERS = {"majority": _majority, "weighted": _weighted, "stacking": _stacking}
