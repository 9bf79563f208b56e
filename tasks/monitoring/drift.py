"""Feature drift between the champion's training rows (the reference) and a batch.

The population stability index of a feature, the credit-risk standard (Siddiqi, *Credit Risk Scorecards*,
2006; Yurdakul, 2018), sums over bins ``b``

    PSI = sum_b (a_b - e_b) ln(a_b / e_b),

with ``e_b`` and ``a_b`` the reference's and the batch's shares of rows in bin ``b``. Numeric bins are the
reference's deciles (ties merged, open at both ends); a categorical column's bins are its levels, plus one
for levels the reference never had and one for missing values. A share of zero is floored at
:data:`PSI_FLOOR` so that an empty bin counts instead of dividing by zero. Bands: below 0.1 stable, 0.1 to
0.25 a moderate shift, 0.25 and above a significant one (:func:`psi_band`).

Numeric columns also get scipy's two-sample Kolmogorov-Smirnov test (``scipy.stats.ks_2samp``): its
statistic and p-value. With thousands of rows the test rejects even shifts that do not matter, which is why
the threshold that calls a feature drifted is set on the PSI; the p-value is reported beside it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["PSI_FLOOR", "feature_drift", "population_stability_index", "psi_band"]

#: The smallest share a bin counts with (an empty bin would make the log infinite).
PSI_FLOOR = 1e-4

_NEW_LEVEL = "(new level)"
_MISSING = "(missing)"


def psi_band(psi: float) -> str:
    """``stable`` below 0.1, ``moderate`` below 0.25, ``significant`` from 0.25."""
    return "stable" if psi < 0.1 else "moderate" if psi < 0.25 else "significant"


def _shares(counts: np.ndarray) -> np.ndarray:
    total = counts.sum()
    shares = counts / total if total else np.zeros_like(counts, dtype=float)
    return np.maximum(shares, PSI_FLOOR)


def population_stability_index(expected_counts, actual_counts) -> float:
    """PSI of two count vectors over the same bins (module docstring)."""
    expected, actual = _shares(np.asarray(expected_counts, float)), _shares(np.asarray(actual_counts, float))
    return float(np.sum((actual - expected) * np.log(actual / expected)))


def _numeric_counts(reference: np.ndarray, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    edges = np.unique(np.quantile(reference, np.linspace(0, 1, 11)[1:-1]))
    return (
        np.bincount(np.searchsorted(edges, reference, side="right"), minlength=edges.size + 1),
        np.bincount(np.searchsorted(edges, batch, side="right"), minlength=edges.size + 1),
    )


def _categorical_counts(reference: pd.Series, batch: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    known = sorted(reference.dropna().astype("str").unique())

    def bins(values: pd.Series) -> pd.Series:
        text = values.astype("object").where(values.notna(), None)
        return text.map(
            lambda value: _MISSING if value is None else str(value) if str(value) in known else _NEW_LEVEL
        )

    order = [*known, _NEW_LEVEL, _MISSING]
    return (
        bins(reference).value_counts().reindex(order, fill_value=0).to_numpy(),
        bins(batch).value_counts().reindex(order, fill_value=0).to_numpy(),
    )


def feature_drift(reference: pd.DataFrame, batch: pd.DataFrame, numeric: set[str]) -> pd.DataFrame:
    """One row per feature of ``reference``: ``psi``, ``band``, and for numeric columns the KS statistic
    and p-value (``ks_statistic``, ``ks_p_value``), sorted by PSI, largest first."""
    rows = []
    for column in reference.columns:
        if column in numeric:
            ref = pd.to_numeric(reference[column], errors="coerce").dropna().to_numpy(float)
            new = pd.to_numeric(batch[column], errors="coerce").dropna().to_numpy(float)
            psi = population_stability_index(*_numeric_counts(ref, new))
            test = stats.ks_2samp(ref, new) if ref.size and new.size else None
            statistic = float(test.statistic) if test is not None else float("nan")
            p_value = float(test.pvalue) if test is not None else float("nan")
        else:
            psi = population_stability_index(*_categorical_counts(reference[column], batch[column]))
            statistic = p_value = float("nan")
        rows.append(
            {
                "feature": column,
                "psi": psi,
                "band": psi_band(psi),
                "ks_statistic": statistic,
                "ks_p_value": p_value,
            }
        )
    return pd.DataFrame(rows).sort_values("psi", ascending=False, ignore_index=True)
