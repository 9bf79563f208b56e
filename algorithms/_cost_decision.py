"""The minimum-risk decision of a fitted probability with each row's costs, shared by the families of
cost-sensitive models that output a probability (``algorithms.linear``, ``algorithms.gradient_boosting``,
``algorithms.ensemble``).

CSDT paper, Section 2.3: with the model's positive probability ``p_i``, predict positive iff
``p_i > t_i = (C_FP,i - C_TN,i) / (C_FN,i - C_TN,i - C_TP,i + C_FP,i)``
(:func:`algorithms.cost.bayes_minimum_risk_thresholds`; ``t_i = +inf``, never positive, where the
denominator is not positive). Without a cost matrix at predict time the class-level costs learned at fit
apply: the sample-weighted column means of the training cost matrix.

A model fitted on the expected cost has already weighed each row's costs, so its probability may also be
decided at 1/2 (Höppner et al. 2022 decide so): ``decision="half"``. Which decision is the default of each
model was chosen on data (``docs/results/strongest-methods.md``).
"""

from __future__ import annotations

import numpy as np

from algorithms.cost import bayes_minimum_risk_thresholds
from algorithms.metrics import check_cost_matrix

__all__ = ["DECISIONS", "MinimumRiskDecisionMixin"]

#: ``decision`` parameter values: per-row minimum-risk thresholds, or one threshold 1/2.
DECISIONS = ("minimum-risk", "half")


class MinimumRiskDecisionMixin:
    """``predict(X, cost_matrix=None)`` and ``decision_thresholds`` from ``_positive_probability(X)``.

    The estimator sets ``classes_``, ``positive_index_`` and, through :meth:`_learn_class_costs`,
    ``class_costs_`` and ``threshold_`` in ``fit``; it provides ``_positive_probability(X)`` (validating
    ``X``) and ``predict_proba`` is derived from it. Its ``decision`` parameter (one of :data:`DECISIONS`)
    chooses the thresholds.
    """

    def _learn_class_costs(self, costs, weights):
        """``class_costs_``: weighted column means of the training costs; ``threshold_``: their ``t``."""
        self.class_costs_ = np.average(costs, axis=0, weights=weights if weights.sum() > 0 else None)
        self.threshold_ = float(bayes_minimum_risk_thresholds(self.class_costs_[None, :])[0])

    def _row_thresholds(self, n_samples, cost_matrix):
        if self.decision == "half":
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
        predicted_positive = positive > self._row_thresholds(positive.shape[0], cost_matrix)
        return np.where(
            predicted_positive, self.classes_[self.positive_index_], self.classes_[1 - self.positive_index_]
        )
