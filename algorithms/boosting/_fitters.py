"""How the boosting loop fits a round's weak learners: one per ensemble it boosts.

The loop (:mod:`algorithms.boosting._base`) boosts one ensemble in a plain ``fit`` and ``K`` in a cost grid;
each round it hands its fitter the ``K`` round training sets ``(X, y01, sample_weight)`` and sub-seeds, and
gets ``K`` fitted learners back, in order. Two strategies:

- :class:`ClonedEstimatorFitter`: a fresh clone of any scikit-learn classifier per set, seeded with the set's
  sub-seed when it has a ``random_state``;
- :class:`PresortedStumpFitter`: the fast decision stump on the fit's own ``X``, sorted once per fit
  (:class:`~algorithms.boosting._stump.PresortedStumpSearch`) and shared by the ``K`` ensembles. Sets that
  hold the same weights (AdaMEC's ensembles train alike whatever their class costs) get one search and one
  learner; the distinct weight vectors are searched together (:meth:`~algorithms.boosting._stump.\
PresortedStumpSearch.fit_many`): the stored rows of the features of few values are read once for all of
  them, each row's weights side by side, and each sorted feature is scanned per vector. Each learner is the
  one a fit of that set alone returns, bit for bit.

  One pass over the *sorted* rows for all ``K`` (each sorted row's ``K`` weights stored together) was built
  and measured, and it lost: a single candidate's weights sit in a core's L2 cache and its pass is bound by
  its running sums, while ``K`` candidates' weights gathered in sorted order leave L2 (``docs/benchmarks.md``,
  the C- grid). The coded rows are read in row order, so their ``K`` weights stream.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from algorithms.boosting._stump import DecisionStump, PresortedStumpSearch

__all__ = ["ClonedEstimatorFitter", "PresortedStumpFitter"]


class ClonedEstimatorFitter:
    """Fits a fresh clone of a scikit-learn classifier for each round set, seeded with its sub-seed."""

    def __init__(self, template):
        self.template = template
        self.seedable = "random_state" in template.get_params(deep=False)

    def fit_one(self, X, y01, weights, seed):
        """The clone fitted on one round set."""
        learner = clone(self.template)
        if self.seedable:
            learner.set_params(random_state=seed)
        return learner.fit(X, y01, sample_weight=weights)

    def __call__(self, round_sets, seeds):
        """One fitted learner per round set ``(X, y01, weights)``, in order."""
        return [self.fit_one(*round_set, seed) for round_set, seed in zip(round_sets, seeds, strict=True)]


class PresortedStumpFitter:
    """Fits the fast decision stump on the fit's samples, sorted once (:class:`PresortedStumpSearch`).

    A round set whose features are the fit's own ``X`` (the same array object; labels and weights may differ)
    uses the presorted search, sorted lazily on first use; any other round set (synthetic samples, a bootstrap
    draw) falls back to fitting a fresh :class:`DecisionStump`.
    """

    def __init__(self, X, criterion):
        self.X = X
        self.criterion = criterion
        self.search = None
        self.fallback = ClonedEstimatorFitter(DecisionStump(criterion=criterion))

    def __call__(self, round_sets, seeds):
        """One fitted stump per round set ``(X, y01, weights)``, in order (see the module docstring)."""
        learners = [None] * len(round_sets)
        presorted = []
        for index, (round_set, seed) in enumerate(zip(round_sets, seeds, strict=True)):
            X, y01, _ = round_set
            if X is self.X and (not presorted or y01 is round_sets[presorted[0]][1]):
                presorted.append(index)
            else:
                learners[index] = self.fallback.fit_one(*round_set, seed)
        if presorted:
            if self.search is None:
                self.search = PresortedStumpSearch(self.X, self.criterion)
            distinct, copies = _distinct_weights([round_sets[index][2] for index in presorted])
            y01 = round_sets[presorted[0]][1]
            stumps = self.search.fit_many(y01, distinct)
            for index, copy_of in zip(presorted, copies, strict=True):
                learners[index] = stumps[copy_of]
        return learners


def _distinct_weights(weights):
    """The distinct weight vectors of a round (by value) and, per input vector, the index of its own.

    Vectors are told apart by their first and last entries, and equal ones confirmed entry by entry, so
    that distinct vectors cost no full pass.
    """
    distinct, copies, seen = [], [], {}
    for vector in weights:
        key = (vector.shape, vector[:8].tobytes(), vector[-8:].tobytes())
        index = next((i for i in seen.get(key, ()) if np.array_equal(distinct[i], vector)), None)
        if index is None:
            index = len(distinct)
            seen.setdefault(key, []).append(index)
            distinct.append(vector)
        copies.append(index)
    return distinct, copies
