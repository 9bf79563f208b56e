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
