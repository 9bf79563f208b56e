"""Text and Graphviz (DOT) renderings of a fitted cost-sensitive tree."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils.validation import check_is_fitted

from algorithms.tree._nodes import LEAF

__all__ = ["export_graphviz", "export_text"]


def _names(estimator, feature_names):
    check_is_fitted(estimator, "tree_")
    if feature_names is None:
        feature_names = getattr(estimator, "feature_names_in_", None)
    if feature_names is None:
        return [f"feature_{index}" for index in range(estimator.n_features_in_)]
    feature_names = list(feature_names)
    if len(feature_names) != estimator.n_features_in_:
        raise ValueError(
            f"feature_names has {len(feature_names)} names but the tree was fitted on "
            f"{estimator.n_features_in_} features"
        )
    return [str(name) for name in feature_names]


def _leaf_class(estimator, node):
    """The class label a leaf predicts (its 0/1 ``label`` mapped back to ``classes_``)."""
    positive = estimator.tree_.label[node] == 1
    return estimator.classes_[estimator.positive_index_ if positive else 1 - estimator.positive_index_]


def _leaf_summary(estimator, node, decimals):
    tree = estimator.tree_
    cost = tree.cost[node, tree.label[node]]
    return (
        f"class: {_leaf_class(estimator, node)} (samples {tree.n_node_samples[node]}, "
        f"cost {cost:.{decimals}f})"
    )


def export_text(estimator, *, feature_names=None, decimals=2, max_depth=None):
    """Render the tree as indented text, one ``|---`` line per branch and leaf (like sklearn's
    ``export_text``).

    Leaves show the predicted class (Eq. 11 for the cost criterion), their number of training samples and the
    training cost of that label. The rendering is iterative, so a full-depth tree thousands of levels deep
    renders without reaching Python's recursion limit.

    Parameters
    ----------
    estimator : CostSensitiveDecisionTreeClassifier
        Fitted tree.
    feature_names : list of str, optional
        Defaults to ``feature_names_in_`` or ``feature_<i>``.
    decimals : int, default=2
        Digits of thresholds and costs.
    max_depth : int or None, default=None
        Render only nodes down to this depth (root = 0); a deeper subtree is replaced by one
        ``truncated branch of depth d`` line. ``None`` renders the whole tree.

    Returns
    -------
    str
    """
    if max_depth is not None and (
        isinstance(max_depth, bool) or not isinstance(max_depth, Integral) or max_depth < 0
    ):
        raise ValueError(f"max_depth must be a non-negative integer or None; got {max_depth!r}")
    names = _names(estimator, feature_names)
    tree = estimator.tree_
    subtree_depth = _subtree_depths(tree) if max_depth is not None else None
    lines = []
    # Stack of (node, indent) to render, or a ready line (str); popped last-in first-out.
    stack = [(0, 0)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            lines.append(item)
            continue
        node, indent = item
        prefix = "|   " * indent + "|--- "
        if tree.children_left[node] == LEAF:
            lines.append(prefix + _leaf_summary(estimator, node, decimals))
            continue
        if max_depth is not None and indent > max_depth:
            lines.append(f"{prefix}truncated branch of depth {subtree_depth[node]}")
            continue
        name, threshold = names[tree.feature[node]], tree.threshold[node]
        lines.append(f"{prefix}{name} <= {threshold:.{decimals}f}")
        stack.append((tree.children_right[node], indent + 1))
        stack.append(f"{prefix}{name} >  {threshold:.{decimals}f}")
        stack.append((tree.children_left[node], indent + 1))
    return "\n".join(lines) + "\n"


def _subtree_depths(tree):
    """Depth of the subtree under each node (0 for a leaf); children have larger ids (preorder)."""
    depths = np.zeros(tree.node_count, dtype=np.int64)
    for node in range(tree.node_count - 1, -1, -1):
        if tree.children_left[node] != LEAF:
            depths[node] = 1 + max(depths[tree.children_left[node]], depths[tree.children_right[node]])
    return depths


def export_graphviz(estimator, *, feature_names=None, decimals=2):
    """Render the tree in the Graphviz DOT language (``dot -Tpng``); returns the DOT source as a string.

    Every node shows its number of training samples, its weighted class counts and the training cost of
    labelling it negative / positive, ``[Cost(f0(S)), Cost(f1(S))]`` (CSDT Eq. 2-3); internal nodes add their
    split (the ``True`` edge is ``<=``), leaves the class they predict (Eq. 11 for the cost criterion).

    Parameters
    ----------
    estimator : CostSensitiveDecisionTreeClassifier
        Fitted tree.
    feature_names : list of str, optional
        Defaults to ``feature_names_in_`` or ``feature_<i>``.
    decimals : int, default=2
        Digits of thresholds, counts and costs.

    Returns
    -------
    str
    """
    names = _names(estimator, feature_names)
    tree = estimator.tree_
    lines = ["digraph CostSensitiveTree {", 'node [shape=box, style="rounded", fontname="helvetica"];']
    for node in range(tree.node_count):
        counts = ", ".join(f"{value:.{decimals}f}" for value in tree.value[node])
        costs = ", ".join(f"{value:.{decimals}f}" for value in tree.cost[node])
        if tree.children_left[node] == LEAF:
            text = f"class = {_dot_escape(_leaf_class(estimator, node))}"
        else:
            text = f"{_dot_escape(names[tree.feature[node]])} <= {tree.threshold[node]:.{decimals}f}"
        text += (
            f"\\nsamples = {tree.n_node_samples[node]}\\nclass counts = [{counts}]\\ncost(0, 1) = [{costs}]"
        )
        lines.append(f'{node} [label="{text}"];')
    for node in np.flatnonzero(tree.children_left != LEAF):
        lines.append(f'{node} -> {tree.children_left[node]} [label="True"];')
        lines.append(f'{node} -> {tree.children_right[node]} [label="False"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_escape(text):
    """Make a feature name or class label safe inside a double-quoted DOT string."""
    return str(text).replace("\\", "\\\\").replace('"', '\\"')
