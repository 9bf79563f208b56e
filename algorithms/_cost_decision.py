"""What the cost-sensitive probability models of ``algorithms.linear``, ``algorithms.gradient_boosting`` and
``algorithms.ensemble`` share: their fit's checked inputs, and the minimum-risk decision of their probability
with each row's costs.

CSDT paper, Section 2.3: with the model's positive probability ``p_i``, predict positive iff that is the
cheaper decision in expectation, the one rule of :func:`algorithms.cost.minimum_risk.minimum_risk_decision`
(``p_i > t_i = (C_FP,i - C_TN,i) / (C_FN,i - C_TN,i - C_TP,i + C_FP,i)`` where the denominator is positive;
:meth:`MinimumRiskDecisionMixin.decision_thresholds` shows these ``t_i``). Without a cost matrix at predict
time the class-level costs learned at fit apply: the sample-weighted column means of the training cost matrix.

A model fitted on the expected cost has already weighed each row's costs, so its probability may also be
decided at 1/2 (Höppner et al. 2022 decide so): ``decision="half"``. Which decision is the default of each
model was chosen on data (``docs/results/strongest-methods.md``).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import _check_sample_weight, column_or_1d, validate_data

from algorithms._validation import check_feature_magnitude, encode_binary_target
from algorithms.cost._inputs import example_costs
from algorithms.cost.minimum_risk import bayes_minimum_risk_thresholds, minimum_risk_decision
from algorithms.metrics import check_cost_matrix

__all__ = ["DECISIONS", "MinimumRiskDecisionMixin"]

#: ``decision`` parameter values: per-row minimum-risk thresholds, or one threshold 1/2.
DECISIONS = ("minimum-risk", "half")


class MinimumRiskDecisionMixin:
    """``predict(X, cost_matrix=None)`` and ``decision_thresholds`` from ``_positive_probability(X)``.

    The estimator's ``fit`` starts with :meth:`_checked_fit_inputs` (setting ``classes_``,
    ``positive_index_``) and learns ``class_costs_`` and ``threshold_`` with :meth:`_learn_class_costs`; it
    provides ``_positive_probability(X)`` (validating ``X``), from which ``predict_proba`` is derived. Its
    ``decision`` parameter (one of :data:`DECISIONS`) chooses the thresholds.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _checked_fit_inputs(self, X, y, sample_weight, cost_matrix):
        """``(X, y01, weights, costs)`` of a binary fit; sets ``classes_``, ``pos_label_`` and
        ``positive_index_``.

        ``X`` as float64 (finite, within float32's range), ``y`` coded 1 for ``pos_label`` (by default the
        class of smaller weight), non-negative weights (ones without ``sample_weight``) and the costs (unit
        costs without ``cost_matrix``).
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
        return X, y01, weights, example_costs(cost_matrix, X.shape[0])

    def _decides_at_half(self):
        """Whether every row's threshold is 1/2 (``decision="half"``)."""
        return self.decision == "half"

    def _learn_class_costs(self, costs, weights):
        """``class_costs_``: weighted column means of the training costs; ``threshold_``: their ``t``."""
        self.class_costs_ = np.average(costs, axis=0, weights=weights if weights.sum() > 0 else None)
        self.threshold_ = float(bayes_minimum_risk_thresholds(self.class_costs_[None, :])[0])

    def _row_thresholds(self, n_samples, cost_matrix):
        if self._decides_at_half():
            if cost_matrix is not None:
                check_cost_matrix(cost_matrix, n_samples)
            return np.full(n_samples, 0.5)
        if cost_matrix is None:
            return np.full(n_samples, self.threshold_)
        return bayes_minimum_risk_thresholds(check_cost_matrix(cost_matrix, n_samples))

    def predict_proba(self, X):
        """Class probabilities, columns ordered as ``classes_``."""
        positive = self._positive_probability(X)
        proba = np.empty((positive.shape[0], 2))
        proba[:, self.positive_index_] = positive
        proba[:, 1 - self.positive_index_] = 1.0 - positive
        return proba

    def decision_thresholds(self, X, cost_matrix=None):
        """``t_i`` of each row: from ``cost_matrix``, or ``threshold_`` for every row without one (1/2 for
        every row with ``decision="half"``)."""
        return self._row_thresholds(self._positive_probability(X).shape[0], cost_matrix)

    def predict(self, X, cost_matrix=None):
        """Label each row positive iff its probability exceeds its threshold (:meth:`decision_thresholds`).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        cost_matrix : array-like of shape (n_samples, 4), default=None
            The rows' costs ``[C_FP, C_FN, C_TP, C_TN]``; ``None`` applies ``class_costs_`` to every row.
        """
        positive = self._positive_probability(X)
        if self._decides_at_half():
            if cost_matrix is not None:
                check_cost_matrix(cost_matrix, positive.shape[0])
            predicted_positive = positive > 0.5
        else:
            costs = (
                np.broadcast_to(self.class_costs_, (positive.shape[0], 4))
                if cost_matrix is None
                else check_cost_matrix(cost_matrix, positive.shape[0])
            )
            predicted_positive = minimum_risk_decision(positive, costs)
        return np.where(
            predicted_positive, self.classes_[self.positive_index_], self.classes_[1 - self.positive_index_]
        )
