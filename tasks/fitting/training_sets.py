"""The training sets of the CSDT paper's protocol: the training split as drawn, or resampled from it.

CSDT paper, Section 5 (Table 3) and Section 6: every method is trained on four versions of the training split
and scored on the same untouched test split:

- ``"train"``: the training split itself (t);
- ``"under"``: random under-sampling of the majority class to the minority count (u), imbalanced-learn's
  ``RandomUnderSampler``;
- ``"rejection"``: cost-proportionate rejection sampling (r, Zadrozny et al. 2003), keeping row ``i`` with
  probability ``w_i / max w`` where ``w_i = y_i C_FN,i + (1 - y_i) C_FP,i`` (Eq. 5),
  :class:`algorithms.cost.CostProportionateRejectionSampler`;
- ``"over"``: cost-proportionate over-sampling (o, Elkan 2001), ``ceil(10 w_i / max w)`` copies of row ``i``,
  :class:`algorithms.cost.CostProportionateOverSampler`.

The resampled rows keep their own cost-matrix rows, so a cost-sensitive method trained on them still sees each
row's costs. Nothing is modified in place; the draws are seeded.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from imblearn.under_sampling import RandomUnderSampler

from algorithms.cost import CostProportionateOverSampler, CostProportionateRejectionSampler

__all__ = ["COST_PROPORTIONATE", "TRAINING_SETS", "TrainingSet", "resample_training_set"]

#: The CSDT paper's training sets (Section 6), in its order; ``"train"`` leaves the training split as it is.
TRAINING_SETS = ("train", "under", "rejection", "over")

#: The training sets that need example-dependent costs.
COST_PROPORTIONATE = ("rejection", "over")


class TrainingSet(NamedTuple):
    """The rows a method is trained on: features, target and (when the dataset has them) their costs."""

    features: np.ndarray
    target: np.ndarray
    cost_matrix: np.ndarray | None


def resample_training_set(
    name: str, features, target, cost_matrix=None, *, random_state: int = 0
) -> TrainingSet:
    """The training set ``name`` (:data:`TRAINING_SETS`) drawn from a training split.

    Parameters
    ----------
    name : {"train", "under", "rejection", "over"}
        Which training set (see the module docstring).
    features : ndarray of shape (n_samples, n_features)
    target : ndarray of shape (n_samples,)
        Binary labels, positive = 1.
    cost_matrix : ndarray of shape (n_samples, 4), optional
        ``[C_FP, C_FN, C_TP, C_TN]`` of the rows; required by ``"rejection"`` and ``"over"``.
    random_state : int
        Seed of the under-sampling and rejection draws.

    Returns
    -------
    TrainingSet
        The selected rows (in their original order, copies adjacent) and their cost rows.

    Raises
    ------
    ValueError
        For an unknown ``name``, or a cost-proportionate set without ``cost_matrix``.
    """
    if name not in TRAINING_SETS:
        raise ValueError(f"unknown training set {name!r}; expected one of {list(TRAINING_SETS)}")
    if name == "train":
        return TrainingSet(features, target, cost_matrix)
    if name in COST_PROPORTIONATE and cost_matrix is None:
        raise ValueError(
            f"training set {name!r} samples in proportion to each row's misclassification cost and needs a "
            "dataset with example-dependent costs (a cost model or cost columns)"
        )
    if name == "under":
        sampler = RandomUnderSampler(random_state=random_state)
        sampler.fit_resample(features, target)
    elif name == "rejection":
        sampler = CostProportionateRejectionSampler(pos_label=1, random_state=random_state)
        sampler.fit_resample(features, target, cost_matrix=cost_matrix)
    else:
        sampler = CostProportionateOverSampler(pos_label=1)
        sampler.fit_resample(features, target, cost_matrix=cost_matrix)
    rows = np.sort(sampler.sample_indices_, kind="stable")
    costs = None if cost_matrix is None else np.asarray(cost_matrix)[rows]
    return TrainingSet(np.asarray(features)[rows], np.asarray(target)[rows], costs)
