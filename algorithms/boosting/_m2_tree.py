"""The presorted depth-3 tree: SMOTEBoost's and WOTBoost's weak learner, scikit-learn's tree for less work.

Every round of SMOTEBoost and WOTBoost fits ``DecisionTreeClassifier(max_depth=3)`` on the same ``n``
original rows (new weights ``D_t``) followed by ``N`` new synthetic rows, and scikit-learn sorts the rows of
every node of every round again. :class:`PresortedTreeSearch` learns the same tree with less work:

1. *Once per fit*, every feature of the fixed rows is sorted: their order never changes in a fit.
2. *Per call*, every feature of the ``N`` extra rows is sorted and merged into the fixed rows' order. A
   row of a feature is one 64-bit key, its float32 value's bits (made to sort like the value) above the
   row's number, so numpy's integer sort (vectorised) sorts the extra rows and the merge compares integers.
3. The tree grows *level by level*. A node's rows are one segment of every feature's sorted keys; the
   search scans each segment once, keeping running class sums (:func:`_running_sums`), bounds the score of
   every chunk of ``CHUNK`` rows from the sums at its ends (the score is convex in the left side's class
   weights) and scores exactly only the chunks that may hold the best split, as ``_stump.py`` does.
   After a level, one stable partition of every feature's segments (:func:`_partition`) makes each child's
   rows a segment in turn. No node sorts anything. The weights are first scaled by a power of two (an
   exact scaling: every score scales alike) so that the largest is about 1 and no square of a weight
   underflows or overflows.

A call costs a sort of ``N`` rows per feature and, per level, a pass and a partition of ``n + N`` rows per
feature, where scikit-learn sorts every node's rows per feature. ``benchmarks/bench_m2_learner.py`` times
both and the least work (one pass per level over every feature's merged rows: ``docs/benchmarks.md``, "The
M2 weak learner").

The tree learned (docs/algorithms.md §5.4)
------------------------------------------
scikit-learn's rules for ``DecisionTreeClassifier(max_depth=3)`` (gini, best splitter, every feature,
``min_samples_split=2``, ``min_samples_leaf=1``, ``min_weight_fraction_leaf=0``,
``min_impurity_decrease=0``), wherever they are observable:

- ``X`` is cast to float32 (``x`` below is the float32 value), and rows of zero weight take no part;
- a node is a leaf at ``max_depth``, with fewer than two rows, or when its Gini impurity
  ``1 - (w_0^2 + w_1^2) / w^2`` is at most the float64 machine epsilon (``w_k``: the node's weight of
  class ``k``, ``w = w_0 + w_1``);
- a node's candidate splits lie between two consecutive rows of the node sorted by ``x`` whose values
  differ by more than scikit-learn's ``1e-7`` (``x_next > x_prev + 1e-7`` in float32 arithmetic); the
  threshold is ``x_prev / 2 + x_next / 2`` in float64, and a row goes left when ``x <= threshold``;
- the best candidate maximises the weighted Gini proxy ``(wL_0^2 + wL_1^2) / wL + (wR_0^2 + wR_1^2) / wR``
  (the weighted Gini decrease up to a constant); among equal scores the lowest threshold wins; a node
  without a candidate is a leaf, and so is a node whose best split's impurity decrease is below
  ``-epsilon``;
- a node stores its class fractions ``w_k / w`` (``predict_proba`` of a leaf), its impurity, its row count
  and weight, and, when split, that a missing value would go to the side with more rows.

The result is a fitted ``DecisionTreeClassifier``: its ``tree_`` is built from those nodes, numbered as
scikit-learn numbers them (depth first, left child first), and predicts with scikit-learn's own code.

Where scikit-learn's outcome is arbitrary, this search differs:

- *Ties between features.* scikit-learn visits the features in a random order (from its ``random_state``)
  and keeps the first of equal best splits, so its seed picks among features that split a node equally
  well (two features separating a small node's classes perfectly, say). Here the lowest feature index
  wins. The fitted tree records the round's sub-seed as its ``random_state``; scikit-learn's tree fitted
  with it is the same tree unless two features tie.
- *Rounding.* A node's class sums are added from its own rows in sorted order (scikit-learn adds them in
  the order its partitioning leaves the rows, and computes a child's sums as its parent's minus the other
  child's), and the proxy is computed in the form above (scikit-learn's is
  ``-wR (1 - (wR_0^2 + wR_1^2) / wR^2) - wL (...)``). So two candidates whose scores differ only in the last
  bits may be ordered differently, a side whose weight rounds to zero is no candidate here, and a pure node
  (one class has no weight) always has impurity 0 and is a leaf, where scikit-learn's subtraction may leave
  a residue above its tolerance and split it into pure children that predict the same.

On data where none of these arises the tree is scikit-learn's: the same features, thresholds, row counts
and leaf class fractions (``tests/algorithms/boosting/test_m2_tree.py`` checks it against scikit-learn's
tree alone and round by round inside SMOTEBoost and WOTBoost fits). One thread: M2 fits run two at a time
in the pipeline's worker pool, and the machine's cores are shared.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types
from numba.extending import intrinsic
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree._tree import NODE_DTYPE, TREE_LEAF, TREE_UNDEFINED, Tree

__all__ = ["PresortedTreeSearch"]

#: scikit-learn's tree treats two sorted neighbours closer than this (added in float32) as one value.
FEATURE_THRESHOLD = np.float32(1e-7)
#: scikit-learn's tolerance for a pure node and for a split that does not lower the impurity.
EPSILON = float(np.finfo(np.float64).eps)
#: Sorted rows between two stored running sums (the unit of the exact rescan).
CHUNK = 64
#: Relative slack of a bound against rounding: a chunk is skipped only when its bound is lower than the best
#: score by more than this share.
PRUNING_SLACK = 1e-9
#: Rows transposed at a time while making the sort keys.
_KEY_BLOCK = 256
#: Rows of ``X`` made into keys from one C-ordered copy (so a column-ordered ``X`` is not copied whole).
_ROWS_PER_COPY = 1 << 16
_SIGN_BIT = np.uint32(0x80000000)
_EXPONENT_BITS = np.uint32(0x7F800000)
_ROW_BITS = np.uint64(0xFFFFFFFF)
_LARGEST_KEY = np.uint64(0xFFFFFFFFFFFFFFFF)


# ----------------------------------------------------------------------------------------- row keys
# A row of one feature is one 64-bit key: its float32 value's bits, flipped so that unsigned integers sort
# like the values, above the row's number. Sorting a feature's keys sorts its rows by value (equal values by
# row number); a key gives its row (the low 32 bits) and its value (:func:`_value_of`) back.
@njit(cache=True, nogil=True)
def _row_keys(X, first_row, keys, position, block):
    """Fill ``keys[f, position + i]`` with the key of row ``first_row + i`` for feature ``f`` (``X[i, f]`` as
    float32); return how many values are not finite as float32 (NaN, infinite, beyond float32's range).

    ``X`` is C-ordered; ``block`` (n_features, _KEY_BLOCK) float32 receives a block of its rows transposed,
    so ``X`` is read row by row and ``keys`` feature by feature.
    """
    n_rows, n_features = X.shape
    bits = block.view(np.uint32)
    not_finite = 0
    for first in range(0, n_rows, _KEY_BLOCK):
        stop = min(first + _KEY_BLOCK, n_rows)
        for i in range(first, stop):
            for feature in range(n_features):
                block[feature, i - first] = X[i, feature]  # scikit-learn's float32 cast
        for feature in range(n_features):
            for i in range(first, stop):
                pattern = bits[feature, i - first]
                not_finite += (pattern & _EXPONENT_BITS) == _EXPONENT_BITS
                ordered = np.uint32(~pattern if pattern & _SIGN_BIT else pattern | _SIGN_BIT)
                keys[feature, position + i] = (np.uint64(ordered) << np.uint64(32)) | np.uint64(first_row + i)
    return not_finite


@intrinsic
def _float32_from_bits(typingctx, bits):
    """The float32 whose bit pattern is the ``uint32`` ``bits`` (a reinterpretation, not a conversion)."""
    if bits != types.uint32:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(types.float32))

    return types.float32(types.uint32), codegen


@njit(cache=True, nogil=True)
def _row_of(key):
    """The row a key holds."""
    return np.int64(key & _ROW_BITS)


@njit(cache=True, nogil=True)
def _value_of(key):
    """The float32 value a row key holds."""
    ordered = np.uint32(key >> np.uint64(32))
    return _float32_from_bits(np.uint32(ordered ^ _SIGN_BIT if ordered & _SIGN_BIT else ~ordered))


@njit(cache=True, nogil=True)
def _merge_keys(fixed_keys, extra_keys, merged_keys):
    """Merge every feature's fixed rows (sorted once) and extra rows (sorted this call), both end-marked.

    Branch-free, two features in one loop: each step's choice waits on the loads its previous choice
    addressed, and two independent features overlap those waits.
    """
    n_features = merged_keys.shape[0]
    for first in range(0, n_features, 2):
        second = min(first + 1, n_features - 1)  # an odd count merges its last feature twice
        first_fixed = first_extra = second_fixed = second_extra = 0
        for position in range(merged_keys.shape[1]):
            fixed_key, extra_key = fixed_keys[first, first_fixed], extra_keys[first, first_extra]
            take_fixed = fixed_key <= extra_key
            merged_keys[first, position] = fixed_key if take_fixed else extra_key
            first_fixed += take_fixed
            first_extra += 1 - take_fixed
            fixed_key, extra_key = fixed_keys[second, second_fixed], extra_keys[second, second_extra]
            take_fixed = fixed_key <= extra_key
            merged_keys[second, position] = fixed_key if take_fixed else extra_key
            second_fixed += take_fixed
            second_extra += 1 - take_fixed


# ---------------------------------------------------------------------------------------- partitions
@njit(cache=True, nogil=True)
def _partition(keys, goes_left, segments, scratch):
    """Split every feature's segments in place, stably: the rows that go left first, then the others.

    ``segments`` holds ``(start, split, stop)`` per segment, ``split - start`` of whose rows go left. Every
    key is written to both sides, at the left cursor (over a key already read) and at the right cursor of
    ``scratch``, and only its own side's cursor advances, so the loop has no branch to mispredict; the right
    rows are then copied back behind the left ones.
    """
    for feature in range(keys.shape[0]):
        feature_keys = keys[feature]
        for segment in range(segments.shape[0]):
            start, split, stop = segments[segment, 0], segments[segment, 1], segments[segment, 2]
            left, right = start, 0
            for position in range(start, stop):
                key = feature_keys[position]
                to_left = np.int64(goes_left[_row_of(key)])
                feature_keys[left] = key
                scratch[right] = key
                left += to_left
                right += 1 - to_left
            feature_keys[split:stop] = scratch[: stop - split]


@njit(cache=True, nogil=True)
def _class_sums(keys, signed_weights, start, stop, goes_left, to_left):
    """Class weights ``(w_0, w_1)`` of the rows ``keys[start:stop]``, each marked ``goes_left = to_left``.

    A signed weight carries the class (positive: class 1); every row adds its weight to its class and 0 to
    the other, which leaves it unchanged, so a pure side sums to exactly 0 for the absent class.
    """
    weight_0 = weight_1 = 0.0
    for position in range(start, stop):
        row = _row_of(keys[position])
        goes_left[row] = to_left
        weight = signed_weights[row]
        weight_1 += max(weight, 0.0)
        weight_0 += max(-weight, 0.0)
    return weight_0, weight_1


# ----------------------------------------------------------------------------------------- the search
@njit(cache=True, nogil=True)
def _gini_proxy(left_0, left_1, right_0, right_1):
    """``(wL_0^2 + wL_1^2) / wL + (wR_0^2 + wR_1^2) / wR``; ``-inf`` when a side's weight rounds to zero."""
    left = left_0 + left_1
    right = right_0 + right_1
    if left <= 0.0 or right <= 0.0:
        return -np.inf
    return (left_0 * left_0 + left_1 * left_1) / left + (right_0 * right_0 + right_1 * right_1) / right


@njit(cache=True, nogil=True)
def _side_term(weight_0, weight_1):
    """One side's term of :func:`_gini_proxy`, 0 for an empty side: convex in ``(weight_0, weight_1)``."""
    weight = weight_0 + weight_1
    return (weight_0 * weight_0 + weight_1 * weight_1) / weight if weight > 0.0 else 0.0


@njit(cache=True, nogil=True)
def _chunk_bound(running_sums, chunk, totals):
    """Upper bound of the score of every candidate in ``chunk``.

    A candidate's left class weights lie in the box spanned by the running sums before and after the chunk,
    and the score (the two sides' terms, the right side holding the rest of ``totals``) is convex in them,
    so it is largest at a corner of the box.
    """
    bound = -np.inf
    for left_0 in (running_sums[chunk, 0], running_sums[chunk + 1, 0]):
        for left_1 in (running_sums[chunk, 1], running_sums[chunk + 1, 1]):
            right_0, right_1 = max(totals[0] - left_0, 0.0), max(totals[1] - left_1, 0.0)
            bound = max(bound, _side_term(left_0, left_1) + _side_term(right_0, right_1))
    return bound


@njit(cache=True, nogil=True)
def _scan_chunk(keys, signed_weights, start, stop, chunk, running_sums, totals, feature, best):
    """Score every candidate of one chunk of the segment ``keys[start:stop]``; keep the best in ``best``.

    ``best`` is ``(score, feature, position, threshold, wL_0, wL_1)``, ``position`` counted from ``start``
    (the left side's row count). A candidate sits at a position whose value exceeds the previous row's by
    more than :data:`FEATURE_THRESHOLD` (float32); it replaces the best when it scores higher, or as high at
    a lower position of the same feature (features are searched in increasing order).
    """
    first = start + chunk * CHUNK
    left_0, left_1 = running_sums[chunk, 0], running_sums[chunk, 1]
    previous = _value_of(keys[first - 1]) if first > start else np.float32(np.inf)
    for position in range(first, min(first + CHUNK, stop)):
        key = keys[position]
        value = _value_of(key)
        if value > previous + FEATURE_THRESHOLD:
            score = _gini_proxy(left_0, left_1, totals[0] - left_0, totals[1] - left_1)
            offset = position - start
            if score > best[0] or (score == best[0] and best[1] == feature and offset < best[2]):
                best[0], best[1], best[2] = score, feature, offset
                best[3] = previous / 2.0 + value / 2.0  # float64 from the float32 values: scikit-learn's form
                best[4], best[5] = left_0, left_1
        weight = signed_weights[_row_of(key)]
        left_1 += max(weight, 0.0)
        left_0 += max(-weight, 0.0)
        previous = value


@njit(cache=True, nogil=True)
def _running_sums(keys, signed_weights, start, stop, features, running_sums):
    """The running class sums before every chunk of ``CHUNK`` rows of the segment ``[start, stop)``.

    ``running_sums[k, chunk]`` receives ``(w_0, w_1)`` of the rows before ``chunk`` in the order of feature
    ``features[k]`` (two features, or one twice), its last entry the segment's totals. The two features are
    summed in one loop, so that their chains of additions overlap.
    """
    first, second = features
    n_chunks = (stop - start + CHUNK - 1) // CHUNK
    first_0 = first_1 = second_0 = second_1 = 0.0
    for chunk in range(n_chunks + 1):
        running_sums[0, chunk, 0], running_sums[0, chunk, 1] = first_0, first_1
        running_sums[1, chunk, 0], running_sums[1, chunk, 1] = second_0, second_1
        for position in range(start + chunk * CHUNK, min(start + (chunk + 1) * CHUNK, stop)):
            first_weight = signed_weights[_row_of(keys[first, position])]
            second_weight = signed_weights[_row_of(keys[second, position])]
            first_1 += max(first_weight, 0.0)
            first_0 += max(-first_weight, 0.0)
            second_1 += max(second_weight, 0.0)
            second_0 += max(-second_weight, 0.0)


@njit(cache=True, nogil=True)
def _search_segment(keys, signed_weights, start, stop, totals, feature, best, running_sums, bounds):
    """The best split of one node (the sorted segment ``keys[start:stop]`` of one feature) into ``best``.

    Given the running class sums before every chunk (:func:`_running_sums`), each chunk's bound
    (:func:`_chunk_bound`) decides whether it is scanned exactly (:func:`_scan_chunk`): the chunk with the
    highest bound first, then every chunk whose bound reaches the best score so far. The result is the plain
    scan's (every candidate scored in order), up to :data:`PRUNING_SLACK` of rounding.
    """
    n_chunks = (stop - start + CHUNK - 1) // CHUNK
    top = 0
    for chunk in range(n_chunks):
        bounds[chunk] = _chunk_bound(running_sums, chunk, totals)
        if bounds[chunk] > bounds[top]:
            top = chunk
    _scan_chunk(keys, signed_weights, start, stop, top, running_sums, totals, feature, best)
    for chunk in range(n_chunks):
        slack = PRUNING_SLACK * (totals[0] + totals[1] + abs(best[0]))
        if chunk != top and bounds[chunk] >= best[0] - slack:
            _scan_chunk(keys, signed_weights, start, stop, chunk, running_sums, totals, feature, best)


@njit(cache=True, nogil=True)
def _search_level(keys, signed_weights, segments, totals, best):
    """The best split of every node of a level (``segments[s] = (start, stop)``, class ``totals[s]``).

    ``best[s]`` (preset to a ``-inf`` score and feature ``-1``) receives the node's best
    ``(score, feature, position, threshold, wL_0, wL_1)``. Features are taken two at a time
    (:func:`_running_sums`) and searched in increasing order.
    """
    longest = 1
    for segment in range(segments.shape[0]):
        longest = max(longest, segments[segment, 1] - segments[segment, 0])
    n_chunks = (longest + CHUNK - 1) // CHUNK
    running_sums = np.empty((2, n_chunks + 1, 2))
    bounds = np.empty(n_chunks)
    n_features = keys.shape[0]
    for first in range(0, n_features, 2):
        features = (first, min(first + 1, n_features - 1))  # an odd count sums its last feature twice
        for segment in range(segments.shape[0]):
            start, stop = segments[segment, 0], segments[segment, 1]
            _running_sums(keys, signed_weights, start, stop, features, running_sums)
            for k in range(2 if features[1] > features[0] else 1):
                _search_segment(
                    keys[features[k]],
                    signed_weights,
                    start,
                    stop,
                    totals[segment],
                    features[k],
                    best[segment],
                    running_sums[k],
                    bounds,
                )


# ------------------------------------------------------------------------------------------------ checks
def _checked_rows(X, name, n_features):
    """``X`` as a float64 or float32 array of ``n_features`` columns (any layout)."""
    X = np.asarray(X)
    if X.ndim != 2 or X.dtype not in (np.float64, np.float32):
        raise ValueError(f"{name} must be a 2-D float64 or float32 array; got {X.dtype} of shape {X.shape}")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(f"{name} must have {n_features} columns, like the fixed rows; got {X.shape[1]}")
    return X


def _sorted_keys(X, name, first_row, keys, block):
    """Fill ``keys`` with the row keys of ``X`` (:func:`_row_keys`), each feature's sorted by value, and the
    end mark (the largest key) in its last column.

    ``X`` is read :data:`_ROWS_PER_COPY` rows at a time (a C-ordered copy of them when it is laid out
    otherwise, not a copy of all of it); numpy sorts the 64-bit integers (vectorised where the CPU allows).
    Values that are not finite as float32 are refused.
    """
    not_finite = 0
    for start in range(0, X.shape[0], _ROWS_PER_COPY):
        rows = np.ascontiguousarray(X[start : start + _ROWS_PER_COPY])
        not_finite += _row_keys(rows, first_row + start, keys, start, block)
    if not_finite:
        raise ValueError(
            f"{name} must hold finite values within float32's range (the tree compares features as float32)"
        )
    keys[:, X.shape[0]] = _LARGEST_KEY
    keys[:, : X.shape[0]].sort(axis=1)


def _check_labels_and_weights(labels, weights, n_fixed, n_extra):
    """Refuse labels other than 0 / 1 and weights that are negative, not finite or all zero, naming rows."""
    n_rows = n_fixed + n_extra
    if labels.shape != (n_rows,) or weights.shape != (n_rows,):
        raise ValueError(
            f"labels and weights need one value per row ({n_fixed} fixed + {n_extra} extra); got shapes "
            f"{labels.shape} and {weights.shape}"
        )
    if n_rows >= np.iinfo(np.int32).max:
        raise ValueError(f"{n_rows} rows; at most {np.iinfo(np.int32).max - 1} are supported")
    bad = np.flatnonzero((labels != 0) & (labels != 1))
    if bad.size:
        raise ValueError(f"labels must be 0 or 1; other values at rows {bad[:10].tolist()}")
    bad = np.flatnonzero(~(np.isfinite(weights) & (weights >= 0.0)))
    if bad.size:
        raise ValueError(f"weights must be finite and non-negative; bad values at rows {bad[:10].tolist()}")
    if not weights.sum() > 0.0:
        raise ValueError("the weights sum to zero; at least one row needs a positive weight")


# ------------------------------------------------------------------------------------------- the tree
@dataclass
class _Node:
    """A node of the tree being grown: its rows (a segment of every feature's sorted keys) and its split."""

    depth: int
    start: int
    stop: int
    sums: tuple[float, float]
    feature: int = TREE_UNDEFINED
    threshold: float = TREE_UNDEFINED
    split: int = -1  # keys [start, split) of the split feature's segment go left
    children: tuple[int, int] | None = None

    @property
    def count(self):
        return self.stop - self.start

    @property
    def weight(self):
        return self.sums[0] + self.sums[1]

    @property
    def impurity(self):
        return _gini(*self.sums)


def _gini(weight_0, weight_1):
    """The Gini impurity ``1 - (w_0^2 + w_1^2) / w^2`` of class weights ``w_0, w_1``, from the fractions
    ``w_k / w`` (so weights whose squares underflow still give it); 0 without weight."""
    weight = weight_0 + weight_1
    if not weight > 0.0:
        return 0.0
    fraction_0, fraction_1 = weight_0 / weight, weight_1 / weight
    return 1.0 - (fraction_0 * fraction_0 + fraction_1 * fraction_1)


def _impurity_decrease(node, left_sums, total_weight):
    """scikit-learn's impurity improvement of a split of ``node`` whose left side weighs ``left_sums``."""
    right_sums = (node.sums[0] - left_sums[0], node.sums[1] - left_sums[1])
    return (node.weight / total_weight) * (
        node.impurity
        - sum(right_sums) / node.weight * _gini(*right_sums)
        - sum(left_sums) / node.weight * _gini(*left_sums)
    )


def _tree_arrays(nodes, n_classes):
    """scikit-learn's node records and value array of ``nodes`` (by level-order index), numbered depth first
    with the left child first, as scikit-learn's builder numbers them."""
    order, stack = [], [0]
    while stack:
        index = stack.pop()
        order.append(index)
        if nodes[index].children is not None:
            stack.extend(reversed(nodes[index].children))
    number = {index: position for position, index in enumerate(order)}
    records = np.zeros(len(order), dtype=NODE_DTYPE)
    values = np.ones((len(order), 1, n_classes))
    for position, index in enumerate(order):
        node = nodes[index]
        record = records[position]
        record["impurity"] = node.impurity
        record["n_node_samples"] = node.count
        record["weighted_n_node_samples"] = node.weight
        record["feature"], record["threshold"] = node.feature, node.threshold
        record["left_child"] = record["right_child"] = TREE_LEAF
        if node.children is not None:
            record["left_child"], record["right_child"] = (number[child] for child in node.children)
            record["missing_go_to_left"] = node.split - node.start > node.stop - node.split
        if n_classes == 2:
            values[position, 0] = np.asarray(node.sums) / node.weight
    return records, values


class PresortedTreeSearch:
    """Fit scikit-learn's depth-limited Gini tree on fixed rows (sorted once) plus each call's extra rows.

    The fixed rows ``X`` are cast to float32 and sorted per feature here, once; each :meth:`fit` sorts its
    extra rows, merges them in and grows the tree level by level (the module docstring gives the rules and
    the two differences from scikit-learn). Memory: 8 bytes per value of ``X`` (its sorted keys) and, kept
    between calls, 8 per value of the extra rows and 8 per value of all rows (their merged keys). One search
    serves one caller at a time.

    Parameters
    ----------
    X : ndarray of shape (n_fixed, n_features)
        The fixed rows: float64 or float32 values, finite as float32.
    max_depth : int, default=3
        Depth of the tree (``DecisionTreeClassifier``'s ``max_depth``).

    Examples
    --------
    >>> import numpy as np
    >>> search = PresortedTreeSearch(np.array([[0.0], [1.0], [2.0], [3.0]]), max_depth=1)
    >>> tree = search.fit([0, 0, 1, 0], np.full(4, 0.25), np.array([[2.5]]), [1], [0.5])
    >>> float(tree.tree_.threshold[0]), tree.predict_proba([[3.0]]).tolist()
    (1.5, [[0.25, 0.75]])
    """

    def __init__(self, X, max_depth=3):
        X = _checked_rows(X, "X", None)
        if int(max_depth) < 1:
            raise ValueError(f"max_depth must be at least 1; got {max_depth!r}")
        self.max_depth = int(max_depth)
        self.n_fixed, self.n_features = X.shape
        self._block = np.empty((self.n_features, _KEY_BLOCK), dtype=np.float32)
        self.fixed_keys = np.empty((self.n_features, self.n_fixed + 1), dtype=np.uint64)
        _sorted_keys(X, "X", 0, self.fixed_keys, self._block)
        self._buffers = None

    def _buffers_for(self, n_extra):
        """The per-call buffers, kept between calls with the same number of extra rows."""
        n_rows = self.n_fixed + n_extra
        if self._buffers is None or self._buffers["merged_keys"].shape[1] != n_rows:
            self._buffers = {
                "extra_keys": np.empty((self.n_features, n_extra + 1), dtype=np.uint64),
                "merged_keys": np.empty((self.n_features, n_rows), dtype=np.uint64),
                "scratch": np.empty(n_rows, dtype=np.uint64),
                "goes_left": np.empty(n_rows, dtype=np.bool_),
            }
        return self._buffers

    def fit(self, y01, weights, X_extra=None, y01_extra=None, weights_extra=None, *, random_state=None):
        """Fit the tree on the fixed rows (labels ``y01``, ``weights``) followed by the extra rows.

        Parameters
        ----------
        y01 : array-like of shape (n_fixed,)
            Labels of the fixed rows, 0 or 1.
        weights : array-like of shape (n_fixed,)
            Their non-negative weights.
        X_extra : ndarray of shape (n_extra, n_features), optional
            Rows added for this call only (a round's synthetic rows), float64 or float32.
        y01_extra, weights_extra : array-like of shape (n_extra,), optional
            Their labels (0 or 1) and non-negative weights.
        random_state : int or None, default=None
            Recorded as the fitted tree's ``random_state``: the seed scikit-learn's tree would be given.

        Returns
        -------
        DecisionTreeClassifier
            The tree ``DecisionTreeClassifier(max_depth=max_depth, random_state=random_state).fit`` learns on
            the rows, one after the other, with the weights as ``sample_weight`` (up to the two differences
            of the module docstring): ``classes_`` the labels present, ``tree_`` the grown tree.
        """
        X_extra = _checked_rows(
            np.empty((0, self.n_features)) if X_extra is None else X_extra, "X_extra", self.n_features
        )
        y01 = np.asarray(y01)
        labels = np.concatenate([y01, np.zeros(0, y01.dtype) if y01_extra is None else np.asarray(y01_extra)])
        extra_weights = np.zeros(0) if weights_extra is None else np.asarray(weights_extra, dtype=np.float64)
        signed_weights = np.concatenate([np.asarray(weights, dtype=np.float64), extra_weights])
        n_extra = X_extra.shape[0]
        _check_labels_and_weights(labels, signed_weights, self.n_fixed, n_extra)
        buffers = self._buffers_for(n_extra)
        _sorted_keys(X_extra, "X_extra", self.n_fixed, buffers["extra_keys"], self._block)
        _merge_keys(self.fixed_keys, buffers["extra_keys"], buffers["merged_keys"])
        np.not_equal(signed_weights, 0.0, out=buffers["goes_left"])  # the rows that take part
        # Scaled by a power of two, exactly, so that the largest weight is about 1: every score scales alike
        # (the same comparisons), and squares of tiny or huge weights neither underflow nor overflow.
        scale = np.frexp(signed_weights.max())[1]
        np.ldexp(signed_weights, -scale, out=signed_weights)
        np.negative(signed_weights, out=signed_weights, where=labels == 0)
        nodes = self._grow(buffers, signed_weights)
        present = np.bincount(labels.astype(np.int64, copy=False), minlength=2) > 0
        return self._fitted_tree(nodes, np.flatnonzero(present).astype(labels.dtype), random_state, scale)

    def _grow(self, buffers, signed_weights):
        """Grow the tree level by level on the merged keys (``goes_left`` marking the rows of positive
        weight); return its nodes by level-order index."""
        keys, goes_left, scratch = buffers["merged_keys"], buffers["goes_left"], buffers["scratch"]
        n_rows = keys.shape[1]
        n_weighted = int(np.count_nonzero(goes_left))  # rows of positive weight, marked by fit
        if n_weighted < n_rows:  # rows of zero weight take no part: move them behind the others
            _partition(keys, goes_left, np.array([[0, n_weighted, n_rows]]), scratch)
        nodes = {
            0: _Node(0, 0, n_weighted, _class_sums(keys[0], signed_weights, 0, n_weighted, goes_left, True))
        }
        total_weight = nodes[0].weight
        level = [0]
        for depth in range(self.max_depth):
            searched = [
                index for index in level if nodes[index].count >= 2 and nodes[index].impurity > EPSILON
            ]
            if not searched:
                break
            best = np.zeros((len(searched), 6))
            best[:, 0], best[:, 1] = -np.inf, -1
            segments = np.array(
                [(nodes[index].start, nodes[index].stop) for index in searched], dtype=np.int64
            )
            _search_level(
                keys, signed_weights, segments, np.array([nodes[index].sums for index in searched]), best
            )
            level, splits = [], []
            for index, (score, feature, offset, threshold, left_0, left_1) in zip(
                searched, best, strict=True
            ):
                node = nodes[index]
                if score == -np.inf or _impurity_decrease(node, (left_0, left_1), total_weight) + EPSILON < 0:
                    continue  # no candidate (every feature constant), or no decrease beyond rounding
                node.feature, node.threshold = int(feature), float(threshold)
                node.split, node.children = node.start + int(offset), (2 * index + 1, 2 * index + 2)
                for child, start, stop, to_left in (
                    (node.children[0], node.start, node.split, True),
                    (node.children[1], node.split, node.stop, False),
                ):
                    sums = _class_sums(keys[node.feature], signed_weights, start, stop, goes_left, to_left)
                    nodes[child] = _Node(depth + 1, start, stop, sums)
                level.extend(node.children)
                splits.append((node.start, node.split, node.stop))
            if splits and depth + 1 < self.max_depth:
                _partition(keys, goes_left, np.array(splits, dtype=np.int64), scratch)
        return nodes

    def _fitted_tree(self, nodes, classes, random_state, scale):
        """A fitted ``DecisionTreeClassifier`` whose ``tree_`` holds ``nodes`` (their weights times
        ``2**scale``, back in the caller's units)."""
        records, values = _tree_arrays(nodes, classes.size)
        np.ldexp(records["weighted_n_node_samples"], scale, out=records["weighted_n_node_samples"])
        tree = DecisionTreeClassifier(max_depth=self.max_depth, random_state=random_state)
        tree.n_features_in_ = self.n_features
        tree.n_outputs_ = 1
        tree.classes_ = classes
        tree.n_classes_ = np.int64(classes.size)
        tree.max_features_ = self.n_features
        tree.tree_ = Tree(self.n_features, np.array([classes.size], dtype=np.intp), 1)
        depth = max(node.depth for node in nodes.values())
        tree.tree_.__setstate__(
            {"max_depth": depth, "node_count": len(records), "nodes": records, "values": values}
        )
        return tree
