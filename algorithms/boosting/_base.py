"""The one boosting loop every boosting estimator of cslearn shares.

:class:`BaseBoostingClassifier` owns ``fit``, prediction and the per-round trace. A variant is a thin subclass
that binds rules, mostly the pure functions of :mod:`algorithms.boosting._rules`, through a
:class:`BoostingRules` record (per-round maths) and a few narrow hook methods (per-fit setup):

==================================  =========================================================================
rule / hook                         default (discrete AdaBoost, AdaCC paper Eq. 1-4)
==================================  =========================================================================
``BoostingRules.initial_weights``   uniform ``D^1(i) = 1/n`` (times ``sample_weight``)
``_round_training_set``             the original samples with ``D^t`` (M2 variants add synthetic samples)
``_round_training_set_builder``     per fit: calls ``_round_training_set`` each round (M2: neighbours once)
``BoostingRules.weak_output``       discrete ``h_t(x) = +-1`` from ``predict`` (M2 variants: ``2 p - 1``)
``BoostingRules.round_costs``       unit costs
``BoostingRules.alpha``             ``1/2 ln((1 - e) / e)`` (Eq. 2); a value <= 0 discards the learner, stops
``BoostingRules.update``            ``D^t(i) exp(-alpha_t y_i h_t(x_i))`` (Eq. 1), then normalised (Eq. 3)
``BoostingRules.stop_after``        stop after a learner of zero weighted error (kept, large finite alpha)
``BoostingRules.vote``              ``(alpha_t, alpha_t)``: vote weights when ``h_t(x) >= 0`` / ``h_t(x) < 0``
``_fixed_costs``                    no per-sample costs (fixed-cost variants: class costs or ``cost_matrix``)
``_default_estimator``              ``None``: the fast presorted decision stump
==================================  =========================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from algorithms.boosting import _rules
from algorithms.boosting._stump import DecisionStump, PresortedStumpSearch
from algorithms.metrics import check_cost_matrix

__all__ = [
    "BaseBoostingClassifier",
    "BoostingRules",
    "FixedCostBoostingClassifier",
    "RoundCosts",
    "RoundState",
]

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
class RoundState:
    """Everything a per-round rule may read (all arrays are over the original training samples).

    Attributes
    ----------
    y : ndarray of shape (n_samples,)
        Signed labels: +1 for the positive class, -1 for the negative class.
    weights : ndarray of shape (n_samples,)
        The distribution ``D^t`` the weak learner was trained on (sums to 1).
    output : ndarray of shape (n_samples,)
        The weak learner's output ``h_t(x_i)`` in [-1, 1].
    cumulative_votes : ndarray of shape (n_samples,)
        Margin of the partial ensemble of the previous rounds, ``sum_{j<t} v_j(h_j(x_i)) h_j(x_i)``.
    class_mass : ndarray of shape (n_samples,)
        The caller's ``sample_weight`` (ones by default): how much each sample counts in class rates.
    fixed_costs : ndarray of shape (n_samples,) or (n_samples, k), or None
        Per-sample costs ``C_i`` of fixed-cost variants (from class costs or ``cost_matrix``), else ``None``;
        a variant with several costs per sample (Cost-Sensitive AdaBoost) keeps them as columns.
    weighted_error : float
        ``sum_i D^t(i) (1 - y_i h_t(x_i)) / 2`` (:func:`algorithms.boosting._rules.weighted_error`).
    """

    y: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    cumulative_votes: np.ndarray
    class_mass: np.ndarray
    fixed_costs: np.ndarray | None
    weighted_error: float


class RoundCosts(NamedTuple):
    """The costs a round uses: per sample, plus one value per class for the trace.

    ``positive`` and ``negative`` are what a misclassified positive / negative costs this round (for
    example-dependent costs, the class mean).
    """

    per_sample: np.ndarray
    positive: float
    negative: float


def unit_costs(state: RoundState) -> RoundCosts:
    """Cost 1 for every sample (AdaBoost)."""
    return RoundCosts(np.ones_like(state.y), 1.0, 1.0)


def fixed_round_costs(state: RoundState) -> RoundCosts:
    """The fit's fixed per-sample costs ``C_i`` every round (AdaCC Table 3: CSB, AdaCost, AdaC1-3)."""
    costs = state.fixed_costs
    positive = state.y > 0
    positive_mean = float(costs[positive].mean()) if positive.any() else 0.0
    negative_mean = float(costs[~positive].mean()) if (~positive).any() else 0.0
    return RoundCosts(costs, positive_mean, negative_mean)


def uniform_initial_weights(y: np.ndarray, fixed_costs: np.ndarray | None) -> np.ndarray:
    """``D^1(i) = 1/n`` before normalisation (AdaCC Algorithm 1, line 1)."""
    return np.ones_like(y, dtype=float)


def cost_proportional_initial_weights(y: np.ndarray, fixed_costs: np.ndarray | None) -> np.ndarray:
    """``D^1(i) = C_i / sum_j C_j`` before normalisation (AdaCC Table 3: CGAda, CSB1/2, AdaCost, AdaC1-3)."""
    return np.asarray(fixed_costs, dtype=float)


def discrete_output(learner, X: np.ndarray) -> np.ndarray:
    """``h_t(x) = +1`` where the learner (trained on 0/1 labels, 1 = positive) predicts 1, else -1."""
    return np.where(learner.predict(X) == 1, 1.0, -1.0)


def probability_output(learner, X: np.ndarray) -> np.ndarray:
    """Real-valued ``h_t(x) = 2 p_t(+|x) - 1`` in [-1, 1] from ``predict_proba`` (binary AdaBoost.M2)."""
    positive_column = int(np.flatnonzero(learner.classes_ == 1)[0])
    return 2.0 * learner.predict_proba(X)[:, positive_column] - 1.0


def adaboost_alpha_rule(state: RoundState, costs: RoundCosts) -> float:
    """Discrete AdaBoost's ``alpha_t = 1/2 ln((1 - e) / e)`` (AdaCC Eq. 2)."""
    return _rules.adaboost_alpha(state.weighted_error)


def exponential_update_rule(state: RoundState, costs: RoundCosts, alpha: float) -> np.ndarray:
    """AdaBoost's ``D^t(i) exp(-alpha_t y_i h_t(x_i))`` (AdaCC Eq. 1)."""
    return _rules.exponential_update(state.weights, state.y, state.output, alpha, costs.per_sample)


def symmetric_vote_rule(state: RoundState, alpha: float) -> tuple[float, float]:
    """``(alpha_t, alpha_t)``: the plain weighted vote of AdaCC Eq. 4."""
    return _rules.symmetric_vote(alpha)


def stop_after_perfect_learner(state: RoundState) -> bool:
    """Stop once a learner has zero weighted error (spec section 1): the loop has nothing left to boost."""
    return state.weighted_error <= 0.0


@dataclass(frozen=True)
class BoostingRules:
    """The per-round rules a boosting variant binds; the defaults are discrete AdaBoost (AdaCC Eq. 1-4).

    Attributes
    ----------
    initial_weights : callable ``(y, fixed_costs) -> ndarray``
        Unnormalised ``D^1``; the loop multiplies it by ``sample_weight`` and normalises.
    weak_output : callable ``(learner, X) -> ndarray``
        ``h_t(x)`` in [-1, 1] of a fitted weak learner trained on 0/1 labels (1 = positive).
    round_costs : callable ``(RoundState) -> RoundCosts``
        The round's per-sample costs ``C^t_i``.
    alpha : callable ``(RoundState, RoundCosts) -> float``
        The learner's weight ``alpha_t``; a value that is not a finite number > 0 discards the learner and
        stops the loop.
    update : callable ``(RoundState, RoundCosts, alpha) -> ndarray``
        The unnormalised ``D^{t+1}``; the loop normalises it.
    vote : callable ``(RoundState, alpha) -> (float, float)``
        The round's vote weights when ``h_t(x) >= 0`` and when ``h_t(x) < 0``.
    stop_after : callable ``(RoundState) -> bool or str``
        Whether to stop after keeping this round's learner; a non-empty string also names the reason
        (``stop_reason_``), ``True`` stands for ``"perfect learner"``.
    """

    initial_weights: Callable[[np.ndarray, np.ndarray | None], np.ndarray] = uniform_initial_weights
    weak_output: Callable[[object, np.ndarray], np.ndarray] = discrete_output
    round_costs: Callable[[RoundState], RoundCosts] = unit_costs
    alpha: Callable[[RoundState, RoundCosts], float] = adaboost_alpha_rule
    update: Callable[[RoundState, RoundCosts, float], np.ndarray] = exponential_update_rule
    vote: Callable[[RoundState, float], tuple[float, float]] = symmetric_vote_rule
    stop_after: Callable[[RoundState], bool | str] = stop_after_perfect_learner


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

    Subclasses must not override ``fit`` (nor the prediction methods): they return a :class:`BoostingRules`
    from :meth:`_boosting_rules` and, where needed, override the narrow hooks :meth:`_fixed_costs`,
    :meth:`_round_training_set` (or :meth:`_round_training_set_builder`) and :meth:`_default_estimator`.

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

    def _round_training_set(self, X, y01, weights, random_state):
        """The weak learner's training set ``(X, y01, sample_weight)`` this round (default: the original)."""
        return X, y01, weights

    def _round_training_set_builder(self, X, y01):
        """Per-fit strategy ``(weights, random_state) -> (X, y01, sample_weight)`` giving each round's set.

        Called once per ``fit``; the default calls :meth:`_round_training_set` every round. A variant that
        derives something round-independent from the training data (M2's minority neighbours) overrides
        this to compute it once.
        """
        return partial(self._round_training_set, X, y01)

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
            Example-dependent costs, columns ``[C_FP, C_FN, C_TP, C_TN]``. Fixed-cost variants use
            ``C_FN`` for positives and ``C_FP`` for negatives (normalised to max 1); variants whose costs are
            derived (AdaBoost, AdaCC) validate and ignore it.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32])
        y_signed, class_mass = self._encode_target(y, sample_weight)
        if cost_matrix is not None:
            cost_matrix = check_cost_matrix(cost_matrix, X.shape[0])
        fixed_costs = self._fixed_costs(y_signed, cost_matrix)
        rules = self._boosting_rules()

        weights = _rules.normalise(rules.initial_weights(y_signed, fixed_costs) * class_mass)
        if weights is None:
            raise ValueError("the initial weights (initial distribution times sample_weight) sum to zero")
        y01 = (y_signed > 0).astype(np.int64)
        random_state = check_random_state(self.random_state)
        fit_weak_learner = self._weak_learner_fitter(X)
        round_training_set = self._round_training_set_builder(X, y01)
        cumulative_votes = np.zeros(X.shape[0])
        self.estimators_, vote_weights, trace = [], [], {key: [] for key in TRACE_KEYS}
        self.stop_reason_ = "n_estimators"
        self.final_distribution_ = weights

        for _ in range(self.n_estimators):
            seed = int(random_state.randint(np.iinfo(np.int32).max))
            X_round, y_round, weights_round = round_training_set(weights, random_state)
            learner = fit_weak_learner(X_round, y_round, weights_round, seed)
            output = rules.weak_output(learner, X)
            state = RoundState(
                y=y_signed,
                weights=weights,
                output=output,
                cumulative_votes=cumulative_votes,
                class_mass=class_mass,
                fixed_costs=fixed_costs,
                weighted_error=_rules.weighted_error(weights, y_signed, output),
            )
            costs = rules.round_costs(state)
            alpha = float(rules.alpha(state, costs))
            if not (np.isfinite(alpha) and alpha > 0):
                self.stop_reason_ = "non-positive alpha"
                break
            new_weights = _rules.normalise(rules.update(state, costs, alpha))
            votes = rules.vote(state, alpha)
            cumulative_votes = cumulative_votes + _rules.weighted_votes(output, votes)
            fnr, fpr = _rules.class_error_rates(cumulative_votes, y_signed, class_mass)
            self.estimators_.append(learner)
            vote_weights.append(votes)
            for key, value in (
                ("alpha", alpha),
                ("weighted_error", state.weighted_error),
                ("train_tpr", 1.0 - fnr),
                ("train_tnr", 1.0 - fpr),
                ("positive_weight_share", np.nan if new_weights is None else new_weights[y_signed > 0].sum()),
                ("positive_cost", costs.positive),
                ("negative_cost", costs.negative),
            ):
                trace[key].append(value)
            if new_weights is None:
                self.stop_reason_ = "degenerate weights"
                break
            self.final_distribution_ = new_weights
            stop = rules.stop_after(state)
            if stop:
                self.stop_reason_ = stop if isinstance(stop, str) else "perfect learner"
                break
            weights = new_weights

        if not self.estimators_:
            raise ValueError(
                f"{type(self).__name__}: the first weak learner has weighted error "
                f"{state.weighted_error:.6g} and a non-positive weight alpha={alpha:.6g}, so no learner "
                "could be kept: under this method's alpha rule (see its docstring) the first learner does "
                "not improve on chance for these data and costs"
            )
        self.trace_ = {key: np.asarray(values, dtype=float) for key, values in trace.items()}
        self.estimator_weights_ = self.trace_["alpha"].copy()
        self.estimator_errors_ = self.trace_["weighted_error"].copy()
        self.vote_weights_ = np.asarray(vote_weights, dtype=float).reshape(-1, 2)
        return self

    def _encode_target(self, y, sample_weight):
        """Check ``y``, ``sample_weight``; set ``classes_``, ``pos_label_``; return signed y and weights."""
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        name = type(self).__name__
        if self.classes_.size == 1:
            raise ValueError(f"{name} needs two classes in y, but y has only one class: {self.classes_[0]!r}")
        if self.classes_.size > 2:
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {type_of_target(y)}: "
                f"y has {self.classes_.size} classes {self.classes_.tolist()}, {name} needs exactly two"
            )
        n_samples = y.shape[0]
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight)
            if sample_weight.shape not in ((n_samples,), ()):
                raise ValueError(
                    f"sample_weight has shape {sample_weight.shape} but X and y have {n_samples} samples; "
                    f"expected shape ({n_samples},)"
                )
            invalid = ~np.isfinite(sample_weight.astype(float)) | (sample_weight < 0)
            if invalid.any():
                rows = np.flatnonzero(np.broadcast_to(invalid, (n_samples,)))
                raise ValueError(
                    f"sample_weight must be finite and non-negative; bad values at rows {rows[:10].tolist()}"
                    + (" ..." if rows.size > 10 else "")
                )
        class_mass = _check_sample_weight(sample_weight, np.empty((n_samples, 0)), ensure_non_negative=True)
        mass_by_class = np.array([class_mass[y == label].sum() for label in self.classes_])
        if (mass_by_class <= 0).any():
            empty = self.classes_[mass_by_class <= 0][0]
            raise ValueError(
                f"{name} needs both classes to carry weight, but class {empty!r} has zero total sample_weight"
            )
        if self.pos_label is None:
            self.pos_label_ = self.classes_[0] if mass_by_class[0] < mass_by_class[1] else self.classes_[1]
        elif self.pos_label in self.classes_.tolist():
            self.pos_label_ = self.pos_label
        else:
            raise ValueError(
                f"pos_label={self.pos_label!r} is not one of the classes {self.classes_.tolist()}"
            )
        return np.where(y == self.pos_label_, 1.0, -1.0), class_mass

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
    def _staged_margins(self, X):
        """Yield, after every round, the positive-class margin ``F_t(x)`` and the sum of vote magnitudes."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        weak_output = self._boosting_rules().weak_output
        margin = np.zeros(X.shape[0])
        scale = 0.0
        for learner, votes in zip(self.estimators_, self.vote_weights_, strict=True):
            margin = margin + _rules.weighted_votes(weak_output(learner, X), votes)
            scale += float(np.max(np.abs(votes)))
            yield margin, scale

    def _oriented(self, margin):
        """Turn a positive-class margin into scikit-learn's orientation (positive favours ``classes_[1]``)."""
        return margin if self.pos_label_ == self.classes_[1] else -margin

    def _label_of(self, decision):
        return self.classes_[(decision > 0).astype(int)]

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
            yield self._oriented(margin) / scale

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
        """``H(x) = sign(sum_t alpha_t h_t(x))`` (AdaCC Eq. 4) as labels; score 0 gives ``classes_[0]``."""
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


class FixedCostBoostingClassifier(BaseBoostingClassifier):
    """Base of the fixed-cost variants (AdaCC Table 3): per-sample costs from class costs or ``cost_matrix``.

    Without ``cost_matrix`` the per-sample cost is ``C_i = positive_cost`` (C+, the cost of missing a
    positive) for positives and ``negative_cost`` (C-) for negatives. With ``cost_matrix``,
    ``C_i = C_FN,i`` for positives and ``C_FP,i`` for negatives, normalised to max 1 (spec section 3). The
    costs reach the rules as ``RoundState.fixed_costs``; :func:`fixed_round_costs` and
    :func:`cost_proportional_initial_weights` are the usual bindings.

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

    def _fixed_costs(self, y, cost_matrix):
        if cost_matrix is not None:
            return _rules.example_costs_from_matrix(y, cost_matrix)
        return _rules.costs_by_class(y, self.positive_cost, self.negative_cost)
