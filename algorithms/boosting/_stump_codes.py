"""Features of few distinct values in the stump search: class sums per value instead of a sorted pass.

A feature whose ``n`` rows take only ``D`` distinct values (a one-hot column, a count, a rating) has only
``D - 1`` candidate splits, and the class sums at each are sums over whole groups of equal values. When most
of its rows hold one value (the *mode*: 0 in a one-hot column), the stump search
(:mod:`algorithms.boosting._stump`) codes the feature once per fit, without sorting it: each row's value
becomes its rank among the distinct values (its *code*, found by a binary search among the values seen), and
only the rows outside the mode are stored, row by row across all coded features. Per round it then

1. adds each row's weight to the class sums of the codes stored for the row, reading the rows in order (the
   weights stream through the cache, once for all coded features, and the sums stay in L1);
2. takes each mode's class sums as the class totals minus the feature's other codes' sums, so that the rows
   of a mode are never read (in a one-hot column most rows are);
3. scans each feature's codes in value order with running class sums and scores a split between every two
   consecutive codes that carry weight: the candidates, scores and tie order of a scan over the sorted rows.

A code carries weight when one of its rows has a positive weight: a stored code when its summed weight is
positive, a mode when it has more rows than the round's zero-weight rows that fall in it (the zero-weight
rows outside the mode are counted in step 1).

Step 1 runs over fixed blocks of rows (:data:`ROW_BLOCK`), each into its own sums, added up in block order,
so the sums do not depend on how many threads share the blocks. The class sums are the same sums as a
sorted pass adds, in another order, so a score can differ from the sorted pass's in its last bits; the chosen
split is the best one either way. Several weight vectors (the candidates of a cost grid) are summed in one
pass, each exactly as alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from algorithms.boosting._stump_scores import split_score

__all__ = ["ROW_BLOCK", "CodedFeatures", "code_column", "is_worth_coding"]

#: Rows per block of step 1: each block adds into its own class sums.
ROW_BLOCK = 1 << 14
#: A feature is coded when at most this share of its rows lie outside its most frequent value (a stored row
#: costs about twice a sorted row's gather and running sum: measured on the AdaCC datasets).
STORED_SHARE = 0.4
#: ... and it has at most ``n_samples / CODED_DISTINCT_SHARE`` distinct values, and at most ``MAX_CODES``.
CODED_DISTINCT_SHARE = 4
MAX_CODES = 1024


def most_codes(n_samples: int) -> int:
    """The most distinct values a feature of ``n_samples`` rows may have to be coded."""
    return min(max(n_samples // CODED_DISTINCT_SHARE, 2), MAX_CODES)


def is_worth_coding(n_distinct: int, mode_count: int, n_samples: int) -> bool:
    """Whether a feature of ``n_distinct`` values, ``mode_count`` rows of its most frequent value, among
    ``n_samples`` rows is searched by its codes (see :data:`STORED_SHARE`)."""
    return 0 < n_distinct <= most_codes(n_samples) and n_samples - mode_count <= STORED_SHARE * n_samples


def code_column(column, n_samples):
    """A column's distinct values and each row's code, or ``None`` when it has more than
    :func:`most_codes`: found without sorting the rows (a binary search per row among the values seen)."""
    n_distinct, values = _distinct_values(column, most_codes(n_samples))
    if n_distinct < 0:
        return None
    values = values[:n_distinct]
    return values, _codes_of(column, values)


@njit(cache=True, nogil=True)
def _distinct_values(column, most):
    """The sorted distinct values of ``column``: ``(count, values)``, or ``(-1, _)`` past ``most`` of them."""
    values = np.empty(most)
    count = 0
    for value in column:
        low, high = 0, count
        while low < high:
            middle = (low + high) // 2
            if values[middle] < value:
                low = middle + 1
            else:
                high = middle
        if low < count and values[low] == value:
            continue
        if count == most:
            return -1, values
        for index in range(count, low, -1):
            values[index] = values[index - 1]
        values[low] = value
        count += 1
    return count, values


@njit(cache=True, nogil=True)
def _codes_of(column, values):
    """Each row's rank among the sorted distinct ``values`` (which hold every value of ``column``)."""
    codes = np.empty(column.shape[0], dtype=np.int64)
    for row in range(column.shape[0]):
        low, high = 0, values.shape[0]
        while low < high:
            middle = (low + high) // 2
            if values[middle] < column[row]:
                low = middle + 1
            else:
                high = middle
        codes[row] = low
    return codes


class CodedFeatures:
    """The coded features of one ``X``: per feature its distinct values and mode; per row its stored codes.

    Built once per fit from the presort (:class:`~algorithms.boosting._stump.PresortedStumpSearch`). Codes
    are numbered across features (feature ``j``'s codes are ``code_starts[j]:code_starts[j + 1]``); the
    stored codes of row ``i`` are ``entry_codes[row_starts[i]:row_starts[i + 1]]``.

    Parameters
    ----------
    columns : list of (feature, values, codes, counts)
        For each coded feature (in increasing ``feature``): its index in ``X``, its sorted distinct values
        (float64), each row's code (its value's rank) and each code's row count (:func:`code_column`).
    n_samples : int
    """

    def __init__(self, columns, n_samples):
        n_features = len(columns)
        self.features = np.array([feature for feature, *_ in columns], dtype=np.int64)
        self.code_starts = np.zeros(n_features + 1, dtype=np.int64)
        self.mode_codes = np.zeros(n_features, dtype=np.int64)
        self.mode_counts = np.zeros(n_features, dtype=np.int64)
        stored_rows, stored_codes, values = [], [], []
        for index, (_, feature_values, codes, counts) in enumerate(columns):
            mode = int(np.argmax(counts))
            stored = np.flatnonzero(codes != mode)
            stored_rows.append(stored)
            stored_codes.append(codes[stored] + self.code_starts[index])
            values.append(feature_values)
            self.mode_codes[index] = self.code_starts[index] + mode
            self.mode_counts[index] = counts[mode]
            self.code_starts[index + 1] = self.code_starts[index] + counts.size
        self.values = np.concatenate(values) if values else np.empty(0)
        self.feature_of_code = np.repeat(np.arange(n_features), np.diff(self.code_starts))
        rows = np.concatenate(stored_rows) if stored_rows else np.empty(0, dtype=np.int64)
        codes = np.concatenate(stored_codes) if stored_codes else np.empty(0, dtype=np.int64)
        by_row = np.argsort(rows, kind="stable")  # a row's codes in feature order
        self.entry_codes = codes[by_row].astype(np.int32)
        self.row_starts = np.zeros(n_samples + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=n_samples), out=self.row_starts[1:])
        self.n_row_blocks = -(-n_samples // ROW_BLOCK) if n_features else 0

    @property
    def n_features(self) -> int:
        return self.features.size

    @property
    def n_codes(self) -> int:
        return int(self.code_starts[-1])

    def new_sums(self, n_vectors):
        """Buffers of step 1 for ``n_vectors`` weight vectors: per row block, class sums per code and
        zero-weight stored rows per feature."""
        return (
            np.empty((self.n_row_blocks, self.n_codes, 2, n_vectors)),
            np.empty((self.n_row_blocks, self.n_features, n_vectors), dtype=np.int64),
        )

    def add_block(self, block, y01, weights, sums):
        """Step 1 for row block ``block``: ``weights`` of shape (n_vectors, n_samples) into ``sums``
        (:meth:`new_sums`)."""
        _add_row_block(
            self.row_starts, self.entry_codes, self.feature_of_code, y01, weights, block, ROW_BLOCK, sums
        )

    def best(self, sums, vector, totals, n_zero_rows, criterion):
        """Steps 2 and 3 for one weight vector: the best coded split ``(score, feature, threshold)``.

        ``(-inf, -1, nan)`` without a candidate. Ties go to the lowest feature, then the lowest threshold,
        as in the sorted search.
        """
        if self.n_features == 0:
            return -np.inf, -1, np.nan
        score, index, below, above = _best_coded_split(
            (self.code_starts, self.mode_codes, self.mode_counts),
            sums,
            vector,
            totals,
            n_zero_rows,
            criterion,
        )
        if index < 0:
            return -np.inf, -1, np.nan
        below, above = self.values[below], self.values[above]
        threshold = below / 2.0 + above / 2.0  # halves: no overflow (scikit-learn's form)
        if threshold >= above:  # rounding reached the upper value: keep ``above`` on the right
            threshold = below
        return score, int(self.features[index]), float(threshold)


@njit(cache=True, nogil=True)
def _add_row_block(row_starts, entry_codes, feature_of_code, y01, weights, block, rows_per_block, sums):
    """Step 1 of the module docstring for one block of rows, every weight vector (column) at once.

    ``sums[0][block, code, class, vector]`` receives the weight of the block's rows of ``class`` whose stored
    codes include ``code``; ``sums[1][block, feature, vector]`` counts those rows of zero weight, per feature.
    """
    class_sums, zero_rows = sums
    n_vectors = weights.shape[0]
    class_sums[block] = 0.0
    zero_rows[block] = 0
    for row in range(block * rows_per_block, min((block + 1) * rows_per_block, y01.shape[0])):
        label = y01[row]
        first, stop = row_starts[row], row_starts[row + 1]
        if n_vectors == 1:  # the same additions, without the inner loop's overhead
            weight = weights[0, row]
            for entry in range(first, stop):
                class_sums[block, entry_codes[entry], label, 0] += weight
        else:
            for entry in range(first, stop):
                code = entry_codes[entry]
                for vector in range(n_vectors):
                    class_sums[block, code, label, vector] += weights[vector, row]
        for vector in range(n_vectors):
            if weights[vector, row] == 0.0:
                for entry in range(first, stop):
                    zero_rows[block, feature_of_code[entry_codes[entry]], vector] += 1


@njit(cache=True, nogil=True)
def _best_coded_split(codes, sums, vector, totals, n_zero_rows, criterion):
    """Steps 2 and 3 of the module docstring for weight vector ``vector`` of ``sums``.

    ``codes`` is ``(code_starts, mode_codes, mode_counts)``. Returns ``(score, feature, below, above)``: the
    best score (``-inf`` without a candidate), the coded feature's index (-1 without one) and the codes of
    the last weighted value on the left and the first on the right. Ties go to the lower feature, then the
    lower code.
    """
    code_starts, mode_codes, mode_counts = codes
    class_sums, zero_rows = sums
    total_neg, total_pos = totals
    n_blocks = class_sums.shape[0]
    best_score, best_feature, best_below, best_above = -np.inf, -1, -1, -1
    code_neg = np.empty(class_sums.shape[1])
    code_pos = np.empty(class_sums.shape[1])
    for feature in range(code_starts.shape[0] - 1):
        start, stop, mode = code_starts[feature], code_starts[feature + 1], mode_codes[feature]
        stored_neg = stored_pos = 0.0
        for code in range(start, stop):
            negative = positive = 0.0
            for block in range(n_blocks):
                negative += class_sums[block, code, 0, vector]
                positive += class_sums[block, code, 1, vector]
            code_neg[code], code_pos[code] = negative, positive
            stored_neg += negative
            stored_pos += positive
        code_neg[mode] = max(total_neg - stored_neg, 0.0)
        code_pos[mode] = max(total_pos - stored_pos, 0.0)
        zero_rows_stored = 0
        for block in range(n_blocks):
            zero_rows_stored += zero_rows[block, feature, vector]
        mode_carries_weight = mode_counts[feature] > n_zero_rows - zero_rows_stored
        left_neg = left_pos = 0.0
        last_weighted = -1
        for code in range(start, stop):
            if code == mode:
                if not mode_carries_weight:
                    continue
            elif not code_neg[code] + code_pos[code] > 0.0:
                continue
            if last_weighted >= 0:
                score = split_score(
                    criterion,
                    left_neg,
                    left_pos,
                    max(total_neg - left_neg, 0.0),
                    max(total_pos - left_pos, 0.0),
                )
                if score > best_score:
                    best_score, best_feature, best_below, best_above = score, feature, last_weighted, code
            left_neg += code_neg[code]
            left_pos += code_pos[code]
            last_weighted = code
    return best_score, best_feature, best_below, best_above
