"""Warnings and errors the estimators of cslearn raise on purpose."""

from __future__ import annotations

__all__ = ["CostMatrixIgnoredWarning"]


class CostMatrixIgnoredWarning(UserWarning):
    """``fit`` got a ``cost_matrix`` that this method does not use (AdaBoost, RareBoost, the M2 methods).

    The matrix is validated and then ignored: the fitted model is the one ``fit`` without it gives. Raised
    once per ``fit``. Filter it (``warnings.simplefilter("ignore", CostMatrixIgnoredWarning)``) where costs
    are passed to every method knowingly, as the comparison flows do.
    """
