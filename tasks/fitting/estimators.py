"""The estimators of ``algorithms.METHODS`` built from a method key and parameters, and fitted with costs.

:func:`build_estimator` is how the pipeline makes an estimator (compare cells, retrain candidates, figures);
:func:`fit_estimator` fits it with the dataset's costs when there are any; :func:`has_class_costs` says
whether a method takes the class cost C- that :mod:`tasks.fitting.cost_selection` selects.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

from algorithms import METHODS
from algorithms.exceptions import CostMatrixIgnoredWarning

__all__ = ["build_estimator", "fit_estimator", "has_class_costs"]


def build_estimator(method: str, params: Mapping | None = None, *, random_state: int | None = None):
    """A fresh, unfitted estimator of ``algorithms.METHODS[method]`` with parameter overrides.

    ``random_state`` is applied when the estimator has such a parameter and ``params`` does not set it.

    Raises
    ------
    ValueError
        If the method is not registered or a parameter is unknown to it.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; registered methods: {sorted(METHODS)}")
    estimator = METHODS[method]()
    accepted = estimator.get_params(deep=False)
    overrides = dict(params or {})
    unknown = sorted(set(overrides) - set(accepted))
    if unknown:
        raise ValueError(f"method {method!r} has no parameter(s) {unknown}; it accepts {sorted(accepted)}")
    if random_state is not None and "random_state" in accepted and "random_state" not in overrides:
        overrides["random_state"] = random_state
    return estimator.set_params(**overrides)


def has_class_costs(estimator) -> bool:
    """Whether the estimator takes the class cost C- as a ``negative_cost`` parameter (AdaCC Table 3)."""
    return "negative_cost" in estimator.get_params(deep=False)


def fit_estimator(estimator, features, target, cost_matrix=None, **fit_params):
    """Fit in place; ``cost_matrix`` (n, 4) ``[C_FP, C_FN, C_TP, C_TN]`` is passed only when given, and so
    are other keyword arguments of ``fit`` (e.g. a tree's pruning ``validation`` set).

    The flows pass a business dataset's costs to every method on purpose, so the
    :class:`~algorithms.exceptions.CostMatrixIgnoredWarning` of the methods that do not use them (AdaBoost,
    RareBoost, SMOTEBoost, WOTBoost) is silenced here; ``cslearn methods list`` says which methods use costs.
    """
    if cost_matrix is None:
        return estimator.fit(features, target, **fit_params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CostMatrixIgnoredWarning)
        return estimator.fit(features, target, cost_matrix=cost_matrix, **fit_params)
