"""Bayes minimum risk: calibrated probabilities of any classifier, decided by example-dependent costs.

CSDT paper, Section 2.3 (Correa Bahnsen et al. 2014): with the calibrated positive probability ``p_i``, the
risk of predicting positive is ``R(1|x_i) = C_TP,i p_i + C_FP,i (1 - p_i)`` and of predicting negative
``R(0|x_i) = C_TN,i (1 - p_i) + C_FN,i p_i``; predict positive iff ``R(1|x_i) < R(0|x_i)``, i.e. (when
``C_FN + C_FP > C_TP + C_TN``) iff ``p_i > t_i = (C_FP,i - C_TN,i) / (C_FN,i - C_TN,i - C_TP,i + C_FP,i)``.
The rule itself is :func:`algorithms.cost.minimum_risk.minimum_risk_decision`, shared with AdaMEC.

:class:`BayesMinimumRiskClassifier` owns ``fit`` and the decision; its variants bind narrow hooks (the
table's ``bmr-*`` only :meth:`~BayesMinimumRiskClassifier._default_estimator`; AdaMEC-Cal and CGAda-Cal,
:mod:`algorithms.boosting.calibrated`, the boosted ensemble, Platt scaling and their class costs).
"""

from __future__ import annotations

from contextlib import nullcontext
from numbers import Integral
from typing import NamedTuple

import numpy as np
from sklearn import config_context
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from algorithms._validation import (
    check_feature_magnitude,
    check_prediction_features,
    check_sample_weight,
    draw_seed,
    encode_binary_target,
)
from algorithms.cost._inputs import example_costs
from algorithms.cost.minimum_risk import bayes_minimum_risk_thresholds, minimum_risk_decision
from algorithms.metrics import check_cost_matrix

__all__ = [
    "BayesMinimumRiskClassifier",
    "BayesMinimumRiskDecisionTree",
    "BayesMinimumRiskHistGradientBoosting",
    "BayesMinimumRiskLogisticRegression",
    "BayesMinimumRiskRandomForest",
    "Calibration",
]


class Calibration(NamedTuple):
    """How a minimum-risk classifier calibrates: ``CalibratedClassifierCV(method=..., cv=..., ensemble=...)``.

    ``folds_parameter`` names the estimator parameter that set ``folds`` (for error messages).
    """

    method: str
    folds: object
    ensemble: bool
    folds_parameter: str


class BayesMinimumRiskClassifier(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Any probabilistic classifier, calibrated on held-out data, deciding by minimum expected cost.

    ``fit`` wraps a clone of ``estimator`` in scikit-learn's ``CalibratedClassifierCV`` (isotonic by default)
    with ``cv`` stratified shuffled folds: each fold's calibrator is fitted on data its classifier did not
    see, and the calibrated probability is the mean over folds. ``predict(X, cost_matrix=C)`` labels example
    ``i`` positive iff ``C_TP,i p_i + C_FP,i (1 - p_i) < C_TN,i (1 - p_i) + C_FN,i p_i`` (CSDT paper, Section
    2.3; :func:`~algorithms.cost.minimum_risk.minimum_risk_decision`), the same as ``p_i > t_i`` from
    :func:`~algorithms.cost.minimum_risk.bayes_minimum_risk_thresholds` whenever
    ``C_FN + C_FP > C_TP + C_TN``.

    Without a cost matrix at predict time the **class-level costs** learned at fit apply: the
    (sample-weighted) mean of each column of the training cost matrix, ``class_costs_ = [mean C_FP, mean
    C_FN, mean C_TP, mean C_TN]``, used for every example (one threshold ``threshold_``). Without a cost
    matrix at fit, unit costs make that threshold 1/2 (the calibrated classifier's own decision).

    Variants must not override ``fit`` or ``predict``; they bind the hooks: the table's variants
    (``"bmr-lr"``, ``"bmr-rf"``, ``"bmr-dt"``) only choose :meth:`_default_estimator`, the calibrated
    boosters (:mod:`algorithms.boosting.calibrated`) also :meth:`_scored_estimator`, :meth:`_calibration`,
    :meth:`_class_level_costs`, :meth:`_regret_scales`, :meth:`_estimator_fit_params` and
    :meth:`_sub_seeds`.

    Parameters
    ----------
    estimator : classifier with ``predict_proba``, default=None
        ``None`` means ``LogisticRegression`` on standardised features.
    method : {"isotonic", "sigmoid"}, default="isotonic"
        Calibration map.
    cv : int, cross-validation generator or iterable of (train, test) splits, default=3
        Calibration folds; an int means that many stratified, shuffled folds seeded by ``random_state``.
    pos_label : object, default=None
        Positive class (``None``: the minority class, by total ``sample_weight``).
    random_state : int, RandomState instance or None, default=None
        Seeds the folds and, when it has a ``random_state`` parameter, the wrapped estimator.

    Attributes
    ----------
    classes_, pos_label_, positive_index_, n_features_in_
    calibrated_classifier_ : CalibratedClassifierCV
        Fitted on ``y == pos_label_`` (classes 0/1).
    class_costs_ : ndarray of shape (4,)
        The cost row ``[C_FP, C_FN, C_TP, C_TN]`` applied to every example when ``predict`` gets no costs.
    threshold_ : float
        ``t`` of the class-level costs.
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict_proba"]), None],
        "method": [StrOptions({"isotonic", "sigmoid"})],
        "cv": [Interval(Integral, 2, None, closed="left"), "cv_object"],
        "pos_label": "no_validation",
        "random_state": ["random_state"],
    }

    def __init__(self, estimator=None, *, method="isotonic", cv=3, pos_label=None, random_state=None):
        self.estimator = estimator
        self.method = method
        self.cv = cv
        self.pos_label = pos_label
        self.random_state = random_state

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        overridden = sorted({"fit", "predict"} & set(vars(cls)))
        if overridden:
            raise TypeError(
                f"{cls.__name__} overrides {', '.join(overridden)}; variants of BayesMinimumRiskClassifier "
                "bind its hooks instead, so that every one decides by the one minimum-risk rule"
            )

    # ---------------------------------------------------------------------------------------- hooks to bind
    def _default_estimator(self):
        """LogisticRegression on standardised features, both steps requesting ``sample_weight``."""
        return make_pipeline(
            StandardScaler().set_fit_request(sample_weight=True),
            LogisticRegression(max_iter=1000).set_fit_request(sample_weight=True),
        )

    def _scored_estimator(self, seed):
        """The unfitted classifier to calibrate, seeded with ``seed``, and whether it routes metadata.

        The default estimators are built (and fitted) with metadata routing on, so that they can request
        ``sample_weight``: routing then hands it to every step (``CalibratedClassifierCV`` cannot pass it to
        a Pipeline otherwise).
        """
        if self.estimator is None:
            with config_context(enable_metadata_routing=True):
                estimator, routed = self._default_estimator(), True
        else:
            estimator, routed = clone(self.estimator), False
        if "random_state" in estimator.get_params(deep=False):
            estimator.set_params(random_state=seed)
        return estimator, routed

    def _calibration(self) -> Calibration:
        """The calibration map and folds: ``method`` over ``cv`` folds, the fold models averaged."""
        return Calibration(self.method, self.cv, ensemble=True, folds_parameter="cv")

    def _class_level_costs(self, y01, sample_weight, cost_matrix):
        """The cost row used without the rows' costs: the weighted column means of the training costs."""
        costs = example_costs(cost_matrix, y01.shape[0])
        return np.average(costs, axis=0, weights=sample_weight if sample_weight.sum() > 0 else None)

    def _regret_scales(self):
        """``(C+, C-)``, the scales of the positive and the negative regrets in the decision: ``(1, 1)``."""
        return 1.0, 1.0

    def _estimator_fit_params(self, cost_matrix):
        """Keyword arguments of the scored estimator's ``fit`` besides ``sample_weight``: none."""
        return {}

    def _sub_seeds(self, random_state, seeds_folds):
        """``(fold seed or None, estimator seed)`` from the fit's generator: the folds' is drawn first."""
        fold_seed = draw_seed(random_state) if seeds_folds else None
        return fold_seed, draw_seed(random_state)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    # ----------------------------------------------------------------------------------------------- fitting
    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        """Fit and calibrate the wrapped classifier; remember the class-level costs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Passed to the calibration (and to the wrapped estimator when it accepts it); weights the
            class-level cost means.
        cost_matrix : array-like of shape (n_samples, 4), default=None
            Training costs ``[C_FP, C_FN, C_TP, C_TN]``; only their weighted column means are used.
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_feature_magnitude(
            X, estimator_name=type(self).__name__, feature_names=getattr(self, "feature_names_in_", None)
        )
        y = column_or_1d(y, warn=True)
        weights = check_sample_weight(sample_weight, X.shape[0])
        self.classes_, y01, self.pos_label_ = encode_binary_target(
            y, self.pos_label, weights, estimator_name=type(self).__name__
        )
        self.positive_index_ = int(np.flatnonzero(self.classes_ == self.pos_label_)[0])
        if cost_matrix is not None:
            cost_matrix = check_cost_matrix(cost_matrix, X.shape[0])
        calibration = self._calibration()
        n_smallest_class = int(np.bincount(y01, minlength=2).min())
        if isinstance(calibration.folds, Integral) and n_smallest_class < calibration.folds:
            raise ValueError(
                f"calibration with {calibration.folds_parameter}={calibration.folds} folds needs at least "
                f"{calibration.folds} samples of each class; the smaller class has {n_smallest_class}"
            )
        self.class_costs_ = np.asarray(self._class_level_costs(y01, weights, cost_matrix), dtype=float)
        self.threshold_ = self._class_level_threshold()

        seeds_folds = isinstance(calibration.folds, Integral)
        fold_seed, estimator_seed = self._sub_seeds(check_random_state(self.random_state), seeds_folds)
        folds = (
            StratifiedKFold(calibration.folds, shuffle=True, random_state=fold_seed)
            if seeds_folds
            else calibration.folds
        )
        estimator, routed = self._scored_estimator(estimator_seed)
        self.calibrated_classifier_ = CalibratedClassifierCV(
            estimator, method=calibration.method, cv=folds, ensemble=calibration.ensemble
        )
        with config_context(enable_metadata_routing=True) if routed else nullcontext():
            self.calibrated_classifier_.fit(
                X,
                y01,
                sample_weight=None if sample_weight is None else weights,
                **self._estimator_fit_params(cost_matrix),
            )
        return self

    def _class_level_threshold(self):
        """``t`` of ``class_costs_`` under the regret scales (:meth:`_regret_scales`)."""
        return float(bayes_minimum_risk_thresholds(self.class_costs_[None, :], *self._regret_scales())[0])

    # -------------------------------------------------------------------------------------------- prediction
    def _positive_probability(self, X):
        """The calibrated ``p(pos_label_ | x)`` of each row."""
        check_is_fitted(self, "calibrated_classifier_")
        X = check_prediction_features(self, X, dtype=np.float64)
        return self.calibrated_classifier_.predict_proba(X)[:, 1]

    def predict_proba(self, X):
        """Calibrated class probabilities, columns ordered as ``classes_``."""
        positive = self._positive_probability(X)
        proba = np.empty((positive.shape[0], 2))
        proba[:, self.positive_index_] = positive
        proba[:, 1 - self.positive_index_] = 1.0 - positive
        return proba

    def decision_thresholds(self, X, cost_matrix=None):
        """``t_i`` for each row of ``X``: from ``cost_matrix``, or ``threshold_`` for every row without
        one."""
        n_samples = check_prediction_features(self, X, dtype=np.float64).shape[0]
        if cost_matrix is None:
            return np.full(n_samples, self.threshold_)
        return bayes_minimum_risk_thresholds(
            check_cost_matrix(cost_matrix, n_samples), *self._regret_scales()
        )

    def predict(self, X, cost_matrix=None):
        """Label each example by the smaller expected cost (risk) under its calibrated probability.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        cost_matrix : array-like of shape (n_samples, 4), default=None
            The examples' costs; ``None`` applies ``class_costs_`` to every example.
        """
        positive = self._positive_probability(X)
        if cost_matrix is None:
            costs = np.broadcast_to(self.class_costs_, (positive.shape[0], 4))
        else:
            costs = check_cost_matrix(cost_matrix, positive.shape[0])
        predicted_positive = minimum_risk_decision(positive, costs, *self._regret_scales())
        return np.where(
            predicted_positive, self.classes_[self.positive_index_], self.classes_[1 - self.positive_index_]
        )


class BayesMinimumRiskLogisticRegression(BayesMinimumRiskClassifier):
    """BMR around ``LogisticRegression`` on standardised features (key ``"bmr-lr"``)."""

    def __init__(self, estimator=None, *, method="isotonic", cv=3, pos_label=None, random_state=None):
        super().__init__(estimator, method=method, cv=cv, pos_label=pos_label, random_state=random_state)


class BayesMinimumRiskRandomForest(BayesMinimumRiskClassifier):
    """BMR around a ``RandomForestClassifier`` of 100 trees, ``min_samples_leaf=5`` (key
    ``"bmr-rf"``)."""

    _expected_failed_checks = {
        "check_sample_weight_equivalence_on_dense_data": (
            "random forest bootstrap draws rows, so a weight-2 row and a repeated row are resampled "
            "differently (scikit-learn's RandomForestClassifier fails this check too)"
        ),
    }

    def __init__(self, estimator=None, *, method="isotonic", cv=3, pos_label=None, random_state=None):
        super().__init__(estimator, method=method, cv=cv, pos_label=pos_label, random_state=random_state)

    def _default_estimator(self):
        forest = RandomForestClassifier(n_estimators=100, min_samples_leaf=5, n_jobs=1)
        return forest.set_fit_request(sample_weight=True)


class BayesMinimumRiskDecisionTree(BayesMinimumRiskClassifier):
    """BMR around a ``DecisionTreeClassifier`` whose leaves hold at least 0.5 % of the weight (key
    ``"bmr-dt"``).

    The leaf minimum (``min_weight_fraction_leaf=0.005``, a weight so that a weight-2 sample counts like two
    samples) keeps leaf frequencies informative enough to calibrate; a full-depth tree's 0/1 leaves give
    isotonic regression nothing to order.
    """

    def __init__(self, estimator=None, *, method="isotonic", cv=3, pos_label=None, random_state=None):
        super().__init__(estimator, method=method, cv=cv, pos_label=pos_label, random_state=random_state)

    def _default_estimator(self):
        return DecisionTreeClassifier(min_weight_fraction_leaf=0.005).set_fit_request(sample_weight=True)


class BayesMinimumRiskHistGradientBoosting(BayesMinimumRiskClassifier):
    """BMR around scikit-learn's ``HistGradientBoostingClassifier`` (key ``"bmr-hgb"``).

    The strongest cost-blind learner of the library behind the decision with costs (Vanderschueren et al.
    2022: calibrated probabilities with per-row thresholds often beat training with the costs), with its
    defaults: 100 rounds of 31-leaf trees, learning rate 0.1, early stopping on 10 % of the rows when the
    training set has more than 10,000 rows (seeded by ``random_state``).
    """

    _expected_failed_checks = {
        "check_sample_weight_equivalence_on_dense_data": (
            "the histogram bins are quantiles of the rows whatever their weight, so a weight-2 row and a "
            "repeated row bin differently (scikit-learn's HistGradientBoostingClassifier fails this too)"
        ),
    }

    def __init__(self, estimator=None, *, method="isotonic", cv=3, pos_label=None, random_state=None):
        super().__init__(estimator, method=method, cv=cv, pos_label=pos_label, random_state=random_state)

    def _default_estimator(self):
        return HistGradientBoostingClassifier().set_fit_request(sample_weight=True)
