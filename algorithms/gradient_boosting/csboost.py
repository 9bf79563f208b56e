"""csboost: gradient-boosted trees fitted on each row's expected cost (Höppner et al. 2022), on LightGBM.

LightGBM grows the trees; :mod:`algorithms.gradient_boosting._objective` gives it the gradient and a positive
curvature of the regret-normalised expected cost of every row in the raw score. LightGBM was chosen over
XGBoost on evidence (wheel and install size, import time, fit time and savings: ``docs/results/
strongest-methods.md``). It is imported inside ``fit`` and ``predict`` only, so importing ``algorithms``
costs nothing more.

The fitted model is kept as LightGBM's text format (``booster_text_``), a plain string: skops saves it without
trusting any LightGBM type, and the booster is rebuilt from it to predict.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.special import expit, logit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from algorithms._cost_decision import DECISIONS, MinimumRiskDecisionMixin
from algorithms._expected_cost import normalised_regrets
from algorithms._validation import check_prediction_features, draw_seed
from algorithms.gradient_boosting._objective import HESSIANS, expected_cost_gradients

__all__ = ["CostSensitiveGradientBoosting", "lightgbm_parameters"]


def _lightgbm():
    try:
        import lightgbm
    except ImportError as error:  # a clear message instead of a bare ModuleNotFoundError deep in a flow
        raise ImportError(
            "csboost needs LightGBM: pip install 'lightgbm>=4.0' (a dependency of cslearn)"
        ) from error
    return lightgbm


def lightgbm_parameters(estimator, seed):
    """LightGBM's parameters for the tree settings of ``estimator`` (the same for its built-in objective)."""
    return {
        "learning_rate": float(estimator.learning_rate),
        "num_leaves": int(estimator.num_leaves),
        "max_depth": int(estimator.max_depth),
        "min_child_samples": int(estimator.min_child_samples),
        "lambda_l2": float(estimator.reg_lambda),
        "bagging_fraction": float(estimator.subsample),
        "bagging_freq": 1 if estimator.subsample < 1 else 0,
        "feature_fraction": float(estimator.colsample_bytree),
        "max_bin": int(estimator.max_bin),
        "num_threads": int(estimator.n_jobs),
        "seed": int(seed),
        "deterministic": True,
        "force_row_wise": True,
        "feature_pre_filter": False,
        "verbose": -1,
    }


class CostSensitiveGradientBoosting(MinimumRiskDecisionMixin, ClassifierMixin, BaseEstimator):
    """Gradient-boosted trees on the expected cost of each row (csboost, Höppner et al. 2022).

    Every round fits a LightGBM regression tree to the gradient ``g_i = s_i p_i (1 - p_i)`` of the row's
    regret-normalised expected cost ``s_i sigma(z_i)`` in its raw score ``z_i`` (``s_i`` is the row's
    weighted regret ``C_TP - C_FN`` or ``C_FP - C_TN`` over the mean regret; the module
    :mod:`algorithms.gradient_boosting._objective` gives the curvature used instead of the Hessian, which
    is not positive). The boosting starts from the logit of the weighted positive rate, ``init_score_``
    (as LightGBM's own binary objective does). ``predict(X, cost_matrix=C)`` labels row ``i``
    positive iff ``p_i = sigma(z_i)`` exceeds its minimum-risk threshold ``t_i`` (CSDT paper, Section
    2.3); without ``cost_matrix`` the training costs' weighted means apply. Without a training cost matrix
    every row costs ``C_FP = C_FN = 1``.

    Parameters
    ----------
    n_estimators : int, default=100
        Boosting rounds (trees).
    learning_rate : float, default=0.1
    num_leaves : int, default=31
        Leaves per tree (LightGBM grows the leaf of largest gain first).
    max_depth : int, default=-1
        Depth limit; -1 for none.
    min_child_samples : int, default=20
        Fewest rows in a leaf.
    reg_lambda : float, default=0.0
        L2 penalty on the leaf values.
    subsample : float in (0, 1], default=1.0
        Share of the rows drawn (without replacement) for each tree.
    colsample_bytree : float in (0, 1], default=1.0
        Share of the features drawn for each tree.
    max_bin : int, default=255
        Histogram bins per feature.
    hessian : {"bound", "absolute"}, default="bound"
        Positive curvature replacing the Hessian (see :mod:`algorithms.gradient_boosting._objective`).
    decision : {"minimum-risk", "half"}, default="minimum-risk"
        ``predict``'s thresholds: each row's minimum-risk threshold, or 1/2 for every row.
    n_jobs : int, default=1
        LightGBM threads.
    pos_label : object, default=None
        The positive class; ``None`` picks the minority class.
    random_state : int, RandomState instance or None, default=None
        Seeds the row and feature draws.

    Attributes
    ----------
    classes_, pos_label_, positive_index_, n_features_in_
    booster_text_ : str
        The fitted trees in LightGBM's text format.
    init_score_ : float
        The raw score the boosting started from (added to the trees' sum).
    class_costs_ : ndarray of shape (4,)
    threshold_ : float
    """

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "num_leaves": [Interval(Integral, 2, None, closed="left")],
        "max_depth": [Interval(Integral, -1, None, closed="left")],
        "min_child_samples": [Interval(Integral, 1, None, closed="left")],
        "reg_lambda": [Interval(Real, 0, None, closed="left")],
        "subsample": [Interval(Real, 0, 1, closed="right")],
        "colsample_bytree": [Interval(Real, 0, 1, closed="right")],
        "max_bin": [Interval(Integral, 2, None, closed="left")],
        "hessian": [StrOptions(set(HESSIANS))],
        "decision": [StrOptions(set(DECISIONS))],
        "n_jobs": [Interval(Integral, 1, None, closed="left")],
        "pos_label": "no_validation",
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        n_estimators=100,
        learning_rate=0.1,
        num_leaves=31,
        max_depth=-1,
        min_child_samples=20,
        reg_lambda=0.0,
        subsample=1.0,
        colsample_bytree=1.0,
        max_bin=255,
        hessian="bound",
        decision="minimum-risk",
        n_jobs=1,
        pos_label=None,
        random_state=None,
    ):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.max_depth = max_depth
        self.min_child_samples = min_child_samples
        self.reg_lambda = reg_lambda
        self.subsample = subsample
        self.colsample_bytree = colsample_bytree
        self.max_bin = max_bin
        self.hessian = hessian
        self.decision = decision
        self.n_jobs = n_jobs
        self.pos_label = pos_label
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        """Boost ``n_estimators`` trees on the expected cost.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies each row's expected cost; rows of weight 0 are left out.
        cost_matrix : array-like of shape (n_samples, 4), default=None
            ``[C_FP, C_FN, C_TP, C_TN]``; ``None`` means unit costs.
        """
        X, y01, weights, costs = self._checked_fit_inputs(X, y, sample_weight, cost_matrix)
        seed = draw_seed(check_random_state(self.random_state))
        present = weights > 0
        slopes, _ = normalised_regrets(
            y01[present], costs[present], weights[present], estimator_name=type(self).__name__
        )
        slopes = slopes * weights[present].sum()
        self.init_score_ = float(logit(np.clip(np.average(y01, weights=weights), 1e-6, 1 - 1e-6)))
        lightgbm = _lightgbm()
        dataset = lightgbm.Dataset(
            X[present],
            label=y01[present],
            init_score=np.full(int(present.sum()), self.init_score_),
            params={"feature_pre_filter": False, "verbose": -1},
            free_raw_data=True,
        )

        def objective(raw_scores, _dataset):
            return expected_cost_gradients(raw_scores, slopes, self.hessian)

        parameters = {**lightgbm_parameters(self, seed), "objective": objective}
        booster = lightgbm.train(parameters, dataset, num_boost_round=self.n_estimators)
        self.booster_text_ = booster.model_to_string()
        self._learn_class_costs(costs, weights)
        return self

    def _raw_scores(self, X):
        check_is_fitted(self, "booster_text_")
        X = check_prediction_features(self, X, dtype=np.float64)
        booster = _lightgbm().Booster(model_str=self.booster_text_)
        return self.init_score_ + booster.predict(X, raw_score=True)

    def decision_function(self, X):
        """The raw score of ``classes_[1]`` (scikit-learn's convention; the logit of its probability)."""
        raw = self._raw_scores(X)
        return raw if self.positive_index_ == 1 else -raw

    def _positive_probability(self, X):
        return expit(self._raw_scores(X))
