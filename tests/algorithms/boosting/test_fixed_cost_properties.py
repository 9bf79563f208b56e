"""Properties of the fixed-cost competitors (docs/algorithms.md §3): the AdaBoost oracle where a method
reduces to it, cost scaling, the ``cost_matrix`` mapping and the calibrated variants."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import make_classification
from sklearn.frozen import FrozenEstimator

from algorithms.boosting.adaboost import AdaBoost
from algorithms.boosting.adac import AdaC1, AdaC2, AdaC3
from algorithms.boosting.adacost import AdaCost
from algorithms.boosting.adamec import AdaMEC
from algorithms.boosting.calibrated import AdaMECCalibrated, CGAdaCalibrated
from algorithms.boosting.cgada import CGAda
from algorithms.boosting.csb import CSB1, CSB2

TOLERANCE = {"rtol": 0, "atol": 1e-12}
X, Y = make_classification(
    n_samples=240, n_features=6, n_informative=3, weights=[0.8], flip_y=0.05, random_state=7
)
REDUCES_TO_ADABOOST = [CGAda, AdaMEC, CSB2, AdaC1, AdaC2, AdaC3]
SCALE_FREE = [CGAda, AdaMEC, CSB1, CSB2, AdaC2, AdaCost]
SCALE_SENSITIVE = [AdaC1, AdaC3]


@pytest.fixture(scope="module")
def adaboost():
    return AdaBoost(n_estimators=30).fit(X, Y)


@pytest.mark.parametrize("method", REDUCES_TO_ADABOOST, ids=lambda cls: cls.__name__)
def test_unit_costs_reproduce_adaboost_exactly(method, adaboost):
    model = method(n_estimators=30, positive_cost=1.0, negative_cost=1.0).fit(X, Y)
    assert len(model.estimators_) == len(adaboost.estimators_) == 30
    assert_allclose(model.estimator_weights_, adaboost.estimator_weights_, **TOLERANCE)
    assert_allclose(model.decision_function(X), adaboost.decision_function(X), **TOLERANCE)
    assert_allclose(model.predict_proba(X), adaboost.predict_proba(X), **TOLERANCE)
    assert_array_equal(model.predict(X), adaboost.predict(X))


def test_csb1_with_unit_costs_is_not_adaboost(adaboost):
    # CSB1's update D C exp(-y h) has no alpha: equal costs do not give AdaBoost back
    model = CSB1(n_estimators=30, weak_output="discrete").fit(X, Y)
    assert_allclose(model.estimator_weights_[0], adaboost.estimator_weights_[0], **TOLERANCE)
    assert not np.allclose(model.estimator_weights_[1:], adaboost.estimator_weights_[1:])


@pytest.mark.parametrize("method", SCALE_FREE, ids=lambda cls: cls.__name__)
def test_scaling_both_class_costs_changes_nothing_where_costs_only_reweigh(method):
    small = method(n_estimators=20, positive_cost=1.0, negative_cost=0.3).fit(X, Y)
    large = method(n_estimators=20, positive_cost=7.0, negative_cost=2.1).fit(X, Y)
    assert_allclose(small.estimator_weights_, large.estimator_weights_, rtol=1e-10, atol=0)
    assert_allclose(small.decision_function(X), large.decision_function(X), rtol=0, atol=1e-10)
    assert_array_equal(small.predict(X), large.predict(X))


@pytest.mark.parametrize("method", SCALE_SENSITIVE, ids=lambda cls: cls.__name__)
def test_scaling_costs_inside_the_exponent_changes_the_model(method):
    small = method(n_estimators=20, positive_cost=0.5, negative_cost=0.15).fit(X, Y)
    large = method(n_estimators=20, positive_cost=1.0, negative_cost=0.3).fit(X, Y)
    assert not np.allclose(small.estimator_weights_[0], large.estimator_weights_[0])


def example_cost_matrix(scale=1.0):
    """C_FN = 5 for positives, C_FP = 2 for negatives (regrets 5 and 2: C+ = 1, C- = 0.4); C_TP = C_TN = 0."""
    matrix = np.zeros((Y.size, 4))
    matrix[:, 0], matrix[:, 1] = 2.0, 5.0
    return scale * matrix


@pytest.mark.parametrize("method", [CGAda, AdaMEC, AdaC1, AdaCost], ids=lambda cls: cls.__name__)
def test_a_cost_matrix_constant_per_class_recovers_the_class_costs(method):
    from_matrix = method(n_estimators=15).fit(X, Y, cost_matrix=example_cost_matrix())
    scaled_matrix = method(n_estimators=15).fit(X, Y, cost_matrix=example_cost_matrix(scale=13.0))
    from_classes = method(n_estimators=15, positive_cost=1.0, negative_cost=0.4).fit(X, Y)
    assert_allclose(from_matrix.estimator_weights_, from_classes.estimator_weights_, **TOLERANCE)
    assert_allclose(scaled_matrix.estimator_weights_, from_classes.estimator_weights_, rtol=1e-10, atol=0)
    assert_array_equal(from_matrix.predict(X), from_classes.predict(X))


def test_adamec_vote_uses_class_mean_regrets_with_a_cost_matrix():
    matrix = example_cost_matrix()
    matrix[Y == 1, 1] = np.where(np.arange((Y == 1).sum()) % 2 == 0, 5.0, 3.0)  # positives: C_FN 5 or 3
    matrix[Y == 0, 3] = 1.0  # C_TN = 1: a negative's regret is C_FP - C_TN = 1
    model = AdaMEC(n_estimators=10).fit(X, Y, cost_matrix=matrix)
    regret_positive = matrix[Y == 1, 1].mean()  # C_TP = 0
    mean_positive, mean_negative = 1.0, 1.0 / regret_positive
    assert_allclose(
        model.vote_weights_,
        np.column_stack([mean_positive * model.estimator_weights_, mean_negative * model.estimator_weights_]),
        **TOLERANCE,
    )


# --------------------------------------------------------------------------------------- calibrated variants
@pytest.mark.parametrize("method", [AdaMECCalibrated, CGAdaCalibrated], ids=lambda cls: cls.__name__)
def test_calibrated_threshold_is_the_minimum_expected_cost_and_moves_with_negative_cost(method):
    positives_predicted = []
    for negative_cost in (0.1, 0.3, 0.6, 1.0):
        model = method(n_estimators=20, negative_cost=negative_cost, random_state=0).fit(X, Y)
        assert model.threshold_ == pytest.approx(negative_cost / (1.0 + negative_cost), abs=1e-15)
        positive_probability = model.predict_proba(X)[:, 1]
        assert_array_equal(model.predict(X), (positive_probability > model.threshold_).astype(int))
        assert_allclose(model.decision_function(X), positive_probability - model.threshold_, **TOLERANCE)
        positives_predicted.append(int(model.predict(X).sum()))
    assert positives_predicted == sorted(positives_predicted, reverse=True)
    assert positives_predicted[0] > positives_predicted[-1]


def test_adamec_calibrated_probabilities_do_not_depend_on_the_costs():
    cheap = AdaMECCalibrated(n_estimators=20, negative_cost=0.1, random_state=0).fit(X, Y)
    dear = AdaMECCalibrated(n_estimators=20, negative_cost=1.0, random_state=0).fit(X, Y)
    assert_allclose(cheap.predict_proba(X), dear.predict_proba(X), **TOLERANCE)
    assert (cheap.predict(X) >= dear.predict(X)).all()


@pytest.mark.parametrize("method", [AdaMECCalibrated, CGAdaCalibrated], ids=lambda cls: cls.__name__)
def test_calibrated_variants_ignore_a_common_scale_of_the_costs(method):
    small = method(n_estimators=20, positive_cost=1.0, negative_cost=0.3, random_state=0).fit(X, Y)
    large = method(n_estimators=20, positive_cost=10.0, negative_cost=3.0, random_state=0).fit(X, Y)
    assert_allclose(small.predict_proba(X), large.predict_proba(X), rtol=0, atol=1e-10)
    assert_array_equal(small.predict(X), large.predict(X))


def test_calibration_is_cross_fitted_and_the_ensemble_is_refitted_on_all_data():
    model = CGAdaCalibrated(n_estimators=20, negative_cost=0.3, calibration_folds=4, random_state=1).fit(X, Y)
    calibration = model.calibrated_classifier_
    assert calibration.method == "sigmoid" and calibration.ensemble is False
    assert calibration.cv.get_n_splits() == 4 and len(calibration.calibrated_classifiers_) == 1
    on_all_data = CGAda(n_estimators=20, negative_cost=0.3, pos_label=1).fit(X, Y)
    assert_allclose(model.ensemble_.decision_function(X), on_all_data.decision_function(X), **TOLERANCE)
    # the sigmoid maps the refitted ensemble's score ...
    sigmoid = calibration.calibrated_classifiers_[0].calibrators[0]
    assert_allclose(
        model.predict_proba(X)[:, 1], sigmoid.predict(on_all_data.decision_function(X)), **TOLERANCE
    )
    # ... but was fitted on out-of-fold scores: Platt scaling of in-sample scores gives other probabilities
    in_sample = CalibratedClassifierCV(FrozenEstimator(on_all_data), method="sigmoid").fit(X, Y)
    assert np.abs(in_sample.predict_proba(X)[:, 1] - model.predict_proba(X)[:, 1]).max() > 1e-3


def test_calibrated_variants_need_enough_samples_per_class_for_the_folds():
    y = np.zeros(20, dtype=int)
    y[:2] = 1
    with pytest.raises(ValueError, match="calibration_folds=3 folds needs at least 3 samples of each class"):
        AdaMECCalibrated().fit(np.arange(20.0).reshape(-1, 1), y)


def test_calibrated_variants_pass_the_cost_matrix_to_the_ensemble():
    with_matrix = CGAdaCalibrated(n_estimators=10, random_state=0).fit(
        X, Y, cost_matrix=example_cost_matrix()
    )
    with_classes = CGAdaCalibrated(n_estimators=10, negative_cost=0.4, random_state=0).fit(X, Y)
    assert_allclose(with_matrix.predict_proba(X), with_classes.predict_proba(X), **TOLERANCE)
    assert with_matrix.threshold_ == pytest.approx(0.4 / 1.4, abs=1e-15)
