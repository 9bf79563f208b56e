"""AdaMEC-Cal and CGAda-Cal: Platt-calibrated boosting with the minimum-expected-cost decision.

Nikolaou et al. (2016), "Cost-sensitive boosting algorithms: do we really need them?", as used by the AdaCC
paper (Section 5.2) and fixed by spec section 3: the ensemble's score is calibrated with Platt scaling
(scikit-learn's ``CalibratedClassifierCV(method="sigmoid")``) on data the ensemble was not trained on, and a
sample is labelled positive when its calibrated ``p(+|x) > C- / (C+ + C-)``.

Cross-fitting: ``CalibratedClassifierCV(..., ensemble=False)`` with stratified, shuffled folds collects
out-of-fold scores of ensembles trained on the other folds, fits the sigmoid on them, and then refits one
ensemble on all the training data; that ensemble's score goes through the sigmoid at prediction time. (The
authors' code calibrates in-sample with isotonic regression and a complemented threshold; spec section 3 says
not to copy that.)
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.calibration import CalibratedClassifierCV
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from algorithms._validation import (
    check_feature_magnitude,
    check_sample_weight,
    draw_seed,
    encode_binary_target,
)
from algorithms.boosting._rules import derive_fixed_costs, row_decision_thresholds
from algorithms.boosting.adaboost import AdaBoost
from algorithms.boosting.cgada import CGAda
from algorithms.metrics import check_cost_matrix

__all__ = ["AdaMECCalibrated", "CGAdaCalibrated", "minimum_expected_cost_threshold"]


def minimum_expected_cost_threshold(positive_cost, negative_cost):
    """Probability above which predicting positive has the smaller expected cost: ``C- / (C+ + C-)``.

    Predicting positive costs ``C- (1 - p)`` in expectation, predicting negative ``C+ p`` (Elkan 2001).
    """
    return float(negative_cost) / (float(positive_cost) + float(negative_cost))


class _CalibratedCostBoosting(ClassifierMixin, BaseEstimator):
    """Shared fit and prediction of the calibrated variants; subclasses name the ensemble they calibrate."""

    _ensemble_class: ClassVar[type]
    _ensemble_uses_costs: ClassVar[bool]

    _expected_failed_checks = {
        "check_sample_weight_equivalence_on_dense_data": (
            "cross-fitting splits the rows whatever their weight, so zero-weight rows change the folds (and "
            "a fold can hold a class only at weight 0) compared with the data without them; scikit-learn's "
            "CalibratedClassifierCV has the same limitation"
        ),
    }

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "pos_label": "no_validation",
        "positive_cost": [Interval(Real, 0, None, closed="neither")],
        "negative_cost": [Interval(Real, 0, None, closed="neither")],
        "calibration_folds": [Interval(Integral, 2, None, closed="left")],
    }

    def __init__(
        self,
        estimator=None,
        *,
        n_estimators=50,
        random_state=None,
        pos_label=None,
        positive_cost=1.0,
        negative_cost=1.0,
        calibration_folds=3,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.random_state = random_state
        self.pos_label = pos_label
        self.positive_cost = positive_cost
        self.negative_cost = negative_cost
        self.calibration_folds = calibration_folds

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        """Cross-fit the ensemble, fit the sigmoid on out-of-fold scores, refit the ensemble on all data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Exactly two class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Passed to the ensemble and to the sigmoid fit.
        cost_matrix : array-like of shape (n_samples, 4), default=None
            Example-dependent costs ``[C_FP, C_FN, C_TP, C_TN]``. They replace the class costs: the
            ensemble gets them where it uses costs (CGAda: class costs from the class mean regrets, row
            weights from each row's regret, both on ``D^1``; AdaBoost ignores them), and the class mean
            regrets set the threshold used when ``predict`` is given no costs.

        Returns
        -------
        self : object
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_feature_magnitude(
            X, estimator_name=type(self).__name__, feature_names=getattr(self, "feature_names_in_", None)
        )
        weights = check_sample_weight(sample_weight, X.shape[0])
        self.classes_, y01, self.pos_label_ = encode_binary_target(
            y, self.pos_label, weights, estimator_name=type(self).__name__
        )
        positives = int(y01.sum())
        smallest = min(positives, y01.size - positives)
        if smallest < self.calibration_folds:
            raise ValueError(
                f"calibration with calibration_folds={self.calibration_folds} needs at least that many "
                f"samples of each class; the smaller class has {smallest}"
            )
        if cost_matrix is not None:
            cost_matrix = check_cost_matrix(cost_matrix, X.shape[0])
        costs = derive_fixed_costs(
            np.where(y01 == 1, 1.0, -1.0), self.positive_cost, self.negative_cost, cost_matrix
        )
        fit_params = (
            {} if cost_matrix is None or not self._ensemble_uses_costs else {"cost_matrix": cost_matrix}
        )
        self.class_costs_ = np.array([costs[y01 == 1].mean(), costs[y01 == 0].mean()])
        self.decision_threshold_ = minimum_expected_cost_threshold(*self.class_costs_)

        random_state = check_random_state(self.random_state)
        ensemble = self._ensemble_class(
            self.estimator,
            n_estimators=self.n_estimators,
            random_state=draw_seed(random_state),
            pos_label=1,
            **self._ensemble_cost_params(),
        )
        folds = StratifiedKFold(self.calibration_folds, shuffle=True, random_state=draw_seed(random_state))
        self.calibrated_classifier_ = CalibratedClassifierCV(
            ensemble, method="sigmoid", cv=folds, ensemble=False
        )
        self.calibrated_classifier_.fit(
            X, y01, sample_weight=None if sample_weight is None else weights, **fit_params
        )
        self.ensemble_ = self.calibrated_classifier_.calibrated_classifiers_[0].estimator
        return self

    def _ensemble_cost_params(self):
        if self._ensemble_uses_costs:
            return {"positive_cost": self.positive_cost, "negative_cost": self.negative_cost}
        return {}

    # -------------------------------------------------------------------------------------------- prediction
    def _positive_probability(self, X):
        check_is_fitted(self, "calibrated_classifier_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.calibrated_classifier_.predict_proba(X)[:, 1]

    def predict_proba(self, X):
        """Platt-calibrated class probabilities, columns ordered as ``classes_``."""
        positive = self._positive_probability(X)
        second = positive if self.pos_label_ == self.classes_[1] else 1.0 - positive
        return np.column_stack([1.0 - second, second])

    def decision_function(self, X):
        """``p(+|x) - C- / (C+ + C-)``, oriented so that positive values favour ``classes_[1]``."""
        margin = self._positive_probability(X) - self.decision_threshold_
        return margin if self.pos_label_ == self.classes_[1] else -margin

    def predict(self, X, cost_matrix=None):
        """The minimum-expected-cost label: positive when the calibrated ``p(+|x)`` exceeds the threshold.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        cost_matrix : array-like of shape (n_samples, 4), default=None
            The rows' own costs ``[C_FP, C_FN, C_TP, C_TN]``: row ``i`` is positive iff
            ``p(+|x_i) > C- r-_i / (C+ r+_i + C- r-_i)`` with its regrets ``r+ = C_FN - C_TP``,
            ``r- = C_FP - C_TN`` (the Bayes minimum risk rule, CSDT Section 2.3, at the default
            ``C+ = C- = 1``). ``None``: ``C- / (C+ + C-)`` of the fit.
        """
        positive = self._positive_probability(X)
        if cost_matrix is None:
            thresholds = self.decision_threshold_
        else:
            thresholds = row_decision_thresholds(
                check_cost_matrix(cost_matrix, positive.shape[0]), self.positive_cost, self.negative_cost
            )
        decision = positive - thresholds
        decision = decision if self.pos_label_ == self.classes_[1] else -decision
        return self.classes_[(decision > 0).astype(int)]


_PARAMETERS_DOC = """
    Parameters
    ----------
    estimator : object, default=None
        Weak learner of the ensemble; ``None`` is the fast decision stump.
    n_estimators : int, default=50
        Rounds of the ensemble.
    random_state : int, RandomState instance or None, default=None
        Seeds the ensembles and the calibration folds (one generator per ``fit``).
    pos_label : label or None, default=None
        Positive class; ``None`` takes the minority class.
    positive_cost : float, default=1.0
        ``C+``, the cost of a false negative.
    negative_cost : float, default=1.0
        ``C-``, the cost of a false positive.
    calibration_folds : int, default=3
        Stratified folds of the cross-fitting that produces the out-of-fold scores for the sigmoid.

    Attributes
    ----------
    calibrated_classifier_ : CalibratedClassifierCV
        The fitted calibration (``ensemble=False``: one sigmoid, one ensemble refitted on all data).
    ensemble_ : classifier
        The ensemble trained on all the training data, whose score the sigmoid maps.
    class_costs_ : ndarray of shape (2,)
        ``(C+, C-)`` used by the decision without the rows' costs (with a ``cost_matrix`` at fit: the class
        mean regrets scaled to max 1).
    decision_threshold_ : float
        ``C- / (C+ + C-)``.
    classes_, pos_label_, n_features_in_
        As for the boosting estimators.

    Notes
    -----
    Scaling both costs leaves the threshold, hence the predictions, unchanged. The probabilities are the
    calibrated ones (not shifted by the costs); :meth:`decision_function` is ``p(+|x)`` minus the threshold.
    Staged predictions are not offered: the sigmoid is fitted to the final ensemble's score, so evaluating
    several ensemble sizes means one fit per size.
"""


class AdaMECCalibrated(_CalibratedCostBoosting):
    __doc__ = (
        """AdaMEC-Cal: AdaBoost, Platt-calibrated on held-out scores, with AdaMEC's minimum-expected-cost
    rule.

    AdaMEC trains plain AdaBoost and moves only the decision; here the move is applied to the calibrated
    probability: positive when ``p(+|x) > C- / (C+ + C-)`` (Nikolaou et al. 2016; spec section 3).
"""
        + _PARAMETERS_DOC
    )
    _ensemble_class = AdaBoost
    _ensemble_uses_costs = False


class CGAdaCalibrated(_CalibratedCostBoosting):
    __doc__ = (
        """CGAda-Cal: CGAda (``D^1`` proportional to the costs), Platt-calibrated, minimum-expected-cost rule.

    The sigmoid, fitted on held-out samples without cost weights, maps CGAda's score to ``p(+|x)``; the
    decision
    is ``p(+|x) > C- / (C+ + C-)`` (Nikolaou et al. 2016; spec section 3).
"""
        + _PARAMETERS_DOC
    )
    _ensemble_class = CGAda
    _ensemble_uses_costs = True
