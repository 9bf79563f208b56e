"""Cost-proportionate rejection sampling and over-sampling (CSDT Eq. 5), alone and in an imblearn Pipeline."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from imblearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from algorithms.cost import (
    COST_SAMPLERS,
    CostProportionateOverSampler,
    CostProportionateRejectionSampler,
    misclassification_costs,
)


def _data(n_samples=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, 3))
    y = (X[:, 0] + rng.normal(size=n_samples) > 1.0).astype(int)
    costs = np.column_stack(
        [np.full(n_samples, 2.0), rng.uniform(1.0, 20.0, n_samples), np.ones(n_samples), np.zeros(n_samples)]
    )
    return X, y, costs


def test_misclassification_costs_by_hand():
    costs = np.array([[2.0, 9.0, 1.0, 0.0], [3.0, 7.0, 1.0, 0.0]])
    np.testing.assert_array_equal(misclassification_costs(np.array([1, 0]), costs), [9.0, 3.0])


def test_over_sampling_copies_by_hand():
    X = np.arange(3.0)[:, None]
    y = np.array([0, 1, 1])
    # w = [C_FP of the negative, C_FN, C_FN] = [1, 2, 10]; max_copies * w / max(w) = [1, 2, 10]
    costs = np.array([[1.0, 50.0, 0.0, 0.0], [7.0, 2.0, 0.0, 0.0], [7.0, 10.0, 0.0, 0.0]])
    sampler = CostProportionateOverSampler(max_copies=10, pos_label=1)
    X_res, y_res = sampler.fit_resample(X, y, cost_matrix=costs)
    np.testing.assert_array_equal(sampler.n_copies_, [1, 2, 10])
    np.testing.assert_array_equal(X_res[:, 0], [0.0, 1.0, 1.0] + [2.0] * 10)
    np.testing.assert_array_equal(y_res, [0, 1, 1] + [1] * 10)


def test_over_sampling_with_a_capping_quantile():
    X = np.arange(4.0)[:, None]
    y = np.array([0, 0, 0, 1])
    costs = np.array(
        [[1.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0], [4.0, 0.0, 0.0, 0.0], [0.0, 100.0, 0.0, 0.0]]
    )
    sampler = CostProportionateOverSampler(max_copies=4, weight_quantile=0.5)  # median of [1, 2, 4, 100] = 3
    sampler.fit_resample(X, y, cost_matrix=costs)
    np.testing.assert_array_equal(sampler.n_copies_, [2, 3, 4, 4])  # ceil(4 * min(w / 3, 1))


def test_rejection_keeps_each_example_with_probability_w_over_max_w():
    X, y, costs = _data(n_samples=20000)
    sampler = CostProportionateRejectionSampler(random_state=0)
    sampler.fit_resample(X, y, cost_matrix=costs)
    weights = misclassification_costs(y, costs)
    np.testing.assert_allclose(sampler.acceptance_probability_, weights / weights.max())
    kept = np.zeros(len(y), dtype=bool)
    kept[sampler.sample_indices_] = True
    for low, high in ((0.0, 0.2), (0.2, 0.6), (0.6, 1.01)):
        band = (sampler.acceptance_probability_ >= low) & (sampler.acceptance_probability_ < high)
        expected = sampler.acceptance_probability_[band].mean()
        assert kept[band].mean() == pytest.approx(expected, abs=4 * np.sqrt(0.25 / band.sum()))
    assert kept[np.argmax(weights)]  # probability 1


@pytest.mark.parametrize("name", sorted(COST_SAMPLERS))
def test_samplers_are_reproducible_and_leave_inputs_untouched(name):
    X, y, costs = _data()
    copies = [a.copy() for a in (X, y, costs)]
    first = COST_SAMPLERS[name]().set_params(**_seed(name, 7)).fit_resample(X, y, cost_matrix=costs)
    second = COST_SAMPLERS[name]().set_params(**_seed(name, 7)).fit_resample(X, y, cost_matrix=costs)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)
    for original, copy in zip((X, y, costs), copies, strict=True):
        np.testing.assert_array_equal(original, copy)
    assert first[0] is not X


def _seed(name, seed):
    return {"random_state": seed} if name == "rejection" else {}


def test_rejection_seeds_differ():
    X, y, costs = _data()
    kept = set()
    for seed in range(4):
        sampler = CostProportionateRejectionSampler(random_state=seed)
        sampler.fit_resample(X, y, cost_matrix=costs)
        kept.add(tuple(sampler.sample_indices_))
    assert len(kept) == 4


def test_missing_cost_matrix_is_an_error_not_a_silent_no_op():
    X, y, _ = _data(50)
    with pytest.raises(ValueError, match="needs cost_matrix=.*enable metadata routing"):
        CostProportionateRejectionSampler().fit_resample(X, y)


def test_bad_cost_matrix_is_named():
    X, y, costs = _data(50)
    with pytest.raises(ValueError, match="cost_matrix has 49 rows but the data has 50 samples"):
        CostProportionateOverSampler().fit_resample(X, y, cost_matrix=costs[:49])
    zero = costs.copy()
    zero[:, :2] = 0.0
    with pytest.raises(ValueError, match="misclassification costs .* are all zero"):
        CostProportionateOverSampler().fit_resample(X, y, cost_matrix=zero)


@pytest.mark.parametrize("name", sorted(COST_SAMPLERS))
def test_in_an_imblearn_pipeline_with_metadata_routing(name):
    X, y, costs = _data()
    sampler = COST_SAMPLERS[name]().set_params(**_seed(name, 3))
    X_res, y_res = sampler.fit_resample(X, y, cost_matrix=costs)
    direct = DecisionTreeClassifier(random_state=0).fit(X_res, y_res)
    with sklearn.config_context(enable_metadata_routing=True):
        routed_sampler = COST_SAMPLERS[name]().set_params(**_seed(name, 3))
        routed_sampler.set_fit_resample_request(cost_matrix=True)
        pipeline = Pipeline([("sample", routed_sampler), ("tree", DecisionTreeClassifier(random_state=0))])
        pipeline.fit(X, y, cost_matrix=costs)
    np.testing.assert_array_equal(pipeline.named_steps["sample"].sample_indices_, sampler.sample_indices_)
    np.testing.assert_array_equal(pipeline.predict(X), direct.predict(X))


def test_over_sampling_shifts_a_tree_toward_the_expensive_class():
    X, y, costs = _data(2000, seed=1)
    costs[:, 1] *= 5  # missed positives are expensive
    plain = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    X_res, y_res = CostProportionateOverSampler().fit_resample(X, y, cost_matrix=costs)
    sampled = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X_res, y_res)
    assert sampled.predict(X).sum() > plain.predict(X).sum()


# scikit-learn's estimator checks (parameters, cloning, fit on any input) for the samplers. imblearn's own
# sampler checks call fit_resample(X, y) without costs, which these samplers refuse on purpose (see the module
# docstring of algorithms.cost.sampling); the tests above cover fit_resample.
@parametrize_with_checks([CostProportionateOverSampler(), CostProportionateRejectionSampler(random_state=0)])
def test_samplers_pass_the_sklearn_estimator_checks(estimator, check):
    check(estimator)
