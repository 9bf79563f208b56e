"""Metrics against hand computations: confusion counts, AUC, OPM, cost and savings (CSDT Eq. 2-4)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from algorithms import metrics

# 3 positives, 5 negatives. Predictions: TP = 2 (rows 0, 1), FN = 1 (row 2), FP = 1 (row 3), TN = 4.
Y_TRUE = np.array([1, 1, 1, 0, 0, 0, 0, 0])
Y_PRED = np.array([1, 1, 0, 1, 0, 0, 0, 0])
# positives score 0.9, 0.8, 0.3; negatives 0.7, 0.2, 0.1, 0.4, 0.05
# positive-over-negative pairs: 0.9 > all 5, 0.8 > all 5, 0.3 > 0.2, 0.1, 0.05 -> 13 of 15
Y_SCORE = np.array([0.9, 0.8, 0.3, 0.7, 0.2, 0.1, 0.4, 0.05])

TPR = 2 / 3
TNR = 4 / 5
PRECISION = 2 / 3
F1 = 2 * PRECISION * TPR / (PRECISION + TPR)
AUC = 13 / 15


def test_rates_from_hand_counted_confusion_matrix():
    assert metrics.tpr(Y_TRUE, Y_PRED) == pytest.approx(TPR)
    assert metrics.tnr(Y_TRUE, Y_PRED) == pytest.approx(TNR)
    assert metrics.precision(Y_TRUE, Y_PRED) == pytest.approx(PRECISION)
    assert metrics.balanced_accuracy(Y_TRUE, Y_PRED) == pytest.approx((TPR + TNR) / 2)
    assert metrics.f1(Y_TRUE, Y_PRED) == pytest.approx(F1)
    assert metrics.g_mean(Y_TRUE, Y_PRED) == pytest.approx(math.sqrt(TPR * TNR))
    assert metrics.accuracy(Y_TRUE, Y_PRED) == pytest.approx(6 / 8)


def test_auc_and_opm():
    assert metrics.auc(Y_TRUE, Y_SCORE) == pytest.approx(AUC)
    expected_opm = (AUC + (TPR + TNR) / 2 + math.sqrt(TPR * TNR) + F1 + TPR + TNR) / 6
    assert metrics.opm(Y_TRUE, Y_PRED, Y_SCORE) == pytest.approx(expected_opm)
    assert math.isnan(metrics.auc(np.ones(4), np.arange(4.0)))


def test_pos_label_with_string_labels():
    labels = np.where(Y_TRUE == 1, "bad", "good")
    predicted = np.where(Y_PRED == 1, "bad", "good")
    assert metrics.tpr(labels, predicted, pos_label="bad") == pytest.approx(TPR)
    assert metrics.tnr(labels, predicted, pos_label="bad") == pytest.approx(TNR)
    assert metrics.tpr(labels, predicted, pos_label="good") == pytest.approx(TNR)  # roles swap
    assert metrics.auc(labels, Y_SCORE, pos_label="bad") == pytest.approx(AUC)


def test_degenerate_predictions():
    nothing = np.zeros_like(Y_TRUE)
    assert metrics.precision(Y_TRUE, nothing) == 0.0
    assert metrics.f1(Y_TRUE, nothing) == 0.0
    assert metrics.g_mean(Y_TRUE, nothing) == 0.0
    assert metrics.tnr(Y_TRUE, nothing) == 1.0


def test_mismatched_shapes_are_named():
    with pytest.raises(ValueError, match=r"y_true has shape \(8,\) but y_pred has shape \(3,\)"):
        metrics.tpr(Y_TRUE, Y_PRED[:3])


# Cost matrix rows [C_FP, C_FN, C_TP, C_TN] for the 8 samples above.
COSTS = np.array(
    [
        [1.0, 10.0, 1.0, 0.0],  # TP: costs C_TP = 1
        [1.0, 20.0, 1.0, 0.0],  # TP: 1
        [1.0, 30.0, 1.0, 0.0],  # FN: C_FN = 30
        [2.0, 0.0, 2.0, 0.0],  # FP: C_FP = 2
        [2.0, 0.0, 2.0, 0.0],  # TN: 0
        [2.0, 0.0, 2.0, 0.0],  # TN: 0
        [2.0, 0.0, 2.0, 0.0],  # TN: 0
        [2.0, 0.0, 2.0, 0.5],  # TN: C_TN = 0.5
    ]
)


def test_cost_loss_by_hand():
    assert metrics.cost_loss(Y_TRUE, Y_PRED, COSTS) == pytest.approx(1 + 1 + 30 + 2 + 0.5)
    # all negative: the positives cost C_FN (10 + 20 + 30), the negatives C_TN (0.5)
    assert metrics.cost_loss(Y_TRUE, np.zeros(8), COSTS) == pytest.approx(60.5)
    # all positive: the positives cost C_TP (3 x 1), the negatives C_FP (5 x 2)
    assert metrics.cost_loss(Y_TRUE, np.ones(8), COSTS) == pytest.approx(13.0)


def test_savings_by_hand():
    # Cost_l = min(60.5, 13) = 13; savings = (13 - 34.5) / 13, negative: worse than predicting all positive
    assert metrics.savings_score(Y_TRUE, Y_PRED, COSTS) == pytest.approx((13 - 34.5) / 13)
    # perfect predictions still pay C_TP = 1 on each of 3 positives and C_TN = 0.5 on row 7
    assert metrics.savings_score(Y_TRUE, Y_TRUE, COSTS) == pytest.approx((13 - 3.5) / 13)
    assert metrics.savings_score(Y_TRUE, np.ones(8), COSTS) == pytest.approx(0.0)
    assert math.isnan(metrics.savings_score(Y_TRUE, Y_PRED, np.zeros((8, 4))))


def test_a_cost_frame_is_read_by_its_column_names_and_a_frame_without_names_by_position():
    import pandas as pd

    reordered = pd.DataFrame(COSTS, columns=list(metrics.COST_COLUMNS))[["C_FN", "C_FP", "C_TP", "C_TN"]]
    assert metrics.savings_score(Y_TRUE, Y_PRED, reordered) == pytest.approx((13 - 34.5) / 13)
    assert metrics.savings_score(Y_TRUE, Y_PRED, pd.DataFrame(COSTS)) == pytest.approx((13 - 34.5) / 13)
    with pytest.raises(ValueError, match=r"^cost_matrix has the columns \['C_FN', 'C_FP', 'tp', 'tn'\]; "):
        metrics.savings_score(Y_TRUE, Y_PRED, reordered.set_axis(["C_FN", "C_FP", "tp", "tn"], axis=1))


@pytest.mark.parametrize(
    ("cost_matrix", "message"),
    [
        (
            np.ones((8, 3)),
            r"shape \(n_samples, 4\) with columns \['C_FP', 'C_FN', 'C_TP', 'C_TN'\]; got shape",
        ),
        (np.ones((7, 4)), "cost_matrix has 7 rows but the data has 8 samples"),
        (
            np.where(np.arange(32).reshape(8, 4) == 5, np.nan, 1.0),
            r"NaN or infinite entries in column\(s\) \['C_FN'\] at rows \[1\]",
        ),
        (
            np.where(np.arange(32).reshape(8, 4) == 8, -1.0, 1.0),
            r"negative entries in column\(s\) \['C_FP'\] at rows \[2\]",
        ),
    ],
    ids=["columns", "rows", "nan", "negative"],
)
def test_check_cost_matrix_names_the_problem(cost_matrix, message):
    with pytest.raises(ValueError, match=message):
        metrics.cost_loss(Y_TRUE, Y_PRED, cost_matrix)


def test_classification_report_dict():
    report = metrics.classification_report_dict(Y_TRUE, Y_PRED, Y_SCORE, COSTS)
    assert set(report) == {
        "tpr",
        "tnr",
        "precision",
        "balanced_accuracy",
        "f1",
        "g_mean",
        "accuracy",
        "auc",
        "opm",
        "cost",
        "savings",
    }
    assert report["cost"] == pytest.approx(34.5)
    assert report["auc"] == pytest.approx(AUC)
    assert set(metrics.classification_report_dict(Y_TRUE, Y_PRED)) == {
        "tpr",
        "tnr",
        "precision",
        "balanced_accuracy",
        "f1",
        "g_mean",
        "accuracy",
    }


def test_expected_cost_and_expected_savings_by_hand():
    from algorithms.metrics import expected_cost_loss, expected_savings_score

    y = np.array([1, 0, 1, 0])
    proba = np.array([0.9, 0.2, 0.5, 0.0])
    costs = np.array(
        [[1.0, 10.0, 1.0, 0.0], [1.0, 10.0, 1.0, 0.0], [2.0, 4.0, 0.0, 0.0], [3.0, 1.0, 0.0, 1.0]]
    )
    # row by row: 0.9*1 + 0.1*10 = 1.9; 0.2*1 + 0.8*0 = 0.2; 0.5*0 + 0.5*4 = 2.0; 0*3 + 1*1 = 1.0
    assert expected_cost_loss(y, proba, costs) == pytest.approx(5.1)
    # predict_proba's two columns give the same; 0/1 probabilities give cost_loss
    assert expected_cost_loss(y, np.column_stack([1 - proba, proba]), costs) == pytest.approx(5.1)
    hard = (proba > 0.5).astype(int)
    assert expected_cost_loss(y, hard.astype(float), costs) == pytest.approx(
        metrics.cost_loss(y, hard, costs)
    )
    # trivial classifiers: all negative 10 + 0 + 4 + 1 = 15, all positive 1 + 1 + 0 + 3 = 5 -> Cost_l = 5
    assert expected_savings_score(y, proba, costs) == pytest.approx((5 - 5.1) / 5)
    with pytest.raises(ValueError, match=r"y_proba must lie in \[0, 1\]; rows \[1\]"):
        expected_cost_loss(y, np.array([0.5, 1.5, 0.5, 0.5]), costs)
    with pytest.raises(ValueError, match=r"one positive-class probability per row, shape \(4,\)"):
        expected_cost_loss(y, np.ones(3), costs)


def _oracle_rates(y_true, y_pred):
    """The rates as scikit-learn and imbalanced-learn compute them (the definitions cslearn follows)."""
    import warnings

    from imblearn.metrics import geometric_mean_score, specificity_score
    from sklearn.metrics import (
        accuracy_score,
        balanced_accuracy_score,
        f1_score,
        precision_score,
        recall_score,
    )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # their zero-division and absent-class warnings
        return {
            "tpr": recall_score(y_true, y_pred, zero_division=0.0),
            "tnr": specificity_score(y_true, y_pred, pos_label=1, average="binary"),
            "precision": precision_score(y_true, y_pred, zero_division=0.0),
            "balanced_accuracy": balanced_accuracy_score(y_true, y_pred),
            "f1": f1_score(y_true, y_pred, zero_division=0.0),
            "g_mean": geometric_mean_score(y_true, y_pred, average="binary", pos_label=1),
            "accuracy": accuracy_score(y_true, y_pred),
        }


def test_rates_equal_scikit_learn_and_imbalanced_learn_bit_for_bit():
    """Every rate is computed from one confusion count; it must equal the libraries' value exactly, in the
    degenerate cases too (one class absent from the truth or the predictions, nothing right, all right).

    One exception, checked apart: with no positive in the truth nor the predictions, imbalanced-learn's
    ``specificity_score`` finds no positive label and returns 0; the specificity TN / (TN + FP) is 1.
    """
    nothing_positive = np.zeros(6, int)
    assert metrics.tnr(nothing_positive, nothing_positive) == 1.0
    assert _oracle_rates(nothing_positive, nothing_positive)["tnr"] == 0.0  # the library's quirk
    rng = np.random.default_rng(0)
    cases = [
        (np.ones(6, int), np.ones(6, int)),
        (np.zeros(6, int), np.array([0, 1, 0, 1, 1, 0])),
        (np.ones(6, int), np.array([0, 1, 0, 1, 1, 0])),
        (np.array([0, 1, 0, 1, 1, 0]), np.zeros(6, int)),
        (np.array([0, 1, 0, 1, 1, 0]), np.ones(6, int)),
        (np.array([0, 1, 0, 1, 1, 0]), np.array([1, 0, 1, 0, 0, 1])),
    ]
    for size in (1, 2, 7, 100, 9000):
        for share in (0.01, 0.2, 0.5, 0.97):
            y_true = (rng.random(size) < share).astype(int)
            y_pred = np.where(rng.random(size) < 0.7, y_true, 1 - y_true)
            cases.append((y_true, y_pred))
    for y_true, y_pred in cases:
        if not (y_true.any() or y_pred.any()):
            continue  # the exception above
        oracle = _oracle_rates(y_true, y_pred)
        mine = {name: getattr(metrics, name)(y_true, y_pred) for name in oracle}
        assert mine == oracle, (y_true.tolist()[:12], y_pred.tolist()[:12])
