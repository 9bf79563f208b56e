"""Bayes minimum risk (CSDT paper, Section 2.3): closed-form thresholds, held-out isotonic calibration,
class-level costs, routing, untouched inputs."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from sklearn.calibration import CalibratedClassifierCV
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from algorithms import METHODS
from algorithms.cost import (
    COST_METHODS,
    BayesMinimumRiskClassifier,
    bayes_minimum_risk_thresholds,
)
from algorithms.metrics import savings_score
from algorithms.tree import CostSensitiveDecisionTreeClassifier


def _data(n_samples=600, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=n_samples) > 1.2).astype(int)
    costs = np.column_stack(
        [np.ones(n_samples), rng.lognormal(1.5, 1.0, n_samples), np.ones(n_samples), np.zeros(n_samples)]
    )
    return X, y, costs


def test_thresholds_equal_the_closed_form_by_hand():
    costs = np.array(
        [
            [1.0, 9.0, 0.0, 0.0],  # (1 - 0) / (9 - 0 - 0 + 1) = 0.1
            [1.0, 1.0, 0.0, 0.0],  # 0.5
            [2.0, 10.0, 2.0, 0.0],  # direct marketing: C_FP = C_TP = C_a = 2 -> 2 / 10 = 0.2
            [4.0, 3.0, 1.0, 1.0],  # (4 - 1) / (3 - 1 - 1 + 4) = 0.6
            [1.0, 1.0, 1.0, 1.0],  # no decision matters: +inf (never positive by the formula)
        ]
    )
    np.testing.assert_allclose(bayes_minimum_risk_thresholds(costs), [0.1, 0.5, 0.2, 0.6, np.inf])


def test_predictions_are_the_probability_above_the_per_example_threshold():
    X, y, costs = _data()
    model = BayesMinimumRiskClassifier(random_state=0).fit(X, y, cost_matrix=costs)
    probability = model.predict_proba(X)[:, 1]
    thresholds = model.decision_thresholds(X, costs)
    c_fp, c_fn, c_tp, c_tn = costs.T
    np.testing.assert_allclose(thresholds, (c_fp - c_tn) / (c_fn - c_tn - c_tp + c_fp))
    np.testing.assert_array_equal(model.predict(X, cost_matrix=costs), (probability > thresholds).astype(int))
    # the risks themselves (CSDT Section 2.3)
    risk_positive = c_tp * probability + c_fp * (1 - probability)
    risk_negative = c_tn * (1 - probability) + c_fn * probability
    np.testing.assert_array_equal(model.predict(X, cost_matrix=costs), risk_positive < risk_negative)


def test_class_level_costs_apply_without_a_cost_matrix_at_predict_time():
    X, y, costs = _data()
    weights = np.linspace(0.5, 1.5, len(y))
    model = BayesMinimumRiskClassifier(random_state=0).fit(X, y, weights, cost_matrix=costs)
    np.testing.assert_allclose(model.class_costs_, np.average(costs, axis=0, weights=weights))
    mean_fp, mean_fn, mean_tp, mean_tn = model.class_costs_
    assert model.threshold_ == pytest.approx((mean_fp - mean_tn) / (mean_fn - mean_tn - mean_tp + mean_fp))
    class_level = np.tile(model.class_costs_, (len(y), 1))
    np.testing.assert_array_equal(model.predict(X), model.predict(X, cost_matrix=class_level))
    unit = BayesMinimumRiskClassifier(random_state=0).fit(X, y)
    assert unit.threshold_ == 0.5
    np.testing.assert_array_equal(unit.predict(X), (unit.predict_proba(X)[:, 1] > 0.5).astype(int))


def test_calibration_is_isotonic_on_held_out_folds():
    X, y, costs = _data()
    model = BayesMinimumRiskClassifier(cv=4, random_state=0).fit(X, y, cost_matrix=costs)
    calibrated = model.calibrated_classifier_
    assert isinstance(calibrated, CalibratedClassifierCV) and calibrated.method == "isotonic"
    assert len(calibrated.calibrated_classifiers_) == 4  # one classifier + calibrator per held-out fold
    assert all(isinstance(c.calibrators[0], IsotonicRegression) for c in calibrated.calibrated_classifiers_)


def test_scaling_all_costs_leaves_decisions_unchanged():
    X, y, costs = _data()
    model = BayesMinimumRiskClassifier(random_state=0).fit(X, y, cost_matrix=costs)
    np.testing.assert_array_equal(
        model.predict(X, cost_matrix=costs), model.predict(X, cost_matrix=costs * 12.5)
    )


def test_bayes_minimum_risk_saves_more_than_the_plain_classifier():
    X, y, costs = _data(2000, seed=1)
    X_test, y_test, costs_test = _data(2000, seed=2)
    plain = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    model = BayesMinimumRiskClassifier(random_state=0).fit(X, y, cost_matrix=costs)
    bmr_savings = savings_score(y_test, model.predict(X_test, cost_matrix=costs_test), costs_test)
    plain_savings = savings_score(y_test, plain.predict(X_test), costs_test)
    assert bmr_savings > plain_savings + 0.05


def test_wraps_any_probabilistic_classifier_and_keeps_labels():
    X, y, costs = _data()
    labels = np.where(y == 1, "churn", "stay")
    model = BayesMinimumRiskClassifier(CostSensitiveDecisionTreeClassifier(max_depth=3), random_state=0)
    model.fit(X, labels, cost_matrix=costs)
    assert model.pos_label_ == "churn" and model.positive_index_ == 0
    assert set(model.predict(X, cost_matrix=costs)) <= {"churn", "stay"}
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)


def test_inputs_are_not_mutated():
    X, y, costs = _data()
    weights = np.linspace(0.5, 1.5, len(y))
    copies = [a.copy() for a in (X, y, costs, weights)]
    model = BayesMinimumRiskClassifier(random_state=0).fit(X, y, weights, cost_matrix=costs)
    model.predict(X, cost_matrix=costs)
    for original, copy in zip((X, y, costs, weights), copies, strict=True):
        np.testing.assert_array_equal(original, copy)


def test_seeded_fits_are_reproducible():
    X, y, costs = _data()
    first = COST_METHODS["bmr-rf"](random_state=3).fit(X, y, cost_matrix=costs).predict_proba(X)
    second = COST_METHODS["bmr-rf"](random_state=3).fit(X, y, cost_matrix=costs).predict_proba(X)
    np.testing.assert_array_equal(first, second)


def test_cost_matrix_routed_through_a_pipeline():
    X, y, costs = _data()
    direct = BayesMinimumRiskClassifier(random_state=0).fit(
        StandardScaler().fit_transform(X), y, cost_matrix=costs
    )
    with sklearn.config_context(enable_metadata_routing=True):
        routed = BayesMinimumRiskClassifier(random_state=0)
        routed.set_fit_request(cost_matrix=True, sample_weight=False).set_predict_request(cost_matrix=True)
        pipeline = make_pipeline(StandardScaler(), routed).fit(X, y, cost_matrix=costs)
        predicted = pipeline.predict(X, cost_matrix=costs)
    np.testing.assert_array_equal(
        predicted, direct.predict(StandardScaler().fit_transform(X), cost_matrix=costs)
    )
    np.testing.assert_allclose(pipeline[-1].class_costs_, costs.mean(axis=0))


def test_bad_inputs_raise_clear_errors():
    X, y, costs = _data(60)
    model = BayesMinimumRiskClassifier(random_state=0)
    with pytest.raises(ValueError, match="cv=3 folds needs at least 3 samples of each class"):
        model.fit(X, np.r_[np.ones(2, dtype=int), np.zeros(58, dtype=int)])
    model.fit(X, y, cost_matrix=costs)
    with pytest.raises(ValueError, match="cost_matrix has 59 rows but the data has 60 samples"):
        model.predict(X, cost_matrix=costs[:59])
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        model.fit(X, np.arange(60) % 3)


def test_registry_entries():
    assert set(COST_METHODS) == {"bmr-lr", "bmr-rf", "bmr-dt", "bmr-hgb"}
    for key, cls in COST_METHODS.items():
        assert METHODS[key] is cls
        assert set(cls().get_params()) == set(BayesMinimumRiskClassifier().get_params())


# The registry classes run through scikit-learn's checks in tests/algorithms/test_sklearn_contract.py;
# this is a parameter combination no key covers.
@parametrize_with_checks([BayesMinimumRiskClassifier(method="sigmoid", random_state=0)])
def test_sigmoid_calibration_passes_the_sklearn_checks(estimator, check):
    check(estimator)
