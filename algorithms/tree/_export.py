"""Text and Graphviz (DOT) renderings of a fitted cost-sensitive tree."""

from __future__ import annotations

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


def _leaf_summary(estimator, node, decimals):
    tree = estimator.tree_
    label = estimator.classes_[
        estimator.positive_index_ if tree.label[node] == 1 else 1 - estimator.positive_index_
    ]
    cost = tree.cost[node, tree.label[node]]
    return f"class: {label} (samples {tree.n_node_samples[node]}, cost {cost:.{decimals}f})"


def export_text(estimator, *, feature_names=None, decimals=2):
    """Render the tree as indented text, one ``|---`` line per branch and leaf (like sklearn's
    ``export_text``).

    Parameters
    ----------
    estimator : CostSensitiveDecisionTreeClassifier
        Fitted tree.
    feature_names : list of str, optional
        Defaults to ``feature_names_in_`` or ``feature_<i>``.
    decimals : int, default=2
        Digits of thresholds and costs.

    Returns
    -------
    str
    """
    names = _names(estimator, feature_names)
    tree = estimator.tree_
    lines = []

    def render(node, indent):
        prefix = "|   " * indent + "|--- "
        if tree.children_left[node] == LEAF:
            lines.append(prefix + _leaf_summary(estimator, node, decimals))
            return
        name, threshold = names[tree.feature[node]], tree.threshold[node]
        lines.append(f"{prefix}{name} <= {threshold:.{decimals}f}")
        render(tree.children_left[node], indent + 1)
        lines.append(f"{prefix}{name} >  {threshold:.{decimals}f}")
        render(tree.children_right[node], indent + 1)

    render(0, 0)
    return "\n".join(lines) + "\n"


def export_graphviz(estimator, *, feature_names=None, decimals=2):
    """Render the tree in the Graphviz DOT language (``dot -Tpng``); returns the DOT source as a string.

    Internal nodes show the split, the number of samples, the weighted class counts and the cost of labelling
    the node each way; leaves show the predicted class and its cost.
    """
    names = _names(estimator, feature_names)
    tree = estimator.tree_
    lines = ["digraph CostSensitiveTree {", 'node [shape=box, style="rounded", fontname="helvetica"];']
    for node in range(tree.node_count):
        counts = ", ".join(f"{value:.{decimals}f}" for value in tree.value[node])
        costs = ", ".join(f"{value:.{decimals}f}" for value in tree.cost[node])
        if tree.children_left[node] == LEAF:
            text = _leaf_summary(estimator, node, decimals)
        else:
            text = f"{names[tree.feature[node]]} <= {tree.threshold[node]:.{decimals}f}"
        text += (
            f"\\nsamples = {tree.n_node_samples[node]}\\nclass counts = [{counts}]\\ncost(0, 1) = [{costs}]"
        )
        lines.append(f'{node} [label="{text.replace(chr(34), chr(39))}"];')
    for node in np.flatnonzero(tree.children_left != LEAF):
        lines.append(f'{node} -> {tree.children_left[node]} [label="True"];')
        lines.append(f'{node} -> {tree.children_right[node]} [label="False"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
