"""Evaluation metrics of the three papers: imbalance metrics, example-dependent cost and savings.

The imbalance metrics are those of the AdaCC paper (Table 5) and the WOTBoost paper: TPR, TNR, precision,
balanced accuracy, F1, G-mean, AUC and OPM (the mean of AUC, balanced accuracy, G-mean, F1, TPR and TNR).
Cost and savings follow the CSDT paper (Eq. 2-4) with the cost matrix layout used throughout cslearn:
columns ``[C_FP, C_FN, C_TP, C_TN]``, one row per example. Their probabilistic forms, the expected cost and
expected savings of positive-class probabilities (Höppner et al. 2022, EJOR), score a probability
without choosing a threshold: the loss cslogit and csboost minimise.

Every metric takes ``y_true`` and ``y_pred`` coded with the positive (minority) class as ``pos_label``
(default 1); scikit-learn and imbalanced-learn compute the underlying rates.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    f1_score,
    precision_score,
    recall_score,
    roc_auc_score,
)

__all__ = [
    "COST_COLUMNS",
    "accuracy",
    "auc",
    "balanced_accuracy",
    "check_cost_matrix",
    "classification_report_dict",
    "cost_loss",
    "expected_cost_loss",
    "expected_savings_score",
    "f1",
    "g_mean",
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


def tpr(y_true, y_pred, *, pos_label=1):
    """True positive rate (recall, sensitivity): TP / (TP + FN) (AdaCC Table 5)."""
    t, p = _binary(y_true, y_pred, pos_label)
    return float(recall_score(t, p, zero_division=0.0))


def tnr(y_true, y_pred, *, pos_label=1):
    """True negative rate (specificity): TN / (TN + FP) (AdaCC Table 5)."""
    from imblearn.metrics import specificity_score  # on first use: the estimators' import stays light

    t, p = _binary(y_true, y_pred, pos_label)
    return float(specificity_score(t, p, pos_label=1, average="binary"))


def precision(y_true, y_pred, *, pos_label=1):
    """Precision TP / (TP + FP); 0 when nothing is predicted positive."""
    t, p = _binary(y_true, y_pred, pos_label)
    return float(precision_score(t, p, zero_division=0.0))


def balanced_accuracy(y_true, y_pred, *, pos_label=1):
    """Balanced accuracy (TPR + TNR) / 2 (AdaCC Table 5)."""
    t, p = _binary(y_true, y_pred, pos_label)
    return float(balanced_accuracy_score(t, p))


def f1(y_true, y_pred, *, pos_label=1):
    """F1 score of the positive class, the harmonic mean of precision and TPR."""
    t, p = _binary(y_true, y_pred, pos_label)
    return float(f1_score(t, p, zero_division=0.0))


def g_mean(y_true, y_pred, *, pos_label=1):
    """Geometric mean sqrt(TPR * TNR) (AdaCC Table 5, WOTBoost Section 4)."""
    from imblearn.metrics import geometric_mean_score  # on first use: the estimators' import stays light

    t, p = _binary(y_true, y_pred, pos_label)
    return float(geometric_mean_score(t, p, average="binary", pos_label=1))


def accuracy(y_true, y_pred):
    """Fraction of correct predictions."""
    return float(accuracy_score(np.asarray(y_true), np.asarray(y_pred)))


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


def check_cost_matrix(cost_matrix, n_samples):
    """Validate an example-dependent cost matrix and return it as a float array of shape (n_samples, 4).

    Parameters
    ----------
    cost_matrix : array-like of shape (n_samples, 4)
        Columns ``[C_FP, C_FN, C_TP, C_TN]`` (CSDT paper, Table 2).
    n_samples : int
        Number of examples the matrix must describe.

    Raises
    ------
    ValueError
        If the shape is wrong, or any entry is NaN, infinite or negative; the message names the columns and
        the first offending rows.
    """
    costs = np.asarray(cost_matrix, dtype=float)
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
                f"cost_matrix has {problem} entries in column(s) {names} at rows {rows[:10].tolist()}"
                + (" ..." if rows.size > 10 else "")
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


def classification_report_dict(y_true, y_pred, y_score=None, cost_matrix=None, *, pos_label=1):
    """Every metric of Section 8 of the spec in one dict (keys are metric names, values floats).

    ``y_score`` enables ``auc`` and ``opm``; ``cost_matrix`` enables ``cost`` and ``savings``.
    """
    report = {
        "tpr": tpr(y_true, y_pred, pos_label=pos_label),
        "tnr": tnr(y_true, y_pred, pos_label=pos_label),
        "precision": precision(y_true, y_pred, pos_label=pos_label),
        "balanced_accuracy": balanced_accuracy(y_true, y_pred, pos_label=pos_label),
        "f1": f1(y_true, y_pred, pos_label=pos_label),
        "g_mean": g_mean(y_true, y_pred, pos_label=pos_label),
        "accuracy": accuracy(y_true, y_pred),
    }
    if y_score is not None:
        report["auc"] = auc(y_true, y_score, pos_label=pos_label)
        report["opm"] = opm(y_true, y_pred, y_score, pos_label=pos_label)
    if cost_matrix is not None:
        report["cost"] = cost_loss(y_true, y_pred, cost_matrix, pos_label=pos_label)
        report["savings"] = savings_score(y_true, y_pred, cost_matrix, pos_label=pos_label)
    return report
