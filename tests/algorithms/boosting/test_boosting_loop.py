"""Behaviour of the shared boosting loop for AdaBoost, AdaCC1/2 and AdaN-CC1/2."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn
from scipy.special import expit
from sklearn.datasets import make_classification
from sklearn.model_selection import cross_validate
from sklearn.tree import DecisionTreeClassifier

from algorithms import METHODS, metrics
from algorithms.boosting import BOOSTING_METHODS, AdaBoost, AdaCC1, BaseBoostingClassifier, BoostingRules
from algorithms.boosting._base import FixedCostBoostingClassifier
from algorithms.boosting._rules import (
    RoundCosts,
    adaboost_alpha,
    cost_proportional_initial_weights,
    fixed_round_costs,
)
from algorithms.boosting.m2 import probability_output
from algorithms.exceptions import CostMatrixIgnoredWarning

KEYS = ["adaboost", "adacc1", "adacc2", "adancc1", "adancc2"]
FORMULATION_CASES = [(key, {}) for key in KEYS] + [
    (key, {"formulation": "paper"}) for key in KEYS if key != "adaboost"
]
CASE_IDS = [key + ("-paper" if params else "") for key, params in FORMULATION_CASES]


@pytest.fixture(scope="module")
def imbalanced():
    X, y = make_classification(
        n_samples=400, n_features=5, n_informative=3, weights=[0.85], flip_y=0.03, random_state=7
    )
    return X, y


def _make(key, params, **extra):
    return BOOSTING_METHODS[key](**params, **extra)


def test_registry_keys():
    expected = {"adaboost": AdaBoost, "adacc1": AdaCC1}
    for key, estimator_class in expected.items():
        assert BOOSTING_METHODS[key] is estimator_class and METHODS[key] is estimator_class
    assert set(KEYS) <= set(BOOSTING_METHODS)
    assert all(issubclass(BOOSTING_METHODS[key], BaseBoostingClassifier) for key in KEYS)


@pytest.mark.parametrize(("key", "params"), FORMULATION_CASES, ids=CASE_IDS)
def test_staged_outputs_end_at_the_final_model(imbalanced, key, params):
    X, y = imbalanced
    model = _make(key, params, n_estimators=30, random_state=0).fit(X, y)
    staged = list(model.staged_predict(X))
    assert len(staged) == len(model.estimators_)
    np.testing.assert_array_equal(staged[-1], model.predict(X))
    np.testing.assert_array_equal(list(model.staged_decision_function(X))[-1], model.decision_function(X))
    np.testing.assert_array_equal(list(model.staged_predict_proba(X))[-1], model.predict_proba(X))


@pytest.mark.parametrize(("key", "params"), FORMULATION_CASES, ids=CASE_IDS)
def test_short_model_is_the_prefix_of_a_long_one(imbalanced, key, params):
    X, y = imbalanced
    learner = DecisionTreeClassifier(max_depth=1, max_features=2)  # random: exercises the sub-seeds too
    short = _make(key, params, estimator=learner, n_estimators=25, random_state=4).fit(X, y)
    long = _make(key, params, estimator=learner, n_estimators=200, random_state=4).fit(X, y)
    rounds = len(short.estimators_)
    assert rounds == 25 or short.stop_reason_ != "n_estimators"
    np.testing.assert_array_equal(long.estimator_weights_[:rounds], short.estimator_weights_)
    for name, values in short.trace_.items():
        np.testing.assert_array_equal(long.trace_[name][:rounds], values)
    staged = list(long.staged_decision_function(X))
    np.testing.assert_allclose(staged[rounds - 1], short.decision_function(X), rtol=0, atol=1e-14)
    np.testing.assert_array_equal(list(long.staged_predict(X))[rounds - 1], short.predict(X))


@pytest.mark.parametrize(("key", "params"), FORMULATION_CASES, ids=CASE_IDS)
def test_trace_rates_match_the_partial_ensembles(imbalanced, key, params):
    """The O(n) cumulative votes give the same TPR / TNR as predicting with each partial ensemble."""
    X, y = imbalanced
    model = _make(key, params, n_estimators=20).fit(X, y)
    assert set(model.trace_) == {
        "alpha",
        "weighted_error",
        "train_tpr",
        "train_tnr",
        "positive_weight_share",
        "positive_cost",
        "negative_cost",
    }
    for round_index, prediction in enumerate(model.staged_predict(X)):
        assert model.trace_["train_tpr"][round_index] == pytest.approx(metrics.tpr(y, prediction), abs=1e-12)
        assert model.trace_["train_tnr"][round_index] == pytest.approx(metrics.tnr(y, prediction), abs=1e-12)
    share = model.trace_["positive_weight_share"][-1]
    assert share == pytest.approx(model.final_distribution_[y == 1].sum(), abs=1e-12)
    assert np.all((model.estimator_weights_ > 0) & np.isfinite(model.estimator_weights_))


@pytest.mark.parametrize("key", ["adacc1", "adacc2", "adancc1", "adancc2"])
def test_cumulative_costs_boost_the_positive_class_after_round_one(imbalanced, key):
    """Same first stump as AdaBoost; with FNR > FPR the missed positives cost more, so they gain weight."""
    X, y = imbalanced
    adaboost = AdaBoost(n_estimators=1).fit(X, y)
    adacc = BOOSTING_METHODS[key](n_estimators=1).fit(X, y)
    assert adacc.trace_["train_tpr"][0] < adacc.trace_["train_tnr"][0]  # FNR > FPR on this imbalanced set
    assert adacc.trace_["positive_cost"][0] == pytest.approx(2.0 - adacc.trace_["train_tpr"][0])
    assert adacc.trace_["negative_cost"][0] == 1.0
    assert adacc.trace_["positive_weight_share"][0] > adaboost.trace_["positive_weight_share"][0]


@pytest.mark.parametrize(("key", "params"), FORMULATION_CASES, ids=CASE_IDS)
def test_perfectly_separable_data_gives_one_finite_learner(key, params):
    X = np.linspace(-1.0, 1.0, 40).reshape(-1, 1)
    y = (X[:, 0] > 0.3).astype(int)
    model = _make(key, params, n_estimators=50).fit(X, y)
    assert len(model.estimators_) == 1 and model.stop_reason_ == "perfect learner"
    assert np.isfinite(model.estimator_weights_).all() and 5.0 < model.estimator_weights_[0] < 50.0
    np.testing.assert_array_equal(model.predict(X), y)
    score = model.decision_function(X)
    np.testing.assert_array_equal(score, np.where(y == 1, 1.0, -1.0))
    proba = model.predict_proba(X)
    assert np.isfinite(proba).all() and np.all((proba >= 0) & (proba <= 1))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert metrics.auc(y, score) == 1.0


@pytest.mark.parametrize("key", KEYS)
def test_string_labels_and_pos_label(imbalanced, key):
    X, y = imbalanced
    labels = np.where(y == 1, "fraud", "normal")
    model = BOOSTING_METHODS[key](n_estimators=10).fit(X, labels)
    assert model.pos_label_ == "fraud"  # the minority
    assert set(model.predict(X)) <= {"fraud", "normal"}
    numeric = BOOSTING_METHODS[key](n_estimators=10).fit(X, y)
    np.testing.assert_array_equal(model.predict(X) == "fraud", numeric.predict(X) == 1)
    # "fraud" sorts first, so scikit-learn's orientation makes positive scores favour "normal"
    np.testing.assert_allclose(model.decision_function(X), -numeric.decision_function(X))
    flipped = BOOSTING_METHODS[key](n_estimators=10, pos_label="normal").fit(X, labels)
    assert flipped.pos_label_ == "normal"


@pytest.mark.parametrize("key", KEYS)
def test_decision_function_and_probabilities_follow_scikit_learn_orientation(imbalanced, key):
    X, y = imbalanced
    y_flipped = 1 - y  # now class 0 is the minority, hence the positive class
    model = BOOSTING_METHODS[key](n_estimators=15).fit(X, y_flipped)
    assert model.pos_label_ == 0
    score = model.decision_function(X)
    np.testing.assert_array_equal(model.predict(X), np.where(score > 0, 1, 0))
    assert np.all(np.abs(score) <= 1.0 + 1e-12)
    margin = score * model.estimator_weights_.sum()
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], expit(2.0 * margin), rtol=1e-12)


@pytest.mark.parametrize(
    ("make_input", "message"),
    [
        (lambda X, y: (X, np.zeros_like(y)), "only one class: np.int64\\(0\\)|only one class: 0"),
        (
            lambda X, y: (np.where(np.arange(X.size).reshape(X.shape) == 7, np.nan, X), y),
            "Input X contains NaN",
        ),
        (
            lambda X, y: (np.where(np.arange(X.size).reshape(X.shape) == 7, np.inf, X), y),
            "Input X contains inf",
        ),
        (lambda X, y: (X, np.arange(y.size) % 3), "binary classification.*3 classes \\[0, 1, 2\\]"),
    ],
    ids=["one-class", "nan", "inf", "three-labels"],
)
@pytest.mark.parametrize("key", KEYS)
def test_bad_input_raises_a_clear_error(imbalanced, key, make_input, message):
    X, y = make_input(*imbalanced)
    with pytest.raises(ValueError, match=message):
        BOOSTING_METHODS[key](n_estimators=3).fit(X, y)


@pytest.mark.parametrize("key", KEYS)
def test_bad_sample_weight_and_pos_label_raise(imbalanced, key):
    X, y = imbalanced
    estimator = BOOSTING_METHODS[key](n_estimators=3)
    with pytest.raises(ValueError, match=r"sample_weight has shape \(399,\) but X and y have 400 samples"):
        estimator.fit(X, y, sample_weight=np.ones(399))
    with pytest.raises(
        ValueError, match=r"sample_weight must be finite and non-negative; bad values at rows \[3\]"
    ):
        estimator.fit(X, y, sample_weight=np.where(np.arange(400) == 3, -1.0, 1.0))
    with pytest.raises(
        ValueError, match="class np.int64\\(1\\) has zero total sample_weight|class 1 has zero"
    ):
        estimator.fit(X, y, sample_weight=(y == 0).astype(float))
    with pytest.raises(ValueError, match=r"pos_label='yes' is not one of the classes \[0, 1\]"):
        BOOSTING_METHODS[key](pos_label="yes").fit(X, y)
    with pytest.raises(ValueError, match=r"cost_matrix has 2 rows but the data has 400 samples"):
        estimator.fit(X, y, cost_matrix=np.ones((2, 4)))


def test_a_first_learner_no_better_than_chance_raises():
    X = np.zeros((10, 2))
    y = np.array([0, 1] * 5)
    with pytest.raises(
        ValueError, match="weighted error 0.5 and a non-positive weight .* no learner could be kept"
    ):
        AdaBoost().fit(X, y)


@pytest.mark.parametrize("key", KEYS)
def test_sample_weight_scale_and_a_class_constant_cost_matrix_are_neutral(imbalanced, key):
    """Scaling all weights changes nothing; a cost matrix constant per class gives the derived-cost methods
    row weights 1 (AdaCC), or is ignored (AdaBoost)."""
    X, y = imbalanced
    plain = BOOSTING_METHODS[key](n_estimators=20).fit(X, y)
    scaled = BOOSTING_METHODS[key](n_estimators=20).fit(X, y, sample_weight=np.full(y.size, 7.5))
    np.testing.assert_allclose(scaled.estimator_weights_, plain.estimator_weights_, rtol=1e-9)
    costs = np.where(y[:, None] == 1, [[0.5, 3.0, 0.2, 0.0]], [[2.0, 0.7, 0.0, 0.4]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CostMatrixIgnoredWarning)
        with_costs = BOOSTING_METHODS[key](n_estimators=20).fit(X, y, cost_matrix=costs)
    np.testing.assert_allclose(with_costs.estimator_weights_, plain.estimator_weights_, rtol=1e-12)


def test_sample_weight_changes_the_initial_distribution(imbalanced):
    X, y = imbalanced
    weights = np.where(y == 1, 5.0, 1.0)
    weighted = AdaBoost(n_estimators=1).fit(X, y, sample_weight=weights)
    first = weighted.estimators_[0]
    oracle = DecisionTreeClassifier(max_depth=1).fit(X, y, sample_weight=weights)
    assert (first.feature_, first.threshold_) == (
        oracle.tree_.feature[0],
        pytest.approx(oracle.tree_.threshold[0]),
    )


def test_sub_seeds_are_distinct_and_reproducible(imbalanced):
    X, y = imbalanced
    learner = DecisionTreeClassifier(max_depth=1, max_features=1)
    model = AdaCC1(learner, n_estimators=20, random_state=11).fit(X, y)
    seeds = [tree.random_state for tree in model.estimators_]
    assert len(set(seeds)) == len(seeds)
    again = AdaCC1(learner, n_estimators=20, random_state=11).fit(X, y)
    assert [tree.random_state for tree in again.estimators_] == seeds
    np.testing.assert_array_equal(again.estimator_weights_, model.estimator_weights_)


def test_cost_matrix_is_routed_through_cross_validation(imbalanced):
    X, y = imbalanced
    costs = np.tile([1.0, 5.0, 0.0, 0.0], (y.size, 1))
    with sklearn.config_context(enable_metadata_routing=True):
        estimator = AdaCC1(n_estimators=5).set_fit_request(cost_matrix=True, sample_weight=False)
        result = cross_validate(estimator, X, y, cv=3, params={"cost_matrix": costs})
    assert result["test_score"].shape == (3,)
    with sklearn.config_context(enable_metadata_routing=True):
        unrequested = AdaCC1(n_estimators=5)
        with pytest.raises(Exception, match="cost_matrix"):
            cross_validate(unrequested, X, y, cv=3, params={"cost_matrix": costs})


class _AsymmetricVote(BaseBoostingClassifier):
    """A RareBoost-shaped binding: positive votes count twice as much as negative ones."""

    def _boosting_rules(self):
        return BoostingRules(vote=lambda alpha: (2.0 * alpha, alpha))


class _ProbabilityOutputOnDuplicatedMinority(BaseBoostingClassifier):
    """An M2-shaped binding: real-valued outputs, a learner trained on an augmented round set."""

    def _boosting_rules(self):
        return BoostingRules(weak_output=probability_output)

    def _default_estimator(self):
        return DecisionTreeClassifier(max_depth=2)

    def _round_training_set_builder(self, X, y01):
        minority = np.flatnonzero(y01 == 1)
        return lambda weights, random_state: (
            np.vstack([X, X[minority]]),
            np.concatenate([y01, y01[minority]]),
            np.concatenate([weights, weights[minority]]),
        )


class _AlphaWithAFurtherQuantity(BaseBoostingClassifier):
    """An alpha rule that hands the vote rule one more quantity (as RareBoost hands its side alphas)."""

    def _boosting_rules(self):
        return BoostingRules(
            alpha=lambda weighted_error: {"alpha": adaboost_alpha(weighted_error), "error": weighted_error},
            vote=lambda alpha, error: (alpha, error),
        )


def test_an_alpha_rule_hands_further_quantities_to_the_rules_after_it(imbalanced):
    X, y = imbalanced
    model = _AlphaWithAFurtherQuantity(n_estimators=8).fit(X, y)
    adaboost = AdaBoost(n_estimators=8).fit(X, y)
    np.testing.assert_array_equal(model.estimator_weights_, adaboost.estimator_weights_)
    np.testing.assert_array_equal(model.vote_weights_[:, 0], adaboost.estimator_weights_)
    np.testing.assert_array_equal(model.vote_weights_[:, 1], adaboost.estimator_errors_)


def test_asymmetric_votes_are_normalised(imbalanced):
    X, y = imbalanced
    model = _AsymmetricVote(n_estimators=10).fit(X, y)
    np.testing.assert_allclose(model.vote_weights_[:, 0], 2.0 * model.vote_weights_[:, 1])
    outputs = np.array([np.where(tree.predict(X) == 1, 1.0, -1.0) for tree in model.estimators_])
    margin = (np.where(outputs > 0, model.vote_weights_[:, :1], model.vote_weights_[:, 1:]) * outputs).sum(0)
    np.testing.assert_allclose(model.decision_function(X), margin / model.vote_weights_[:, 0].sum())


def test_real_valued_outputs_and_augmented_round_sets(imbalanced):
    X, y = imbalanced
    model = _ProbabilityOutputOnDuplicatedMinority(n_estimators=5).fit(X, y)
    assert all(isinstance(tree, DecisionTreeClassifier) for tree in model.estimators_)
    assert model.estimators_[0].tree_.weighted_n_node_samples[0] > 1.0  # trained on the augmented set
    outputs = [2.0 * tree.predict_proba(X)[:, 1] - 1.0 for tree in model.estimators_]
    assert any(np.any(np.abs(o) < 1.0) for o in outputs)  # genuinely real-valued
    margin = sum(alpha * o for alpha, o in zip(model.estimator_weights_, outputs, strict=True))
    np.testing.assert_allclose(model.decision_function(X), margin / model.estimator_weights_.sum())


def test_variants_cannot_override_fit():
    with pytest.raises(TypeError, match="Rogue overrides fit; variants of BaseBoostingClassifier bind rules"):
        type("Rogue", (AdaBoost,), {"fit": lambda self, X, y: self})


class _CostProportionalStart(FixedCostBoostingClassifier):
    """A CGAda-shaped binding of the fixed-cost base: D^1 proportional to C_i, then AdaBoost."""

    def _boosting_rules(self):
        return BoostingRules(initial_weights=cost_proportional_initial_weights, round_costs=fixed_round_costs)


def test_fixed_cost_base_maps_class_costs_and_cost_matrix(imbalanced):
    X, y = imbalanced
    by_class = _CostProportionalStart(n_estimators=1, positive_cost=1.0, negative_cost=0.25).fit(X, y)
    # D^1 before the update: positives 1, negatives 0.25 (normalised); the trace records the class costs
    assert (by_class.trace_["positive_cost"][0], by_class.trace_["negative_cost"][0]) == (1.0, 0.25)
    # the same costs as a cost matrix: C_FN for positives, C_FP for negatives, scaled to max 1
    matrix = np.column_stack([np.full(y.size, 2.0), np.full(y.size, 8.0), np.zeros(y.size), np.zeros(y.size)])
    by_matrix = _CostProportionalStart(n_estimators=1).fit(X, y, cost_matrix=matrix)
    np.testing.assert_allclose(by_matrix.final_distribution_, by_class.final_distribution_, rtol=1e-12)
    scaled = _CostProportionalStart(n_estimators=1).fit(X, y, cost_matrix=matrix * 1000.0)
    np.testing.assert_array_equal(scaled.final_distribution_, by_matrix.final_distribution_)
    first = by_class.estimators_[0]
    oracle = DecisionTreeClassifier(max_depth=1).fit(X, y, sample_weight=np.where(y == 1, 1.0, 0.25))
    assert (first.feature_, first.threshold_) == (
        oracle.tree_.feature[0],
        pytest.approx(oracle.tree_.threshold[0]),
    )
    with pytest.raises(ValueError, match="zero regret"):
        _CostProportionalStart().fit(X, y, cost_matrix=np.zeros((y.size, 4)))


def test_presorted_stump_serves_round_sets_on_the_fit_rows_and_falls_back_otherwise(imbalanced):
    """The features are sorted once, lazily, for rounds trained on the fit's own X (only labels or weights
    change, e.g. Cost-Sensitive AdaBoost's class-balanced weights); any other round set fits a fresh stump."""
    from algorithms.boosting._stump import DecisionStump

    X, y = imbalanced
    weights = np.random.default_rng(0).exponential(size=y.size)
    reference = DecisionStump().fit(X, y, sample_weight=weights)
    fitter = AdaBoost()._weak_learner_fitter(X)
    assert fitter.search is None  # nothing sorted before the first round
    (on_fit_rows,) = fitter([(X, y, weights)], [0])
    assert fitter.search is not None
    copy = X.copy()
    (fallback,) = fitter([(copy, y, weights)], [0])
    assert isinstance(fallback, DecisionStump) and fallback is not on_fit_rows
    for stump in (on_fit_rows, fallback):
        assert (stump.feature_, stump.threshold_) == (reference.feature_, reference.threshold_)
        np.testing.assert_array_equal(stump.predict(X), reference.predict(X))


def _misnamed_alpha(weighted_eror):  # the loop knows "weighted_error", not this name
    return adaboost_alpha(weighted_eror)


class _MisnamedRule(BaseBoostingClassifier):
    def _boosting_rules(self):
        return BoostingRules(alpha=_misnamed_alpha)


class _TooEarlyRule(BaseBoostingClassifier):
    """Round costs that read the alpha, which the loop computes only after them."""

    def _boosting_rules(self):
        return BoostingRules(round_costs=lambda y, alpha: RoundCosts(np.full(y.size, alpha), alpha, alpha))


@pytest.mark.parametrize(
    ("variant", "parameter", "rule"),
    [(_MisnamedRule, "weighted_eror", "_misnamed_alpha"), (_TooEarlyRule, "alpha", "<lambda>")],
)
def test_a_rule_parameter_that_names_no_quantity_raises(imbalanced, variant, parameter, rule):
    X, y = imbalanced
    with pytest.raises(TypeError, match=rf"rule .*{rule} has parameter\(s\) \['{parameter}'\]") as raised:
        variant(n_estimators=2).fit(X, y)
    for known in ("weighted_error", "weights", "output", "cumulative_votes", "fixed_costs"):
        assert f"'{known}'" in str(raised.value)


@pytest.mark.parametrize("key", ["adaboost", "csb1", "adac3", "rareboost"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_stump_outputs_from_their_two_leaves_equal_the_rule_on_every_row(imbalanced, key, dtype):
    """The loop and the staged predictions evaluate a stump's output on one row per leaf and spread it: each
    row must get exactly what the rule computes on it (discrete ``+-1``, CSB1's ``2 p - 1``, RareBoost's
    asymmetric votes), constant stumps included."""
    from algorithms.boosting._base import _weak_output
    from algorithms.boosting._stump import PresortedStumpSearch

    X, y = imbalanced
    X = X.astype(dtype)
    model = BOOSTING_METHODS[key](n_estimators=12, random_state=0).fit(X, y)
    rules = model._boosting_rules()
    # only the negatives carry weight: the loop's constant stump (both leaves the root, threshold inf)
    constant = PresortedStumpSearch(X).fit(y, np.where(y == 1, 0.0, 1.0))
    assert constant.threshold_ == np.inf
    for learner in [*model.estimators_, constant]:
        np.testing.assert_array_equal(
            _weak_output(rules.weak_output, learner, np.asfortranarray(X)), rules.weak_output(learner, X)
        )
    margin = np.zeros(X.shape[0])
    for staged, learner, votes in zip(
        model._staged_margins(X), model.estimators_, model.vote_weights_, strict=True
    ):
        margin = margin + _rules_weighted_votes(rules.weak_output(learner, X.astype(np.float64)), votes)
        np.testing.assert_array_equal(staged[0], margin)


def _rules_weighted_votes(output, votes):
    from algorithms.boosting._rules import weighted_votes

    return weighted_votes(output, votes)
