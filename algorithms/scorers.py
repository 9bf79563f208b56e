"""Savings and cost as scikit-learn scorers that receive the example-dependent costs by metadata routing.

With ``sklearn.set_config(enable_metadata_routing=True)`` a search routes the ``cost_matrix`` given to its
``fit`` both to the estimator's ``fit`` (when the estimator requests it with
``set_fit_request(cost_matrix=True)``) and to these scorers, which request it by themselves; each fold's
scorer sees the rows of its fold only::

    import sklearn
    from sklearn.model_selection import GridSearchCV
    from algorithms import METHODS
    from algorithms.scorers import savings_scorer

    sklearn.set_config(enable_metadata_routing=True)
    search = GridSearchCV(
        METHODS["csdt"]().set_fit_request(cost_matrix=True),
        {"max_depth": [3, 5, None]},
        scoring=savings_scorer,
    ).fit(X, y, cost_matrix=C)

``savings_scorer`` is the savings of CSDT Eq. 4 (greater is better); ``neg_cost_scorer`` the total cost of
Eq. 2-3, negated so that greater is better (scikit-learn's ``neg_*`` convention). ``COST_SCORERS`` holds both
for multi-metric searches (``scoring=COST_SCORERS, refit="savings"``). A model whose ``predict`` takes a
``cost_matrix`` (Bayes minimum risk, CSDT Section 2.3; or a pipeline whose step requested it for ``predict``)
is scored on the decisions it makes with the fold's own costs, as it would decide in use; any other model on
``predict(X)``.

The scorers also serve as the ``scoring`` of scikit-learn's ``TunedThresholdClassifierCV``, which reads a
scorer's metric, sign and keyword arguments (``_score_func``, ``_sign``, ``_kwargs``, as its own scorers
hold them) to score every candidate threshold; with routing on, each fold's ``cost_matrix`` reaches the
metric::

    from sklearn.model_selection import TunedThresholdClassifierCV

    tuned = TunedThresholdClassifierCV(LogisticRegression(), scoring=savings_scorer).fit(X, y, cost_matrix=C)

``tuned.best_threshold_`` is then the one probability threshold of largest savings (the per-row minimum-risk
thresholds of Bayes minimum risk need no tuning).
"""

from __future__ import annotations

import inspect

from sklearn import get_config
from sklearn.utils.metadata_routing import MetadataRequest, get_routing_for_object

from algorithms.metrics import check_cost_matrix, cost_loss, savings_score

__all__ = ["COST_SCORERS", "CostScorer", "neg_cost_scorer", "savings_scorer"]


def _predict_takes_costs(estimator) -> bool:
    """Whether ``predict`` decides with ``cost_matrix``: its own parameter (Bayes minimum risk), or, under
    metadata routing, a step that requested it (``set_predict_request(cost_matrix=True)`` in a pipeline)."""
    try:
        if "cost_matrix" in inspect.signature(estimator.predict).parameters:
            return True
    except (TypeError, ValueError):
        return False
    if not get_config().get("enable_metadata_routing", False):
        return False
    return bool(get_routing_for_object(estimator).consumes("predict", ["cost_matrix"]))


class CostScorer:
    """A scorer ``scorer(estimator, X, y_true, *, cost_matrix)`` of a cost metric, requesting ``cost_matrix``.

    Parameters
    ----------
    metric : callable
        ``metric(y_true, y_pred, cost_matrix)`` (``algorithms.metrics.savings_score`` or ``cost_loss``).
    sign : {1, -1}, default=1
        ``-1`` for a metric where smaller is better, so that the scorer's greater is better.
    pos_label : object, default=1
        The positive class, passed to the metric.

    Notes
    -----
    The scorer is a metadata consumer (``get_metadata_routing``): its ``score`` requests ``cost_matrix``, so
    a routed search or ``cross_validate`` passes each fold's rows of it. Without routing, pass it yourself:
    ``scorer(estimator, X, y, cost_matrix=C)``.
    """

    def __init__(self, metric, *, sign: int = 1, pos_label=1):
        if sign not in (1, -1):
            raise ValueError(f"sign must be 1 or -1, got {sign!r}")
        self.metric = metric
        self.sign = sign
        self.pos_label = pos_label

    @property
    def _score_func(self):
        """The metric, under the name scikit-learn's ``_CurveScorer.from_scorer`` reads."""
        return self.metric

    @property
    def _sign(self):
        return self.sign

    @property
    def _kwargs(self):
        """Keyword arguments of every metric call (``TunedThresholdClassifierCV`` adds the routed costs)."""
        return {"pos_label": self.pos_label}

    def __call__(self, estimator, X, y_true, cost_matrix=None) -> float:
        """The metric of ``estimator``'s decisions on ``X`` against ``y_true`` with these rows' costs.

        Raises
        ------
        ValueError
            If ``cost_matrix`` is missing (metadata routing is off or the search was fit without it) or is
            not an ``(n_samples, 4)`` matrix of finite, non-negative costs.
        """
        if cost_matrix is None:
            raise ValueError(
                f"{self!r} needs the rows' cost_matrix: enable metadata routing"
                " (sklearn.set_config(enable_metadata_routing=True)) and pass cost_matrix to the search's"
                " fit, or call the scorer with cost_matrix=..."
            )
        costs = check_cost_matrix(cost_matrix, len(y_true))
        if _predict_takes_costs(estimator):
            y_pred = estimator.predict(X, cost_matrix=costs)
        else:
            y_pred = estimator.predict(X)
        return self.sign * float(self.metric(y_true, y_pred, costs, pos_label=self.pos_label))

    def get_metadata_routing(self) -> MetadataRequest:
        """The scorer's request: ``cost_matrix`` for ``score``."""
        request = MetadataRequest(owner=type(self).__name__)
        request.score.add_request(param="cost_matrix", alias=True)
        return request

    def __repr__(self) -> str:
        prefix = "" if self.sign == 1 else "neg "
        return f"CostScorer({prefix}{self.metric.__name__})"


#: Savings (CSDT Eq. 4) of the decisions; greater is better.
savings_scorer = CostScorer(savings_score)

#: Minus the total cost (CSDT Eq. 2-3) of the decisions; greater is better.
neg_cost_scorer = CostScorer(cost_loss, sign=-1)

#: Both, for ``scoring=COST_SCORERS`` (multi-metric; ``refit="savings"``).
COST_SCORERS = {"savings": savings_scorer, "neg_cost": neg_cost_scorer}
