"""The one boosting loop every boosting estimator of cslearn shares.

:class:`BaseBoostingClassifier` owns ``fit``, prediction and the per-round trace. A variant is a thin subclass
that binds rules through a :class:`BoostingRules` record (per-round maths) and a few narrow hook methods
(per-fit setup). A rule is a pure function, mostly from :mod:`algorithms.boosting._rules` or the variant's
own module, whose parameter names say which quantities of the round it reads; the loop collects the round's
quantities once and calls each rule with the ones it names:

======================  ==================================================================================
quantity                meaning
======================  ==================================================================================
``y``                   signed labels: +1 for the positive class, -1 for the negative class
``class_mass``          the caller's ``sample_weight`` (ones by default): how much a sample counts in rates
``fixed_costs``         per-sample costs of the fit (``_fixed_costs``: class costs or the class costs derived
                        from ``cost_matrix``), or ``None``; a variant with several costs per sample keeps
                        them as columns
``cost_factors``        the multiplicative cost factor of one round: ``fixed_costs`` with class costs,
                        ``fixed_costs ** (1/T)`` with a ``cost_matrix`` (``_rules.per_round_cost_factors``)
``cost_mass``           ``class_mass`` times the row weights of a ``cost_matrix`` (``_row_weights``; ones
                        without one): ``D^1`` is multiplied by it, and AdaCC counts samples by it in Eq. 5
``weights``             the distribution ``D^t`` the weak learner was trained on (sums to 1)
``output``              the weak learner's ``h_t(x_i)`` in [-1, 1] on the original samples
``cumulative_votes``    margin of the previous rounds' ensemble, ``sum_{j<t} v_j(h_j(x_i)) h_j(x_i)``
``vote_scale``          ``sum_{j<t} max(|v+_j|, |v-_j|)``, the previous rounds' vote magnitudes; a margin
                        within ``_rules.tie_margin`` of 0 is a tie (a zero vote, counted negative)
``weighted_error``      ``sum_i D^t(i) (1 - y_i h_t(x_i)) / 2``
``costs``               the round's per-sample costs ``C^t_i`` (from ``round_costs``)
``alpha``               the learner's weight ``alpha_t`` (from ``alpha``), and any further quantity the
                        alpha rule returns for the later rules of the round (RareBoost's ``side_alphas``)
======================  ==================================================================================

==================================  =========================================================================
rule / hook                         default (discrete AdaBoost, AdaCC paper Eq. 1-4)
==================================  =========================================================================
``BoostingRules.initial_weights``   uniform ``D^1(i) = 1/n`` (times ``sample_weight``)
``BoostingRules.weak_output``       discrete ``h_t(x) = +-1`` from ``predict`` (M2 variants: ``2 p - 1``)
``BoostingRules.round_costs``       unit costs
``BoostingRules.alpha``             ``1/2 ln((1 - e) / e)`` (Eq. 2); a value <= 0 discards the learner, stops
``BoostingRules.update``            ``D^t(i) exp(-alpha_t y_i h_t(x_i))`` (Eq. 1), then normalised (Eq. 3)
``BoostingRules.vote``              ``(alpha_t, alpha_t)``: vote weights when ``h_t(x) >= 0`` / ``h_t(x) < 0``
``BoostingRules.stop_after``        stop after a learner of zero weighted error (kept, large finite alpha)
``_round_training_set_builder``     per fit: the original samples with ``D^t`` every round (M2 variants add
                                    synthetic samples, Cost-Sensitive AdaBoost rebalances or resamples)
``_fixed_costs``                    no per-sample costs (fixed-cost variants: class costs or ``cost_matrix``)
``_row_weights``                    no row weights (variants that use ``cost_matrix``: each row's regret over
                                    its class's mean regret, ``_rules.example_row_weights``)
``_uses_cost_matrix``               ``False``: a ``cost_matrix`` given to ``fit`` is validated, ignored, and
                                    :class:`~algorithms.exceptions.CostMatrixIgnoredWarning` is raised once
``_default_estimator``              ``None``: the fast presorted decision stump
==================================  =========================================================================
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from numbers import Integral, Real
from typing import ClassVar

import numpy as np
from scipy.special import expit
from sklearn import config_context
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from algorithms._validation import (
    check_feature_magnitude,
    check_sample_weight,
    draw_seed,
    encode_binary_target,
)
from algorithms.boosting import _kernels, _rules
from algorithms.boosting._stump import DecisionStump, PresortedStumpSearch
from algorithms.exceptions import CostMatrixIgnoredWarning
from algorithms.metrics import check_cost_matrix

__all__ = ["BaseBoostingClassifier", "BoostingRules", "FixedCostBoostingClassifier"]

TRACE_KEYS = (
    "alpha",
    "weighted_error",
    "train_tpr",
    "train_tnr",
    "positive_weight_share",
    "positive_cost",
    "negative_cost",
)


@dataclass(frozen=True)
class BoostingRules:
    """The per-round rules a boosting variant binds; the defaults are discrete AdaBoost (AdaCC Eq. 1-4).

    Every rule but ``weak_output`` is a pure function of the quantities its parameters name (the table in
    the module docstring); a parameter that names no quantity keeps its default.

    Attributes
    ----------
    initial_weights : callable -> ndarray
        Unnormalised ``D^1`` from the fit's quantities; the loop multiplies it by ``sample_weight`` and
        normalises.
    weak_output : callable ``(learner, X) -> ndarray``
        ``h_t(x)`` in [-1, 1] of a fitted weak learner trained on 0/1 labels (1 = positive).
    round_costs : callable -> RoundCosts
        The round's per-sample costs ``C^t_i`` (and the class values the trace records).
    alpha : callable -> float or dict
        The learner's weight ``alpha_t``, or a dict holding ``"alpha"`` and further named quantities that
        the round's later rules read. A value that is not a finite number > 0 discards the learner and
        stops the loop.
    update : callable -> ndarray
        The unnormalised ``D^{t+1}``; the loop normalises it.
    vote : callable -> (float, float)
        The round's vote weights when ``h_t(x) >= 0`` and when ``h_t(x) < 0``.
    stop_after : callable -> bool or str
        Whether to stop after keeping this round's learner; a non-empty string also names the reason
        (``stop_reason_``), ``True`` stands for ``"perfect learner"``.
    """

    initial_weights: Callable[..., np.ndarray] = _rules.uniform_initial_weights
    weak_output: Callable[[object, np.ndarray], np.ndarray] = _rules.discrete_output
    round_costs: Callable[..., _rules.RoundCosts] = _rules.unit_costs
    alpha: Callable[..., float | dict] = _rules.adaboost_alpha
    update: Callable[..., np.ndarray] = _rules.exponential_update
    vote: Callable[..., tuple[float, float]] = _rules.symmetric_vote
    stop_after: Callable[..., bool | str] = _rules.stop_after_perfect_learner


@cache
def _parameter_names(rule) -> tuple[str, ...]:
    return tuple(inspect.signature(rule).parameters)


def _apply(rule, quantities):
    """Call ``rule`` with the quantities its parameters name (a parameter naming none keeps its default)."""
    names = _parameter_names(rule)
    return rule(**{name: quantities[name] for name in names if name in quantities})


class _ClonedEstimatorFitter:
    """Fits a fresh clone of a scikit-learn classifier each round, seeded with the round's sub-seed."""

    def __init__(self, template):
        self.template = template
        self.seedable = "random_state" in template.get_params(deep=False)

    def __call__(self, X, y01, weights, seed):
        learner = clone(self.template)
        if self.seedable:
            learner.set_params(random_state=seed)
        return learner.fit(X, y01, sample_weight=weights)


class _PresortedStumpFitter:
    """Fits the fast decision stump on the fit's samples, sorted once (:class:`PresortedStumpSearch`).

    A round whose training set is the fit's own ``X`` (the same array object; labels and weights may differ)
    uses the presorted search, sorted lazily on first use; any other round set (synthetic samples, a bootstrap
    draw) falls back to fitting a fresh :class:`DecisionStump`.
    """

    def __init__(self, X, criterion):
        self.X = X
        self.criterion = criterion
        self.search = None
        self.fallback = _ClonedEstimatorFitter(DecisionStump(criterion=criterion))

    def __call__(self, X, y01, weights, seed):
        if X is not self.X:
            return self.fallback(X, y01, weights, seed)
        if self.search is None:
            self.search = PresortedStumpSearch(X, self.criterion)
        return self.search.fit(y01, weights)


class BaseBoostingClassifier(ClassifierMixin, BaseEstimator):
    """Binary boosting on one shared loop; variants bind rules and never override :meth:`fit`.

    Subclasses must not override ``fit`` (nor the prediction methods, except that a variant deciding by each
    row's own costs, AdaMEC, adds ``cost_matrix`` to ``predict`` and ``staged_predict``): they return a
    :class:`BoostingRules` from :meth:`_boosting_rules` and, where needed, override the narrow hooks
    :meth:`_fixed_costs`, :meth:`_row_weights`, :meth:`_round_training_set_builder` and
    :meth:`_default_estimator`, and set ``_uses_cost_matrix = True`` when they use a ``cost_matrix``.

    Labels may be any two values. Internally the positive class (``pos_label``, by default the minority
    class) is +1 and the other -1. ``decision_function`` follows scikit-learn's convention (positive values
    favour ``classes_[1]``), which is the positive class whenever it sorts last, e.g. 0/1 targets with 1 the
    minority.

    Parameters
    ----------
    estimator : object, default=None
        The weak learner: any scikit-learn classifier whose ``fit`` accepts ``sample_weight``; it is cloned
        each round (and given the round's sub-seed as ``random_state`` if it has one). ``None`` uses the
        variant's default weak learner (the fast presorted decision stump).
    n_estimators : int, default=50
        Maximum number of boosting rounds ``T``.
    random_state : int, RandomState instance or None, default=None
        Seeds the one random generator of ``fit``; every round's sub-seed is drawn from it.
    pos_label : label or None, default=None
        The positive class; ``None`` takes the minority class (by total ``sample_weight``; a tie takes
        ``classes_[1]``).

    Attributes
    ----------
    estimators_ : list of classifiers
        The kept weak learners, trained on 0/1 labels (1 = positive class).
    estimator_weights_ : ndarray of shape (n_rounds,)
        ``alpha_t`` of every kept learner.
    estimator_errors_ : ndarray of shape (n_rounds,)
        Weighted error (pseudo-loss for real-valued learners) of every kept learner on ``D^t``.
    vote_weights_ : ndarray of shape (n_rounds, 2)
        Vote weight of each learner when it outputs ``h_t(x) >= 0`` and when ``h_t(x) < 0``.
    classes_ : ndarray of shape (2,)
        The two class labels, sorted.
    pos_label_ : label
        The positive class.
    n_features_in_ : int
        Number of features seen in ``fit``.
    trace_ : dict of str to ndarray of shape (n_rounds,)
        Per round (AdaCC Section 6.2): ``alpha``, ``weighted_error``, ``train_tpr`` and ``train_tnr`` of the
        partial ensemble ``H_{1:t}`` on the training set (weighted by ``sample_weight``),
        ``positive_weight_share`` (share of ``D^{t+1}`` on the positive class), ``positive_cost`` and
        ``negative_cost`` (what a misclassified positive / negative cost in the round).
    final_distribution_ : ndarray of shape (n_samples,)
        The distribution ``D^{T+1}`` over the training samples after the last kept round's update.
    stop_reason_ : str
        Why boosting stopped: ``"n_estimators"``, ``"perfect learner"``, ``"non-positive alpha"``,
        ``"degenerate weights"``, or the reason a variant's ``stop_after`` rule names.
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "pos_label": "no_validation",
    }

    #: Whether ``fit`` uses a ``cost_matrix``; if not, one given is ignored with a CostMatrixIgnoredWarning.
    _uses_cost_matrix: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "fit" in vars(cls):
            raise TypeError(
                f"{cls.__name__} overrides fit; variants of BaseBoostingClassifier bind rules "
                "(_boosting_rules and the hooks) instead, so that every variant runs the one boosting loop"
            )

    def __init__(self, estimator=None, *, n_estimators=50, random_state=None, pos_label=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.random_state = random_state
        self.pos_label = pos_label

    # ---------------------------------------------------------------------------------------- hooks to bind
    def _boosting_rules(self) -> BoostingRules:
        """The variant's per-round rules (default: discrete AdaBoost)."""
        return BoostingRules()

    def _fixed_costs(self, y: np.ndarray, cost_matrix: np.ndarray | None) -> np.ndarray | None:
        """Per-sample fixed costs ``C_i`` for this fit, or ``None`` for variants without fixed costs."""
        return None

    def _row_weights(self, y: np.ndarray, cost_matrix: np.ndarray | None) -> np.ndarray | None:
        """Per-row weights that multiply ``D^1`` (and weigh AdaCC's rates), or ``None`` for none.

        The default gives none; the variants that use a ``cost_matrix`` return each row's regret over its
        class's mean regret (:func:`~algorithms.boosting._rules.example_row_weights`).
        """
        return None

    def _round_training_set_builder(self, X, y01):
        """Per fit: the strategy ``(weights, random_state) -> (X, y01, sample_weight)`` giving each round's
        training set (default: the original samples weighted by ``D^t``).

        Called once per ``fit``, so a variant derives what does not change between rounds (M2's minority
        neighbours) once.
        """
        return lambda weights, random_state: (X, y01, weights)

    def _default_estimator(self):
        """Weak learner used when ``estimator=None``; ``None`` means the fast presorted decision stump."""
        return None

    # ----------------------------------------------------------------------------------------------- fitting
    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        """Fit the boosted ensemble. Subclasses must not override this method; they bind rules instead.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training features (finite numbers).
        y : array-like of shape (n_samples,)
            Exactly two class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; they multiply the initial distribution ``D^1`` and weight the class rates.
        cost_matrix : array-like of shape (n_samples, 4), default=None
            Example-dependent costs, columns ``[C_FP, C_FN, C_TP, C_TN]``. Variants that use it derive each
            row's regret ``r_i`` (``C_FN - C_TP`` for positives, ``C_FP - C_TN`` for negatives): class costs
            ``c(+-) = C+- R+- / max(C+ R+, C- R-)`` from the class mean regrets, and row weights
            ``r_i / R_{y_i}`` on ``D^1`` (see each variant's docstring and
            ``docs/example-dependent-costs.md``). Variants that do not use it (AdaBoost, RareBoost, the M2
            methods) validate it, ignore it and raise a
            :class:`~algorithms.exceptions.CostMatrixIgnoredWarning`.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32])
        check_feature_magnitude(
            X, estimator_name=type(self).__name__, feature_names=getattr(self, "feature_names_in_", None)
        )
        class_mass = check_sample_weight(sample_weight, X.shape[0])
        self.classes_, y01, self.pos_label_ = encode_binary_target(
            y, self.pos_label, class_mass, estimator_name=type(self).__name__
        )
        y_signed = np.where(y01 == 1, 1.0, -1.0)
        if cost_matrix is not None:
            cost_matrix = check_cost_matrix(cost_matrix, X.shape[0])
            if not self._uses_cost_matrix:
                warnings.warn(
                    f"{type(self).__name__} does not use cost_matrix: it was validated and ignored, so the "
                    "model is the one fit without it",
                    CostMatrixIgnoredWarning,
                    stacklevel=2,
                )
                cost_matrix = None
        rules = self._boosting_rules()
        fixed_costs = self._fixed_costs(y_signed, cost_matrix)
        row_weights = self._row_weights(y_signed, cost_matrix)
        row_weights = np.ones_like(class_mass) if row_weights is None else row_weights
        compounding = cost_matrix is not None and fixed_costs is not None and fixed_costs.ndim == 1
        fit_quantities = {
            "y": y_signed,
            "class_mass": class_mass,
            "fixed_costs": fixed_costs,
            "cost_factors": (
                _rules.per_round_cost_factors(fixed_costs, self.n_estimators) if compounding else fixed_costs
            ),
            "cost_mass": class_mass * row_weights,
        }

        weights, _ = _rules.normalise(
            _apply(rules.initial_weights, fit_quantities) * fit_quantities["cost_mass"], y_signed
        )
        if weights is None:
            raise ValueError("the initial weights (initial distribution times sample_weight) sum to zero")
        random_state = check_random_state(self.random_state)
        fit_weak_learner = self._weak_learner_fitter(X)
        round_training_set = self._round_training_set_builder(X, y01)
        cumulative_votes = np.zeros(X.shape[0])
        vote_scale = 0.0
        self.estimators_, vote_weights, trace = [], [], {key: [] for key in TRACE_KEYS}
        self.stop_reason_ = "n_estimators"
        self.final_distribution_ = weights

        # X was checked finite above, and every round's training set is X or built from its rows: the weak
        # learners' own finiteness checks of it (a pass over all of X per call, most of a stump's predict) are
        # skipped (scikit-learn's assume_finite, thread-local).
        with config_context(assume_finite=True):
            for _ in range(self.n_estimators):
                seed = draw_seed(random_state)
                learner = fit_weak_learner(*round_training_set(weights, random_state), seed)
                output = rules.weak_output(learner, X)
                quantities = {
                    **fit_quantities,
                    "weights": weights,
                    "output": output,
                    "cumulative_votes": cumulative_votes,
                    "vote_scale": vote_scale,
                    "weighted_error": _kernels.weighted_error(weights, y_signed, output),
                }
                costs = _apply(rules.round_costs, quantities)
                quantities["costs"] = costs.per_sample
                alpha = _apply(rules.alpha, quantities)
                quantities.update(alpha if isinstance(alpha, dict) else {"alpha": alpha})
                alpha = float(quantities["alpha"])
                if not (np.isfinite(alpha) and alpha > 0):
                    self.stop_reason_ = "non-positive alpha"
                    break
                new_weights, positive_share = _rules.normalise(_apply(rules.update, quantities), y_signed)
                votes = _apply(rules.vote, quantities)
                stop = _apply(rules.stop_after, quantities)
                # adds this round's votes to cumulative_votes in place, counting the partial ensemble's errors
                vote_scale += max(abs(votes[0]), abs(votes[1]))
                fnr, fpr = _rules.error_rates(
                    *_kernels.ensemble_confusion(
                        cumulative_votes,
                        output,
                        *votes,
                        y_signed,
                        class_mass,
                        True,
                        _rules.tie_margin(vote_scale),
                    )
                )
                self.estimators_.append(learner)
                vote_weights.append(votes)
                for key, value in (
                    ("alpha", alpha),
                    ("weighted_error", quantities["weighted_error"]),
                    ("train_tpr", 1.0 - fnr),
                    ("train_tnr", 1.0 - fpr),
                    ("positive_weight_share", positive_share),
                    ("positive_cost", costs.positive),
                    ("negative_cost", costs.negative),
                ):
                    trace[key].append(value)
                if new_weights is None:
                    self.stop_reason_ = "degenerate weights"
                    break
                self.final_distribution_ = new_weights
                if stop:
                    self.stop_reason_ = stop if isinstance(stop, str) else "perfect learner"
                    break
                weights = new_weights

        if not self.estimators_:
            raise ValueError(
                f"{type(self).__name__}: the first weak learner has weighted error "
                f"{quantities['weighted_error']:.6g} and a non-positive weight alpha={alpha:.6g}, so no "
                "learner could be kept: under this method's alpha rule (see its docstring) the first learner "
                "does not improve on chance for these data and costs"
            )
        self._refuse_one_class_ensemble(cumulative_votes, _rules.tie_margin(vote_scale))
        self.trace_ = {key: np.asarray(values, dtype=float) for key, values in trace.items()}
        self.estimator_weights_ = self.trace_["alpha"].copy()
        self.estimator_errors_ = self.trace_["weighted_error"].copy()
        self.vote_weights_ = np.asarray(vote_weights, dtype=float).reshape(-1, 2)
        return self

    def _refuse_one_class_ensemble(self, training_margin, tie):
        """Raise when boosting stopped early and the kept learners vote one class for every training sample.

        A rule that stops early (a learner discarded for a non-positive alpha, degenerate weights, a variant's
        own stop) can leave a few learners that all favour the majority class; returning that model would
        silently predict one class. ``training_margin`` is the kept ensemble's vote on the training samples;
        a margin up to ``tie`` is a tie, counted negative as in the rates and in :meth:`predict`.
        A fit that ran all ``n_estimators`` rounds is returned as it is: its rules had every chance.
        """
        if self.stop_reason_ == "n_estimators":
            return
        predicts_positive = training_margin > tie
        if predicts_positive.any() and not predicts_positive.all():
            return
        negative_label = self.classes_[self.classes_ != self.pos_label_][0]
        label = np.asarray(self.pos_label_ if predicts_positive.all() else negative_label).tolist()
        raise ValueError(
            f"{type(self).__name__} stopped after {len(self.estimators_)} of {self.n_estimators} rounds "
            f"(stop reason: {self.stop_reason_}), and the learners it kept predict class {label!r} for "
            "every training sample, so the model would predict one class only. Its rule (see its docstring) "
            "found no further learner that improves on chance for these data and costs; change the costs or "
            "the weak learner, or use another method"
        )

    def _weak_learner_fitter(self, X):
        """Strategy that fits one weak learner per round: ``(X, y01, weights, seed) -> fitted learner``.

        A :class:`DecisionStump` (the default) uses the presorted search (the features are sorted once per
        ``fit``) in every round whose training set is the fit's own ``X`` (only the labels or weights
        differ); any other learner, or round set, is cloned and fitted each round.
        """
        template = self.estimator if self.estimator is not None else self._default_estimator()
        if template is None:
            template = DecisionStump()
        if type(template) is DecisionStump:
            return _PresortedStumpFitter(X, template.criterion)
        return _ClonedEstimatorFitter(template)

    # -------------------------------------------------------------------------------------------- prediction
    def _staged_margins(self, X, vote_weights=None):
        """Yield, after every round, the positive-class margin ``F_t(x)`` and the sum of vote magnitudes.

        ``vote_weights`` (n_rounds, 2) replaces the fitted ``vote_weights_`` (AdaMEC's per-row decision reads
        the plain ``(alpha_t, alpha_t)`` votes).
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        check_feature_magnitude(
            X, estimator_name=type(self).__name__, feature_names=getattr(self, "feature_names_in_", None)
        )
        weak_output = self._boosting_rules().weak_output
        margin = np.zeros(X.shape[0])
        scale = 0.0
        vote_weights = self.vote_weights_ if vote_weights is None else vote_weights
        for learner, votes in zip(self.estimators_, vote_weights, strict=True):
            with config_context(assume_finite=True):  # X was checked above: not once per learner again
                output = weak_output(learner, X)
            margin = margin + _rules.weighted_votes(output, votes)
            scale += float(np.max(np.abs(votes)))
            yield margin, scale

    def _oriented(self, margin):
        """Turn a positive-class margin into scikit-learn's orientation (positive favours ``classes_[1]``)."""
        return margin if self.pos_label_ == self.classes_[1] else -margin

    def _label_of(self, decision):
        """Labels of oriented scores; a score of 0 (a tie) is the negative class, as the fit's rates do."""
        if self.pos_label_ == self.classes_[1]:
            return self.classes_[(decision > 0).astype(int)]
        return self.classes_[(decision >= 0).astype(int)]

    def _probabilities_of(self, margin):
        p_second = expit(2.0 * self._oriented(margin))
        return np.column_stack([1.0 - p_second, p_second])

    def staged_decision_function(self, X):
        """Yield :meth:`decision_function` of the partial ensemble after every round.

        Yields
        ------
        score : ndarray of shape (n_samples,)
        """
        for margin, scale in self._staged_margins(X):
            score = self._oriented(margin) / scale
            score[np.abs(score) <= _rules.TIE_TOLERANCE] = 0.0  # votes that cancel up to rounding: a tie
            yield score

    def decision_function(self, X):
        """Normalised ensemble score ``sum_t alpha_t h_t(x) / sum_t alpha_t`` in [-1, 1] (spec section 1).

        With asymmetric vote weights the denominator is ``sum_t max(v+_t, v-_t)``. Positive values favour
        ``classes_[1]`` (scikit-learn's convention).
        """
        *_, last = self.staged_decision_function(X)
        return last

    def staged_predict(self, X):
        """Yield :meth:`predict` of the partial ensemble after every round."""
        for score in self.staged_decision_function(X):
            yield self._label_of(score)

    def predict(self, X):
        """``H(x) = sign(sum_t alpha_t h_t(x))`` (AdaCC Eq. 4) as labels; a tie (score 0) is negative."""
        return self._label_of(self.decision_function(X))

    def staged_predict_proba(self, X):
        """Yield :meth:`predict_proba` of the partial ensemble after every round."""
        for margin, _ in self._staged_margins(X):
            yield self._probabilities_of(margin)

    def predict_proba(self, X):
        """Class probabilities from the logistic link of the unnormalised margin (Friedman et al. 2000).

        ``p(classes_[1] | x) = 1 / (1 + exp(-2 F(x)))`` with ``F(x) = sum_t alpha_t h_t(x)`` oriented like
        :meth:`decision_function`; a strictly increasing map of the score, so it ranks samples identically.
        Not calibrated (use ``CalibratedClassifierCV`` for that).
        """
        *_, last = self.staged_predict_proba(X)
        return last

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


#: The ``Parameters`` heading and the four parameters every boosting variant shares, for variant docstrings.
BOOSTING_PARAMETERS_DOC = """
    Parameters
    ----------
    estimator : object, default=None
        Weak learner (any classifier accepting ``sample_weight``); ``None`` is the fast decision stump.
    n_estimators : int, default=50
        Maximum number of rounds ``T``.
    random_state : int, RandomState instance or None, default=None
        Seed of the one random generator of ``fit``.
    pos_label : label or None, default=None
        Positive class; ``None`` takes the minority class.
"""


#: Parameters and attributes shared by the docstrings of the fixed-cost estimators.
FIXED_COST_PARAMETERS_DOC = (
    BOOSTING_PARAMETERS_DOC
    + """    positive_cost : float, default=1.0
        ``C+``, the cost of misclassifying a positive (a false negative).
    negative_cost : float, default=1.0
        ``C-``, the cost of misclassifying a negative (a false positive). The AdaCC paper fixes ``C+ = 1`` and
        selects ``C-`` in {0.1, ..., 1.0} by F1 (Section 5.2).

    Attributes
    ----------
    estimators_, estimator_weights_, estimator_errors_, vote_weights_, classes_, pos_label_, n_features_in_, \
trace_, stop_reason_
        See :class:`~algorithms.boosting._base.BaseBoostingClassifier`.

    Notes
    -----
    Per-sample costs: ``C_i = C+`` for positives and ``C-`` for negatives, used as given. With
    ``fit(..., cost_matrix=M)`` each row's regret ``r_i`` (``C_FN - C_TP`` for a positive, ``C_FP - C_TN``
    for a negative, clipped at 0) gives the class costs ``C_i = c(y_i)``,
    ``c(+-) = C+- R+- / max(C+ R+, C- R-)`` with ``R+-`` the class mean regret (``C+ / C-`` exactly when the
    matrix is constant per class and ``C+- = 1``): ``C+`` and ``C-`` then *scale* their class's regret, so
    the defaults use the regrets as they are and a selection of ``C-`` (``tasks.train``) tunes how strongly
    the rules follow them. Row weights ``w_i = r_i / R_{y_i}`` multiply ``D^1`` (a row without regret
    starts, and stays, at weight 0).
"""
)


class FixedCostBoostingClassifier(BaseBoostingClassifier):
    """Base of the fixed-cost variants (AdaCC Table 3): per-sample costs from class costs or ``cost_matrix``.

    Without ``cost_matrix`` the per-sample cost is ``C_i = positive_cost`` (C+, the cost of missing a
    positive) for positives and ``negative_cost`` (C-) for negatives. With ``cost_matrix``, ``C_i`` is the
    class cost ``c(y_i) = C_{y_i} R_{y_i} / max(C+ R+, C- R-)`` from the class mean regrets
    (:func:`~algorithms.boosting._rules.example_costs_from_matrix`) and each row's regret over its class mean
    weights ``D^1`` (:meth:`_row_weights`). The costs reach the rules as the quantity ``fixed_costs``;
    :func:`~algorithms.boosting._rules.fixed_round_costs` and
    :func:`~algorithms.boosting._rules.cost_proportional_initial_weights` are the usual bindings.

    Parameters
    ----------
    estimator, n_estimators, random_state, pos_label
        As in :class:`BaseBoostingClassifier`.
    positive_cost : float, default=1.0
        C+, cost of misclassifying a positive (missing it).
    negative_cost : float, default=1.0
        C-, cost of misclassifying a negative (a false alarm).
    """

    _parameter_constraints: dict = {
        **BaseBoostingClassifier._parameter_constraints,
        "positive_cost": [Interval(Real, 0, None, closed="neither")],
        "negative_cost": [Interval(Real, 0, None, closed="neither")],
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
    ):
        super().__init__(estimator, n_estimators=n_estimators, random_state=random_state, pos_label=pos_label)
        self.positive_cost = positive_cost
        self.negative_cost = negative_cost

    _uses_cost_matrix = True

    def _fixed_costs(self, y, cost_matrix):
        return _rules.derive_fixed_costs(y, self.positive_cost, self.negative_cost, cost_matrix)

    def _row_weights(self, y, cost_matrix):
        return None if cost_matrix is None else _rules.example_row_weights(y, cost_matrix)
