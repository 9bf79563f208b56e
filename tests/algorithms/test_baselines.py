"""The data-level baselines: imblearn samplers + a decision tree, and RUSBoost.

Oracles are imbalanced-learn itself: each baseline must predict exactly what the imblearn ``Pipeline`` (or
``RUSBoostClassifier``) built by hand with the same sub-seeds predicts.
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from imblearn import FunctionSampler
from imblearn.ensemble import RUSBoostClassifier
from imblearn.over_sampling import ADASYN, SMOTE, RandomOverSampler
from imblearn.pipeline import make_pipeline
from imblearn.under_sampling import RandomUnderSampler
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score, cross_validate
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from algorithms.baselines import (
    BASELINE_METHODS,
    ADASYNDecisionTree,
    RandomOverSamplingDecisionTree,
    RUSBoost,
    SMOTEDecisionTree,
    resampled_sample_weight,
)

PIPELINE_KEYS = ["smote-dt", "adasyn-dt", "ros-dt", "rus-dt"]
HAND_BUILT_SAMPLERS = {
    "smote-dt": lambda seed: SMOTE(k_neighbors=5, random_state=seed),
    "adasyn-dt": lambda seed: ADASYN(n_neighbors=5, random_state=seed),
    "ros-dt": lambda seed: RandomOverSampler(random_state=seed),
    "rus-dt": lambda seed: RandomUnderSampler(random_state=seed),
}


@pytest.fixture(scope="module")
def imbalanced():
    X, y = make_classification(
        n_samples=300, n_features=5, n_informative=3, weights=[0.88], flip_y=0.02, random_state=21
    )
    return X, y


def _sub_seeds(seed):
    """The sampler's and the tree's seeds, drawn as ``fit`` draws them from its one generator."""
    sampler_seed, tree_seed = np.random.RandomState(seed).randint(np.iinfo(np.int32).max, size=2)
    return int(sampler_seed), int(tree_seed)


def test_registry_keys_construct_without_arguments():
    assert sorted(BASELINE_METHODS) == ["adasyn-dt", "ros-dt", "rus-dt", "rusboost", "smote-dt"]
    for cls in BASELINE_METHODS.values():
        assert sklearn.base.is_classifier(cls())


@pytest.mark.parametrize("key", PIPELINE_KEYS)
def test_baseline_predicts_what_the_hand_built_imblearn_pipeline_predicts(key, imbalanced):
    X, y = imbalanced
    model = BASELINE_METHODS[key](random_state=7).fit(X, y)
    sampler_seed, tree_seed = _sub_seeds(7)
    oracle = make_pipeline(
        HAND_BUILT_SAMPLERS[key](sampler_seed), DecisionTreeClassifier(random_state=tree_seed)
    ).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), oracle.predict(X))
    np.testing.assert_array_equal(model.predict_proba(X), oracle.predict_proba(X))
    assert model.pipeline_.steps[0][0] == "sampler"


@pytest.mark.parametrize(
    ("key", "expected_rows"),
    [
        ("smote-dt", "twice the majority"),
        ("adasyn-dt", "about twice the majority"),
        ("ros-dt", "twice the majority"),
        ("rus-dt", "twice the minority"),
    ],
)
def test_the_tree_learns_a_balanced_training_set(key, expected_rows, imbalanced):
    X, y = imbalanced
    counts = np.bincount(y)
    tree = BASELINE_METHODS[key](random_state=0).fit(X, y).pipeline_.named_steps["tree"]
    rows = tree.tree_.n_node_samples[0]
    if expected_rows == "twice the majority":
        assert rows == 2 * counts.max()
    elif expected_rows == "twice the minority":
        assert rows == 2 * counts.min()
    else:  # ADASYN rounds its per-sample allotments
        assert abs(rows - 2 * counts.max()) <= counts.min()


@pytest.mark.parametrize("key", PIPELINE_KEYS + ["rusboost"])
def test_a_seed_reproduces_the_model(key, imbalanced):
    X, y = imbalanced
    first = BASELINE_METHODS[key](random_state=3).fit(X, y).predict_proba(X)
    again = BASELINE_METHODS[key](random_state=3).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(first, again)


# ---------------------------------------------------------------------------------------------- weights
@pytest.mark.parametrize("key", PIPELINE_KEYS)
def test_unit_sample_weight_changes_nothing(key, imbalanced):
    X, y = imbalanced
    plain = BASELINE_METHODS[key](random_state=1).fit(X, y)
    weighted = BASELINE_METHODS[key](random_state=1).fit(X, y, sample_weight=np.ones(y.size))
    np.testing.assert_array_equal(plain.predict_proba(X), weighted.predict_proba(X))


def test_copied_rows_carry_their_source_weight(imbalanced):
    X, y = imbalanced
    weights = np.random.RandomState(0).uniform(0.5, 2.0, size=y.size)
    model = RandomOverSamplingDecisionTree(random_state=2).fit(X, y, sample_weight=weights)
    sampler = model.pipeline_.named_steps["sampler"]
    tree = model.pipeline_.named_steps["tree"]
    assert tree.tree_.weighted_n_node_samples[0] == pytest.approx(weights[sampler.sample_indices_].sum())


def test_synthetic_rows_carry_the_mean_weight_of_their_class(imbalanced):
    X, y = imbalanced
    weights = np.random.RandomState(0).uniform(0.5, 2.0, size=y.size)
    model = SMOTEDecisionTree(random_state=2).fit(X, y, sample_weight=weights)
    tree = model.pipeline_.named_steps["tree"]
    n_synthetic = tree.tree_.n_node_samples[0] - y.size
    expected = weights.sum() + n_synthetic * weights[y == 1].mean()
    assert tree.tree_.weighted_n_node_samples[0] == pytest.approx(expected)


def test_weights_cannot_follow_a_sampler_that_reorders_rows(imbalanced):
    X, y = imbalanced
    reversing = FunctionSampler(func=lambda X, y: (X[::-1], y[::-1]), validate=False)
    X_resampled, y_resampled = reversing.fit_resample(X, y)
    with pytest.raises(ValueError, match="neither records sample_indices_ nor returns the original rows"):
        resampled_sample_weight(reversing, np.ones(y.size), X, X_resampled, y_resampled)
    model = SMOTEDecisionTree(sampler=reversing)
    with pytest.raises(ValueError, match="sample_weight cannot follow the resampled rows"):
        model.fit(X, y, sample_weight=np.ones(y.size))


# ------------------------------------------------------------------------------------------ small data
def test_interpolating_samplers_use_fewer_neighbours_for_a_tiny_class():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(23, 2))
    y = np.array([0] * 20 + [1] * 3)
    for cls in (SMOTEDecisionTree, ADASYNDecisionTree):
        model = cls(random_state=0).fit(X, y)  # 3 minority samples: 2 neighbours instead of 5
        assert set(model.predict(X)) <= {0, 1}
    with pytest.raises(ValueError, match="SMOTE interpolates .* class 1 has 1 sample; it needs at least 2"):
        SMOTEDecisionTree().fit(X[:21], y[:21])


def test_adasyn_with_nothing_to_generate_leaves_the_data_unchanged():
    X, y = make_classification(n_samples=200, n_features=4, weights=[0.5], flip_y=0.1, random_state=1)
    y = np.r_[np.zeros(100, dtype=int), np.ones(100, dtype=int)]  # exactly balanced
    model = ADASYNDecisionTree(random_state=4).fit(X, y)
    _, tree_seed = _sub_seeds(4)
    plain = DecisionTreeClassifier(random_state=tree_seed).fit(X, y)
    assert model.pipeline_.named_steps["tree"].tree_.n_node_samples[0] == 200
    np.testing.assert_array_equal(model.predict_proba(X), plain.predict_proba(X))


def test_adasyn_without_minority_samples_near_the_majority_leaves_the_data_unchanged():
    """Every minority sample's neighbours are minority samples: ADASYN's r_i are all 0 (imblearn raises a
    RuntimeError), so there is nothing to generate; scikit-learn's positive-only-tag check hits this."""
    rng = np.random.RandomState(0)
    X = np.vstack([rng.normal(0.0, 0.1, size=(20, 2)), rng.normal(10.0, 0.1, size=(60, 2))])
    y = np.r_[np.ones(20, dtype=int), np.zeros(60, dtype=int)]
    model = ADASYNDecisionTree(random_state=4).fit(X, y)
    assert model.pipeline_.named_steps["tree"].tree_.n_node_samples[0] == 80
    np.testing.assert_array_equal(model.predict(X), y)


# ------------------------------------------------------------------------------------------------ RUSBoost
def test_rusboost_is_imblearns_rusboost(imbalanced):
    X, y = imbalanced
    ours = RUSBoost(random_state=5).fit(X, y)
    oracle = RUSBoostClassifier(random_state=5).fit(X, y)
    np.testing.assert_array_equal(ours.decision_function(X), oracle.decision_function(X))
    weights = np.random.RandomState(1).uniform(0.5, 2.0, size=y.size)
    np.testing.assert_array_equal(
        RUSBoost(random_state=5).fit(X, y, sample_weight=weights).predict_proba(X),
        RUSBoostClassifier(random_state=5).fit(X, y, sample_weight=weights).predict_proba(X),
    )


# --------------------------------------------------------------------------- costs, pipelines and routing
@pytest.mark.parametrize("key", sorted(BASELINE_METHODS))
def test_cost_matrix_is_validated_and_ignored(key, imbalanced):
    X, y = imbalanced
    costs = np.tile([1.0, 10.0, 0.0, 0.0], (y.size, 1))
    with_costs = BASELINE_METHODS[key](random_state=0).fit(X, y, cost_matrix=costs)
    without = BASELINE_METHODS[key](random_state=0).fit(X, y)
    np.testing.assert_array_equal(with_costs.predict_proba(X), without.predict_proba(X))
    with pytest.raises(ValueError, match="cost_matrix"):
        BASELINE_METHODS[key]().fit(X, y, cost_matrix=costs[:-1])


@pytest.mark.parametrize("key", sorted(BASELINE_METHODS))
def test_inside_a_real_imblearn_pipeline_and_cross_val_score(key, imbalanced):
    X, y = imbalanced
    pipeline = make_pipeline(StandardScaler(), BASELINE_METHODS[key](random_state=0))
    scores = cross_val_score(
        pipeline, X, y, cv=StratifiedKFold(3, shuffle=True, random_state=0), scoring="balanced_accuracy"
    )
    assert scores.shape == (3,)
    assert np.all(scores > 0.6)


@pytest.mark.parametrize("key", sorted(BASELINE_METHODS))
def test_cost_matrix_is_routed_through_cross_validation_and_grid_search(key, imbalanced):
    X, y = imbalanced
    costs = np.tile([1.0, 10.0, 0.0, 0.0], (y.size, 1))
    with sklearn.config_context(enable_metadata_routing=True):
        model = BASELINE_METHODS[key](random_state=0).set_fit_request(cost_matrix=True)
        result = cross_validate(model, X, y, cv=3, params={"cost_matrix": costs})
        assert result["test_score"].shape == (3,)
        search = GridSearchCV(model, {"random_state": [0, 1]}, cv=2).fit(X, y, cost_matrix=costs)
        assert search.best_params_["random_state"] in (0, 1)
        with pytest.raises(ValueError, match="cost_matrix"):
            cross_validate(model, X, y, cv=3, params={"cost_matrix": costs[:, :2]})
