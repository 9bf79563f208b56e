"""Is the challenger better than the champion by more than the noise? A paired bootstrap on savings.

Both models decide every row of the same holdout, so their savings (CSDT paper, Eq. 4) differ by

    delta = savings(challenger) - savings(champion) = (Cost(champion) - Cost(challenger)) / Cost_l,

with ``Cost = sum_i cost_i`` of each model's decisions (Eq. 2-3) and ``Cost_l`` the cost of the cheaper
trivial classifier on those rows. :func:`paired_savings_bootstrap` resamples the holdout's rows with
replacement (the same rows for both models: the pairs stay together) and recomputes ``delta`` on each
resample, ``Cost_l`` included, with ``scipy.stats.bootstrap`` (percentile method, one-sided). The challenger
is better by more than the noise when the lower bound of the one-sided interval at ``confidence`` exceeds
``min_margin`` (0 by default). ``p_value`` is the share of resamples in which the challenger does not gain
(``delta* <= 0``), the bootstrap's one-sided p-value.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats

__all__ = ["SavingsComparison", "paired_savings_bootstrap", "per_row_costs"]


@dataclass(frozen=True)
class SavingsComparison:
    """The paired bootstrap of a challenger against the champion on one holdout.

    Attributes
    ----------
    margin : float
        Observed savings difference, challenger minus champion.
    low : float
        Lower bound of the one-sided interval of the difference at ``confidence``.
    confidence : float
    p_value : float
        Share of resamples with no gain for the challenger.
    resamples : int
    beats : bool
        ``low > min_margin``: better by more than the noise.
    min_margin : float
    """

    margin: float
    low: float
    confidence: float
    p_value: float
    resamples: int
    beats: bool
    min_margin: float

    def as_dict(self) -> dict:
        return asdict(self)

    def sentence(self) -> str:
        """The verdict in words, for the version description and the log."""
        relation = "more than" if self.beats else "not more than"
        return (
            f"savings difference {self.margin:+.4f}, {self.confidence:.0%} lower bound {self.low:+.4f}"
            f" (paired bootstrap, {self.resamples:,} resamples; p = {self.p_value:.3f}): {relation} the"
            f" noise{f' and a margin of {self.min_margin:g}' if self.min_margin else ''}"
        )


def per_row_costs(target, decisions, cost_matrix) -> np.ndarray:
    """Each row's cost of a set of decisions (the terms of CSDT Eq. 2-3), positives coded 1."""
    target = np.asarray(target) == 1
    decisions = np.asarray(decisions) == 1
    c_fp, c_fn, c_tp, c_tn = np.asarray(cost_matrix, dtype=float).T
    return np.where(target, np.where(decisions, c_tp, c_fn), np.where(decisions, c_fp, c_tn))


def paired_savings_bootstrap(
    target,
    champion_decisions,
    challenger_decisions,
    cost_matrix,
    *,
    confidence: float = 0.95,
    resamples: int = 1000,
    min_margin: float = 0.0,
    seed: int = 0,
) -> SavingsComparison:
    """Compare two models' savings on the same rows by a paired bootstrap (module docstring).

    Raises
    ------
    ValueError
        When the rows cost nothing under either trivial classifier (savings are undefined).
    """
    champion = per_row_costs(target, champion_decisions, cost_matrix)
    challenger = per_row_costs(target, challenger_decisions, cost_matrix)
    all_negative = per_row_costs(target, np.zeros_like(champion), cost_matrix)
    all_positive = per_row_costs(target, np.ones_like(champion), cost_matrix)

    def difference(saved, negative, positive, axis=-1):
        base = np.minimum(negative.sum(axis=axis), positive.sum(axis=axis))
        with np.errstate(divide="ignore", invalid="ignore"):
            return saved.sum(axis=axis) / base

    saved = champion - challenger  # what the challenger saves on each row (negative: what it loses)
    observed = float(difference(saved, all_negative, all_positive))
    if not np.isfinite(observed):
        raise ValueError("the holdout costs nothing under either trivial classifier: savings are undefined")
    result = stats.bootstrap(
        (saved, all_negative, all_positive),
        difference,
        paired=True,
        vectorized=True,
        n_resamples=resamples,
        batch=max(1, min(resamples, 20_000_000 // max(champion.size, 1))),
        confidence_level=confidence,
        alternative="greater",
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    distribution = result.bootstrap_distribution
    low = float(result.confidence_interval.low)
    return SavingsComparison(
        margin=observed,
        low=low,
        confidence=confidence,
        p_value=float(np.mean(~(distribution > 0))),
        resamples=resamples,
        beats=bool(low > min_margin),
        min_margin=min_margin,
    )
