"""SMOTEBoost and WOTBoost: binary AdaBoost.M2 with synthetic minority samples in every round.

WOTBoost paper (Zhang, Ramezani and Naeim 2019), Algorithms 1-2, with the
decisions of docs/algorithms.md §5. Both run on the shared loop of :mod:`algorithms.boosting._base`; they bind

- the M2 rules (:mod:`algorithms.boosting._m2_rules`): real-valued weak output ``2 p_t(+|x) - 1`` from
  ``predict_proba``, pseudo-loss ``eps_t``, vote ``ln(1/beta_t)``, the standard (Freund and Schapire 1997)
  update ``D_t(i) beta_t^{1/2 (1 + h_t(x_i, y_i) - h_t(x_i, ybar_i))}``;
- the round's training set (:class:`SyntheticMinorityRounds`, built once per fit, so the minority
  neighbours are searched once): the original samples with ``D_t`` plus ``N`` fresh synthetic minority
  samples, which the weak learner is trained on and which are then discarded: the pseudo-loss and the
  update use the original samples only.

They differ only in how the ``N`` synthetic samples are allotted to the minority samples: uniformly
(SMOTEBoost, Chawla et al. 2003) or in proportion to ``D_t`` (WOTBoost, Algorithm 2).

The default weak learner is scikit-learn's depth-3 tree, learned by :class:`PresortedTreeFitter`: the
original samples are sorted once per fit and each round's synthetic samples merged into that order
(:mod:`algorithms.boosting._m2_tree`; docs/algorithms.md §5.4).
"""

from __future__ import annotations

from numbers import Integral
from typing import ClassVar

import numpy as np
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from algorithms.boosting import _m2_rules
from algorithms.boosting._base import BaseBoostingClassifier, BoostingRules
from algorithms.boosting._m2_tree import PresortedTreeSearch

__all__ = [
    "M2_RULES",
    "WEAK_LEARNER_MAX_DEPTH",
    "M2BoostingClassifier",
    "PresortedTreeFitter",
    "SMOTEBoost",
    "SyntheticMinorityRounds",
    "SyntheticRoundSet",
    "WOTBoost",
    "probability_output",
]

#: Depth of the default weak learner, a CART tree with ``predict_proba``. The papers do not give one. On two
#: synthetic imbalanced sets (3-fold CV, 30 rounds) depth 1-2 underfit (balanced accuracy 0.63-0.73) while
#: depth 3 and 5 scored alike (0.71-0.77); 3 is the shallower, faster choice.
WEAK_LEARNER_MAX_DEPTH = 3


def probability_output(learner, X):
    """Real-valued ``h_t(x) = 2 p_t(+|x) - 1`` in [-1, 1] from ``predict_proba`` (binary AdaBoost.M2)."""
    positive_column = int(np.flatnonzero(learner.classes_ == 1)[0])
    return 2.0 * learner.predict_proba(X)[:, positive_column] - 1.0


def m2_alpha(weighted_error):
    """The learner's vote ``ln(1 / beta_t)`` and ``beta_t`` from the pseudo-loss (Algorithm 1, lines 5-6).

    The loop's weighted error of the output ``2 p_t(+|x) - 1`` is M2's pseudo-loss ``eps_t`` on the original
    samples; ``beta_t`` goes on to the update (:func:`~algorithms.boosting._m2_rules.m2_update`).
    """
    return {
        "alpha": _m2_rules.m2_vote_weight(weighted_error),
        "beta": _m2_rules.m2_beta(weighted_error),
    }


#: Binary AdaBoost.M2: probabilistic weak output, ``ln(1/beta_t)`` votes, the standard update with ``beta_t``.
#: Initial weights (uniform), symmetric votes and the stop after a zero pseudo-loss are the loop's defaults.
M2_RULES = BoostingRules(weak_output=probability_output, alpha=m2_alpha, update=_m2_rules.m2_update)


class M2BoostingClassifier(BaseBoostingClassifier):
    """Binary AdaBoost.M2 whose weak learner sees ``N`` new synthetic minority samples every round.

    A subclass chooses the allotment ``g_i`` (how many children each minority sample gets) through
    ``_allot``, a function ``(N, minority weights D_t, random_state) -> g``.

    Round ``t`` (WOTBoost paper, Algorithm 1; docs/algorithms.md §5):

    1. ``N`` synthetic minority samples: ``g_i`` children of minority sample ``x_i``, each
       ``x_i + lambda (x_nn - x_i)`` with ``x_nn`` one of the ``k_neighbors`` nearest minority neighbours
       (scikit-learn's ``NearestNeighbors``) and ``lambda ~ U[0, 1]`` (Algorithm 2, lines 2-5).
    2. The weak learner is fitted on the original samples, weighted by ``D_t``, plus the synthetic ones,
       weighted by ``synthetic_weight`` (the papers do not say; :data:`~algorithms.boosting._m2_rules.\
SYNTHETIC_WEIGHTS`):

       - ``"mean_positive"`` (default): each child weighs the minority samples' mean ``D_t``;
       - ``"uniform"``: each child weighs ``1/n``;
       - ``"balance"``: the children share ``W- - W+`` evenly, so both classes weigh the same;
       - ``"split"``: a child weighs its parent's ``D_t(i)`` divided among the parent's ``g_i`` children (so
         balancing the rows leaves the positives about ``2 W+`` of the weight).

       A depth-3 tree only sees weights, so the weighting decides how much the synthetic rows count. Measured
       on the WOTBoost paper's datasets and highly imbalanced KEEL sets (``python -m benchmarks m2_weights``,
       ``docs/results/m2-synthetic-weights.md``), ``"split"`` has the lowest balanced accuracy of the four
       for both methods; the default is the best on average.
    3. Pseudo-loss ``eps_t = sum_i D_t(i) (1 - p_t(y_i|x_i))`` over the original samples;
       ``beta_t = eps_t / (1 - eps_t)``; boosting stops, discarding the learner, when ``eps_t >= 1/2``, and
       stops after keeping it when ``eps_t = 0`` (floored at ``1e-10``).
    4. ``D_{t+1}(i) = D_t(i) beta_t^{1/2 (1 + h_t(x_i, y_i) - h_t(x_i, ybar_i))} / Z_t`` on the original
       samples only (the standard M2 update; the paper's line 7 flips the sign of the exponent, which would
       shrink the weights of errors). The synthetic samples are discarded.

    ``H(x) = argmax_y sum_t ln(1/beta_t) h_t(x, y)``, i.e. the sign of
    ``sum_t ln(1/beta_t) (2 p_t(+|x) - 1)``; :meth:`decision_function` divides that sum by
    ``sum_t ln(1/beta_t)``.

    The synthetic class is the positive class (``pos_label``, by default the minority). ``N`` defaults to
    ``#negatives - #positives`` (balancing the round's training set by counts; 0 if the positives are not
    fewer). The neighbour search is capped at ``#positives - 1`` neighbours; a single positive sample's
    children are copies of it. ``cost_matrix`` is accepted (and validated) but unused: both methods are
    cost-blind.

    Parameters
    ----------
    estimator : object, default=None
        Weak learner with ``predict_proba`` whose ``fit`` accepts ``sample_weight``, cloned and seeded every
        round. ``None``: the tree ``DecisionTreeClassifier(max_depth=3)`` (:data:`WEAK_LEARNER_MAX_DEPTH`)
        learns, found by the presorted search (:class:`PresortedTreeFitter`: the same features, thresholds
        and leaves, a fitted ``DecisionTreeClassifier`` every round; exact ties between two features go to
        the lower one instead of the seed's choice). ``DecisionTreeClassifier(max_depth=3)`` given
        explicitly is fitted by scikit-learn every round.
    n_estimators : int, default=50
        Maximum number of rounds ``T``.
    n_synthetic : int or None, default=None
        ``N``, synthetic minority samples per round; ``None`` balances the classes.
    k_neighbors : int, default=5
        ``k``, minority neighbours to interpolate towards (the WOTBoost paper's ``k = 5``).
    synthetic_weight : {"mean_positive", "uniform", "balance", "split"}, default="mean_positive"
        Weight of every synthetic sample in the weak learner's fit (step 2).
    random_state : int, RandomState instance or None, default=None
        Seeds the one random generator of ``fit``: the synthetic samples and the learners' sub-seeds.
    pos_label : label or None, default=None
        Positive (synthesised) class; ``None`` takes the minority class.

    Attributes
    ----------
    estimators_, estimator_weights_, estimator_errors_, vote_weights_, classes_, pos_label_, n_features_in_, \
trace_, final_distribution_, stop_reason_
        See :class:`~algorithms.boosting._base.BaseBoostingClassifier`. ``estimator_weights_`` holds
        ``ln(1/beta_t)``, ``estimator_errors_`` the pseudo-losses ``eps_t``; ``final_distribution_`` is over
        the original samples.
    """

    _allot: ClassVar = staticmethod(_m2_rules.uniform_allotment)

    _expected_failed_checks: ClassVar[dict[str, str]] = {
        "check_sample_weight_equivalence_on_dense_data": (
            "the synthetic samples depend on counts, not weights: a repeated minority sample becomes its own "
            "nearest neighbour and is allotted children per copy, and N is a difference of class counts"
        ),
    }

    _parameter_constraints: dict = {
        **BaseBoostingClassifier._parameter_constraints,
        "estimator": [HasMethods(["fit", "predict_proba"]), None],
        "n_synthetic": [Interval(Integral, 0, None, closed="left"), None],
        "k_neighbors": [Interval(Integral, 1, None, closed="left")],
        "synthetic_weight": [StrOptions(set(_m2_rules.SYNTHETIC_WEIGHTS))],
    }

    def __init__(
        self,
        estimator=None,
        *,
        n_estimators=50,
        n_synthetic=None,
        k_neighbors=5,
        synthetic_weight="mean_positive",
        random_state=None,
        pos_label=None,
    ):
        super().__init__(estimator, n_estimators=n_estimators, random_state=random_state, pos_label=pos_label)
        self.n_synthetic = n_synthetic
        self.k_neighbors = k_neighbors
        self.synthetic_weight = synthetic_weight

    def _boosting_rules(self) -> BoostingRules:
        return M2_RULES

    def _default_estimator(self):
        """The tree the default weak learner learns (:meth:`_weak_learner_fitter` finds it presorted)."""
        return DecisionTreeClassifier(max_depth=WEAK_LEARNER_MAX_DEPTH)

    def _weak_learner_fitter(self, X):
        """``estimator=None``: the default tree by the presorted search (:class:`PresortedTreeFitter`, ``X``
        sorted once per fit); any other learner is cloned and fitted every round, as in the base."""
        if self.estimator is not None:
            return super()._weak_learner_fitter(X)
        return PresortedTreeFitter(X, self._default_estimator().max_depth)

    def _round_training_set_builder(self, X, y01):
        """Per fit: the minority samples, ``N`` and the neighbour graph, computed once for every round."""
        return SyntheticMinorityRounds(
            X,
            y01,
            self._synthetic_count(y01),
            self.k_neighbors,
            self._allot,
            _m2_rules.SYNTHETIC_WEIGHTS[self.synthetic_weight],
        )

    def _synthetic_count(self, y01):
        """``N``: ``n_synthetic``, or ``#negatives - #positives`` (at least 0) when it is ``None``."""
        if self.n_synthetic is not None:
            return int(self.n_synthetic)
        n_positive = int(np.count_nonzero(y01))
        return max(y01.size - 2 * n_positive, 0)


class SyntheticMinorityRounds:
    """Builds every round's training set of one ``fit``: originals plus ``N`` fresh synthetic positives.

    The positives' ``k`` nearest positive neighbours do not change between rounds, so they are searched
    once, here, and so is the round's label vector; each call then allots ``N`` children with
    ``allot(N, D_t on positives, random_state)``, interpolates them straight into the tail of a new
    ``(n + N, n_features)`` training matrix, weighs them with ``synthetic_weight`` and returns the round as
    a :class:`SyntheticRoundSet` (the matrix's head is filled with the originals only if a learner needs
    the rows stacked).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y01 : ndarray of shape (n_samples,)
        1 for the positive (synthesised) class, 0 otherwise.
    n_synthetic : int
        ``N``.
    k_neighbors : int
        ``k``.
    allot : callable ``(N, minority_weights, random_state) -> ndarray of int``
        The allotment rule (:func:`~algorithms.boosting._m2_rules.uniform_allotment` or
        :func:`~algorithms.boosting._m2_rules.weighted_allotment`).
    synthetic_weight : callable ``(weights, minority, allotment, parents) -> ndarray``
        The children's weights (one of :data:`~algorithms.boosting._m2_rules.SYNTHETIC_WEIGHTS`).
    """

    def __init__(self, X, y01, n_synthetic, k_neighbors, allot, synthetic_weight):
        self.X = X
        self.y01 = y01
        self.n_synthetic = n_synthetic
        self.allot = allot
        self.synthetic_weight = synthetic_weight
        self.minority = np.flatnonzero(y01 == 1)
        self.X_minority = X[self.minority]
        self.neighbours = (
            _m2_rules.minority_neighbours(self.X_minority, k_neighbors) if n_synthetic > 0 else None
        )
        self.y_round = np.concatenate([y01, np.ones(n_synthetic, dtype=y01.dtype)])

    def __call__(self, weights, random_state):
        """The round whose distribution over the originals is ``weights``, a :class:`SyntheticRoundSet`."""
        if self.n_synthetic == 0:
            return SyntheticRoundSet(self.X, self.y01, weights, self.X, self.y01, weights[:0])
        allotment = self.allot(self.n_synthetic, weights[self.minority], random_state)
        n_samples = self.X.shape[0]
        X_round = np.empty((n_samples + self.n_synthetic, self.X.shape[1]), dtype=self.X.dtype)
        _, parents, _ = _m2_rules.synthesise_minority(
            self.X_minority, self.neighbours, allotment, random_state, out=X_round[n_samples:]
        )
        synthetic_weights = self.synthetic_weight(weights, self.minority, allotment, parents)
        return SyntheticRoundSet(self.X, self.y01, weights, X_round, self.y_round, synthetic_weights)


class SyntheticRoundSet:
    """One round's training set: the fit's own rows (weights ``D_t``) and the round's synthetic rows, apart.

    The default weak learner (:class:`PresortedTreeFitter`) reads the two parts: the originals are the
    fit's ``X``, sorted once. Any other learner is fitted on the rows stacked, originals first: iterating
    the set yields ``(X, y01, sample_weight)`` (:meth:`stacked`), so it unpacks like the round set of any
    boosting method.

    Parameters
    ----------
    X, y01, weights : ndarray
        The fit's rows, their 0 / 1 labels and ``D_t``.
    X_round, y_round : ndarray
        The stacked rows and labels: the synthetic rows are ``X_round[n:]`` (``n = len(X)``), the head is
        filled with ``X`` when the stacked rows are first asked for. ``X_round`` is ``X`` when there are no
        synthetic rows.
    synthetic_weights : ndarray
        The synthetic rows' weights.
    """

    def __init__(self, X, y01, weights, X_round, y_round, synthetic_weights):
        self.X, self.y01, self.weights = X, y01, weights
        self._X_round, self._y_round = X_round, y_round
        self.synthetic_weights = synthetic_weights
        self._stacked = None

    @property
    def X_synthetic(self):
        """The round's synthetic rows (a view of the stacked rows' tail)."""
        return self._X_round[self.X.shape[0] :]

    @property
    def y01_synthetic(self):
        """Their labels (the positive class, 1)."""
        return self._y_round[self.X.shape[0] :]

    def stacked(self):
        """``(X, y01, sample_weight)``: the fit's rows, then the synthetic ones (no copy without them)."""
        if self._stacked is None:
            if self._X_round is self.X:  # no synthetic rows: the fit's own arrays, not copied
                self._stacked = (self.X, self.y01, self.weights)
            else:
                self._X_round[: self.X.shape[0]] = self.X
                weights = np.concatenate([self.weights, self.synthetic_weights])
                self._stacked = (self._X_round, self._y_round, weights)
        return self._stacked

    def __iter__(self):
        return iter(self.stacked())


class PresortedTreeFitter:
    """Fits M2's default weak learner every round: the depth-limited tree on a :class:`SyntheticRoundSet`.

    The fit's rows are sorted once, on the first round (:class:`~algorithms.boosting._m2_tree.\
PresortedTreeSearch`); each round merges its synthetic rows in and returns a fitted
    ``DecisionTreeClassifier`` seeded with the round's sub-seed (the tree scikit-learn's fit of the stacked
    rows gives, up to exact ties between features; docs/algorithms.md §5.4).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The fit's rows (the round sets' ``X``).
    max_depth : int
        The tree's depth.
    """

    def __init__(self, X, max_depth):
        self.X = X
        self.max_depth = max_depth
        self.search = None

    def fit_one(self, round_set, seed):
        """The tree of one round set."""
        if not isinstance(round_set, SyntheticRoundSet) or round_set.X is not self.X:
            raise TypeError(
                "PresortedTreeFitter fits SyntheticRoundSet rounds of the X it was made for; got "
                f"{type(round_set).__name__}"
            )
        if self.search is None:
            self.search = PresortedTreeSearch(self.X, self.max_depth)
        return self.search.fit(
            round_set.y01,
            round_set.weights,
            round_set.X_synthetic,
            round_set.y01_synthetic,
            round_set.synthetic_weights,
            random_state=seed,
        )

    def __call__(self, round_sets, seeds):
        """One fitted tree per round set, in order."""
        return [self.fit_one(round_set, seed) for round_set, seed in zip(round_sets, seeds, strict=True)]


class SMOTEBoost(M2BoostingClassifier):
    """SMOTEBoost (Chawla et al. 2003): SMOTE's uniform allotment inside binary AdaBoost.M2.

    Every round the ``N`` synthetic samples are split evenly over the minority samples (largest-remainder
    rounding; which samples get the one extra child is random) and interpolated towards one of their
    ``k = 5`` nearest minority neighbours; see :class:`M2BoostingClassifier` for the round, the synthetic
    weights (``synthetic_weight``) and the default weak learner (a depth-3 tree).
    """

    _allot: ClassVar = staticmethod(_m2_rules.uniform_allotment)


class WOTBoost(M2BoostingClassifier):
    """WOTBoost (Zhang et al.): weight-proportional oversampling inside binary AdaBoost.M2 (Algorithms 1-2).

    Every round minority sample ``x_i`` gets ``g_i = N D_t(i) / sum_{j in minority} D_t(j)`` children
    (Algorithm 2, line 1), rounded by largest remainder so that the ``g_i`` sum to ``N``: hard minority
    samples, which boosting has given more weight, get more synthetic neighbours. See
    :class:`M2BoostingClassifier` for the round, the synthetic weights (``synthetic_weight``) and the default
    weak learner (a depth-3 tree).
    """

    _allot: ClassVar = staticmethod(_m2_rules.weighted_allotment)
