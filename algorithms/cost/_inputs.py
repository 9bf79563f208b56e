"""Validation shared by the example-dependent cost-sensitive estimators: binary targets and cost matrices.

Every estimator of ``algorithms.tree`` and ``algorithms.cost`` codes its target internally as 0/1 with 1 the
positive class (the minority class unless ``pos_label`` is given) and, without an explicit cost matrix, uses
unit costs ``C_FP = C_FN = 1, C_TP = C_TN = 0`` so that a cost-sensitive model reduces to an error-minimising
one (the oracle scikit-learn's common checks rely on).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.multiclass import type_of_target

from algorithms.metrics import check_cost_matrix

__all__ = ["encode_binary_target", "example_costs", "unit_cost_matrix"]


def encode_binary_target(y, pos_label=None):
    """Check that ``y`` is binary and code it 0/1 with 1 for the positive class.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Two distinct labels of any type.
    pos_label : object, default=None
        The positive class. ``None`` picks the minority class (on a tie, the larger of the two labels).

    Returns
    -------
    classes : ndarray of shape (2,)
        The sorted labels (scikit-learn's ``classes_``).
    y01 : ndarray of shape (n_samples,) of int
        1 where ``y == pos_label``.
    pos_label : object
        The positive class that was used.

    Raises
    ------
    ValueError
        If ``y`` holds one class or more than two ("Only binary classification is supported."), or if
        ``pos_label`` is not one of its labels.
    """
    target_type = type_of_target(y, input_name="y", raise_unknown=True)
    classes, counts = np.unique(y, return_counts=True)
    if classes.shape[0] == 1:
        raise ValueError(
            f"y has one class only ({classes[0]!r}); a binary classifier needs samples of two classes"
        )
    if target_type != "binary":
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {target_type} "
            f"(classes {classes[:10].tolist()})."
        )
    if pos_label is None:
        pos_label = classes[1] if counts[1] <= counts[0] else classes[0]
    elif pos_label not in classes:
        raise ValueError(f"pos_label={pos_label!r} is not one of the labels in y: {classes.tolist()}")
    return classes, (np.asarray(y) == pos_label).astype(np.int64), pos_label


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
