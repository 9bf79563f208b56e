"""Every estimator of ``algorithms.METHODS`` refuses what it cannot handle with the same clear message
(issue 11 point 9): a target of three classes and finite but huge feature values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification

from algorithms import METHODS
from algorithms._validation import FEATURE_MAGNITUDE_LIMIT, check_binary_target, check_feature_magnitude

X, Y = make_classification(n_samples=120, n_features=4, n_informative=3, n_redundant=0, random_state=0)


@pytest.mark.parametrize("key", sorted(METHODS))
def test_three_classes_are_refused_naming_the_estimator(key):
    estimator = METHODS[key]()
    y = np.arange(Y.size) % 3
    message = rf"Only binary classification is supported\. .* {type(estimator).__name__} needs exactly two"
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


@pytest.mark.parametrize("key", sorted(METHODS))
def test_huge_finite_features_are_refused_naming_the_column(key):
    estimator = METHODS[key]()
    X_huge = X.copy()
    X_huge[7, 2] = -1e300
    message = (
        rf"{type(estimator).__name__} cannot use feature values this large: column 2 holds -1e\+300 at row 7"
    )
    with pytest.raises(ValueError, match=message):
        estimator.fit(X_huge, Y)


@pytest.mark.parametrize("key", sorted(METHODS))
def test_values_at_the_float32_limit_are_accepted(key):
    X_large = X.copy()
    X_large[7, 2] = 1e38
    METHODS[key]().fit(X_large, Y)


def test_the_message_names_a_data_frame_column():
    frame = pd.DataFrame(X, columns=["age", "income", "balance", "debt"])
    frame.loc[3, "balance"] = 1e300
    for key in ("adaboost", "smote-dt", "rusboost"):
        with pytest.raises(ValueError, match=r"column 2 \('balance'\) holds 1e\+300 at row 3"):
            METHODS[key]().fit(frame, Y)


def test_sparse_and_non_numeric_inputs():
    X_sparse = sp.csr_matrix(np.array([[0.0, 0.0], [0.0, 4e38], [1.0, 0.0]]))
    with pytest.raises(ValueError, match=r"column 1 holds 4e\+38 at row 1"):
        check_feature_magnitude(X_sparse)
    check_feature_magnitude(np.array([["a", "b"]], dtype=object))  # left to the estimator's validation
    check_feature_magnitude(np.array([[np.inf, np.nan, FEATURE_MAGNITUDE_LIMIT]]))  # not this check's job


def test_binary_target_messages():
    with pytest.raises(ValueError, match="CSDT needs two classes in y, but y has only one class: 1.0"):
        check_binary_target(np.ones(4), estimator_name="CSDT")
    with pytest.raises(ValueError, match="Unknown label type"):
        check_binary_target(np.linspace(0, 1, 5))
    np.testing.assert_array_equal(check_binary_target(["b", "a", "b"]), ["a", "b"])


def test_an_early_stop_that_leaves_one_class_is_refused_and_a_full_run_is_not():
    """AdaBoost with a majority-vote learner: round 1 predicts all negative (kept: its error is the positive
    share); its update gives each class half the weight, so round 2's error is 1/2, alpha 0, and it stops."""
    from sklearn.dummy import DummyClassifier

    from algorithms.boosting.adaboost import AdaBoost

    y = (np.arange(40) < 8).astype(int)
    X_small = np.arange(40.0).reshape(-1, 1)
    majority = DummyClassifier(strategy="most_frequent")
    message = (
        r"AdaBoost stopped after 1 of 5 rounds \(stop reason: non-positive alpha\), and the learners it kept "
        r"predict class 0 for every training sample"
    )
    with pytest.raises(ValueError, match=message):
        AdaBoost(majority, n_estimators=5).fit(X_small, y)
    one_round = AdaBoost(majority, n_estimators=1).fit(X_small, y)  # ran every round it was asked for
    assert one_round.stop_reason_ == "n_estimators" and set(one_round.predict(X_small)) == {0}


# --- issue 25, part 2: columns and costs are what they say ----------------------------------------------

COSTS = np.column_stack(
    [np.ones(Y.size), np.random.default_rng(0).uniform(1.0, 2.0, Y.size), np.zeros(Y.size), np.zeros(Y.size)]
)


def _seeded(key):
    estimator = METHODS[key]()
    if "random_state" in estimator.get_params():
        estimator.set_params(random_state=0)
    return estimator


def _prediction_methods(model):
    return [name for name in ("predict", "predict_proba", "decision_function") if hasattr(model, name)]


@pytest.mark.parametrize("key", sorted(METHODS))
def test_huge_features_are_refused_at_prediction_with_the_message_of_fit(key):
    model = _seeded(key).fit(X, Y)
    X_huge = X.copy()
    X_huge[7, 2] = 1e300
    message = (
        rf"^{type(model).__name__} cannot use feature values this large: column 2 holds 1e\+300 at row 7, "
        r"beyond \+-3\.4e\+38 \(the largest float32"
    )
    for name in _prediction_methods(model):
        with pytest.raises(ValueError, match=message):
            getattr(model, name)(X_huge)
    X_large = X.copy()
    X_large[7, 2] = 1e38
    for name in _prediction_methods(model):
        assert np.asarray(getattr(model, name)(X_large)).shape[0] == Y.size


def test_the_prediction_message_names_a_data_frame_column():
    frame = pd.DataFrame(X, columns=["age", "income", "balance", "debt"])
    huge = frame.assign(age=np.where(np.arange(Y.size) == 4, 1e300, frame["age"]))
    for key in ("csdt", "bmr-lr", "smote-dt", "rusboost", "cslogit", "csforest"):
        model = _seeded(key).fit(frame, Y)
        with pytest.raises(ValueError, match=r"column 0 \('age'\) holds 1e\+300 at row 4"):
            model.predict(huge)


@pytest.mark.parametrize("key", sorted(METHODS))
def test_zero_weight_on_every_row_of_a_class_is_refused_the_same_way(key):
    name = type(METHODS[key]()).__name__
    for label in (1, 0):
        weights = np.where(Y == label, 0.0, 1.0)
        message = (
            rf"^{name} cannot learn from these weights: class {label} has zero total sample_weight \(all of "
            rf"its {(Y == label).sum()} rows weigh 0\), so the model would see one class only; give rows of "
            rf"class {label} a positive weight, or leave sample_weight out$"
        )
        with pytest.raises(ValueError, match=message):
            _seeded(key).fit(X, Y, sample_weight=weights)


@pytest.mark.parametrize("key", sorted(METHODS))
def test_a_missing_label_is_named_with_its_rows(key):
    y = Y.astype(object)
    y[[3, 11]] = None
    message = (
        rf"^{type(METHODS[key]()).__name__} needs a label on every row, but y holds None \(a missing label\) "
        r"at rows \[3, 11\]; remove those rows or fill in their labels$"
    )
    with pytest.raises(ValueError, match=message):
        _seeded(key).fit(X, y)


@pytest.mark.parametrize("key", sorted(METHODS))
def test_a_cost_matrix_frame_is_read_by_its_column_names(key):
    named = pd.DataFrame(COSTS, columns=["C_FP", "C_FN", "C_TP", "C_TN"])[["C_FN", "C_FP", "C_TN", "C_TP"]]
    by_position = _seeded(key).fit(X, Y, cost_matrix=COSTS).predict(X)
    by_name = _seeded(key).fit(X, Y, cost_matrix=named).predict(X)
    np.testing.assert_array_equal(by_name, by_position)
    other_names = named.set_axis(["fp", "fn", "tp", "tn"], axis=1)
    message = (
        r"^cost_matrix has the columns \['fp', 'fn', 'tp', 'tn'\]; name its columns C_FP, C_FN, C_TP, C_TN "
        r"\(they are read by name, in any order\), or pass an array whose columns are in that order$"
    )
    with pytest.raises(ValueError, match=message):
        _seeded(key).fit(X, Y, cost_matrix=other_names)


@pytest.mark.parametrize("key", sorted(METHODS))
def test_cost_values_whose_sums_and_products_overflow_are_refused(key):
    costs = COSTS.copy()
    costs[[2, 5], 1] = 1e308
    message = (
        r"^cost_matrix has costs larger than 3\.4e\+38 in column\(s\) \['C_FN'\] at rows \[2, 5\] \(e\.g\. "
        r"1e\+308 at row 2\): costs are summed and multiplied over the rows, which overflows beyond that; "
        r"express the costs in a larger unit \(e\.g\. thousands\) so that every cost is at most 3\.4e\+38$"
    )
    with pytest.raises(ValueError, match=message):
        _seeded(key).fit(X, Y, cost_matrix=costs)
    at_the_limit = _seeded(key).fit(X, Y, cost_matrix=COSTS * (3e38 / COSTS.max()))
    assert set(at_the_limit.predict(X)) <= set(Y)


@pytest.mark.parametrize("key", sorted(METHODS))
def test_a_cost_matrix_that_is_not_numbers_is_named(key):
    message = (
        r"^cost_matrix must be a table of numbers of shape \(n_samples, 4\) with columns "
        r"\['C_FP', 'C_FN', 'C_TP', 'C_TN'\]; got the str 'abc'$"
    )
    with pytest.raises(ValueError, match=message):
        _seeded(key).fit(X, Y, cost_matrix="abc")
    costs = COSTS.astype(object)
    costs[9, 1] = "high"
    message = (
        r"^cost_matrix holds 'high' in column C_FN at row 9, which is not a number; every cost is a number$"
    )
    with pytest.raises(ValueError, match=message):
        _seeded(key).fit(X, Y, cost_matrix=costs)
