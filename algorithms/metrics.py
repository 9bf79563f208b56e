"""Evaluation metrics of the three papers: imbalance metrics, example-dependent cost and savings.

The imbalance metrics are those of the AdaCC paper (Table 5) and the WOTBoost paper: TPR, TNR, precision,
balanced accuracy, F1, G-mean, AUC and OPM (the mean of AUC, balanced accuracy, G-mean, F1, TPR and TNR).
Cost and savings follow the CSDT paper (Eq. 2-4) with the cost matrix layout used throughout cslearn:
columns ``[C_FP, C_FN, C_TP, C_TN]``, one row per example. Their probabilistic forms, the expected cost and
expected savings of positive-class probabilities (Höppner et al. 2022, EJOR), score a probability
without choosing a threshold: the loss cslogit and csboost minimise.

Every metric takes ``y_true`` and ``y_pred`` coded with the positive (minority) class as ``pos_label``
(default 1). The rates are ratios of one confusion count (:func:`confusion_counts`), defined as
scikit-learn and imbalanced-learn define them (tested against them); scikit-learn computes the AUC.

:data:`METRICS` is the one table of metrics that the pipeline computes and shows: each metric's function, its
inputs (labels, scores, costs), label, direction and format; :data:`VIEWS` says which table shows which. A new
metric is a function here, a row of :data:`METRICS` and, where it should be shown, a name in :data:`VIEWS`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from sklearn.metrics import roc_auc_score

from algorithms._validation import COST_MAGNITUDE_LIMIT

__all__ = [
    "COST_COLUMNS",
    "METRICS",
    "VIEWS",
    "Metric",
    "accuracy",
    "auc",
    "balanced_accuracy",
    "check_cost_matrix",
    "classification_report_dict",
    "computed_metrics",
    "confusion_counts",
    "cost_loss",
    "expected_cost_loss",
    "expected_savings_score",
    "f1",
    "g_mean",
    "lower_is_better",
    "metric_label",
    "opm",
    "precision",
    "savings_score",
    "tnr",
    "tpr",
]

#: Column order of every example-dependent cost matrix in cslearn (CSDT paper, Table 2).
COST_COLUMNS = ("C_FP", "C_FN", "C_TP", "C_TN")


def _binary(y_true, y_pred, pos_label):
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true has shape {y_true.shape} but y_pred has shape {y_pred.shape}")
    return (y_true == pos_label).astype(int), (y_pred == pos_label).astype(int)


def confusion_counts(y_true, y_pred, *, pos_label=1):
    """``(TP, FP, TN, FN)``: how many examples fall in each cell of the binary confusion matrix.

    The rates below are ratios of these counts, as scikit-learn and imbalanced-learn define them (their
    ``zero_division`` of 0 included: ``tests/algorithms/test_metrics.py`` checks every rate against
    ``recall_score``, ``precision_score``, ``f1_score``, ``balanced_accuracy_score``, imbalanced-learn's
    ``specificity_score`` and ``geometric_mean_score``); counting once costs microseconds where each of
    those functions validates its input again.
    """
    t, p = _binary(y_true, y_pred, pos_label)
    true_positive = int(np.count_nonzero(t & p))
    positives, predicted = int(np.count_nonzero(t)), int(np.count_nonzero(p))
    false_positive = predicted - true_positive
    false_negative = positives - true_positive
    true_negative = t.size - positives - false_positive
    return true_positive, false_positive, true_negative, false_negative


def _ratio(numerator, denominator):
    """``numerator / denominator``, 0 when the denominator is 0 (scikit-learn's ``zero_division=0``)."""
    return numerator / denominator if denominator else 0.0


def tpr(y_true, y_pred, *, pos_label=1):
    """True positive rate (recall, sensitivity): TP / (TP + FN) (AdaCC Table 5); 0 without positives."""
    true_positive, _, _, false_negative = confusion_counts(y_true, y_pred, pos_label=pos_label)
    return float(_ratio(true_positive, true_positive + false_negative))


def tnr(y_true, y_pred, *, pos_label=1):
    """True negative rate (specificity): TN / (TN + FP) (AdaCC Table 5); 0 without negatives."""
    _, false_positive, true_negative, _ = confusion_counts(y_true, y_pred, pos_label=pos_label)
    return float(_ratio(true_negative, true_negative + false_positive))


def precision(y_true, y_pred, *, pos_label=1):
    """Precision TP / (TP + FP); 0 when nothing is predicted positive."""
    true_positive, false_positive, _, _ = confusion_counts(y_true, y_pred, pos_label=pos_label)
    return float(_ratio(true_positive, true_positive + false_positive))


def balanced_accuracy(y_true, y_pred, *, pos_label=1):
    """Balanced accuracy (TPR + TNR) / 2 (AdaCC Table 5): the mean recall of the classes present in
    ``y_true`` (scikit-learn's ``balanced_accuracy_score``), so one class's rate when the other is absent."""
    true_positive, false_positive, true_negative, false_negative = confusion_counts(
        y_true, y_pred, pos_label=pos_label
    )
    recalls = [
        hits / (hits + misses)
        for hits, misses in ((true_negative, false_positive), (true_positive, false_negative))
        if hits + misses
    ]
    return float(np.mean(recalls))


def f1(y_true, y_pred, *, pos_label=1):
    """F1 score of the positive class, the harmonic mean of precision and TPR: 2 TP / (2 TP + FP + FN)."""
    true_positive, false_positive, _, false_negative = confusion_counts(y_true, y_pred, pos_label=pos_label)
    return float(_ratio(2 * true_positive, 2 * true_positive + false_positive + false_negative))


def g_mean(y_true, y_pred, *, pos_label=1):
    """Geometric mean sqrt(TPR * TNR) (AdaCC Table 5, WOTBoost Section 4)."""
    return float(np.sqrt(tpr(y_true, y_pred, pos_label=pos_label) * tnr(y_true, y_pred, pos_label=pos_label)))


def accuracy(y_true, y_pred):
    """Fraction of correct predictions."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true has shape {y_true.shape} but y_pred has shape {y_pred.shape}")
    return float(np.mean(y_true == y_pred))


def auc(y_true, y_score, *, pos_label=1):
    """Area under the ROC curve of a continuous score (larger = more positive).

    Returns NaN when ``y_true`` holds a single class, where the AUC is undefined.
    """
    t = (np.asarray(y_true) == pos_label).astype(int)
    if t.min() == t.max():
        return float("nan")
    return float(roc_auc_score(t, np.asarray(y_score, dtype=float)))


def opm(y_true, y_pred, y_score, *, pos_label=1):
    """Overall performance measure (AdaCC Table 5): the mean of AUC, BalAcc, G-mean, F1, TPR and TNR."""
    parts = (
        auc(y_true, y_score, pos_label=pos_label),
        balanced_accuracy(y_true, y_pred, pos_label=pos_label),
        g_mean(y_true, y_pred, pos_label=pos_label),
        f1(y_true, y_pred, pos_label=pos_label),
        tpr(y_true, y_pred, pos_label=pos_label),
        tnr(y_true, y_pred, pos_label=pos_label),
    )
    return float(np.mean(parts))


def _costs_by_name(cost_matrix):
    """The values of ``cost_matrix`` with its columns in :data:`COST_COLUMNS` order: a table whose columns
    are named (a pandas or polars data frame) is read by name; an array, or a frame whose columns are the
    positions 0-3, by position.

    Raises
    ------
    ValueError
        If the columns carry other names than the four cost names.
    """
    columns = getattr(cost_matrix, "columns", None)
    if columns is None:
        return cost_matrix
    if list(columns) == list(range(len(columns))):
        return np.asarray(cost_matrix)
    names = [str(name) for name in columns]
    if sorted(names) != sorted(COST_COLUMNS):
        raise ValueError(
            f"cost_matrix has the columns {names[:10]}; name its columns "
            f"{', '.join(COST_COLUMNS)} (they are read by name, in any order), or pass an array whose "
            "columns are in that order"
        )
    positions = [names.index(name) for name in COST_COLUMNS]
    return np.asarray(cost_matrix)[:, positions]


def _as_numbers(cost_matrix):
    """``cost_matrix`` as a float array, or an error naming what is not a number and where."""
    try:
        return np.asarray(cost_matrix, dtype=float)
    except (TypeError, ValueError):
        values = np.asarray(cost_matrix, dtype=object)
    if values.ndim != 2 or values.shape[1] != len(COST_COLUMNS):
        got = f"shape {values.shape}"
        if values.ndim == 0:
            got = f"the {type(cost_matrix).__name__} {cost_matrix!r}"[:80]
        raise ValueError(
            f"cost_matrix must be a table of numbers of shape (n_samples, 4) with columns "
            f"{list(COST_COLUMNS)}; got {got}"
        )
    for (row, column), value in np.ndenumerate(values):
        try:
            float(value)
        except (TypeError, ValueError):
            raise ValueError(
                f"cost_matrix holds {value!r} in column {COST_COLUMNS[column]} at row {row}, which is not a "
                "number; every cost is a number"
            ) from None
    return values.astype(float)


def _rows_shown(rows):
    return f"{rows[:10].tolist()}" + (" ..." if rows.size > 10 else "")


def check_cost_matrix(cost_matrix, n_samples):
    """Validate an example-dependent cost matrix and return it as a float array of shape (n_samples, 4).

    The one check every estimator, metric and scorer of cslearn applies to a cost matrix.

    Parameters
    ----------
    cost_matrix : array-like of shape (n_samples, 4)
        Columns ``[C_FP, C_FN, C_TP, C_TN]`` (CSDT paper, Table 2). A data frame whose columns are named
        ``C_FP``, ``C_FN``, ``C_TP``, ``C_TN`` is read by name, in whatever order they come.
    n_samples : int
        Number of examples the matrix must describe.

    Raises
    ------
    ValueError
        If the columns are named otherwise, a value is not a number, the shape is wrong, or any entry is NaN,
        infinite, negative or larger than :data:`~algorithms._validation.COST_MAGNITUDE_LIMIT`; the message
        names the columns and the first offending rows.
    """
    costs = _as_numbers(_costs_by_name(cost_matrix))
    if costs.ndim != 2 or costs.shape[1] != 4:
        raise ValueError(
            f"cost_matrix must have shape (n_samples, 4) with columns {list(COST_COLUMNS)}; "
            f"got shape {costs.shape}"
        )
    if costs.shape[0] != n_samples:
        raise ValueError(f"cost_matrix has {costs.shape[0]} rows but the data has {n_samples} samples")
    for problem, mask in (("NaN or infinite", ~np.isfinite(costs)), ("negative", costs < 0)):
        if mask.any():
            rows, cols = np.nonzero(mask)
            names = sorted({COST_COLUMNS[c] for c in cols})
            raise ValueError(
                f"cost_matrix has {problem} entries in column(s) {names} at rows {_rows_shown(rows)}"
            )
    too_large = costs > COST_MAGNITUDE_LIMIT
    if too_large.any():
        rows, cols = np.nonzero(too_large)
        names = sorted({COST_COLUMNS[c] for c in cols})
        example = f"{costs[rows[0], cols[0]]:.6g} at row {rows[0]}"
        raise ValueError(
            f"cost_matrix has costs larger than {COST_MAGNITUDE_LIMIT:.3g} in column(s) {names} at rows "
            f"{_rows_shown(np.unique(rows))} (e.g. {example}): costs are summed and multiplied over the "
            "rows, which overflows beyond that; express the costs in a larger unit (e.g. thousands) so that "
            f"every cost is at most {COST_MAGNITUDE_LIMIT:.3g}"
        )
    return costs


def cost_loss(y_true, y_pred, cost_matrix, *, pos_label=1):
    """Total example-dependent cost of a set of predictions (CSDT paper, Eq. 2-3).

    ``Cost = sum_i y_i (c_i C_TP_i + (1 - c_i) C_FN_i) + (1 - y_i) (c_i C_FP_i + (1 - c_i) C_TN_i)``,
    where ``c_i`` is the predicted and ``y_i`` the true label, both coded 1 for the positive class.
    """
    t, p = _binary(y_true, y_pred, pos_label)
    costs = check_cost_matrix(cost_matrix, t.shape[0])
    c_fp, c_fn, c_tp, c_tn = costs.T
    per_example = t * (p * c_tp + (1 - p) * c_fn) + (1 - t) * (p * c_fp + (1 - p) * c_tn)
    return float(per_example.sum())


def savings_score(y_true, y_pred, cost_matrix, *, pos_label=1):
    """Savings of a classifier over the cheaper of the two trivial classifiers (CSDT paper, Eq. 4).

    ``Savings = (Cost_l - Cost(f)) / Cost_l`` with ``Cost_l = min(Cost(all negative), Cost(all positive))``.
    It is 1 for a classifier of zero cost, 0 for one as costly as the best trivial classifier, and negative
    when worse. Returns NaN when ``Cost_l`` is zero (no trivial classifier incurs any cost).
    """
    t = (np.asarray(y_true) == pos_label).astype(int)
    costs = check_cost_matrix(cost_matrix, t.shape[0])
    cost_all_negative = cost_loss(t, np.zeros_like(t), costs)
    cost_all_positive = cost_loss(t, np.ones_like(t), costs)
    cost_base = min(cost_all_negative, cost_all_positive)
    if cost_base == 0:
        return float("nan")
    return float((cost_base - cost_loss(y_true, y_pred, costs, pos_label=pos_label)) / cost_base)


def _probability_of_positive(y_proba, n_samples):
    proba = np.asarray(y_proba, dtype=float)
    if proba.ndim == 2 and proba.shape[1] == 2:
        proba = proba[:, 1]
    if proba.shape != (n_samples,):
        raise ValueError(
            f"y_proba must hold one positive-class probability per row, shape ({n_samples},) or "
            f"({n_samples}, 2); got shape {np.asarray(y_proba).shape}"
        )
    outside = ~((proba >= 0) & (proba <= 1))
    if outside.any():
        raise ValueError(
            f"y_proba must lie in [0, 1]; rows {np.flatnonzero(outside)[:10].tolist()} do not"
            + (" ..." if outside.sum() > 10 else "")
        )
    return proba


def expected_cost_loss(y_true, y_proba, cost_matrix, *, pos_label=1):
    """Total expected cost of positive-class probabilities (Höppner et al. 2022).

    ``sum_i y_i (p_i C_TP_i + (1 - p_i) C_FN_i) + (1 - y_i) (p_i C_FP_i + (1 - p_i) C_TN_i)``: the cost of
    Eq. 2-3 of the CSDT paper with the decision ``c_i`` replaced by the probability ``p_i``. For 0/1
    "probabilities" it equals :func:`cost_loss`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples,) or (n_samples, 2)
        ``P(positive)``, or ``predict_proba`` output whose second column is the positive class.
    cost_matrix : array-like of shape (n_samples, 4)
    pos_label : default=1
    """
    t = (np.asarray(y_true) == pos_label).astype(float)
    proba = _probability_of_positive(y_proba, t.shape[0])
    c_fp, c_fn, c_tp, c_tn = check_cost_matrix(cost_matrix, t.shape[0]).T
    per_example = t * (proba * c_tp + (1 - proba) * c_fn) + (1 - t) * (proba * c_fp + (1 - proba) * c_tn)
    return float(per_example.sum())


def expected_savings_score(y_true, y_proba, cost_matrix, *, pos_label=1):
    """Expected savings of probabilities over the cheaper trivial classifier (Höppner et al. 2022).

    ``(Cost_l - ExpectedCost(p)) / Cost_l`` with ``Cost_l`` of :func:`savings_score` (CSDT Eq. 4) and the
    expected cost of :func:`expected_cost_loss`. NaN when ``Cost_l`` is zero.
    """
    t = (np.asarray(y_true) == pos_label).astype(int)
    costs = check_cost_matrix(cost_matrix, t.shape[0])
    cost_base = min(cost_loss(t, np.zeros_like(t), costs), cost_loss(t, np.ones_like(t), costs))
    if cost_base == 0:
        return float("nan")
    return float((cost_base - expected_cost_loss(t, y_proba, costs)) / cost_base)


@dataclass(frozen=True)
class Metric:
    """One metric (or measure of a fit) as every consumer reads it: the cell, tables, statistics, promotion.

    Attributes
    ----------
    name : str
        The key everywhere: a cell's row, an MLflow metric (``mean/<name>``), a summary column
        (``<name>_mean``).
    function : callable or None
        ``function(y_true, **inputs, pos_label=...)``; ``None`` for a measure the pipeline records itself
        (the fit time, a tree's size).
    inputs : tuple of str
        What it is computed from besides ``y_true``, named as the function's arguments: ``y_pred`` (the
        predicted labels), ``y_score`` (a continuous score, larger = more positive), ``y_proba`` (the
        probability of the positive class), ``cost_matrix`` (each row's ``[C_FP, C_FN, C_TP, C_TN]``). A
        metric is computed wherever all its inputs are known.
    label : str
        How tables, figures and sentences name it.
    higher_is_better : bool
        Its direction (ranks, best marks, "significantly better").
    format : str
        Its format spec in tables (``".3f"`` for rates, ``",.0f"`` for money).
    """

    name: str
    function: Callable | None
    inputs: tuple[str, ...]
    label: str
    higher_is_better: bool = True
    format: str = ".3f"

    def compute(self, y_true, available: Mapping, *, pos_label=1) -> float:
        """The metric from ``available`` (input name -> array), which must hold its ``inputs``."""
        arguments = {name: available[name] for name in self.inputs}
        if "pos_label" in inspect.signature(self.function).parameters:
            arguments["pos_label"] = pos_label
        return self.function(y_true, **arguments)


#: Every metric and measure, in the order tables show them (the AdaCC paper's Table 5 metrics, accuracy, the
#: CSDT paper's cost and savings (Eq. 2-4), then the measures of a fit).
METRICS: dict[str, Metric] = {
    metric.name: metric
    for metric in (
        Metric("opm", opm, ("y_pred", "y_score"), "OPM"),
        Metric("auc", auc, ("y_score",), "AUC"),
        Metric("balanced_accuracy", balanced_accuracy, ("y_pred",), "balanced accuracy"),
        Metric("g_mean", g_mean, ("y_pred",), "G-mean"),
        Metric("f1", f1, ("y_pred",), "F1"),
        Metric("tpr", tpr, ("y_pred",), "TPR (recall)"),
        Metric("tnr", tnr, ("y_pred",), "TNR (specificity)"),
        Metric("precision", precision, ("y_pred",), "precision"),
        Metric("accuracy", accuracy, ("y_pred",), "accuracy"),
        Metric(
            "cost", cost_loss, ("y_pred", "cost_matrix"), "total cost", higher_is_better=False, format=",.0f"
        ),
        Metric("savings", savings_score, ("y_pred", "cost_matrix"), "savings"),
        Metric(
            "expected_cost",
            expected_cost_loss,
            ("y_proba", "cost_matrix"),
            "expected cost",
            higher_is_better=False,
            format=",.0f",
        ),
        Metric("expected_savings", expected_savings_score, ("y_proba", "cost_matrix"), "expected savings"),
        Metric("fit_seconds", None, (), "fit time (s)", higher_is_better=False, format=",.2f"),
        Metric("tree_nodes", None, (), "tree size (nodes)", higher_is_better=False, format=",.0f"),
    )
}

#: Where each table shows which metrics, in its column order. The papers' tables keep their papers' columns;
#: a new metric appears in the views that list it (and in every cell, MLflow run and summary regardless).
VIEWS: dict[str, tuple[str, ...]] = {
    # a comparison's leaderboard (report, command line, run description)
    "leaderboard": ("opm", "balanced_accuracy", "g_mean", "f1", "auc", "savings", "fit_seconds"),
    # AdaCC Tables 6 and 8: per ensemble size, averaged over datasets (savings on cost datasets)
    "adacc_sizes": ("balanced_accuracy", "g_mean", "tpr", "tnr", "f1", "auc", "opm", "savings"),
    # AdaCC Table 7: cumulative against non-cumulative costs
    "adacc_cumulative": ("balanced_accuracy", "g_mean", "tpr", "tnr", "f1", "auc", "opm"),
    # WOTBoost Table 3: per dataset
    "wotboost_datasets": ("g_mean", "auc", "f1", "tpr", "tnr"),
    # CSDT Tables 7-8: savings and accuracy, tree size, fit time
    "csdt_costs": ("savings", "accuracy", "f1", "tree_nodes", "fit_seconds"),
    # a retrain's candidates: in its report, its run description, ``cslearn retrain``'s table
    "retrain_report": (
        "savings",
        "cost",
        "expected_savings",
        "f1",
        "tpr",
        "tnr",
        "auc",
        "g_mean",
        "fit_seconds",
    ),
    "retrain_description": ("savings", "cost", "f1", "auc", "fit_seconds"),
    "retrain_cli": ("savings", "cost", "f1", "tpr", "tnr", "auc", "fit_seconds"),
    # a registered model version's description (its holdout metrics)
    "version": (
        "savings",
        "cost",
        "expected_savings",
        "auc",
        "f1",
        "tpr",
        "tnr",
        "precision",
        "g_mean",
        "balanced_accuracy",
    ),  # fmt: skip
}


def computed_metrics() -> tuple[str, ...]:
    """The names of the metrics computed from predictions (not the measures of a fit), in table order."""
    return tuple(name for name, metric in METRICS.items() if metric.function is not None)


def metric_label(name: str) -> str:
    """The readable name of a metric or measure (``balanced_accuracy`` -> ``balanced accuracy``); another
    name is shown with its underscores as spaces."""
    metric = METRICS.get(name)
    return metric.label if metric is not None else name.replace("_", " ")


def lower_is_better(name: str) -> bool:
    """Whether smaller values of the metric or measure ``name`` are better (cost, fit time, tree size)."""
    metric = METRICS.get(name)
    return metric is not None and not metric.higher_is_better


def classification_report_dict(y_true, y_pred, y_score=None, cost_matrix=None, *, y_proba=None, pos_label=1):
    """Every computed metric of :data:`METRICS` whose inputs are given, in one dict (name -> float).

    ``y_score`` enables ``auc`` and ``opm``; ``cost_matrix`` enables ``cost`` and ``savings``, and with
    ``y_proba`` (the probability of the positive class) ``expected_cost`` and ``expected_savings``.
    """
    available = {"y_pred": y_pred, "y_score": y_score, "cost_matrix": cost_matrix, "y_proba": y_proba}
    known = {name for name, value in available.items() if value is not None}
    return {
        metric.name: metric.compute(y_true, available, pos_label=pos_label)
        for metric in METRICS.values()
        if metric.function is not None and set(metric.inputs) <= known
    }
