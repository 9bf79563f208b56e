"""Building registered estimators and the AdaCC paper's cost selection (tasks.fitting.cost_selection)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from algorithms import METHODS
from algorithms.metrics import f1, savings_score
from tasks.fitting.cost_selection import fit_with_cost_selection, regret_scale_grid, select_negative_cost
from tasks.fitting.estimators import build_estimator, fit_estimator, has_class_costs

GRID = (0.1, 0.3, 0.5, 0.7, 1.0)


class ClassCostLogistic(ClassifierMixin, BaseEstimator):
    """Logistic regression with class costs C+ = 1 and C- = ``negative_cost`` as class weights."""

    def __init__(self, negative_cost=1.0):
        self.negative_cost = negative_cost

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        self.fit_costs_ = cost_matrix
        self.model_ = LogisticRegression(class_weight={0: self.negative_cost, 1: 1.0}, max_iter=2000)
        self.model_.fit(X, y, sample_weight=sample_weight)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


@pytest.fixture(scope="module")
def data():
    features, target = load_breast_cancer(return_X_y=True)
    features = (features - features.mean(axis=0)) / features.std(axis=0)
    # Few, noisy features so that C- really moves the decision boundary.
    return features[:, :3], 1 - target


def _f1_of(negative_cost, train_x, train_y, test_x, test_y):
    model = ClassCostLogistic(negative_cost).fit(train_x, train_y)
    return f1(test_y, model.predict(test_x))


def test_training_f1_selection_picks_the_best_candidate_and_returns_it_fitted(data):
    features, target = data
    best, scores, fitted = select_negative_cost(ClassCostLogistic(), features, target, negative_costs=GRID)
    expected = {cost: _f1_of(cost, features, target, features, target) for cost in GRID}
    assert scores == pytest.approx(expected)
    assert best == max(GRID, key=lambda cost: (expected[cost], cost))
    assert len(set(np.round(list(expected.values()), 6))) > 1  # the grid matters on this data
    assert fitted.negative_cost == best
    assert np.array_equal(
        fitted.predict(features), ClassCostLogistic(best).fit(features, target).predict(features)
    )


def test_inner_cv_selection_averages_inner_folds(data):
    features, target = data
    best, scores, fitted = select_negative_cost(
        ClassCostLogistic(),
        features,
        target,
        negative_costs=GRID,
        mode="inner-cv",
        inner_folds=3,
        random_state=5,
    )
    folds = list(StratifiedKFold(3, shuffle=True, random_state=5).split(features, target))
    for cost in GRID:
        expected = np.mean([_f1_of(cost, features[a], target[a], features[b], target[b]) for a, b in folds])
        assert scores[cost] == pytest.approx(expected)
    assert best == max(GRID, key=lambda cost: (scores[cost], cost))
    assert fitted is None  # the caller refits the winner on the whole training fold


def test_validation_selection_and_refit_on_the_training_split(data):
    features, target = data
    train, valid = np.arange(0, 400), np.arange(400, 569)
    result = fit_with_cost_selection(
        ClassCostLogistic(),
        features[train],
        target[train],
        negative_costs=GRID,
        validation=(features[valid], target[valid]),
    )
    expected = {
        cost: _f1_of(cost, features[train], target[train], features[valid], target[valid]) for cost in GRID
    }
    assert result.selection_scores == pytest.approx(expected)
    assert result.negative_cost == max(GRID, key=lambda cost: (expected[cost], cost))
    refit = ClassCostLogistic(result.negative_cost).fit(features[train], target[train])
    assert np.array_equal(result.model.predict(features), refit.predict(features))
    assert result.fit_seconds > 0


def test_ties_go_to_the_last_candidate_of_the_grid():
    # Perfectly separable data: every C- gives training F1 = 1; the grid's order, not the values, decides.
    features = np.array([[0.0], [0.1], [0.2], [5.0], [5.1]])
    target = np.array([0, 0, 0, 1, 1])
    best, scores, _ = select_negative_cost(
        ClassCostLogistic(), features, target, negative_costs=(0.2, 0.9, 0.5)
    )
    assert set(scores.values()) == {1.0}
    assert best == 0.5


def test_no_selection_without_class_costs_or_when_switched_off(data):
    features, target = data
    plain = fit_with_cost_selection(LogisticRegression(max_iter=500), features, target)
    assert plain.negative_cost is None and plain.selection_scores == {}
    off = fit_with_cost_selection(ClassCostLogistic(0.4), features, target, cost_selection="none")
    assert off.negative_cost is None and off.model.negative_cost == 0.4
    assert has_class_costs(ClassCostLogistic()) and not has_class_costs(LogisticRegression())


def test_with_a_cost_matrix_c_minus_scales_the_regrets_and_is_chosen_by_savings(data):
    """Grid ``(R+/R-)^(k/4)``: here R+ = 5 - 0 and R- = 1 - 0, so 5^(k/4); score = training savings."""
    features, target = data
    costs = np.tile([1.0, 5.0, 0.0, 0.0], (len(target), 1))
    assert regret_scale_grid(target, costs) == pytest.approx([5.0 ** (k / 4) for k in range(5)])
    assert regret_scale_grid(target, np.tile([2.0, 2.0, 0.0, 0.0], (len(target), 1))) == (1.0,)
    result = fit_with_cost_selection(ClassCostLogistic(), features, target, cost_matrix=costs)
    expected = {
        cost: savings_score(target, ClassCostLogistic(cost).fit(features, target).predict(features), costs)
        for cost in regret_scale_grid(target, costs)
    }
    assert result.selection_scores == pytest.approx(expected)
    assert len(set(np.round(list(expected.values()), 6))) > 1  # the grid matters on this data
    assert result.negative_cost == max(expected, key=lambda cost: (expected[cost], cost))
    assert result.model.fit_costs_ is costs and result.model.negative_cost == result.negative_cost
    with pytest.raises(ValueError, match=r"validation=\(features, target, costs\)"):
        select_negative_cost(
            ClassCostLogistic(),
            features,
            target,
            negative_costs=(1.0, 2.0),
            mode="validation",
            validation=(features, target),
            cost_matrix=costs,
        )


def test_selection_errors_are_explicit(data):
    features, target = data
    with pytest.raises(ValueError, match="unknown cost selection mode 'grid'"):
        select_negative_cost(ClassCostLogistic(), features, target, negative_costs=GRID, mode="grid")
    with pytest.raises(ValueError, match="needs validation="):
        select_negative_cost(ClassCostLogistic(), features, target, negative_costs=GRID, mode="validation")
    with pytest.raises(ValueError, match="at least one candidate"):
        select_negative_cost(ClassCostLogistic(), features, target, negative_costs=())


def test_build_estimator_from_the_method_table():
    model = build_estimator("adaboost", {"n_estimators": 7}, random_state=3)
    assert model.get_params()["n_estimators"] == 7 and model.get_params()["random_state"] == 3
    assert build_estimator("adaboost", {"random_state": 1}, random_state=3).get_params()["random_state"] == 1
    with pytest.raises(ValueError, match="unknown method 'no-such-method'; registered methods: .*adaboost"):
        build_estimator("no-such-method")
    with pytest.raises(ValueError, match=r"method 'adaboost' has no parameter\(s\) \['depth'\]"):
        build_estimator("adaboost", {"depth": 3})


def test_fit_estimator_passes_the_cost_matrix_only_when_given(data):
    features, target = data
    assert fit_estimator(ClassCostLogistic(), features, target).fit_costs_ is None
    costs = np.ones((len(target), 4))
    assert fit_estimator(ClassCostLogistic(), features, target, costs).fit_costs_ is costs


def test_the_regret_grid_is_one_candidate_when_c_minus_would_scale_nothing(data):
    _, target = data
    no_negative_regret = np.tile([0.0, 5.0, 0.0, 0.0], (len(target), 1))
    no_positive_regret = np.tile([1.0, 0.0, 0.0, 0.0], (len(target), 1))
    almost_equal = np.tile([1.0, 1.0005, 0.0, 0.0], (len(target), 1))
    for costs in (no_negative_regret, no_positive_regret, almost_equal):
        assert regret_scale_grid(target, costs) == (1.0,)
    assert regret_scale_grid(target, np.tile([4.0, 1.0, 0.0, 0.0], (len(target), 1)))[-1] == 0.25


class IgnoresItsCosts(ClassCostLogistic):
    """The same model whatever C-: every candidate scores the same."""

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        self.model_ = LogisticRegression(max_iter=2000).fit(X, y)
        self.classes_ = self.model_.classes_
        return self


def test_ties_and_undefined_scores_go_to_the_last_candidate_of_the_grid(data):
    """Later in the grid is closer to cost-blind (equal class costs when the regret grid descends)."""
    features, target = data
    descending = (1.0, 0.5, 0.25)
    best, scores, _ = select_negative_cost(IgnoresItsCosts(), features, target, negative_costs=descending)
    assert len(set(scores.values())) == 1 and best == 0.25
    costless = np.zeros((len(target), 4))  # savings are undefined (NaN) when nothing costs anything
    best, scores, fitted = select_negative_cost(
        ClassCostLogistic(), features, target, negative_costs=descending, cost_matrix=costless
    )
    assert all(np.isnan(score) for score in scores.values()) and best == 0.25 and fitted.negative_cost == 0.25


class FailsBelowHalf(ClassCostLogistic):
    """Cannot be fit for C- < 0.5 (as a boosting method whose first learner cannot beat chance)."""

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        if self.negative_cost < 0.5:
            raise ValueError(f"no learner could be kept at C-={self.negative_cost}")
        return super().fit(X, y, sample_weight, cost_matrix=cost_matrix)


def test_candidates_that_cannot_be_fit_are_not_selectable(data):
    features, target = data
    best, scores, fitted = select_negative_cost(FailsBelowHalf(), features, target, negative_costs=GRID)
    assert np.isnan(scores[0.1]) and np.isnan(scores[0.3])
    expected = {cost: _f1_of(cost, features, target, features, target) for cost in (0.5, 0.7, 1.0)}
    assert best == max(expected, key=lambda cost: (expected[cost], cost))
    assert fitted.negative_cost == best
    with pytest.raises(ValueError, match=r"no candidate C- could be fit.*C-=0.1: ValueError: no learner"):
        select_negative_cost(FailsBelowHalf(), features, target, negative_costs=(0.1, 0.3))


@pytest.fixture(scope="module")
def credit_like():
    """A credit-scoring-shaped problem: 9 % defaults, C_FN = 75 % of a log-normal loan, C_FP = 5 % of it
    plus 50 (lost interest and handling), C_TP = C_TN = 0, so a default costs about 12x a wrongly refused
    loan (credit scoring's own regret ratio is 12.7)."""
    from sklearn.model_selection import train_test_split

    rng = np.random.default_rng(5)
    n = 3000
    X = rng.normal(size=(n, 6))
    y = (X[:, 0] + 0.6 * X[:, 1] + rng.normal(scale=1.3, size=n) > 2.4).astype(int)
    loan = np.exp(rng.normal(8.5, 0.6, size=n))
    costs = np.column_stack([0.05 * loan + 50, 0.75 * loan, np.zeros(n), np.zeros(n)])
    return train_test_split(X, y, costs, test_size=0.5, stratify=y, random_state=0)


@pytest.mark.parametrize("key", ["csb2", "adacost"])
def test_rules_that_reapply_the_regret_ratio_every_round_are_tamed_by_the_selected_c_minus(credit_like, key):
    """Issue 8 on all of credit scoring: CSB2 flagged 98 % of the rows, AdaCost 91 %. With the regrets' own
    ratio (C- = 1) they over-flag here too; C- chosen by training savings flags far fewer and saves more."""
    from algorithms import METHODS
    from tasks.fitting.evaluate import predict_labels

    X_train, X_test, y_train, y_test, costs_train, costs_test = credit_like
    as_is = METHODS[key](n_estimators=100, random_state=0).fit(X_train, y_train, cost_matrix=costs_train)
    flagged_as_is = predict_labels(as_is, X_test, costs_test)
    selected = fit_with_cost_selection(
        METHODS[key](n_estimators=100, random_state=0), X_train, y_train, cost_matrix=costs_train
    )
    flagged = predict_labels(selected.model, X_test, costs_test)
    assert flagged_as_is.mean() > 0.6 and flagged.mean() < 0.4
    assert selected.negative_cost > 1.0
    saved, saved_as_is = (savings_score(y_test, f, costs_test) for f in (flagged, flagged_as_is))
    assert saved > saved_as_is + 0.05


#: Every registered method with a class cost C- to select (a new fixed-cost variant is tested here by itself).
FIXED_COST_METHODS = [key for key, method in METHODS.items() if has_class_costs(method())]


@pytest.mark.parametrize("key", FIXED_COST_METHODS)
def test_every_fixed_cost_method_selected_by_savings_flags_both_classes_and_saves(credit_like, key):
    from tasks.fitting.evaluate import predict_labels

    X_train, X_test, y_train, y_test, costs_train, costs_test = credit_like
    selected = fit_with_cost_selection(
        METHODS[key](n_estimators=50, random_state=0), X_train, y_train, cost_matrix=costs_train
    )
    assert selected.negative_cost in regret_scale_grid(y_train, costs_train)
    flagged = predict_labels(selected.model, X_test, costs_test)
    assert set(np.unique(flagged)) == {0, 1}
    assert savings_score(y_test, flagged, costs_test) > 0.2


def _candidate_by_candidate(estimator, features, target, grid, mode, validation=None, cost_matrix=None):
    """The selection fitting one model per candidate (per inner fold), as before the grid was fit at once."""
    from tasks.fitting.evaluate import predict_labels

    def score(cost, train, scored):
        model = fit_estimator(clone(estimator).set_params(negative_cost=cost), *train)
        x, y, *costs = scored
        if not costs:
            return f1(y, model.predict(x))
        return savings_score(y, predict_labels(model, x, costs[0]), costs[0])

    def rows(index):
        return (features[index], target[index]) + (() if cost_matrix is None else (cost_matrix[index],))

    everything = rows(np.arange(target.size))
    scores = {}
    for cost in grid:
        try:
            if mode == "inner-cv":
                folds = StratifiedKFold(n_splits=3, shuffle=True, random_state=0).split(features, target)
                scores[cost] = float(np.mean([score(cost, rows(a), rows(b)) for a, b in folds]))
            else:
                scores[cost] = score(cost, everything, everything if mode == "train" else validation)
        except ValueError:
            scores[cost] = float("nan")
    finite = [cost for cost in grid if np.isfinite(scores[cost])]
    return max(reversed(finite), key=lambda cost: scores[cost]), scores


@pytest.mark.parametrize("mode", ["train", "validation", "inner-cv"])
@pytest.mark.parametrize("key", ["csb2", "adamec", "adamec-cal", "cs-adaboost"])
def test_the_grid_fit_at_once_selects_as_candidate_by_candidate_fits(credit_like, key, mode):
    """The C- selection fits its grid in one loop (algorithms.cost_grid); it picks the same C- from the same
    scores, and the model it returns is the winner's own fit."""

    from tasks.fitting.evaluate import predict_labels

    X_train, X_test, y_train, y_test, costs_train, costs_test = credit_like
    X_train, y_train, costs_train = X_train[:900], y_train[:900], costs_train[:900]
    estimator = METHODS[key](n_estimators=20, random_state=0)
    grid = regret_scale_grid(y_train, costs_train)
    validation = (X_test[:600], y_test[:600], costs_test[:600])
    expected_best, expected_scores = _candidate_by_candidate(
        estimator, X_train, y_train, grid, mode, validation, costs_train
    )
    result = fit_with_cost_selection(
        estimator,
        X_train,
        y_train,
        cost_matrix=costs_train,
        cost_selection=mode if mode != "validation" else "train",
        validation=validation if mode == "validation" else None,
    )
    assert result.selection_scores == expected_scores  # exactly: the same models, the same scores
    assert result.negative_cost == expected_best
    own = fit_estimator(
        clone(estimator).set_params(negative_cost=expected_best), X_train, y_train, costs_train
    )
    assert_array_equal = np.testing.assert_array_equal
    assert_array_equal(
        predict_labels(result.model, X_test, costs_test), predict_labels(own, X_test, costs_test)
    )
    assert_array_equal(result.model.predict_proba(X_test), own.predict_proba(X_test))
