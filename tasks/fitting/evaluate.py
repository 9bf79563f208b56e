"""Scoring a fitted model on a split: decisions (with each row's costs where the model takes them), every
metric, staged (per ensemble size) scoring from one fit, boosting traces.

Metrics come from ``algorithms.metrics.classification_report_dict``. Boosting models are scored at every
requested ensemble size T from the staged predictions of ONE fit with ``max(T)`` rounds: a model with T
rounds is the prefix of a longer one. A model that stopped early (e.g. AdaBoost at weighted error 0 or
>= 1/2) is its own prefix for every larger T, so those sizes reuse its last stage. The splits themselves are
:mod:`tasks.fitting.splits`.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

import numpy as np

from algorithms.metrics import classification_report_dict

__all__ = [
    "decision_scores",
    "evaluate_predictions",
    "evaluate_staged",
    "predict_labels",
    "predict_uses_costs",
    "supports_staged",
    "trace_curves",
]


def supports_staged(estimator) -> bool:
    """Whether an estimator can be scored at several ensemble sizes from one fit.

    It needs an ``n_estimators`` parameter and ``staged_predict`` or ``staged_decision_function``.
    """
    has_stages = hasattr(estimator, "staged_predict") or hasattr(estimator, "staged_decision_function")
    return has_stages and "n_estimators" in estimator.get_params(deep=False)


def decision_scores(model, features) -> np.ndarray:
    """Continuous score, larger = more positive: ``decision_function`` if offered, else P(positive)."""
    if hasattr(model, "decision_function"):
        scores = np.asarray(model.decision_function(features), dtype=float)
        if scores.ndim == 1:
            return scores
    return np.asarray(model.predict_proba(features), dtype=float)[:, -1]


def positive_probability(model, features) -> np.ndarray | None:
    """``P(positive)`` from ``predict_proba`` (the column of class 1), or ``None`` for a model without it."""
    if not hasattr(model, "predict_proba"):
        return None
    column = list(np.asarray(model.classes_)).index(1) if 1 in model.classes_ else -1
    return np.asarray(model.predict_proba(features), dtype=float)[:, column]


def predict_uses_costs(model, method: str = "predict") -> bool:
    """Whether ``model.<method>`` takes the rows' costs as a ``cost_matrix`` argument.

    True for Bayes minimum risk and for the boosting methods that decide by each row's own costs (AdaMEC,
    AdaMEC-Cal, CGAda-Cal); ``method="staged_predict"`` asks the same of the staged predictions.
    """
    try:
        return "cost_matrix" in inspect.signature(getattr(model, method)).parameters
    except (AttributeError, TypeError, ValueError):
        return False


def predict_labels(model, features, cost_matrix=None) -> np.ndarray:
    """Predicted labels; the rows' own costs reach ``predict`` when the model decides by them.

    Bayes minimum risk models (CSDT paper, Section 2.3) label row ``i`` positive iff
    ``C_TP,i p_i + C_FP,i (1 - p_i) < C_TN,i (1 - p_i) + C_FN,i p_i``: they must see the evaluated rows'
    ``cost_matrix`` ``[C_FP, C_FN, C_TP, C_TN]`` at predict time, not the class-level costs learned at fit.
    Every other model predicts from ``features`` alone.
    """
    if cost_matrix is not None and predict_uses_costs(model):
        return np.asarray(model.predict(features, cost_matrix=cost_matrix))
    return np.asarray(model.predict(features))


def evaluate_predictions(
    target, predicted, scores=None, cost_matrix=None, probabilities=None
) -> dict[str, float]:
    """Every metric of ``algorithms.metrics.METRICS`` (``docs/algorithms.md`` section 8) for one set of
    predictions (positive label 1); ``probabilities`` (``P(positive)``) with a ``cost_matrix`` add the
    expected cost and expected savings."""
    return classification_report_dict(
        target, predicted, scores, cost_matrix, y_proba=probabilities, pos_label=1
    )


def _stages(model, features, cost_matrix=None):
    """Yield (predicted labels, scores) after every boosting round; the rows' costs reach
    ``staged_predict`` when it decides by them."""
    classes = np.asarray(model.classes_)
    score_stages = (
        model.staged_decision_function(features) if hasattr(model, "staged_decision_function") else None
    )
    if not hasattr(model, "staged_predict"):
        label_stages = None
    elif cost_matrix is not None and predict_uses_costs(model, "staged_predict"):
        label_stages = model.staged_predict(features, cost_matrix=cost_matrix)
    else:
        label_stages = model.staged_predict(features)
    if label_stages is None:
        for scores in score_stages:
            scores = np.asarray(scores, dtype=float)
            yield classes[(scores > 0).astype(int)], scores
        return
    if score_stages is None:
        for labels in label_stages:
            yield np.asarray(labels), None
        return
    for labels, scores in zip(label_stages, score_stages, strict=False):
        yield np.asarray(labels), np.asarray(scores, dtype=float)


def evaluate_staged(
    model, features, target, n_estimators: Sequence[int], cost_matrix=None
) -> dict[int, dict]:
    """Metrics of a fitted boosting model at every ensemble size T, from one pass over its stages.

    Parameters
    ----------
    model : fitted estimator with ``staged_predict`` and/or ``staged_decision_function``
        Fit with at least ``max(n_estimators)`` rounds requested.
    features, target : arrays
        The evaluation rows.
    n_estimators : sequence of int
        Ensemble sizes T to score (AdaCC paper: 25, 50, 100, 200).
    cost_matrix : array of shape (n_samples, 4), optional
        Enables cost and savings; models whose ``staged_predict`` takes the rows' costs (AdaMEC) decide
        with them.

    Returns
    -------
    dict
        ``{T: metrics}``; each metrics dict also holds ``rounds_used``, the number of rounds of the prefix
        that
        was scored (smaller than T when the model stopped early).
    """
    wanted = sorted(set(int(size) for size in n_estimators))
    results: dict[int, dict] = {}
    last = None
    rounds = 0
    for rounds, stage in enumerate(_stages(model, features, cost_matrix), start=1):
        last = stage
        if rounds in wanted:
            labels, scores = stage
            results[rounds] = {
                **evaluate_predictions(target, labels, scores, cost_matrix),
                "rounds_used": rounds,
            }
        if rounds >= wanted[-1]:
            break
    if last is None:
        raise ValueError("the model yielded no stages; was it fitted?")
    for size in wanted:
        if size not in results:
            labels, scores = last
            results[size] = {
                **evaluate_predictions(target, labels, scores, cost_matrix),
                "rounds_used": rounds,
            }
    return results


def trace_curves(model) -> dict[str, list[float]]:
    """The per-round training trace of a boosting model as ``{name: values per round}``.

    A boosting model's ``trace_`` maps each name to one value per round (``BaseBoostingClassifier``); a model
    without a trace gives an empty dict.
    """
    trace = getattr(model, "trace_", None) or {}
    return {str(name): np.asarray(values, dtype=float).tolist() for name, values in trace.items()}
