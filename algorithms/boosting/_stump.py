"""The fast weighted decision stump: the default weak learner of every boosting method.

A decision stump is a depth-1 tree: one feature, one threshold, two leaves. Boosting fits one per round on
the same ``X`` with new weights, so :class:`PresortedStumpSearch` sorts every feature once and then answers
each round in O(n * m) with running (cumulative) weighted class sums: the cost the AdaCC paper assumes for a
stump (Section 4.2, "Time complexity"), whose experiments use depth-1 trees for every method (Section 5;
docs/algorithms.md §1).
:class:`DecisionStump` is the same search behind the scikit-learn classifier API.

Split criteria (``criterion``), for a candidate split into a left leaf L and a right leaf R with weighted
class sums ``w_L0, w_L1`` and ``w_R0, w_R1``:

- ``"gini"``: maximise the weighted Gini decrease, i.e. maximise
  ``sum_k w_Lk^2 / w_L + sum_k w_Rk^2 / w_R`` (the parent's impurity is a constant);
- ``"entropy"``: maximise the weighted entropy decrease, i.e. maximise
  ``sum_k w_Lk ln(w_Lk / w_L) + sum_k w_Rk ln(w_Rk / w_R)`` (``= -w_L H_L - w_R H_R``);
- ``"error"``: minimise the weighted misclassification of the leaves' majority labels,
  ``min(w_L0, w_L1) + min(w_R0, w_R1)``, i.e. the misclassified mass ``sum_{i: y_i != h(x_i)} D(i)`` in the
  denominator of AdaBoost's alpha (AdaCC paper, Eq. 2).

Candidate splits follow ``DecisionTreeClassifier(max_depth=1)``: samples of zero weight take no part (the
tree drops them), a split lies between two consecutive *distinct* values of the positively weighted samples,
its threshold is their midpoint (``a / 2 + b / 2``) and a sample goes left when ``x <= threshold``. Each leaf
holds at least one positively weighted sample. On data without ties this picks the same feature and threshold
as scikit-learn's tree for ``"gini"`` and ``"entropy"``. Two documented differences: scikit-learn casts ``X``
to float32 and treats values closer than 1e-7 as equal (here values keep their dtype, float64 or float32, and
are compared exactly), and it visits features in a random order, so exact ties between features may resolve
differently (here the lowest feature index, then the lowest threshold, wins). float32 and float64 copies of
the same values give the same stump: thresholds are computed in float64 from the float32 values, and the
features are sorted as float64.

How a round is searched (exact, at the cost of one pass over the presorted rows)
-------------------------------------------------------------------------------
Per fit, every feature is sorted once (an int32 order per feature, stored contiguously) with a mask of the
sorted positions where the value rises; only the weights change between rounds. Per round:

1. *Boundary sums* (:func:`_boundary_sums`): one compiled pass per feature over its sorted rows gathers the
   signed weights (the sign carries the class) and keeps the two running class sums, storing them every
   ``CHUNK`` rows. Two features share one loop, so their chains of additions overlap. This pass is the least
   work of any exact search (a gather and a running sum per sample and feature).
2. *Bounds* (:func:`_box_bound`): the score of a split is a convex function of the left leaf's class sums
   ``(w_L0, w_L1)``: each leaf term is the perspective of a convex function of the class fraction
   (``t^2 + (1 - t)^2`` for gini, ``t ln t + (1 - t) ln(1 - t)`` for entropy) or minus a minimum (error),
   and the right leaf's sums are the totals minus the left's. Running sums only grow, so between two
   boundaries they stay in the box the boundary sums span, and no split there scores more than the best
   corner of the box. Steps 1 and 2 for a group of ``GROUP`` chunks (:func:`_summarise_features`) run on the
   calling thread and, when a CPU is idle, a helper thread; they claim blocks of features in turn
   (:func:`_run_blocks`).
3. *Search* (:func:`_best_split`): the group with the highest bound is searched first; every other group
   whose bound reaches the best score so far is halved until its chunks (:func:`_search_group`), and a chunk
   whose bound reaches it is scanned exactly from its stored sums (:func:`_scan_chunk`): the same running
   sums, candidates and scores as a plain scan of every row, ties going to the lowest feature, then the
   lowest position. So the chosen split is the plain scan's, while only a few dozen of the ~35,000 chunks of
   a 45,000 x 50 problem are scanned.

``benchmarks/bench_stump.py`` times a round against the least-work scan (gather and running sums alone),
splits it into these steps, and compares one thread, two, the default and numba's ``parallel=True`` when the
machine is shared; ``docs/benchmarks.md`` has the figures.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numba
import numpy as np
from numba import njit
from sklearn import get_config
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_array, check_is_fitted, validate_data

__all__ = ["CRITERIA", "DecisionStump", "PresortedStumpSearch"]

#: Split criteria by name -> the integer code the compiled search loop branches on.
CRITERIA: dict[str, int] = {"gini": 0, "entropy": 1, "error": 2}

_GINI, _ENTROPY, _ERROR = CRITERIA["gini"], CRITERIA["entropy"], CRITERIA["error"]

#: Sorted rows between two stored running sums (the unit of the exact rescan).
CHUNK = 64
#: Chunks per group: a group is bounded as a whole, then halved while it may hold the best split.
GROUP = 16
#: Relative slack of a bound against rounding (the bound and the scores are computed in float64, so they may
#: disagree in the last bits; a chunk is skipped only when its bound is lower by more than this share).
PRUNING_SLACK = 1e-9
#: Work below this many (sample, feature) pairs per round runs on the calling thread alone.
_MIN_THREADED_WORK = 1 << 18
#: (sample, feature) pairs per block of features that a thread claims in the presort and each round's pass.
_BLOCK_WORK = 1 << 18


@njit(cache=True, nogil=True)
def _weighted_log_share(class_weight, leaf_weight):
    """``w_k ln(w_k / w)``: a class's term of ``-w * entropy`` of a leaf, with ``0 ln 0 = 0``.

    Rounding residues below zero count as zero.
    """
    return class_weight * np.log(class_weight / leaf_weight) if class_weight > 0.0 else 0.0


@njit(cache=True, nogil=True)
def _split_score(criterion, left_neg, left_pos, right_neg, right_pos):
    """Score of one candidate split (larger is better) from the leaves' weighted class sums.

    ``"gini"``: ``sum_k w_Lk^2 / w_L + sum_k w_Rk^2 / w_R`` (the weighted Gini decrease up to a constant);
    ``"entropy"``: ``sum_k w_Lk ln(w_Lk / w_L) + sum_k w_Rk ln(w_Rk / w_R)`` (the weighted entropy decrease
    up to a constant); ``"error"``: ``-(min(w_L0, w_L1) + min(w_R0, w_R1))``.
    """
    left = left_neg + left_pos
    right = right_neg + right_pos
    if left <= 0.0 or right <= 0.0:
        # A side whose remaining weight rounds to zero (tiny weights beside large ones) is no split.
        return -np.inf
    if criterion == _GINI:
        return (left_neg * left_neg + left_pos * left_pos) / left + (
            right_neg * right_neg + right_pos * right_pos
        ) / right
    if criterion == _ENTROPY:
        return (
            _weighted_log_share(left_neg, left)
            + _weighted_log_share(left_pos, left)
            + _weighted_log_share(right_neg, right)
            + _weighted_log_share(right_pos, right)
        )
    return -(min(left_neg, left_pos) + min(right_neg, right_pos))


@njit(cache=True, nogil=True)
def _leaf_term(criterion, leaf_neg, leaf_pos):
    """One leaf's term of :func:`_split_score`, 0 for an empty leaf: convex in ``(leaf_neg, leaf_pos)``."""
    leaf = leaf_neg + leaf_pos
    if leaf <= 0.0:
        return 0.0
    if criterion == _GINI:
        return (leaf_neg * leaf_neg + leaf_pos * leaf_pos) / leaf
    if criterion == _ENTROPY:
        return _weighted_log_share(leaf_neg, leaf) + _weighted_log_share(leaf_pos, leaf)
    return -min(leaf_neg, leaf_pos)


@njit(cache=True, nogil=True)
def _corner_score(criterion, left_neg, left_pos, totals):
    """The convex score at left class sums ``(left_neg, left_pos)``, the right leaf holding the rest of
    ``totals = (total_neg, total_pos)``."""
    total_neg, total_pos = totals
    return _leaf_term(criterion, left_neg, left_pos) + _leaf_term(
        criterion, max(total_neg - left_neg, 0.0), max(total_pos - left_pos, 0.0)
    )


@njit(cache=True, nogil=True)
def _box_bound(criterion, boundary_sums, feature, first, last, totals):
    """Upper bound of the score of every split of ``feature`` between boundaries ``first`` and ``last``.

    The left sums of those splits lie in the box spanned by the sums stored at the two boundaries; a convex
    score is largest at a corner of the box.
    """
    low_neg, low_pos = boundary_sums[0, feature, first], boundary_sums[1, feature, first]
    high_neg, high_pos = boundary_sums[0, feature, last], boundary_sums[1, feature, last]
    return max(
        max(
            _corner_score(criterion, low_neg, low_pos, totals),
            _corner_score(criterion, high_neg, high_pos, totals),
        ),
        max(
            _corner_score(criterion, low_neg, high_pos, totals),
            _corner_score(criterion, high_neg, low_pos, totals),
        ),
    )


@njit(cache=True, nogil=True)
def _may_beat(bound, best_score, totals):
    """Whether a range whose score is at most ``bound`` may hold a split as good as ``best_score``."""
    return bound >= best_score - PRUNING_SLACK * (totals[0] + totals[1] + abs(best_score))


@njit(cache=True, nogil=True)
def _boundary_sums(sorted_order, signed_weights, boundary_sums, first_feature, stop_feature):
    """Store the running class sums of features ``first_feature:stop_feature`` before every chunk.

    ``boundary_sums[0 or 1, feature, chunk]`` receives the weight of class 0 or 1 among the sorted positions
    ``< chunk * CHUNK`` of ``feature``; its last column holds the feature's totals. Two features are scanned
    in one loop so that their two chains of additions overlap. A zero weight adds nothing.
    """
    n_samples = sorted_order.shape[0]
    n_chunks = boundary_sums.shape[2] - 1
    for first in range(first_feature, stop_feature, 2):
        second = min(first + 1, stop_feature - 1)  # an odd count scans its last feature twice
        first_neg = first_pos = second_neg = second_pos = 0.0
        for chunk in range(n_chunks + 1):
            boundary_sums[0, first, chunk] = first_neg
            boundary_sums[1, first, chunk] = first_pos
            boundary_sums[0, second, chunk] = second_neg
            boundary_sums[1, second, chunk] = second_pos
            for position in range(chunk * CHUNK, min((chunk + 1) * CHUNK, n_samples)):
                first_weight = signed_weights[sorted_order[position, first]]
                second_weight = signed_weights[sorted_order[position, second]]
                first_pos += max(first_weight, 0.0)
                first_neg += max(-first_weight, 0.0)
                second_pos += max(second_weight, 0.0)
                second_neg += max(-second_weight, 0.0)


@njit(cache=True, nogil=True)
def _scan_chunk(arrays, totals, criterion, feature, chunk, best):
    """Score every candidate split of one chunk exactly; return the best ``(score, feature, position)``.

    ``arrays`` is ``(sorted_order, rises, signed_weights, boundary_sums)``, ``totals`` the class totals and
    ``best`` the best ``(score, feature, position)`` so far. A candidate sits at a positively weighted sorted
    ``position`` whose value rose since the previous positively weighted row; it sends the positions before
    it left. Ties go to the lower feature, then the lower position (the order of a plain scan).
    """
    sorted_order, rises, signed_weights, boundary_sums = arrays
    total_neg, total_pos = totals
    best_score, best_feature, best_position = best
    n_samples = sorted_order.shape[0]
    start = chunk * CHUNK
    left_neg = boundary_sums[0, feature, chunk]
    left_pos = boundary_sums[1, feature, chunk]
    rose = False  # whether the value rose after the last positively weighted row before the chunk
    position = start - 1
    while position >= 0 and signed_weights[sorted_order[position, feature]] == 0.0:
        rose = rose or rises[position, feature]
        position -= 1
    for position in range(start, min(start + CHUNK, n_samples)):
        rose = rose or rises[position, feature]
        weight = signed_weights[sorted_order[position, feature]]
        if weight == 0.0:
            continue
        if rose:
            score = _split_score(
                criterion, left_neg, left_pos, max(total_neg - left_neg, 0.0), max(total_pos - left_pos, 0.0)
            )
            if score > best_score or (
                score == best_score
                and score > -np.inf
                and (feature < best_feature or (feature == best_feature and position < best_position))
            ):
                best_score, best_feature, best_position = score, feature, position
        if weight > 0.0:
            left_pos += weight
        else:
            left_neg -= weight
        rose = False
    return best_score, best_feature, best_position


@njit(cache=True, nogil=True)
def _search_group(arrays, totals, criterion, feature, group, best):
    """Search one group of chunks by bisection; return the best ``(score, feature, position)`` so far.

    A range of chunks whose bound is below the best score (less the rounding slack) is dropped; a range that
    may still hold a better split is halved, down to single chunks, which are scanned exactly.
    """
    boundary_sums = arrays[3]
    n_chunks = boundary_sums.shape[2] - 1
    ranges = np.empty((2 * GROUP, 2), dtype=np.int64)  # a stack of [first, stop) chunk ranges
    ranges[0, 0], ranges[0, 1] = group * GROUP, min((group + 1) * GROUP, n_chunks)
    depth = 1
    while depth > 0:
        depth -= 1
        first, stop = ranges[depth, 0], ranges[depth, 1]
        bound = _box_bound(criterion, boundary_sums, feature, first, stop, totals)
        if not _may_beat(bound, best[0], totals):
            continue
        if stop - first == 1:
            best = _scan_chunk(arrays, totals, criterion, feature, first, best)
            continue
        middle = (first + stop) // 2
        ranges[depth, 0], ranges[depth, 1] = middle, stop  # the upper half waits for the lower one
        ranges[depth + 1, 0], ranges[depth + 1, 1] = first, middle
        depth += 2
    return best


@njit(cache=True, nogil=True)
def _summarise_features(
    sorted_order, signed_weights, totals, criterion, boundary_sums, group_bounds, first_feature, stop_feature
):
    """The boundary sums (:func:`_boundary_sums`) and the bound of every group of chunks of some features.

    ``group_bounds[feature, group]`` bounds the score of every split among the ``GROUP`` chunks of ``group``.
    This is the part of a round that grows with the data; features are independent, so threads share it.
    """
    _boundary_sums(sorted_order, signed_weights, boundary_sums, first_feature, stop_feature)
    n_chunks = boundary_sums.shape[2] - 1
    for feature in range(first_feature, stop_feature):
        for group in range(group_bounds.shape[1]):
            last = min((group + 1) * GROUP, n_chunks)
            group_bounds[feature, group] = _box_bound(
                criterion, boundary_sums, feature, group * GROUP, last, totals
            )


@njit(cache=True, nogil=True)
def _best_split(arrays, group_bounds, totals, criterion):
    """The best split, given every feature's boundary sums and group bounds (:func:`_summarise_features`).

    ``arrays`` is ``(sorted_order, rises, signed_weights, boundary_sums)``. The group with the highest bound
    is searched first, so that its best score rules out most other groups; every other group is searched
    (:func:`_search_group`) unless its bound is below the best score so far.

    Returns
    -------
    feature, last_left, first_right : int
        The best split sends sorted positions ``<= last_left`` of ``feature`` left and the rest right; the
        split lies between sorted positions ``last_left`` and ``first_right`` (consecutive positively
        weighted samples). ``feature == -1`` when no feature has a valid split.
    """
    sorted_order, signed_weights = arrays[0], arrays[2]
    n_features, n_groups = group_bounds.shape
    top_feature, top_group = divmod(np.argmax(group_bounds), n_groups)
    best = _search_group(arrays, totals, criterion, top_feature, top_group, (-np.inf, -1, -1))
    for feature in range(n_features):
        for group in range(n_groups):
            is_top = feature == top_feature and group == top_group
            if not is_top and _may_beat(group_bounds[feature, group], best[0], totals):
                best = _search_group(arrays, totals, criterion, feature, group, best)
    _, best_feature, best_position = best
    if best_feature < 0:
        return -1, -1, -1
    last_left = best_position - 1
    while signed_weights[sorted_order[last_left, best_feature]] == 0.0:
        last_left -= 1
    return best_feature, last_left, best_position


@njit(cache=True, nogil=True)
def _signed_weights(y01, weights, signed_weights, weights_by_class):
    """Fill ``signed_weights`` (the weight, negated for class 0) and gather each class's weights.

    ``weights_by_class[k, :count_k]`` receives the weights of class ``k`` in row order, so that numpy sums
    them exactly as it sums ``weights[y01 == k]``. Returns ``(ok, count_0, count_1)``; ``ok`` is False when a
    label is not 0 or 1 or a weight is negative or not finite. Branch-free: both gathers are written every
    row and only the one of the row's class advances.
    """
    valid = True
    for sample in range(y01.shape[0]):
        label, weight = y01[sample], weights[sample]
        valid &= (label == 0) | (label == 1)
        valid &= (weight >= 0.0) & (weight < np.inf)
    count_neg = count_pos = 0
    for sample in range(y01.shape[0]):
        weight = weights[sample]
        is_positive = y01[sample] == 1
        signed_weights[sample] = weight if is_positive else -weight
        weights_by_class[0, count_neg] = weight
        weights_by_class[1, count_pos] = weight
        count_pos += is_positive
        count_neg += not is_positive
    return valid, count_neg, count_pos


@njit(cache=True, nogil=True)
def _leaf_sums(sorted_order, signed_weights, feature, first_right, goes_right):
    """Class sums ``[[left_neg, left_pos], [right_neg, right_pos]]`` of a split, each summed directly.

    Summed leaf by leaf in row order (not as totals minus the left sums), so that a pure leaf has exactly one
    class; ``goes_right`` is a boolean buffer of one entry per sample. Every row adds its weight to its own
    leaf and class and 0 to the three other sums, which leaves them unchanged.
    """
    for position in range(sorted_order.shape[0]):
        goes_right[sorted_order[position, feature]] = position >= first_right
    left_neg = left_pos = right_neg = right_pos = 0.0
    for sample in range(signed_weights.shape[0]):
        positive = max(signed_weights[sample], 0.0)
        negative = max(-signed_weights[sample], 0.0)
        right = goes_right[sample]
        left_neg += 0.0 if right else negative
        left_pos += 0.0 if right else positive
        right_neg += negative if right else 0.0
        right_pos += positive if right else 0.0
    return np.array([[left_neg, left_pos], [right_neg, right_pos]])


# ------------------------------------------------------------------------------------------- threads
_HELPERS_LOCK = threading.Lock()
_helpers: tuple[int, ThreadPoolExecutor] | None = None  # (pid, pool); a forked child makes its own


def _helper_pool() -> ThreadPoolExecutor:
    """This process's pool of helper threads (``NUMBA_NUM_THREADS - 1``, at least one)."""
    global _helpers
    with _HELPERS_LOCK:
        if _helpers is None or _helpers[0] != os.getpid():
            n_helpers = max(numba.config.NUMBA_NUM_THREADS - 1, 1)
            _helpers = (os.getpid(), ThreadPoolExecutor(n_helpers, thread_name_prefix="cslearn-stump"))
        return _helpers[1]


def default_n_threads() -> int:
    """Most threads a search uses by default: two, or one when numba may use one thread only.

    numba's ``NUMBA_NUM_THREADS`` (by default the CPUs this process may run on) caps it, so
    ``NUMBA_NUM_THREADS=1`` keeps every search on the calling thread. Two, not more: measured on two cores
    only (``docs/benchmarks.md``).
    """
    return min(numba.config.NUMBA_NUM_THREADS, 2)


def _idle_cpus() -> int:
    """CPUs with nothing to run at this instant: the machine's CPUs minus its runnable threads.

    Linux counts the runnable threads (this one included) in the fourth field of ``/proc/loadavg``; where it
    cannot be read, no CPU counts as idle.
    """
    try:
        with open("/proc/loadavg", "rb") as loadavg:
            runnable = int(loadavg.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return 0
    return max((os.cpu_count() or 1) - runnable, 0)


def _helper_count(n_threads):
    """Helper threads for one pass: ``n_threads - 1``, or for ``None`` as many of
    ``default_n_threads() - 1`` as there are idle CPUs right now, so that a helper never competes with
    another fit, a second process or a busy core for a CPU (oversubscription stalls the round)."""
    if n_threads is None:
        return min(default_n_threads() - 1, _idle_cpus())
    return n_threads - 1


def _run_blocks(work, n_blocks, n_helpers):
    """Call ``work(block)`` for ``block`` in ``range(n_blocks)`` on this thread and ``n_helpers`` helpers.

    Blocks are claimed one at a time, so a helper that the machine schedules late takes fewer blocks
    instead of holding the round up; a helper that has not started when the blocks run out is cancelled.
    ``work`` must release the GIL (a ``nogil`` kernel) for the threads to overlap.
    """
    n_helpers = min(n_helpers, n_blocks - 1)
    if n_helpers < 1:
        for block in range(n_blocks):
            work(block)
        return
    claim_lock = threading.Lock()
    claimed = [0]

    def drain():
        while True:
            with claim_lock:
                block = claimed[0]
                claimed[0] += 1
            if block >= n_blocks:
                return
            work(block)

    pool = _helper_pool()
    pending = [pool.submit(drain) for _ in range(n_helpers)]
    try:
        drain()
    finally:
        for future in pending:
            if not future.cancel():
                future.result()


def _feature_blocks(n_samples, n_features):
    """``[start, stop)`` feature ranges of about ``_BLOCK_WORK`` (sample, feature) pairs, of even length."""
    width = max(2 * (-(-_BLOCK_WORK // (2 * n_samples))), 2)
    return [(start, min(start + width, n_features)) for start in range(0, n_features, width)]


def _check_non_negative_weights(weights, name):
    """Raise a ValueError naming the rows whose weight is negative, NaN or infinite."""
    valid = np.isfinite(weights) & (weights >= 0.0)
    if not valid.all():
        bad = np.flatnonzero(~valid)
        raise ValueError(
            f"{name} must be finite and non-negative; {bad.size} bad value(s) at rows {bad[:10].tolist()}"
        )
    if not weights.sum() > 0.0:
        raise ValueError(f"{name} sums to zero; at least one sample needs a positive weight")


def _check_labels01(y01):
    """Raise a ValueError naming the rows of ``y01`` that are neither 0 nor 1."""
    bad = np.flatnonzero((y01 != 1) & (y01 != 0))
    if bad.size:
        raise ValueError(f"y01 must hold only 0 and 1; other values at rows {bad[:10].tolist()}")


def _check_criterion(criterion):
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {sorted(CRITERIA)}; got {criterion!r}")
    return CRITERIA[criterion]


class PresortedStumpSearch:
    """Sort the features of ``X`` once, then fit a weighted decision stump per call in O(n * m).

    Memory: one int32 sort index and one boolean "value rises" mask per feature, i.e. ``X.nbytes * 5 / 8``
    for float64 ``X`` (``5 / 4`` for float32), plus a reference to ``X`` itself (not a copy when ``X`` is
    float64 or float32 already), two running sums per feature every ``CHUNK`` rows (``X.nbytes / 32``) and
    four per-sample buffers. One search serves one caller at a time (its buffers are reused between calls).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite training features; kept (by reference) for the thresholds. float32 stays float32.
    criterion : {"gini", "entropy", "error"}, default="gini"
        Split criterion; see the module docstring.
    n_threads : int or None, default=None
        Threads that share the sort and each call's pass over the sorted rows: the calling thread plus
        ``n_threads - 1`` helpers. ``None``: up to :func:`default_n_threads` (two, or one under
        ``NUMBA_NUM_THREADS=1``), a helper joining a pass only when a CPU is idle as it starts (so two fits
        at once, or a fit beside a busy process, run one thread each). Problems under ``2**18`` (sample,
        feature) pairs always use one.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> search = PresortedStumpSearch(X, "gini")
    >>> stump = search.fit(np.array([0, 0, 1, 1]), np.full(4, 0.25))
    >>> stump.feature_, stump.threshold_
    (0, 1.5)
    """

    def __init__(self, X, criterion="gini", *, n_threads=None):
        self.criterion = criterion
        self._criterion_code = _check_criterion(criterion)
        self.X = check_array(X, dtype=[np.float64, np.float32], ensure_all_finite=True, input_name="X")
        n_samples, n_features = self.X.shape
        if n_samples >= np.iinfo(np.int32).max:
            raise ValueError(f"X has {n_samples} rows; at most {np.iinfo(np.int32).max - 1} are supported")
        self.n_threads = None if n_threads is None else int(n_threads)
        if self.n_threads is not None and self.n_threads < 1:
            raise ValueError(f"n_threads must be at least 1; got {n_threads!r}")
        if n_samples * n_features < _MIN_THREADED_WORK:
            self.n_threads = 1
        self.sorted_order = np.empty((n_samples, n_features), dtype=np.int32, order="F")
        self.rises = np.zeros((n_samples, n_features), dtype=bool, order="F")
        self._blocks = _feature_blocks(n_samples, n_features)
        _run_blocks(self._presort_block, len(self._blocks), _helper_count(self.n_threads))
        self._signed_weights = np.empty(n_samples)
        self._weights_by_class = np.empty((2, n_samples))
        self._goes_right = np.empty(n_samples, dtype=bool)
        n_chunks = -(-n_samples // CHUNK)
        self._boundary_sums = np.empty((2, n_features, n_chunks + 1))
        self._group_bounds = np.empty((n_features, -(-n_chunks // GROUP)))

    def _presort_block(self, block):
        """Sort the features of one block: one column at a time keeps the temporaries at O(n)."""
        for feature in range(*self._blocks[block]):
            # float64 for every input dtype: the same values then sort into the same order (ties included),
            # so float32 and float64 copies of X give the same running sums and the same stumps.
            column = self.X[:, feature].astype(np.float64)
            order = np.argsort(column)  # ties may come in any order: equal values are never split
            self.sorted_order[:, feature] = order
            sorted_column = column[order]
            np.greater(sorted_column[1:], sorted_column[:-1], out=self.rises[1:, feature])

    def _summarise_block(self, block, totals):
        _summarise_features(
            self.sorted_order,
            self._signed_weights,
            totals,
            self._criterion_code,
            self._boundary_sums,
            self._group_bounds,
            *self._blocks[block],
        )

    def fit(self, y01, weights):
        """Fit the best stump for labels ``y01`` under sample weights ``weights``.

        Parameters
        ----------
        y01 : ndarray of int, shape (n_samples,)
            Labels coded 0 / 1.
        weights : ndarray of float, shape (n_samples,)
            Non-negative sample weights (zeros allowed, not all zero); their scale does not matter.

        Returns
        -------
        DecisionStump
            Fitted, with ``classes_ == [0, 1]``. When no split is possible (every feature constant among the
            positively weighted samples, or only one class carries weight) the stump is constant: both rows
            of ``value_`` hold the overall class fractions, ``feature_ = 0`` and ``threshold_ = inf``.
        """
        n_samples, n_features = self.X.shape
        y01 = np.asarray(y01)
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        if y01.shape != (n_samples,) or weights.shape != (n_samples,):
            raise ValueError(
                f"y01 and weights must have shape ({n_samples},) like X's rows; "
                f"got y01 {y01.shape} and weights {weights.shape}"
            )
        if y01.dtype != np.int64:
            _check_labels01(y01)  # before the cast, which would turn 0.5 into 0
        y01 = np.ascontiguousarray(y01, dtype=np.int64)  # the one layout the cached kernels are compiled for
        valid, n_neg, n_pos = _signed_weights(y01, weights, self._signed_weights, self._weights_by_class)
        if not valid:
            _check_labels01(y01)
        total_neg = self._weights_by_class[0, :n_neg].sum()
        total_pos = self._weights_by_class[1, :n_pos].sum()
        if not valid or not total_neg + total_pos > 0.0:
            _check_non_negative_weights(weights, "weights")
        feature = -1  # one class carrying all the weight is a pure root: scikit-learn keeps it as a leaf
        if total_neg > 0.0 and total_pos > 0.0:
            totals = (total_neg, total_pos)
            summarise = partial(self._summarise_block, totals=totals)
            _run_blocks(summarise, len(self._blocks), _helper_count(self.n_threads))
            arrays = (self.sorted_order, self.rises, self._signed_weights, self._boundary_sums)
            feature, last_left, first_right = _best_split(
                arrays, self._group_bounds, totals, self._criterion_code
            )

        stump = DecisionStump(criterion=self.criterion)
        stump.classes_ = np.array([0, 1])
        stump.n_features_in_ = n_features
        if feature < 0:
            root = np.array([total_neg, total_pos]) / (total_neg + total_pos)
            stump.feature_, stump.threshold_ = 0, np.inf
            stump.value_ = np.vstack([root, root])
            return stump
        below = float(self.X[self.sorted_order[last_left, feature], feature])
        above = float(self.X[self.sorted_order[first_right, feature], feature])
        threshold = below / 2.0 + above / 2.0  # halves: no overflow (scikit-learn's form)
        if threshold >= above:  # rounding reached the upper value: keep ``above`` on the right
            threshold = below
        leaf_sums = _leaf_sums(
            self.sorted_order, self._signed_weights, feature, first_right, self._goes_right
        )
        stump.feature_ = int(feature)
        stump.threshold_ = threshold
        stump.value_ = leaf_sums / leaf_sums.sum(axis=1, keepdims=True)
        return stump


class DecisionStump(ClassifierMixin, BaseEstimator):
    """Weighted decision stump (a depth-1 tree) for binary classification, found in O(n * m) after sorting.

    On tie-free data with ``criterion`` ``"gini"`` or ``"entropy"`` it chooses the same feature, threshold and
    leaf class fractions as ``DecisionTreeClassifier(max_depth=1, criterion=criterion)``; ``"error"``
    minimises the weighted misclassification of the leaves' majority labels. The criteria, the candidate
    splits and the differences from scikit-learn are described in the module docstring.

    Parameters
    ----------
    criterion : {"gini", "entropy", "error"}, default="gini"
        Split criterion.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels seen in ``fit`` (one or two).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_ : int
        Index of the feature the stump splits on.
    threshold_ : float
        A sample goes to the left leaf when ``x[feature_] <= threshold_``. ``inf`` for a constant stump.
    value_ : ndarray of shape (2, n_classes)
        Weighted class fractions in the left (row 0) and right (row 1) leaf; ``predict_proba`` returns the row
        of the sample's leaf.

    See Also
    --------
    PresortedStumpSearch : the presorted search, reused across boosting rounds.

    Examples
    --------
    >>> from algorithms.boosting._stump import DecisionStump
    >>> stump = DecisionStump().fit([[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"])
    >>> stump.threshold_, stump.predict([[0.5], [2.5]]).tolist()
    (1.5, ['a', 'b'])
    """

    _parameter_constraints: dict = {"criterion": [StrOptions(set(CRITERIA))]}

    def __init__(self, criterion="gini"):
        self.criterion = criterion

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the stump.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite features; float32 is kept as float32 (same stump as for the same values in float64).
        y : array-like of shape (n_samples,)
            Labels: at most two distinct values (one gives a constant stump).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights, not all zero; ``None`` weighs every sample 1.

        Returns
        -------
        self : DecisionStump
        """
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32], ensure_all_finite=True)
        check_classification_targets(y)
        target_type = type_of_target(y, input_name="y")
        if target_type != "binary":
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {target_type}."
            )
        sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
        _check_non_negative_weights(sample_weight, "sample_weight")
        classes, y01 = np.unique(y, return_inverse=True)
        search = PresortedStumpSearch(X, self.criterion)
        fitted = search.fit(y01.astype(np.int64), sample_weight)
        self.classes_ = classes
        self.feature_ = fitted.feature_
        self.threshold_ = fitted.threshold_
        self.value_ = fitted.value_[:, : classes.size]  # one class: a constant stump of fraction 1
        return self

    def apply(self, X):
        """Leaf index of each sample: 0 (left, ``x[feature_] <= threshold_``) or 1 (right).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of int64, shape (n_samples,)
        """
        X = self._checked(X)
        # Compared in float64: a float32 column against the float64 threshold gives float64's answer.
        column = X[:, self.feature_].astype(np.float64, copy=False)
        return (column > self.threshold_).astype(np.int64)

    def _checked(self, X):
        """``X`` validated as in ``fit`` (finite, float64 or float32, ``n_features_in_`` columns).

        The boosting loop and its predictions evaluate the stumps of an ensemble on an ``X`` they checked
        once, inside scikit-learn's ``assume_finite``: such an array (a float64 or float32 ndarray of the
        right width, for a stump fitted without feature names) is used as it is: scikit-learn's validation
        would return it unchanged, and on small data it cost more than the stump's own work.
        """
        if (
            type(X) is np.ndarray
            and X.ndim == 2
            and X.dtype in (np.float64, np.float32)
            and hasattr(self, "value_")
            and X.shape[1] == self.n_features_in_
            and not hasattr(self, "feature_names_in_")
            and get_config()["assume_finite"]
        ):
            return X
        check_is_fitted(self)
        return validate_data(self, X, dtype=[np.float64, np.float32], ensure_all_finite=True, reset=False)

    def predict_proba(self, X):
        """Class probabilities: the weighted class fractions ``value_`` of each sample's leaf.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        leaves = self.apply(X)
        return self.value_[leaves]

    def predict(self, X):
        """The majority (largest weighted fraction) class of each sample's leaf; ties go to ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        leaves = self.apply(X)
        return self.classes_[np.argmax(self.value_, axis=1)][leaves]
