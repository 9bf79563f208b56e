"""The expected-cost objective of csboost for a gradient-boosting library (Höppner et al. 2022).

Per row, in the raw score (logit) ``z_i``, the normalised expected cost ``s_i sigma(z_i)`` (slopes ``s_i =
N v_i r_i / sum_j v_j |r_j|`` of :mod:`algorithms._expected_cost`, scaled by the total weight ``N`` so that
each row's gradient is of the order of one, as for the log-loss) has

    g_i = s_i p_i (1 - p_i),    h_i = s_i p_i (1 - p_i) (1 - 2 p_i).

``h_i`` is negative on half of the rows (``p_i > 1/2`` with ``s_i > 0``, or ``p_i < 1/2`` with ``s_i <
0``) and zero at ``p_i = 1/2``, where every row starts; a Newton leaf value ``-sum g / sum h`` is then
undefined or points uphill. Libraries and the literature replace it by a positive curvature:

- ``"bound"`` (default): ``|s_i| p_i (1 - p_i)``, an upper bound of ``|h_i|`` (``|1 - 2 p| <= 1``): the
  Newton step on this majoriser is a damped gradient step that never overshoots, and it is the log-loss's
  curvature ``p (1 - p)`` weighted by the row's regret;
- ``"absolute"``: ``|h_i|`` (empulse's csboost), floored at ``1e-6 |s_i|`` so that the first round, where
  every ``p_i = 1/2``, can split at all.

Which one is the default was decided on data (``docs/results/strongest-methods.md``).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

__all__ = ["HESSIANS", "expected_cost_gradients"]

#: Smallest ``|h_i| / |s_i|`` of the ``"absolute"`` curvature.
_ABSOLUTE_FLOOR = 1e-6


def _bound_hessian(slopes, proba, spread):
    return np.abs(slopes) * spread


def _absolute_hessian(slopes, proba, spread):
    return np.abs(slopes) * np.maximum(spread * np.abs(1.0 - 2.0 * proba), _ABSOLUTE_FLOOR)


#: Positive curvatures by name (module docstring).
HESSIANS = {"bound": _bound_hessian, "absolute": _absolute_hessian}


def expected_cost_gradients(raw_scores, slopes, hessian="bound"):
    """``(g, h)`` of the expected cost at the raw scores, ``h`` the curvature ``HESSIANS[hessian]``."""
    proba = expit(raw_scores)
    spread = proba * expit(-raw_scores)  # p (1 - p), accurate in both tails
    return slopes * spread, HESSIANS[hessian](slopes, proba, spread)
