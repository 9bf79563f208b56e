"""The fast weighted decision stump: the default weak learner of every boosting method.

A decision stump is a depth-1 tree: one feature, one threshold, two leaves. Boosting fits one per round on
the same ``X`` with new weights, so :class:`PresortedStumpSearch` sorts every feature once and then answers
each round in O(n * m) with running (cumulative) weighted class sums: the cost the AdaCC paper assumes for a
stump (Section 4.2, "Time complexity"), whose experiments use depth-1 trees for every method (Section 5;
``../shared/spec/algorithms.md`` section 1).
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
to float32 and treats values closer than 1e-7 as equal (here values are float64 and compared exactly), and it
visits features in a random order, so exact ties between features may resolve differently (here the lowest
feature index, then the lowest threshold, wins).

The search is a numba loop (``cache=True``): ``benchmarks/bench_boosting.py`` measured it against a
vectorised numpy version of the same search (see ``docs/benchmarks.md``, section "boosting").
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_array, check_is_fitted, validate_data

__all__ = ["CRITERIA", "DecisionStump", "PresortedStumpSearch"]

#: Split criteria by name -> the integer code the compiled search loop branches on.
CRITERIA: dict[str, int] = {"gini": 0, "entropy": 1, "error": 2}

_GINI, _ENTROPY, _ERROR = CRITERIA["gini"], CRITERIA["entropy"], CRITERIA["error"]


@njit(cache=True, nogil=True, inline="always")
def _weighted_log_share(class_weight, leaf_weight):
    """``w_k ln(w_k / w)``: a class's term of ``-w * entropy`` of a leaf, with ``0 ln 0 = 0``.

    Rounding residues below zero count as zero.
    """
    return class_weight * np.log(class_weight / leaf_weight) if class_weight > 0.0 else 0.0


@njit(cache=True, nogil=True, inline="always")
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
def _search_best_split(sorted_order, rises, signed_weights, total_neg, total_pos, criterion):
    """Scan every feature once in sorted order and return the best split.

    Parameters
    ----------
    sorted_order : ndarray of int32, shape (n_samples, n_features), Fortran order
        ``sorted_order[:, j]`` sorts the samples by feature ``j``.
    rises : ndarray of bool, shape (n_samples, n_features), Fortran order
        ``rises[k, j]`` is True when the k-th sorted value of feature ``j`` exceeds the (k-1)-th.
    signed_weights : ndarray of float64, shape (n_samples,)
        The sample weight, negated for class 0 (so one gather gives weight and class).
    total_neg, total_pos : float
        The total weight of class 0 and of class 1.
    criterion : int
        A value of :data:`CRITERIA`.

    Returns
    -------
    feature, last_left, first_right : int
        The best split sends sorted positions ``<= last_left`` of ``feature`` left and the rest right; the
        split lies between sorted positions ``last_left`` and ``first_right`` (consecutive positively
        weighted samples). ``feature == -1`` when no feature has a valid split.
    """
    n_samples, n_features = sorted_order.shape

    best_score = -np.inf
    best_feature, best_last_left, best_first_right = -1, -1, -1
    for feature in range(n_features):
        left_neg = 0.0
        left_pos = 0.0
        last_left = -1
        rose = False
        for position in range(n_samples):
            rose = rose or rises[position, feature]
            weight = signed_weights[sorted_order[position, feature]]
            if weight == 0.0:
                continue
            if rose and last_left >= 0:
                score = _split_score(
                    criterion,
                    left_neg,
                    left_pos,
                    max(total_neg - left_neg, 0.0),
                    max(total_pos - left_pos, 0.0),
                )
                if score > best_score:
                    best_score = score
                    best_feature, best_last_left, best_first_right = feature, last_left, position
            if weight > 0.0:
                left_pos += weight
            else:
                left_neg -= weight
            last_left = position
            rose = False
    return best_feature, best_last_left, best_first_right


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


def _check_criterion(criterion):
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {sorted(CRITERIA)}; got {criterion!r}")
    return CRITERIA[criterion]


class PresortedStumpSearch:
    """Sort the features of ``X`` once, then fit a weighted decision stump per call in O(n * m).

    Memory: one int32 sort index and one boolean "value rises" mask per feature, i.e. ``X.nbytes * 5 / 8``
    for float64 ``X``, plus a reference to ``X`` itself (not a copy when ``X`` is float64 already).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite training features; kept (by reference) for the thresholds.
    criterion : {"gini", "entropy", "error"}, default="gini"
        Split criterion; see the module docstring.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> search = PresortedStumpSearch(X, "gini")
    >>> stump = search.fit(np.array([0, 0, 1, 1]), np.full(4, 0.25))
    >>> stump.feature_, stump.threshold_
    (0, 1.5)
    """

    def __init__(self, X, criterion="gini"):
        self.criterion = criterion
        self._criterion_code = _check_criterion(criterion)
        self.X = check_array(X, dtype=np.float64, ensure_all_finite=True, input_name="X")
        n_samples, n_features = self.X.shape
        if n_samples >= np.iinfo(np.int32).max:
            raise ValueError(f"X has {n_samples} rows; at most {np.iinfo(np.int32).max - 1} are supported")
        self.sorted_order = np.empty((n_samples, n_features), dtype=np.int32, order="F")
        self.rises = np.zeros((n_samples, n_features), dtype=bool, order="F")
        for feature in range(n_features):  # one column at a time keeps the temporaries at O(n)
            column = self.X[:, feature]
            order = np.argsort(column)  # ties may come in any order: equal values are never split
            self.sorted_order[:, feature] = order
            sorted_column = column[order]
            np.greater(sorted_column[1:], sorted_column[:-1], out=self.rises[1:, feature])

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
        weights = np.asarray(weights, dtype=np.float64)
        if y01.shape != (n_samples,) or weights.shape != (n_samples,):
            raise ValueError(
                f"y01 and weights must have shape ({n_samples},) like X's rows; "
                f"got y01 {y01.shape} and weights {weights.shape}"
            )
        is_positive = y01 == 1
        if not np.all(is_positive | (y01 == 0)):
            bad = np.flatnonzero(~is_positive & (y01 != 0))
            raise ValueError(f"y01 must hold only 0 and 1; other values at rows {bad[:10].tolist()}")
        _check_non_negative_weights(weights, "weights")
        total_neg, total_pos = weights[~is_positive].sum(), weights[is_positive].sum()
        feature = -1  # one class carrying all the weight is a pure root: scikit-learn keeps it as a leaf
        if total_neg > 0.0 and total_pos > 0.0:
            signed_weights = np.where(is_positive, weights, -weights)
            feature, last_left, first_right = _search_best_split(
                self.sorted_order, self.rises, signed_weights, total_neg, total_pos, self._criterion_code
            )

        stump = DecisionStump(criterion=self.criterion)
        stump.classes_ = np.array([0, 1])
        stump.n_features_in_ = n_features
        if feature < 0:
            root = np.array([total_neg, total_pos]) / (total_neg + total_pos)
            stump.feature_, stump.threshold_ = 0, np.inf
            stump.value_ = np.vstack([root, root])
            return stump
        below = self.X[self.sorted_order[last_left, feature], feature]
        above = self.X[self.sorted_order[first_right, feature], feature]
        threshold = below / 2.0 + above / 2.0  # halves: no overflow (scikit-learn's form)
        if threshold >= above:  # rounding reached the upper value: keep ``above`` on the right
            threshold = below
        # Leaf sums recomputed directly (not as total - left) so that a pure leaf has exactly one class.
        goes_right = self.X[:, feature] > threshold
        leaf_sums = np.bincount(2 * goes_right + is_positive, weights=weights, minlength=4).reshape(2, 2)
        stump.feature_ = int(feature)
        stump.threshold_ = float(threshold)
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
            Finite features.
        y : array-like of shape (n_samples,)
            Labels: at most two distinct values (one gives a constant stump).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights, not all zero; ``None`` weighs every sample 1.

        Returns
        -------
        self : DecisionStump
        """
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite=True)
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
        fitted = search.fit(y01.astype(np.int8), sample_weight)
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
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite=True, reset=False)
        return (X[:, self.feature_] > self.threshold_).astype(np.int64)

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
        check_is_fitted(self)
        leaf_labels = self.classes_[np.argmax(self.value_, axis=1)]
        return leaf_labels[self.apply(X)]
