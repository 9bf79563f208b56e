"""The life cycle shared by cost models: explicit parameters, ``fit`` on the training split, ``cost_matrix``.

A cost model turns the raw monetary columns of a business dataset (income, balance, amount) into the
example-dependent cost matrix ``[C_FP, C_FN, C_TP, C_TN]`` of the CSDT paper (Tables 4-6). Statistics that
enter a formula (class priors, averages) are learnt by :meth:`CostModel.fit` from the training split only
and then applied unchanged to any split, so test rows never leak into the costs.

Parameters are stored by ``__init__`` and nothing else (scikit-learn's convention, so ``get_params``,
``clone`` and ``repr`` work); every check happens in ``fit`` and ``cost_matrix``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

__all__ = ["CostModel", "MonetaryColumn"]

#: How many offending row labels an error message lists.
ROWS_SHOWN = 10


@dataclass(frozen=True)
class MonetaryColumn:
    """A feature column a cost model reads: its name, what it means, and whether it may be negative."""

    name: str
    meaning: str
    allow_negative: bool = False


class CostModel(BaseEstimator, ABC):
    """Base class of the business cost models; subclasses bind one table of the CSDT paper.

    Subclasses define ``__init__`` (storing keyword parameters only), ``_parameter_constraints`` (checked by
    :meth:`fit` through scikit-learn's parameter validation), :meth:`_monetary_columns`,
    :meth:`_fit_statistics` and :meth:`_costs`; they must not override :meth:`fit` or :meth:`cost_matrix`,
    which own the validation.
    """

    #: Key of the model (``tasks.cost_models.COST_MODELS``); set by each subclass.
    name: str = ""
    #: The unit of its costs, as reports write it after an amount ("EUR", or "currency units" when the
    #: source does not say).
    unit: str = "currency units"

    @abstractmethod
    def _monetary_columns(self) -> dict[str, MonetaryColumn]:
        """The feature columns the formulas read, keyed by their role in the formulas."""

    @abstractmethod
    def _fit_statistics(self, columns: dict[str, np.ndarray], target: np.ndarray) -> None:
        """Set the fitted statistics (attributes ending in ``_``) from the training columns and labels."""

    @abstractmethod
    def _costs(self, columns: dict[str, np.ndarray]) -> np.ndarray:
        """The ``(n, 4)`` cost matrix ``[C_FP, C_FN, C_TP, C_TN]`` of the given columns."""

    def fit(self, features: pd.DataFrame, target) -> CostModel:
        """Learn the statistics that enter the cost formulas from the training split.

        Parameters
        ----------
        features : pandas.DataFrame
            Training features holding the model's monetary columns under their source names.
        target : array-like of shape (n_examples,)
            Training labels, 1 for the positive (minority) class and 0 otherwise.

        Returns
        -------
        self

        Raises
        ------
        ValueError
            If a monetary column is missing, non-numeric, NaN, infinite or negative where that is
            meaningless, or
            if ``target`` is not a 0/1 vector as long as ``features``.
        """
        self._validate_params()  # scikit-learn checks ``_parameter_constraints``
        columns = self._read_columns(features)
        target = np.asarray(target)
        if target.ndim != 1 or target.shape[0] != len(features):
            raise ValueError(
                f"target must be a 1-D array with one label per row of features ({len(features)} rows); "
                f"got shape {target.shape}"
            )
        if target.shape[0] == 0:
            raise ValueError("cannot fit a cost model on an empty training split (0 rows)")
        invalid = ~np.isin(target, (0, 1))
        if invalid.any():
            rows = np.flatnonzero(invalid)
            raise ValueError(
                f"target must hold 0/1 labels (1 = positive class); found "
                f"{np.unique(target[invalid])[:5].tolist()} at positions {rows[:ROWS_SHOWN].tolist()}"
            )
        self._fit_statistics(columns, target.astype(float))
        self.n_training_examples_ = int(target.shape[0])
        return self

    def cost_matrix(self, features: pd.DataFrame) -> np.ndarray:
        """The example-dependent cost matrix of ``features`` with the statistics learnt by :meth:`fit`.

        Parameters
        ----------
        features : pandas.DataFrame
            Any split (training, validation, test) holding the model's monetary columns.

        Returns
        -------
        numpy.ndarray of shape (n_examples, 4)
            Columns ``[C_FP, C_FN, C_TP, C_TN]`` in money units of the monetary columns.
        """
        check_is_fitted(self, "n_training_examples_")
        return self._costs(self._read_columns(features))

    def params(self) -> dict:
        """Every parameter and fitted statistic, flat and JSON-friendly, for experiment tracking."""
        logged = {"cost_model": self.name, **self.get_params()}
        for attribute, value in sorted(vars(self).items()):
            if attribute.endswith("_") and not attribute.startswith("_"):
                logged[attribute.rstrip("_")] = value.item() if isinstance(value, np.generic) else value
        return logged

    def _read_columns(self, features: pd.DataFrame) -> dict[str, np.ndarray]:
        if not isinstance(features, pd.DataFrame):
            raise ValueError(
                f"{type(self).__name__} needs a pandas DataFrame of features; got {type(features).__name__}"
            )
        columns = {}
        for role, column in self._monetary_columns().items():
            if column.name not in features.columns:
                raise ValueError(
                    f"features lack column {column.name!r} ({column.meaning}) that the {self.name} "
                    f"cost model needs; columns present: {list(features.columns)[:20]}"
                )
            series = features[column.name]
            if not pd.api.types.is_numeric_dtype(series) or pd.api.types.is_bool_dtype(series):
                raise ValueError(
                    f"column {column.name!r} ({column.meaning}) must be numeric; got dtype {series.dtype}"
                )
            values = series.to_numpy(dtype=float, na_value=np.nan)
            _reject_rows(
                features.index, ~np.isfinite(values), f"column {column.name!r} has NaN or infinite values"
            )
            if not column.allow_negative:
                _reject_rows(
                    features.index,
                    values < 0,
                    f"column {column.name!r} ({column.meaning}) has negative values; expected >= 0",
                )
            columns[role] = values
        return columns


def _reject_rows(index: pd.Index, mask: np.ndarray, problem: str) -> None:
    if mask.any():
        labels = index[np.flatnonzero(mask)[:ROWS_SHOWN]].tolist()
        more = " ..." if mask.sum() > ROWS_SHOWN else ""
        raise ValueError(f"{problem} at {int(mask.sum())} row(s): {labels}{more}")
