"""Which serializer a logged model gets: skops with a reviewed allow-list, else cloudpickle and why."""

from __future__ import annotations

import decimal

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from tasks.model_registry import choose_serialization, skops_trusted_types


def test_skops_trusts_only_our_estimators_and_the_scientific_stack():
    rng = np.random.default_rng(0)
    features, target = rng.normal(size=(60, 3)), np.r_[np.zeros(40), np.ones(20)]
    from algorithms import METHODS

    tree = METHODS["csdt"]().fit(features, target, cost_matrix=np.tile([1.0, 5.0, 1.0, 0.0], (60, 1)))
    trusted = skops_trusted_types(tree)
    assert trusted and all(
        name.startswith(("algorithms.", "sklearn.", "numpy.", "builtins.")) for name in trusted
    )

    model = LogisticRegression().fit(features, target)
    model.note_ = decimal.Decimal("1.5")  # a type nobody reviewed
    with pytest.raises(ValueError, match=r"LogisticRegression holds types outside .* \['decimal\.Decimal'\]"):
        skops_trusted_types(model)


def test_a_model_skops_cannot_represent_safely_falls_back_to_cloudpickle_with_the_reason():
    model = LogisticRegression().fit(np.random.default_rng(0).normal(size=(20, 2)), np.arange(20) % 2)
    model.transform_ = lambda values: values  # a function from no trusted module
    serialization, trusted, reason = choose_serialization(model)
    assert (serialization, trusted) == ("cloudpickle", None)
    assert "ValueError" in reason and "<lambda>" in reason
    assert choose_serialization(LogisticRegression().fit(*_two_class_data()))[0] == "skops"


def _two_class_data():
    rng = np.random.default_rng(1)
    return rng.normal(size=(30, 2)), np.arange(30) % 2
