"""Registered versions judged on one retrain's holdout: their savings, and who wins between two of them.

The retrain's best candidate carries its own holdout decisions; every registered version it must compete
with (the champion, or on a tracking server a version registered by a retrain that ran at the same time) is
loaded once (skops allow-list; a cloudpickle file only with ``allow_pickle``), its rows fitted to the columns
it was trained on, and scored by savings (CSDT paper, Eq. 4) on the same rows.

Between two versions the one registered first is the incumbent, whoever judges: the later one wins only
when it beats the earlier by more than the noise (:func:`.promotion.decide_alias`, the paired bootstrap of
:mod:`.significance`). Two retrains judging each other on the same holdout therefore reach the same verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from mlflow import MlflowClient
from mlflow.entities.model_registry import ModelVersion

from algorithms.metrics import savings_score
from tasks.datasets.encoding import align_features
from tasks.fitting.evaluate import predict_labels
from tasks.model_registry.candidates import CandidateResult
from tasks.model_registry.holdout import RetrainData
from tasks.model_registry.logged_models import load_model_version
from tasks.model_registry.significance import SavingsComparison, paired_savings_bootstrap

__all__ = ["Contest", "HoldoutJudge", "ScoredVersion", "beats"]


@dataclass(frozen=True)
class ScoredVersion:
    """A registered version on the holdout: its savings and decisions, or why it could not be scored."""

    version: ModelVersion
    savings: float | None
    decisions: np.ndarray | None
    problem: str = ""

    @property
    def number(self) -> int:
        return int(self.version.version)


@dataclass(frozen=True)
class Contest:
    """The best candidate (registered as version ``mine``) against ``opponent``, from the candidate's side.

    ``comparison`` is the paired bootstrap of the candidate against the opponent (``None`` without
    decisions to resample, or when the opponent could not be scored); ``candidate_wins`` the verdict, with
    the earlier of the two as the incumbent.
    """

    opponent: ScoredVersion
    mine: int
    candidate_wins: bool
    comparison: SavingsComparison | None

    @property
    def opponent_came_later(self) -> bool:
        """The opponent was registered after the candidate (a retrain that ran at the same time)."""
        return self.opponent.number > self.mine


def beats(challenger_savings: float, incumbent_savings: float | None, comparison=None) -> bool:
    """Whether a challenger takes the place of an incumbent (``None``: no scorable incumbent).

    Without a scorable incumbent (none, or one that could not be scored) a challenger wins only with
    positive savings: nothing else shows that it saves anything over the cheaper of flagging every row or
    none. Against a scored incumbent it wins, with the paired bootstrap ``comparison``, when the lower bound
    exceeds the margin; without one, when its savings are strictly higher (a tie keeps the incumbent). So a
    model that loses less money than the champion on the same holdout replaces it (the caller warns that it
    still loses money). A NaN score never wins.
    """
    if math.isnan(challenger_savings):
        return False
    if incumbent_savings is None or math.isnan(incumbent_savings):
        return challenger_savings > 0
    if comparison is not None:
        return comparison.beats
    return challenger_savings > incumbent_savings


class HoldoutJudge:
    """Scores registered versions on ``data``'s holdout (each once) and judges ``best`` against them.

    Parameters
    ----------
    client : MlflowClient
    data : RetrainData
        The holdout.
    best : CandidateResult
        The retrain's best candidate (its savings, and its holdout decisions when it carries them).
    allow_pickle : bool
        Load a cloudpickle version (else it cannot be scored).
    promotion : dict, optional
        The paired bootstrap's settings (``confidence``, ``min_margin``, ``resamples``, ``seed``).
    """

    def __init__(
        self,
        client: MlflowClient,
        data: RetrainData,
        best: CandidateResult,
        *,
        allow_pickle: bool = False,
        promotion: dict | None = None,
    ):
        self._client = client
        self._data = data
        self._best = best
        self._allow_pickle = allow_pickle
        self._promotion = promotion or {}
        self._scored: dict[str, ScoredVersion] = {}

    def score(self, version: ModelVersion) -> ScoredVersion:
        """``version``'s savings and decisions on the holdout, or the error that loading or applying it raised
        (``problem``)."""
        key = str(version.version)
        if key not in self._scored:
            data = self._data
            try:
                model = load_model_version(self._client, version, allow_pickle=self._allow_pickle)
                columns = getattr(model, "feature_names_in_", data.holdout_features.columns)
                decisions = np.asarray(
                    predict_labels(model, align_features(data.holdout_features, columns), data.holdout_costs)
                )
                savings = float(savings_score(data.holdout_target, decisions, data.holdout_costs))
                self._scored[key] = ScoredVersion(version, savings, decisions)
            except (
                Exception
            ) as error:  # named in the decision: an incompatible version cannot block a retrain
                self._scored[key] = ScoredVersion(version, None, None, f"{type(error).__name__}: {error}")
        return self._scored[key]

    def _bootstrap(self, incumbent, challenger) -> SavingsComparison | None:
        if incumbent is None or challenger is None:
            return None
        data = self._data
        return paired_savings_bootstrap(
            data.holdout_target, incumbent, challenger, data.holdout_costs, **self._promotion
        )

    def contest(self, version: ModelVersion, mine: int) -> Contest:
        """The candidate, registered as version ``mine``, against ``version``; the earlier one is the
        incumbent."""
        opponent = self.score(version)
        candidate = self._best
        own_savings_known = not math.isnan(candidate.savings)
        own = candidate.holdout_decisions if own_savings_known else None
        comparison = self._bootstrap(opponent.decisions, own)
        if opponent.number < mine:
            wins = beats(candidate.savings, opponent.savings, comparison)
        else:  # registered after the candidate: it must beat the candidate to take its place
            opponent_savings = math.nan if opponent.savings is None else opponent.savings
            reverse = self._bootstrap(own, opponent.decisions)
            wins = own_savings_known and not beats(opponent_savings, candidate.savings, reverse)
        return Contest(opponent, mine, wins, comparison)
