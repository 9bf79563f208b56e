"""The estimators the pipeline fits, by key: ``algorithms.METHODS`` as flows and the command line reach it.

Flows never import ``algorithms``; they name methods by key, validate the keys through
:mod:`tasks.configuration` and build estimators through :func:`tasks.train.build_estimator`.
"""

from __future__ import annotations

from algorithms import METHODS
from schemas.flow_params import CompareParams

__all__ = ["METHODS", "compared_methods", "method_parameters"]


def method_parameters() -> dict[str, list[str]]:
    """Each registered method's constructor parameters (``get_params(deep=False)``), by key."""
    return {key: sorted(METHODS[key]().get_params(deep=False)) for key in METHODS}


def compared_methods(params: CompareParams) -> list[str]:
    """The methods of a comparison: those ``params`` names, or every registered one (sorted by key)."""
    return list(params.methods) if params.methods is not None else sorted(METHODS)
