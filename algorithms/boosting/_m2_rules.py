"""Pure rule functions of the binary AdaBoost.M2 family (SMOTEBoost, WOTBoost).

Notation follows the WOTBoost paper (Zhang et al.,
Zhang, Ramezani and Naeim 2019, Algorithms 1-2) and docs/algorithms.md §5. With
two classes the mislabel set ``B`` holds one wrong label per sample, so the M2 distribution
``D_t(i, ybar_i)`` is a vector over the original samples. The weak hypothesis is ``h_t(x, y) = p_t(y | x)``;
the shared loop hands rules the signed output ``2 p_t(+|x) - 1``, from which
``h_t(x_i, y_i) - h_t(x_i, ybar_i) = y_i (2 p_t(+|x_i) - 1)`` (``y_i`` in {-1, +1}).

Two groups of functions live here:

- the M2 round maths: ``beta_t``, the learner's vote ``ln(1 / beta_t)`` and the weight update. The
  pseudo-loss ``eps_t = 1/2 sum_i D_t(i) (1 - h_t(x_i, y_i) + h_t(x_i, ybar_i))``, which is
  ``sum_i D_t(i) (1 - p_t(y_i|x_i))`` (Algorithm 1, line 5), is the loop's weighted error of the output
  ``2 p_t(+|x) - 1`` (:func:`algorithms.boosting._kernels.weighted_error`);
- the synthetic minority samples of a round: the allotment ``g_i`` per minority sample (uniform for
  SMOTEBoost, weight-proportional for WOTBoost), the ``k`` nearest minority neighbours, the interpolation
  ``x_i + lambda (x_nn - x_i)`` and the children's weights (:data:`SYNTHETIC_WEIGHTS`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.neighbors import NearestNeighbors

from algorithms.boosting._rules import ERROR_FLOOR

__all__ = [
    "SYNTHETIC_WEIGHTS",
    "balancing_weights",
    "largest_remainder_allotment",
    "m2_beta",
    "m2_update",
    "m2_vote_weight",
    "mean_positive_weights",
    "minority_neighbours",
    "split_parent_weights",
    "synthesise_minority",
    "uniform_allotment",
    "uniform_weights",
    "weighted_allotment",
]


# ------------------------------------------------------------------------------------------ M2 round maths
def m2_beta(pseudo_loss):
    """``beta_t = eps_t / (1 - eps_t)`` (Alg. 1, line 6); ``eps_t`` is floored at ``1e-10``."""
    pseudo_loss = max(float(pseudo_loss), ERROR_FLOOR)
    return pseudo_loss / (1.0 - pseudo_loss)


def m2_vote_weight(pseudo_loss):
    """The learner's vote ``ln(1 / beta_t)`` in ``H(x) = argmax_y sum_t ln(1/beta_t) h_t(x, y)``.

    WOTBoost paper, Algorithm 1, output.
    For two classes the argmax is the sign of ``sum_t ln(1/beta_t) (2 p_t(+|x) - 1)``, the shared loop's
    weighted vote. The value is <= 0 exactly when ``eps_t >= 1/2``, which tells the loop to discard the
    learner and stop (docs/algorithms.md §5).
    """
    return float(-np.log(m2_beta(pseudo_loss)))


def m2_update(weights, y, output, beta):
    """Unnormalised ``D_{t+1}(i) = D_t(i) beta_t^{1/2 (1 + h_t(x_i, y_i) - h_t(x_i, ybar_i))}``.

    The standard AdaBoost.M2 update (Freund and Schapire 1997). The WOTBoost paper's Algorithm 1, line 7,
    prints the exponent as ``1/2 (1 - h_t(x_i, y_i) + h_t(x_i, ybar_i))``, which would shrink the weight of
    the samples the learner gets wrong; docs/algorithms.md §5 fixes the sign. Since ``beta_t < 1``, a sample's
    weight falls the more confidently it is classified correctly, so misclassified samples gain weight
    after normalisation.
    """
    margin = y * output  # h_t(x_i, y_i) - h_t(x_i, ybar_i)
    return weights * np.power(beta, 0.5 * (1.0 + margin))


# -------------------------------------------------------------------------------------------- allotments
def largest_remainder_allotment(total, shares, random_state):
    """Split ``total`` samples into integers ``g_i`` proportional to ``shares``, summing to ``total``.

    Largest-remainder (Hamilton) rounding: every ``g_i`` starts at ``floor(total * s_i)`` with
    ``s_i = shares_i / sum(shares)``; the samples left over go one each to the largest fractional parts.
    Equal fractional parts are ordered at random (``random_state``), so no sample is favoured round after
    round. Each ``g_i`` is ``floor`` or ``ceil`` of its exact share. All-zero shares are treated as equal.

    Parameters
    ----------
    total : int
        ``N``, the number of synthetic samples.
    shares : ndarray of shape (n_minority,)
        Non-negative shares.
    random_state : numpy.random.RandomState
        Breaks ties between equal fractional parts.

    Returns
    -------
    allotment : ndarray of int of shape (n_minority,)
    """
    shares = np.asarray(shares, dtype=float)
    share_sum = float(shares.sum())
    if share_sum <= 0 or not np.isfinite(share_sum):
        shares, share_sum = np.ones_like(shares), float(shares.size)
    exact = total * shares / share_sum
    allotment = np.floor(exact).astype(np.int64)
    left_over = int(total - allotment.sum())
    if left_over > 0:
        order = random_state.permutation(shares.size)
        # stable sort of the shuffled order by descending remainder: ties stay in random order
        ranked = order[np.argsort(-(exact - allotment)[order], kind="stable")]
        allotment[ranked[:left_over]] += 1
    return allotment


def uniform_allotment(total, minority_weights, random_state):
    """SMOTEBoost: ``N`` split evenly over the minority samples, whatever their weights (docs/algorithms.md
    §5)."""
    return largest_remainder_allotment(total, np.ones_like(minority_weights, dtype=float), random_state)


def weighted_allotment(total, minority_weights, random_state):
    """WOTBoost: ``g_i = N D_t(i) / sum_{j in minority} D_t(j)`` (Algorithm 2, line 1), summing to ``N``."""
    return largest_remainder_allotment(total, minority_weights, random_state)


# ---------------------------------------------------------------------------------- synthetic minority set
def minority_neighbours(X_minority, k_neighbors):
    """Indices of the ``k`` nearest minority neighbours of every minority sample, itself excluded.

    scikit-learn's :class:`~sklearn.neighbors.NearestNeighbors` (Euclidean) does the search; ``k`` is capped
    at ``n_minority - 1``. With a single minority sample there is no neighbour and its own index is returned
    (its children are then copies of it).

    Returns
    -------
    neighbours : ndarray of int of shape (n_minority, min(k, n_minority - 1)) or (1, 1)
    """
    n_minority = X_minority.shape[0]
    k = min(int(k_neighbors), n_minority - 1)
    if k < 1:
        return np.zeros((n_minority, 1), dtype=np.int64)
    search = NearestNeighbors(n_neighbors=k).fit(X_minority)
    return search.kneighbors(return_distance=False)  # without X, a point is not its own neighbour


def synthesise_minority(X_minority, neighbours, allotment, random_state, out=None):
    """Create ``g_i`` synthetic samples around every minority sample ``x_i`` (WOTBoost Alg. 2, lines 2-5).

    Each child is ``x_i + lambda (x_nn - x_i)`` with ``x_nn`` drawn uniformly from the ``k`` nearest
    minority neighbours of ``x_i`` and ``lambda ~ U[0, 1]``. The children are written into ``out`` by one
    compiled pass (:func:`_interpolate`), which allocates nothing of their size; in ``X_minority``'s dtype,
    the difference and the sum are rounded to that dtype and the product ``lambda (x_nn - x_i)`` too (as
    numpy's in-place steps round them: float32 rows stay float32 children).

    Parameters
    ----------
    X_minority : ndarray of shape (n_minority, n_features)
    neighbours : ndarray of int of shape (n_minority, k)
    allotment : ndarray of int of shape (n_minority,)
        ``g_i``.
    random_state : numpy.random.RandomState
    out : ndarray of shape (sum(allotment), n_features), optional
        Where to write the children (e.g. the tail of the round's training matrix); a new array if omitted.

    Returns
    -------
    X_synthetic : ndarray of shape (sum(allotment), n_features)
        ``out`` when given.
    parents : ndarray of int of shape (sum(allotment),)
        Index (into ``X_minority``) of each child's parent ``x_i``.
    chosen_neighbours : ndarray of int of shape (sum(allotment),)
        Index (into ``X_minority``) of each child's ``x_nn``.
    """
    parents = np.repeat(np.arange(X_minority.shape[0]), allotment)
    columns = random_state.randint(neighbours.shape[1], size=parents.size)
    chosen_neighbours = neighbours[parents, columns]
    step = random_state.uniform(0.0, 1.0, size=(parents.size, 1))
    X_synthetic = np.empty((parents.size, X_minority.shape[1]), X_minority.dtype) if out is None else out
    _interpolate(X_minority, parents, chosen_neighbours, step, X_synthetic)
    return X_synthetic, parents, chosen_neighbours


@njit(cache=True, nogil=True)
def _interpolate(X_minority, parents, chosen_neighbours, step, out):
    """``out[i] = x_parent + step_i (x_neighbour - x_parent)``, child by child in one pass.

    The product is stored (rounded to ``out``'s dtype) before the parent is added, so float32 children
    round as numpy's ``out -= parent; out *= step; out += parent`` does. ``benchmarks/bench_m2_learner.py``
    times it against that numpy form (five times the work: two gathers of the rows, three passes).
    """
    for child in range(parents.size):
        parent, neighbour, scale = parents[child], chosen_neighbours[child], step[child, 0]
        for feature in range(X_minority.shape[1]):
            start = X_minority[parent, feature]
            out[child, feature] = (X_minority[neighbour, feature] - start) * scale
            out[child, feature] += start


# ------------------------------------------------------------------------------------- synthetic weights
# Every weighting takes the round's distribution ``D_t`` over the original samples (``weights``), the minority
# samples' indices into it (``minority``), the allotment ``g`` and each child's parent (an index into the
# minority samples), and returns one weight per child. The papers do not say what a synthetic sample weighs.


def split_parent_weights(weights, minority, allotment, parents):
    """``"split"``: a child weighs its parent's ``D_t(i)`` divided evenly among the parent's ``g_i`` children.

    So the children of ``x_i`` together weigh what ``x_i`` weighs, and the synthetic mass equals the mass of
    the minority samples that have children: balancing the rows leaves the positive *weight* share near
    ``2 W+ / (1 + W+)`` (0.13 on a 7 % minority set in the first round), which a weighted tree sees.
    """
    return weights[minority][parents] / allotment[parents]


def uniform_weights(weights, minority, allotment, parents):
    """``"uniform"``: every child weighs ``1/n``, an original sample's weight in ``D_1`` (``n`` originals)."""
    return np.full(parents.size, 1.0 / weights.size)


def mean_positive_weights(weights, minority, allotment, parents):
    """``"mean_positive"``: every child weighs the mean ``D_t`` of the minority samples this round.

    ``N`` children then add ``N`` times an average positive's weight: with ``N`` balancing the counts, the
    positive weight share starts at 1/2 and follows the positives' weight as boosting moves it.
    """
    return np.full(parents.size, float(weights[minority].mean()))


def balancing_weights(weights, minority, allotment, parents):
    """``"balance"``: the children share ``max(W- - W+, 0)`` evenly, so both classes weigh the same.

    ``W+`` and ``W-`` are the round's ``D_t`` mass of the minority and of the other samples; after this the
    weak learner sees equal class weights every round, whatever boosting did to them.
    """
    positive_mass = float(weights[minority].sum())
    deficit = max(float(weights.sum()) - 2.0 * positive_mass, 0.0)
    return np.full(parents.size, deficit / parents.size)


#: Name -> weighting of the synthetic samples (``synthetic_weight`` of the M2 estimators).
SYNTHETIC_WEIGHTS = {
    "split": split_parent_weights,
    "uniform": uniform_weights,
    "mean_positive": mean_positive_weights,
    "balance": balancing_weights,
}
