"""skops with cslearn's allow-list for every registered method; cloudpickle only when the caller opts in."""

from __future__ import annotations

import decimal
import pickle

import numpy as np
import pytest
import skops.io
from sklearn.linear_model import LogisticRegression

from algorithms import METHODS
from tasks.model_registry import (
    TRUSTED_TYPES,
    UntrustedModelError,
    choose_serialization,
    skops_safe_copy,
    skops_trusted_types,
)
from tasks.model_registry.serialization import load_estimator_file


def _cost_data(n: int = 240):
    rng = np.random.default_rng(0)
    features = rng.normal(size=(n, 4))
    target = (features[:, 0] + rng.normal(size=n) > 1.0).astype(int)
    # C_FP > C_TP on every row (Algorithm 2 of cs-adaboost needs it), C_FN from the second feature.
    costs = np.column_stack([np.full(n, 2.0), np.abs(features[:, 1]) * 20 + 3, np.full(n, 1.0), np.zeros(n)])
    return features, target, costs


def _fitted(method: str, features, target, costs):
    estimator = METHODS[method]()
    params = estimator.get_params(deep=False)
    if "n_estimators" in params:
        estimator.set_params(n_estimators=5)
    if "random_state" in params:
        estimator.set_params(random_state=0)
    return estimator.fit(features, target, cost_matrix=costs)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_registered_method_round_trips_through_skops_with_identical_predictions(method, tmp_path):
    features, target, costs = _cost_data()
    model = _fitted(method, features, target, costs)
    serialization, written, trusted, reason = choose_serialization(model)
    assert (serialization, reason) == ("skops", "")
    assert set(trusted) <= TRUSTED_TYPES
    path = tmp_path / "model.skops"
    skops.io.dump(written, path)
    loaded = load_estimator_file(path, "skops")
    np.testing.assert_array_equal(loaded.predict(features), model.predict(features))
    np.testing.assert_array_equal(loaded.predict_proba(features), model.predict_proba(features))
    if method.startswith("bmr-"):  # Bayes minimum risk decides with the rows' own costs
        np.testing.assert_array_equal(
            loaded.predict(features, cost_matrix=costs), model.predict(features, cost_matrix=costs)
        )


def test_the_metadata_request_cycle_that_made_bayes_minimum_risk_recurse_is_broken_in_a_copy():
    features, target, costs = _cost_data()
    model = _fitted("bmr-lr", features, target, costs)
    # scikit-learn >= 1.9: the pipeline step is the owner of its own requests, a cycle skops cannot follow.
    step = model.calibrated_classifier_.estimator.steps[-1][1]
    assert step._metadata_request.owner is step
    with pytest.raises(RecursionError):
        skops.io.dumps(model)
    safe = skops_safe_copy(model)
    safe_step = safe.calibrated_classifier_.estimator.steps[-1][1]
    assert safe_step._metadata_request.owner == "LogisticRegression"
    assert safe_step._metadata_request.fit.requests == {"sample_weight": True}  # the requests are kept
    assert step._metadata_request.owner is step  # the caller's model is untouched
    assert skops.io.loads(skops.io.dumps(safe), trusted=sorted(TRUSTED_TYPES)).predict(features).shape == (
        240,
    )


def test_the_allow_list_is_explicit_and_names_a_type_nobody_reviewed():
    assert not any(name.startswith(("builtins.", "collections.")) for name in TRUSTED_TYPES)
    assert all(name.startswith(("algorithms.", "sklearn.", "imblearn.")) for name in TRUSTED_TYPES)
    model = LogisticRegression().fit(*_cost_data()[:2])
    model.note_ = decimal.Decimal("1.5")
    with pytest.raises(
        UntrustedModelError, match=r"LogisticRegression holds types outside .*\['decimal\.Decimal'\]"
    ):
        skops_trusted_types(model)


def test_cloudpickle_is_written_only_on_opt_in_and_says_why_skops_could_not():
    model = LogisticRegression().fit(*_cost_data()[:2])
    model.callback_ = lambda values: values  # code from no reviewed module
    with pytest.raises(
        UntrustedModelError, match=r"skops cannot save LogisticRegression .*allow_pickle=True"
    ):
        choose_serialization(model)
    serialization, written, trusted, reason = choose_serialization(model, allow_pickle=True)
    assert (serialization, written, trusted) == ("cloudpickle", model, None)
    assert "<lambda>" in reason


def test_a_pickled_file_is_refused_by_default_and_loaded_only_on_opt_in(tmp_path):
    path = tmp_path / "model.pkl"
    model = LogisticRegression().fit(*_cost_data()[:2])
    path.write_bytes(pickle.dumps(model))
    with pytest.raises(
        UntrustedModelError, match=r"model\.pkl is serialized with cloudpickle, which runs arbitrary"
    ):
        load_estimator_file(path, "cloudpickle")
    with pytest.raises(UntrustedModelError, match="allow_pickle=True .* CSLEARN_ALLOW_PICKLED_MODELS=true"):
        load_estimator_file(path, "pickle")
    assert isinstance(load_estimator_file(path, "cloudpickle", allow_pickle=True), LogisticRegression)


def test_a_skops_file_with_a_foreign_type_is_refused_whatever_the_artifact_claims(tmp_path):
    model = LogisticRegression().fit(*_cost_data()[:2])
    model.note_ = decimal.Decimal("1.5")
    path = tmp_path / "model.skops"
    skops.io.dump(model, path)  # the writer trusted decimal.Decimal; cslearn's loader does not
    with pytest.raises(UntrustedModelError, match=r"model\.skops holds types outside .*decimal\.Decimal"):
        load_estimator_file(path, "skops")
