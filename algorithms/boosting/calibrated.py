"""AdaMEC-Cal and CGAda-Cal: Platt-calibrated boosting with the minimum-expected-cost decision.

Nikolaou et al. (2016), "Cost-sensitive boosting algorithms: do we really need them?", as used by the AdaCC
paper (Section 5.2) and fixed by docs/algorithms.md §3: the ensemble's score is calibrated with Platt scaling
(scikit-learn's ``CalibratedClassifierCV(method="sigmoid")``) on data the ensemble was not trained on, and a
sample is labelled positive when its calibrated ``p(+|x) > C- / (C+ + C-)``.

Both are Bayes minimum risk classifiers (:class:`~algorithms.cost.bayes_minimum_risk.\
BayesMinimumRiskClassifier`) around a boosted ensemble: that class fits, calibrates and decides (the one
minimum-risk rule, :func:`~algorithms.cost.minimum_risk.minimum_risk_decision`, with ``C+`` and ``C-``
scaling the regrets); this module only binds its hooks: the ensemble, Platt scaling with cross-fitting, the
class costs.

Cross-fitting: ``CalibratedClassifierCV(..., ensemble=False)`` with stratified, shuffled folds collects
out-of-fold scores of ensembles trained on the other folds, fits the sigmoid on them, and then refits one
ensemble on all the training data; that ensemble's score goes through the sigmoid at prediction time. (The
authors' code calibrates in-sample with isotonic regression and a complemented threshold; docs/algorithms.md
§3 says not to copy that.)
"""

from __future__ import annotations

import copy
from numbers import Integral, Real
from typing import ClassVar

import numpy as np
from sklearn.base import clone
from sklearn.utils._param_validation import HasMethods, Interval

from algorithms._validation import draw_seed
from algorithms.boosting._rules import class_mean_regrets
from algorithms.boosting.adaboost import AdaBoost
from algorithms.boosting.cgada import CGAda
from algorithms.cost.bayes_minimum_risk import BayesMinimumRiskClassifier, Calibration
from algorithms.cost_grid import fit_each_negative_cost

__all__ = ["AdaMECCalibrated", "CGAdaCalibrated"]


class _CalibratedCostBoosting(BayesMinimumRiskClassifier):
    """Bayes minimum risk around a boosted ensemble; subclasses name the ensemble they calibrate."""

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

    # ----------------------------------------------------------------------- the hooks of Bayes minimum risk
    def _scored_estimator(self, seed):
        """The boosted ensemble (positive class coded 1), seeded; no metadata routing."""
        costs = (
            {"positive_cost": self.positive_cost, "negative_cost": self.negative_cost}
            if self._ensemble_uses_costs
            else {}
        )
        ensemble = self._ensemble_class(
            self.estimator, n_estimators=self.n_estimators, random_state=seed, pos_label=1, **costs
        )
        return ensemble, False

    def _calibration(self) -> Calibration:
        """Platt scaling of out-of-fold scores, then one ensemble refitted on all the training data."""
        return Calibration(
            "sigmoid", self.calibration_folds, ensemble=False, folds_parameter="calibration_folds"
        )

    def _class_level_costs(self, y01, sample_weight, cost_matrix):
        """``[R-, R+, 0, 0]``: the class mean regrets as the errors' costs (``[1, 1, 0, 0]`` without costs).

        Scaled by ``(C+, C-)`` (:meth:`_regret_scales`) they give the threshold ``C- R- / (C+ R+ + C- R-)``,
        which is ``C- / (C+ + C-)`` of the class costs alone.
        """
        if cost_matrix is None:
            return np.array([1.0, 1.0, 0.0, 0.0])
        regret_positive, regret_negative = class_mean_regrets(np.where(y01 == 1, 1.0, -1.0), cost_matrix)
        return np.array([regret_negative, regret_positive, 0.0, 0.0])

    def _regret_scales(self):
        """``(C+, C-)``: the class costs scale their class's regrets."""
        return float(self.positive_cost), float(self.negative_cost)

    def _estimator_fit_params(self, cost_matrix):
        """The rows' costs go to an ensemble that uses them (CGAda), not to AdaBoost."""
        return {"cost_matrix": cost_matrix} if cost_matrix is not None and self._ensemble_uses_costs else {}

    def _sub_seeds(self, random_state, seeds_folds):
        """The ensemble's seed first, then the folds' (the order these methods have always drawn them)."""
        ensemble_seed = draw_seed(random_state)
        return draw_seed(random_state), ensemble_seed

    # ------------------------------------------------------------------------------------------- cost grid
    def _fit_negative_cost_grid(self, X, y, negative_costs, sample_weight=None, cost_matrix=None):
        """One model per ``C-`` (:func:`algorithms.cost_grid.fit_negative_cost_grid`).

        When the ensemble does not use costs (AdaMEC-Cal: AdaBoost), ``C-`` changes neither the ensembles,
        their folds nor the sigmoid, only the decision: the model is fitted and calibrated once, and each
        candidate is a copy with its own ``negative_cost`` and ``threshold_``. CGAda-Cal's ensembles depend
        on ``C-`` and scikit-learn's ``CalibratedClassifierCV`` fits their folds: one fit per candidate.
        """
        if self._ensemble_uses_costs:
            return fit_each_negative_cost(self, X, y, negative_costs, sample_weight, cost_matrix)
        arguments = {} if cost_matrix is None else {"cost_matrix": cost_matrix}
        try:
            fitted = (
                clone(self).set_params(negative_cost=negative_costs[0]).fit(X, y, sample_weight, **arguments)
            )
        except ValueError as error:
            return [error] * len(negative_costs)
        candidates = []
        for cost in negative_costs:
            candidate = copy.deepcopy(fitted).set_params(negative_cost=float(cost))
            candidate.threshold_ = candidate._class_level_threshold()
            candidates.append(candidate)
        return candidates

    # -------------------------------------------------------------------------------------------- prediction
    @property
    def ensemble_(self):
        """The ensemble refitted on all the training data, whose score the sigmoid maps."""
        return self.calibrated_classifier_.calibrated_classifiers_[0].estimator

    def decision_function(self, X):
        """``p(+|x) - t`` with the class-level threshold ``t`` (``threshold_``), oriented so that positive
        values favour ``classes_[1]``; its sign is :meth:`predict`'s label without the rows' costs."""
        probability = self._positive_probability(X)
        positive_regret, negative_regret = self.class_costs_[1], self.class_costs_[0]
        positive_cost, negative_cost = self._regret_scales()
        scaled_positive, scaled_negative = positive_cost * positive_regret, negative_cost * negative_regret
        margin = (scaled_positive * probability - scaled_negative * (1.0 - probability)) / (
            scaled_positive + scaled_negative
        )
        return margin if self.pos_label_ == self.classes_[1] else -margin


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
    class_costs_ : ndarray of shape (4,)
        ``[R-, R+, 0, 0]``: the cost row of the decision without the rows' costs, the class mean regrets
        ``R+-`` of a ``cost_matrix`` given to ``fit`` (``[1, 1, 0, 0]`` without one).
    threshold_ : float
        ``C- R- / (C+ R+ + C- R-)``: ``C- / (C+ + C-)`` without a ``cost_matrix`` at fit.
    classes_, pos_label_, positive_index_, n_features_in_
        As for :class:`~algorithms.cost.bayes_minimum_risk.BayesMinimumRiskClassifier`.

    Notes
    -----
    ``predict(X, cost_matrix=M)`` labels row ``i`` positive iff ``C+ r+_i p_i > C- r-_i (1 - p_i)`` with its
    regrets ``r+ = C_FN - C_TP``, ``r- = C_FP - C_TN`` (the Bayes minimum risk rule, CSDT Section 2.3, at the
    default ``C+ = C- = 1``); without ``M``, by ``class_costs_``. Scaling both costs leaves the threshold,
    hence the predictions, unchanged. The probabilities are the calibrated ones (not shifted by the costs);
    :meth:`decision_function` is ``p(+|x)`` minus the threshold.
    Staged predictions are not offered: the sigmoid is fitted to the final ensemble's score, so evaluating
    several ensemble sizes means one fit per size.
"""


class AdaMECCalibrated(_CalibratedCostBoosting):
    __doc__ = (
        """AdaMEC-Cal: AdaBoost, Platt-calibrated on held-out scores, with AdaMEC's minimum-expected-cost
    rule.

    AdaMEC trains plain AdaBoost and moves only the decision; here the move is applied to the calibrated
    probability: positive when ``p(+|x) > C- / (C+ + C-)`` (Nikolaou et al. 2016; docs/algorithms.md §3).
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
    is ``p(+|x) > C- / (C+ + C-)`` (Nikolaou et al. 2016; docs/algorithms.md §3).
"""
        + _PARAMETERS_DOC
    )
    _ensemble_class = CGAda
    _ensemble_uses_costs = True
