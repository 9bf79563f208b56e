"""The fitted tree as parallel node arrays (like scikit-learn's ``Tree``), numbered in depth-first preorder.

Preorder numbering makes every subtree a contiguous block of node ids ``[node, node + subtree_size)``, which
pruning uses to drop subtrees and renumber the rest with one cumulative sum.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

__all__ = ["LEAF", "NodeArrays"]

#: Child id of a leaf (scikit-learn's ``TREE_LEAF``).
LEAF = -1


class NodeArrays:
    """A binary decision tree stored as arrays indexed by node id (0 is the root).

    Attributes
    ----------
    children_left, children_right : ndarray of int
        Child ids, :data:`LEAF` for leaves. A sample goes left iff ``x[feature] <= threshold``.
    feature : ndarray of int
        Split feature of internal nodes (-2 for leaves, as in scikit-learn).
    threshold : ndarray of float
        Split threshold of internal nodes (-2.0 for leaves).
    value : ndarray of shape (n_nodes, 2)
        Weighted training class counts ``[negative, positive]`` of each node.
    cost : ndarray of shape (n_nodes, 2)
        Weighted training cost of predicting the whole node negative / positive: ``Cost(f0(S))``,
        ``Cost(f1(S))`` (CSDT Eq. 2-3).
    impurity : ndarray of float
        Criterion impurity of each node (Eq. 10 for the cost criterion).
    label : ndarray of int
        Predicted class (0/1, 1 = positive) if the node is a leaf (Eq. 11 for the cost criterion).
    n_node_samples : ndarray of int
        Training samples reaching the node.
    depth : ndarray of int
        Depth of the node (root 0).
    """

    FIELDS = (
        "children_left",
        "children_right",
        "feature",
        "threshold",
        "value",
        "cost",
        "impurity",
        "label",
        "n_node_samples",
        "depth",
    )

    def __init__(self, **arrays):
        missing = set(self.FIELDS) - set(arrays)
        if missing:
            raise ValueError(f"NodeArrays is missing field(s) {sorted(missing)}")
        for name in self.FIELDS:
            setattr(self, name, np.asarray(arrays[name]))

    @property
    def node_count(self):
        """Number of nodes (internal and leaves)."""
        return int(self.children_left.shape[0])

    @property
    def n_internal_nodes(self):
        """Number of splits (the tree size the CSDT paper reports)."""
        return int(np.count_nonzero(self.children_left != LEAF))

    @property
    def n_leaves(self):
        return self.node_count - self.n_internal_nodes

    @property
    def max_depth(self):
        return int(self.depth.max())

    def subtree_sizes(self):
        """Number of nodes in the subtree rooted at each node (itself included)."""
        sizes = np.ones(self.node_count, dtype=np.int64)
        for node in range(self.node_count - 1, -1, -1):  # preorder: children have larger ids
            if self.children_left[node] != LEAF:
                sizes[node] += sizes[self.children_left[node]] + sizes[self.children_right[node]]
        return sizes

    def parents(self):
        """Parent id of each node (-1 for the root)."""
        parent = np.full(self.node_count, -1, dtype=np.int64)
        internal = np.flatnonzero(self.children_left != LEAF)
        parent[self.children_left[internal]] = internal
        parent[self.children_right[internal]] = internal
        return parent

    def apply(self, X):
        """Leaf id reached by each row of ``X`` (vectorised: one pass per tree level)."""
        node = np.zeros(X.shape[0], dtype=np.int64)
        active = np.flatnonzero(self.children_left[node] != LEAF)
        while active.size:
            current = node[active]
            goes_left = X[active, self.feature[current]] <= self.threshold[current]
            node[active] = np.where(goes_left, self.children_left[current], self.children_right[current])
            active = active[self.children_left[node[active]] != LEAF]
        return node

    def decision_path(self, X):
        """Sparse indicator (n_samples, n_nodes) of the nodes each row passes through (CSR)."""
        n_samples = X.shape[0]
        rows, cols = [np.arange(n_samples)], [np.zeros(n_samples, dtype=np.int64)]
        node = np.zeros(n_samples, dtype=np.int64)
        active = np.flatnonzero(self.children_left[node] != LEAF)
        while active.size:
            current = node[active]
            goes_left = X[active, self.feature[current]] <= self.threshold[current]
            node[active] = np.where(goes_left, self.children_left[current], self.children_right[current])
            rows.append(active)
            cols.append(node[active])
            active = active[self.children_left[node[active]] != LEAF]
        rows, cols = np.concatenate(rows), np.concatenate(cols)
        indicator = sparse.csr_matrix(
            (np.ones(rows.shape[0], dtype=np.int64), (rows, cols)), shape=(n_samples, self.node_count)
        )
        indicator.sort_indices()
        return indicator

    def collapse(self, collapsed):
        """A new tree in which every node of ``collapsed`` becomes a leaf and its descendants disappear.

        Parameters
        ----------
        collapsed : array-like of int
            Ids of internal nodes to turn into leaves (their training statistics and labels are kept).

        Returns
        -------
        NodeArrays
            Renumbered in preorder.
        """
        sizes = self.subtree_sizes()
        keep = np.ones(self.node_count + 1, dtype=np.int64)
        for node in np.asarray(collapsed, dtype=np.int64):
            keep[node + 1 : node + sizes[node]] = 0
        keep = keep[:-1].astype(bool)
        is_leaf = self.children_left == LEAF
        is_leaf[np.asarray(collapsed, dtype=np.int64)] = True
        new_id = np.cumsum(keep) - 1
        arrays = {name: getattr(self, name)[keep] for name in self.FIELDS}
        kept_leaf = is_leaf[keep]
        arrays["children_left"] = np.where(
            kept_leaf, LEAF, new_id[np.where(kept_leaf, 0, arrays["children_left"])]
        )
        arrays["children_right"] = np.where(
            kept_leaf, LEAF, new_id[np.where(kept_leaf, 0, arrays["children_right"])]
        )
        arrays["feature"] = np.where(kept_leaf, -2, arrays["feature"])
        arrays["threshold"] = np.where(kept_leaf, -2.0, arrays["threshold"])
        return NodeArrays(**arrays)
