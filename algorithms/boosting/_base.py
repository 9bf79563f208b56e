"""The one boosting loop every boosting estimator of cslearn shares.

:class:`BaseBoostingClassifier` owns ``fit``, prediction and the per-round trace. A variant is a thin subclass
that binds rules through a :class:`BoostingRules` record (per-round maths) and a few narrow hook methods
(per-fit setup). A rule is a pure function, mostly from :mod:`algorithms.boosting._rules` or the variant's
own module, whose parameter names say which quantities of the round it reads; the loop collects the round's
quantities once and calls each rule with the ones it names. A parameter that names no quantity known at that
point of the round raises a ``TypeError`` naming the rule, the parameter and the known quantities (parameters
bound with ``functools.partial`` are the rule's own):

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
``fixed_class_costs``   ``(c(+), c(-))``: the class means of 1-D ``fixed_costs`` (else ``None``), once a fit
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

How ``fit`` runs, in three parts
--------------------------------
- **Set-up** (:meth:`BaseBoostingClassifier._fit_data`, then :class:`_Ensemble`): the inputs are checked and
  the labels coded once per fit, the weak-learner fitter is chosen (the presorted stump sorts ``X`` once);
  each ensemble then derives its fit's quantities (``fixed_costs``, ``cost_mass``, ...), ``D^1``, its random
  generator and its round-set builder from its own estimator's hooks.
- **The round** (:func:`_boost`, :meth:`_Ensemble.boost`): every round draws each ensemble's sub-seed and
  training set, fits the weak learners, and applies each ensemble's rules to its learner.
- **The trace** (:meth:`_Ensemble.record`, :meth:`_Ensemble.finish`): every kept round appends to the trace
  (:data:`TRACE_KEYS`); at the end the kept learners, votes and trace become the fitted attributes.

One loop for one ensemble or many. The loop boosts a list of ensembles: ``fit`` boosts one; the cost grid
(:meth:`BaseBoostingClassifier._fit_negative_cost_grid`, behind :func:`algorithms.cost_grid.\
fit_negative_cost_grid`) boosts one per candidate ``C-`` of a fixed-cost method in the same rounds. Nothing is
copied for the grid: the same set-up, round and trace run per ensemble, and each ensemble reads only its own
estimator, rules, weights and random generator, so each candidate is exactly the model its own ``fit``
builds. What the ensembles share is what does not depend on ``C-``: the checked inputs, the sorted features
and, where ensembles hold equal weights (AdaMEC's, whatever their class costs), each round's search
(:mod:`algorithms.boosting._fitters`). A weak learner other than the stump, or a round set other
than the fit's rows (M2's synthetic rows, a bootstrap draw), is fitted per ensemble inside the same round.
"""

from __future__ import annotations

import copy
import inspect
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
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
from algorithms.boosting._fitters import ClonedEstimatorFitter, PresortedStumpFitter
from algorithms.boosting._stump import (
    DecisionStump,
    add_leaf_values,
    leaf_outputs,
    spread_leaf_values,
)
from algorithms.exceptions import CostMatrixIgnoredWarning
from algorithms.metrics import check_cost_matrix

__all__ = ["BaseBoostingClassifier", "BoostingRules", "FixedCostBoostingClassifier"]

#: Fitted attributes set by the shared set-up (:meth:`BaseBoostingClassifier._fit_data`).
_DATA_ATTRIBUTES = ("n_features_in_", "feature_names_in_", "classes_", "pos_label_")

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
    the module docstring); a parameter that names no quantity raises a ``TypeError``.

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
    """The parameters of a rule that the loop must fill: all but those ``functools.partial`` bound."""
    bound = rule.keywords if isinstance(rule, partial) else {}
    return tuple(name for name in inspect.signature(rule).parameters if name not in bound)


def _rule_name(rule) -> str:
    function = rule.func if isinstance(rule, partial) else rule
    return f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', repr(function))}"


def _apply(rule, quantities):
    """Call ``rule`` with the quantities its parameters name.

    Raises
    ------
    TypeError
        When a parameter names no quantity known at this point of the round (a typo in a variant's rule, or a
        quantity that only a later rule produces), naming the rule, the parameter and the known quantities.
    """
    names = _parameter_names(rule)
    missing = [name for name in names if name not in quantities]
    if missing:
        raise TypeError(
            f"boosting rule {_rule_name(rule)} has parameter(s) {missing} that name no quantity of the round "
            f"at this point; known quantities: {sorted(quantities)} (the table in algorithms.boosting._base)"
        )
    return rule(**{name: quantities[name] for name in names})


@dataclass(frozen=True)
class _FitData:
    """What the ensembles of one ``fit`` (or one cost grid) share: checked data, the weak-learner fitter."""

    X: np.ndarray
    y01: np.ndarray
    y_signed: np.ndarray
    class_mass: np.ndarray
    cost_matrix: np.ndarray | None
    fit_weak_learners: Callable


class _Ensemble:
    """One ensemble being boosted: its set-up (the fit's quantities, ``D^1``), its round, and its trace.

    ``fit`` boosts one; a cost grid boosts one per candidate together (:func:`_boost`). Every number an
    ensemble computes depends only on its own estimator's rules and parameters and on the shared data, so an
    ensemble boosted among others is the one its estimator's own ``fit`` builds.
    """

    def __init__(self, estimator, data: _FitData):
        self.estimator = estimator
        self.data = data
        self.rules = estimator._boosting_rules()
        y_signed, class_mass, cost_matrix = data.y_signed, data.class_mass, data.cost_matrix
        fixed_costs = estimator._fixed_costs(y_signed, cost_matrix)
        row_weights = estimator._row_weights(y_signed, cost_matrix)
        row_weights = np.ones_like(class_mass) if row_weights is None else row_weights
        compounding = cost_matrix is not None and fixed_costs is not None and fixed_costs.ndim == 1
        self.fit_quantities = {
            "y": y_signed,
            "class_mass": class_mass,
            "fixed_costs": fixed_costs,
            "cost_factors": (
                _rules.per_round_cost_factors(fixed_costs, estimator.n_estimators)
                if compounding
                else fixed_costs
            ),
            "cost_mass": class_mass * row_weights,
            "fixed_class_costs": (
                _rules.class_means(fixed_costs, y_signed)
                if fixed_costs is not None and fixed_costs.ndim == 1
                else None
            ),
        }
        weights, _ = _rules.normalise(
            _apply(self.rules.initial_weights, self.fit_quantities) * self.fit_quantities["cost_mass"],
            y_signed,
        )
        if weights is None:
            raise ValueError("the initial weights (initial distribution times sample_weight) sum to zero")
        self.weights = weights
        self.random_state = check_random_state(estimator.random_state)
        self.round_training_set = estimator._round_training_set_builder(data.X, data.y01)
        self.cumulative_votes = np.zeros(data.X.shape[0])
        self.vote_scale = 0.0
        self.learners, self.vote_weights = [], []
        self.trace = {key: [] for key in TRACE_KEYS}
        self.stop_reason = "n_estimators"
        self.final_distribution = weights
        self.last_weighted_error = self.last_alpha = np.nan

    def draw_round(self):
        """The round's training set ``(X, y01, sample_weight)`` and the weak learner's sub-seed."""
        seed = draw_seed(self.random_state)
        return self.round_training_set(self.weights, self.random_state), seed

    # ----------------------------------------------------------------------------------------------- round
    def boost(self, learner, output) -> bool:
        """One round with the fitted ``learner`` and its output ``h_t(x_i)``; False once boosting stops.

        The rules get the round's quantities (the table in the module docstring); a learner whose alpha is
        not a finite number > 0 is discarded and stops the loop, any other is kept and traced.
        """
        rules, y_signed = self.rules, self.data.y_signed
        quantities = {
            **self.fit_quantities,
            "weights": self.weights,
            "output": output,
            "cumulative_votes": self.cumulative_votes,
            "vote_scale": self.vote_scale,
            "weighted_error": _kernels.weighted_error(self.weights, y_signed, output),
        }
        costs = _apply(rules.round_costs, quantities)
        quantities["costs"] = costs.per_sample
        alpha = _apply(rules.alpha, quantities)
        quantities.update(alpha if isinstance(alpha, dict) else {"alpha": alpha})
        alpha = float(quantities["alpha"])
        self.last_weighted_error, self.last_alpha = quantities["weighted_error"], alpha
        if not (np.isfinite(alpha) and alpha > 0):
            self.stop_reason = "non-positive alpha"
            return False
        new_weights, positive_share = _rules.normalise(_apply(rules.update, quantities), y_signed)
        votes = _apply(rules.vote, quantities)
        stop = _apply(rules.stop_after, quantities)
        # adds this round's votes to cumulative_votes in place, counting the partial ensemble's errors
        self.vote_scale += max(abs(votes[0]), abs(votes[1]))
        fnr, fpr = _rules.error_rates(
            *_kernels.ensemble_confusion(
                self.cumulative_votes,
                output,
                *votes,
                y_signed,
                self.data.class_mass,
                True,
                _rules.tie_margin(self.vote_scale),
            )
        )
        self.learners.append(learner)
        self.vote_weights.append(votes)
        self.record(alpha, quantities["weighted_error"], 1.0 - fnr, 1.0 - fpr, positive_share, costs)
        if new_weights is None:
            self.stop_reason = "degenerate weights"
            return False
        self.final_distribution = new_weights
        if stop:
            self.stop_reason = stop if isinstance(stop, str) else "perfect learner"
            return False
        self.weights = new_weights
        return True

    # ----------------------------------------------------------------------------------------------- trace
    def record(self, alpha, weighted_error, train_tpr, train_tnr, positive_share, costs):
        """Append one kept round to the trace (:data:`TRACE_KEYS`)."""
        for key, value in zip(
            TRACE_KEYS,
            (alpha, weighted_error, train_tpr, train_tnr, positive_share, costs.positive, costs.negative),
            strict=True,
        ):
            self.trace[key].append(value)

    def finish(self):
        """Set the estimator's fitted attributes from the kept rounds and their trace.

        Raises
        ------
        ValueError
            When no learner could be kept, or boosting stopped early with an ensemble that votes one class
            for every training sample (:meth:`BaseBoostingClassifier._refuse_one_class_ensemble`).
        """
        estimator = self.estimator
        estimator.estimators_ = self.learners
        estimator.stop_reason_ = self.stop_reason
        estimator.final_distribution_ = self.final_distribution
        if not self.learners:
            raise ValueError(
                f"{type(estimator).__name__}: the first weak learner has weighted error "
                f"{self.last_weighted_error:.6g} and a non-positive weight alpha={self.last_alpha:.6g}, so "
                "no learner could be kept: under this method's alpha rule (see its docstring) the first "
                "learner does not improve on chance for these data and costs"
            )
        estimator._refuse_one_class_ensemble(self.cumulative_votes, _rules.tie_margin(self.vote_scale))
        estimator.trace_ = {key: np.asarray(values, dtype=float) for key, values in self.trace.items()}
        estimator.estimator_weights_ = estimator.trace_["alpha"].copy()
        estimator.estimator_errors_ = estimator.trace_["weighted_error"].copy()
        estimator.vote_weights_ = np.asarray(self.vote_weights, dtype=float).reshape(-1, 2)


def _boost(data: _FitData, ensembles, n_estimators, errors=None):
    """The boosting loop: ``n_estimators`` rounds of every ensemble still boosting.

    Each round draws every ensemble's round set and sub-seed, fits their weak learners together
    (``data.fit_weak_learners``: one scan of the presorted features for all the stumps), and runs each
    ensemble's round (:meth:`_Ensemble.boost`). An ensemble leaves the loop when its rules stop it. With
    ``errors`` (a dict, for a cost grid) a ``ValueError`` of one ensemble's round is stored under the
    ensemble and ends only that ensemble; without it, it propagates.

    X was checked finite before, and every round's training set is X or built from its rows: the weak
    learners' own finiteness checks of it (a pass over all of X per call, most of a stump's predict) are
    skipped (scikit-learn's ``assume_finite``, thread-local).
    """
    active = list(ensembles)
    with config_context(assume_finite=True):
        for _ in range(n_estimators):
            if not active:
                break
            drawn = [ensemble.draw_round() for ensemble in active]
            learners = _fit_round(
                data, [round_set for round_set, _ in drawn], [seed for _, seed in drawn], errors
            )
            outputs, given, still_active = {}, set(), []
            for ensemble, learner in zip(active, learners, strict=True):
                if isinstance(learner, ValueError):
                    errors[ensemble] = learner
                    continue
                key = (id(learner), ensemble.rules.weak_output)
                if key not in outputs:
                    outputs[key] = _weak_output(ensemble.rules.weak_output, learner, data.X)
                # ensembles trained on the same weights share the search; each keeps its own learner
                own = copy.deepcopy(learner) if id(learner) in given else learner
                given.add(id(learner))
                try:
                    if ensemble.boost(own, outputs[key]):
                        still_active.append(ensemble)
                except ValueError as error:
                    if errors is None:
                        raise
                    errors[ensemble] = error
            active = still_active


def _weak_output(output, learner, X):
    """``output(learner, X)``: the rule's ``h_t(x_i)`` on every row; a stump's from its two leaves'."""
    if type(learner) is DecisionStump:
        left, right = leaf_outputs(output, learner)
        return spread_leaf_values(X[:, learner.feature_], learner.threshold_, left, right)
    return output(learner, X)


def _fit_round(data, round_sets, seeds, errors):
    """The round's weak learners; in a grid, a fit that fails for one set fails that set alone."""
    if errors is None:
        return data.fit_weak_learners(round_sets, seeds)
    try:
        return data.fit_weak_learners(round_sets, seeds)
    except ValueError:
        learners = []
        for round_set, seed in zip(round_sets, seeds, strict=True):
            try:
                learners.extend(data.fit_weak_learners([round_set], [seed]))
            except ValueError as error:
                learners.append(error)
        return learners


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
        data = self._fit_data(X, y, sample_weight, cost_matrix)
        ensemble = _Ensemble(self, data)
        _boost(data, [ensemble], self.n_estimators)
        ensemble.finish()
        return self

    def _fit_data(self, X, y, sample_weight, cost_matrix) -> _FitData:
        """The set-up every ensemble of a fit shares: check the inputs, code the labels, choose the fitter."""
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32])
        check_feature_magnitude(
            X, estimator_name=type(self).__name__, feature_names=getattr(self, "feature_names_in_", None)
        )
        # Column-major: the presort and every round's weak-learner output read whole columns.
        X = np.asfortranarray(X)
        class_mass = check_sample_weight(sample_weight, X.shape[0])
        self.classes_, y01, self.pos_label_ = encode_binary_target(
            y, self.pos_label, class_mass, estimator_name=type(self).__name__
        )
        if cost_matrix is not None:
            cost_matrix = check_cost_matrix(cost_matrix, X.shape[0])
            if not self._uses_cost_matrix:
                warnings.warn(
                    f"{type(self).__name__} does not use cost_matrix: it was validated and ignored, so the "
                    "model is the one fit without it",
                    CostMatrixIgnoredWarning,
                    stacklevel=3,
                )
                cost_matrix = None
        return _FitData(
            X, y01, np.where(y01 == 1, 1.0, -1.0), class_mass, cost_matrix, self._weak_learner_fitter(X)
        )

    def _fit_negative_cost_grid(self, X, y, negative_costs, sample_weight=None, cost_matrix=None):
        """Fit one clone per ``negative_cost`` in one boosting loop (:func:`algorithms.cost_grid.\
fit_negative_cost_grid`).

        The clones share the set-up (checked data, sorted features) and the loop; each round fits their
        stumps in one pass. Each returned model is the one ``clone(self).set_params(negative_cost=c).fit``
        gives; a candidate whose fit raises ``ValueError`` is returned as that error.
        """
        candidates = [clone(self).set_params(negative_cost=float(cost)) for cost in negative_costs]
        data = candidates[0]._fit_data(X, y, sample_weight, cost_matrix)
        fitted = {
            name: getattr(candidates[0], name) for name in _DATA_ATTRIBUTES if hasattr(candidates[0], name)
        }
        results, ensembles, errors = list(candidates), [], {}
        for index, candidate in enumerate(candidates):
            try:
                candidate._validate_params()
                for name, value in fitted.items():
                    setattr(candidate, name, value)
                ensembles.append(_Ensemble(candidate, data))
            except ValueError as error:
                results[index] = error
        _boost(data, ensembles, self.n_estimators, errors)
        for ensemble in ensembles:
            index = candidates.index(ensemble.estimator)
            try:
                if ensemble in errors:
                    raise errors[ensemble]
                ensemble.finish()
            except ValueError as error:
                results[index] = error
        return results

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
        """Strategy that fits a round's weak learners: ``(round sets, sub-seeds) -> fitted learners``.

        A :class:`DecisionStump` (the default) uses the presorted search (the features are sorted once per
        ``fit``) in every round whose training set is the fit's own ``X`` (only the labels or weights
        differ); any other learner, or round set, is cloned and fitted each round
        (:mod:`algorithms.boosting._fitters`).
        """
        template = self.estimator if self.estimator is not None else self._default_estimator()
        if template is None:
            template = DecisionStump()
        if type(template) is DecisionStump:
            return PresortedStumpFitter(X, template.criterion)
        return ClonedEstimatorFitter(template)

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
        X = np.asfortranarray(X)  # each learner reads its feature's column
        weak_output = self._boosting_rules().weak_output
        margin = np.zeros(X.shape[0])
        scale = 0.0
        vote_weights = self.vote_weights_ if vote_weights is None else vote_weights
        for learner, votes in zip(self.estimators_, vote_weights, strict=True):
            if type(learner) is DecisionStump:  # one vote per leaf, added to each row's margin in one pass
                leaf_votes = _rules.weighted_votes(np.array(leaf_outputs(weak_output, learner)), votes)
                margin = add_leaf_values(
                    margin, X[:, learner.feature_], learner.threshold_, leaf_votes[0], leaf_votes[1]
                )
            else:
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

    def _final_margin(self, X):
        """The whole ensemble's ``(margin, vote scale)``: the last of :meth:`_staged_margins`."""
        *_, last = self._staged_margins(X)
        return last

    def _normalised_score(self, margin, scale):
        score = self._oriented(margin) / scale
        score[np.abs(score) <= _rules.TIE_TOLERANCE] = 0.0  # votes that cancel up to rounding: a tie
        return score

    def staged_decision_function(self, X):
        """Yield :meth:`decision_function` of the partial ensemble after every round.

        Yields
        ------
        score : ndarray of shape (n_samples,)
        """
        for margin, scale in self._staged_margins(X):
            yield self._normalised_score(margin, scale)

    def decision_function(self, X):
        """Normalised ensemble score ``sum_t alpha_t h_t(x) / sum_t alpha_t`` in [-1, 1] (docs/algorithms.md
        §1).

        With asymmetric vote weights the denominator is ``sum_t max(v+_t, v-_t)``. Positive values favour
        ``classes_[1]`` (scikit-learn's convention).
        """
        return self._normalised_score(*self._final_margin(X))

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
        margin, _ = self._final_margin(X)
        return self._probabilities_of(margin)

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
    the defaults use the regrets as they are and a selection of ``C-`` (``tasks.fitting.cost_selection``)
    tunes how strongly the rules follow them. Row weights ``w_i = r_i / R_{y_i}`` multiply ``D^1`` (a row
    without regret starts, and stays, at weight 0).
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
