"""Splits of the three protocols, staged evaluation from one fit, and boosting traces
(tasks.fitting.evaluate)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import AdaBoostClassifier
from sklearn.tree import DecisionTreeClassifier

from tasks.fitting.evaluate import (
    decision_scores,
    evaluate_predictions,
    evaluate_staged,
    predict_labels,
    predict_uses_costs,
    supports_staged,
    trace_curves,
)
from tasks.fitting.splits import derive_seed, iter_split_ids, make_split


@pytest.fixture(scope="module")
def wisconsin():
    features, target = load_breast_cancer(return_X_y=True)
    return features, 1 - target  # malignant (212 of 569) is the positive class


def test_cv_folds_partition_every_repeat_and_stay_stratified(wisconsin):
    _, target = wisconsin
    for repeat in range(2):
        splits = [make_split(target, "cv", repeat=repeat, fold=fold, n_folds=5, seed=7) for fold in range(5)]
        tests = np.concatenate([split.test for split in splits])
        assert np.array_equal(np.sort(tests), np.arange(569))  # every row is tested exactly once
        for split in splits:
            assert np.intersect1d(split.train, split.test).size == 0
            assert split.train.size + split.test.size == 569
            assert split.validation.size == 0
            # 212 positives over 5 folds: 42 or 43 per fold
            assert target[split.test].sum() in (42, 43)


def test_repeats_differ_and_do_not_depend_on_how_many_there_are(wisconsin):
    _, target = wisconsin
    first = make_split(target, "cv", repeat=0, fold=0, n_folds=5, seed=7)
    second = make_split(target, "cv", repeat=1, fold=0, n_folds=5, seed=7)
    again = make_split(target, "cv", repeat=0, fold=0, n_folds=5, seed=7)
    assert not np.array_equal(first.test, second.test)
    assert np.array_equal(first.test, again.test)
    assert not np.array_equal(first.test, make_split(target, "cv", repeat=0, fold=0, n_folds=5, seed=8).test)


def test_holdout_is_a_stratified_half_split(wisconsin):
    _, target = wisconsin
    split = make_split(target, "holdout", repeat=3, seed=0)
    assert (split.train.size, split.test.size) == (284, 285)
    assert np.array_equal(np.union1d(split.train, split.test), np.arange(569))
    assert target[split.test].sum() in (106, 107)


def test_tvt_is_a_stratified_40_30_30_split(wisconsin):
    _, target = wisconsin
    split = make_split(target, "tvt", repeat=0, seed=0, tvt_fractions=(0.4, 0.3, 0.3))
    assert split.train.size == 227  # round(0.4 * 569) rounded by sklearn's train_size
    assert abs(split.validation.size - split.test.size) <= 1
    assert np.array_equal(
        np.sort(np.concatenate([split.train, split.validation, split.test])), np.arange(569)
    )
    for part in (split.train, split.validation, split.test):
        assert abs(target[part].mean() - 212 / 569) < 0.01


def test_bad_split_requests_name_the_problem(wisconsin):
    _, target = wisconsin
    with pytest.raises(ValueError, match=r"fold must be in \[0, 5\)"):
        make_split(target, "cv", repeat=0, fold=5, n_folds=5)
    with pytest.raises(ValueError, match="one split per repeat; fold must be 0"):
        make_split(target, "holdout", repeat=0, fold=1)
    with pytest.raises(ValueError, match="unknown protocol 'loo'"):
        make_split(target, "loo", repeat=0)
    with pytest.raises(ValueError, match=r"exactly two classes, got \[0, 1, 2\]"):
        make_split(np.arange(30) % 3, "holdout", repeat=0)


def test_split_ids_and_counts():
    assert list(iter_split_ids("cv", 2, 3)) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert list(iter_split_ids("holdout", 3, 5)) == [(0, 0), (1, 0), (2, 0)]
    assert len(list(iter_split_ids("cv", 10, 5))) == 50
    assert len(list(iter_split_ids("holdout", 100, 5))) == 100
    assert derive_seed(0, 1, 2) == derive_seed(0, 1, 2) != derive_seed(0, 2, 1)


def test_metrics_of_hand_counted_predictions():
    # TP = 1, FN = 1, TN = 2, FP = 1: TPR 1/2, TNR 2/3, precision 1/2
    target = np.array([1, 1, 0, 0, 0])
    predicted = np.array([1, 0, 0, 0, 1])
    metrics = evaluate_predictions(target, predicted)
    assert metrics["tpr"] == pytest.approx(0.5)
    assert metrics["tnr"] == pytest.approx(2 / 3)
    assert metrics["precision"] == pytest.approx(0.5)
    assert metrics["f1"] == pytest.approx(0.5)
    assert metrics["g_mean"] == pytest.approx(np.sqrt(0.5 * 2 / 3))
    assert "auc" not in metrics and "savings" not in metrics


def test_staged_sizes_equal_separate_fits_of_that_size(wisconsin):
    features, target = wisconsin
    split = make_split(target, "holdout", repeat=0)
    long_fit = AdaBoostClassifier(n_estimators=12, random_state=0).fit(
        features[split.train], target[split.train]
    )
    staged = evaluate_staged(long_fit, features[split.test], target[split.test], [4, 12])
    for size in (4, 12):
        short_fit = AdaBoostClassifier(n_estimators=size, random_state=0).fit(
            features[split.train], target[split.train]
        )
        expected = evaluate_predictions(
            target[split.test],
            short_fit.predict(features[split.test]),
            short_fit.decision_function(features[split.test]),
        )
        assert staged[size]["rounds_used"] == size
        for name, value in expected.items():
            assert staged[size][name] == pytest.approx(value), name


def test_a_model_that_stopped_early_is_scored_with_its_last_stage():
    # Separable data: the first stump has zero error and AdaBoost stops after one round.
    features = np.array([[0.0], [1.0], [2.0], [3.0], [10.0], [11.0]])
    target = np.array([0, 0, 0, 0, 1, 1])
    model = AdaBoostClassifier(n_estimators=50, random_state=0).fit(features, target)
    assert len(model.estimators_) == 1
    staged = evaluate_staged(model, features, target, [1, 25, 50])
    assert [staged[size]["rounds_used"] for size in (1, 25, 50)] == [1, 1, 1]
    assert staged[50]["f1"] == staged[1]["f1"] == 1.0


def test_staged_support_and_scores(wisconsin):
    features, target = wisconsin
    assert supports_staged(AdaBoostClassifier())
    assert not supports_staged(DecisionTreeClassifier())
    boosted = AdaBoostClassifier(n_estimators=3, random_state=0).fit(features, target)
    assert np.allclose(decision_scores(boosted, features[:5]), boosted.decision_function(features[:5]))
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(features, target)
    assert np.allclose(decision_scores(tree, features[:5]), tree.predict_proba(features[:5])[:, 1])


class _Traced:
    def __init__(self, trace):
        self.trace_ = trace


def test_trace_curves_lists_every_traced_quantity_per_round():
    traced = _Traced({"alpha": np.array([0.5, 0.25]), "weighted_error": np.array([0.1, 0.2])})
    assert trace_curves(traced) == {"alpha": [0.5, 0.25], "weighted_error": [0.1, 0.2]}
    assert trace_curves(DecisionTreeClassifier()) == {}


def test_trace_of_a_registered_boosting_method(wisconsin):
    from algorithms import METHODS

    features, target = wisconsin
    model = METHODS["adacc1"](n_estimators=6, random_state=0).fit(features, target)
    curves = trace_curves(model)
    assert curves and all(len(values) == len(model.estimators_) for values in curves.values())


def test_bayes_minimum_risk_predicts_with_the_evaluated_rows_costs(wisconsin):
    from algorithms import METHODS

    features, target = wisconsin
    model = METHODS["bmr-lr"](random_state=0).fit(features[::2], target[::2])  # unit costs: threshold 1/2
    rows = features[1::2]
    positive = model.predict_proba(rows)[:, 1]
    # Row i costs [C_FP, C_FN, C_TP, C_TN]: t_i = C_FP / (C_FP + C_FN) = 0.02 on even rows, 0.98 on odd ones.
    costs = np.zeros((rows.shape[0], 4))
    costs[0::2, :2] = [1.0, 49.0]
    costs[1::2, :2] = [49.0, 1.0]
    thresholds = np.where(np.arange(rows.shape[0]) % 2 == 0, 0.02, 0.98)
    assert predict_uses_costs(model)
    labels = predict_labels(model, rows, costs)
    assert np.array_equal(labels, (positive > thresholds).astype(int))
    assert not np.array_equal(labels, model.predict(rows))  # the class-level costs would decide otherwise
    assert np.array_equal(predict_labels(model, rows), model.predict(rows))

    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(features, target)
    assert not predict_uses_costs(tree)
    assert np.array_equal(predict_labels(tree, rows, costs), tree.predict(rows))


def test_staged_evaluation_decides_with_the_evaluated_rows_costs_where_staged_predict_takes_them(wisconsin):
    """AdaMEC's staged predictions get the test rows' costs (issue 8); every size is scored with them."""
    from algorithms import METHODS
    from algorithms.metrics import savings_score

    features, target = wisconsin
    rows, row_target = features[1::2], target[1::2]
    costs = np.zeros((rows.shape[0], 4))
    costs[0::2, :2] = [1.0, 49.0]  # even rows: cheap to flag, dear to miss
    costs[1::2, :2] = [49.0, 1.0]
    model = METHODS["adamec"](n_estimators=6, random_state=0).fit(features[::2], target[::2])
    assert predict_uses_costs(model, "staged_predict") and not predict_uses_costs(
        model, "staged_decision_function"
    )
    by_size = evaluate_staged(model, rows, row_target, [3, 6], costs)
    for size in (3, 6):
        stages = model.staged_predict(rows, cost_matrix=costs)
        labels = next(label for round_, label in enumerate(stages, start=1) if round_ == size)
        assert by_size[size]["savings"] == pytest.approx(savings_score(row_target, labels, costs))
    assert not np.array_equal(model.predict(rows, cost_matrix=costs), model.predict(rows))
