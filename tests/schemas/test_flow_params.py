"""The flow-parameter models: structure checked always, registry names checked against the given context."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from schemas.flow_params import CompareParams, IngestParams, RetrainParams
from tasks.configuration import registry_context, validate_params

CONTEXT = {
    "methods": ["adaboost", "csdt"],
    "method_parameters": {"adaboost": ["n_estimators"], "csdt": ["max_depth"]},
    "datasets": ["pima", "credit-scoring"],
    "business_datasets": ["credit-scoring"],
}


def test_registry_names_are_checked_only_against_a_context():
    assert RetrainParams(dataset="pima", candidates=("svm",)).candidates == ("svm",)
    assert IngestParams(datasets=("nowhere",)).datasets == ("nowhere",)
    with pytest.raises(ValidationError) as error:
        RetrainParams.model_validate({"dataset": "pima", "candidates": ("svm",)}, context=CONTEXT)
    message = str(error.value)
    assert "'pima' is not a business dataset with a cost model; choose one of ['credit-scoring']" in message
    assert "unknown candidates ['svm']; registered methods: ['adaboost', 'csdt']" in message
    with pytest.raises(
        ValidationError, match=r"unknown datasets \['nowhere'\]; known datasets: \['credit-sc"
    ):
        IngestParams.model_validate({"datasets": ("nowhere",)}, context=CONTEXT)
    with pytest.raises(
        ValidationError, match=r"method_params\['csdt'\] has unknown parameter\(s\) \['depth'\]"
    ):
        CompareParams.model_validate({"method_params": {"csdt": {"depth": 2}}}, context=CONTEXT)


def test_structure_is_checked_without_a_context():
    with pytest.raises(ValidationError) as error:
        IngestParams(datasets=("pima", "pima"), report_key="Bad Key")
    assert "datasets lists ['pima'] more than once" in str(error.value) and "report_key" in str(error.value)
    with pytest.raises(ValidationError, match="candidates lists \\['csdt'\\] more than once"):
        RetrainParams(dataset="credit-scoring", candidates=("csdt", "csdt"))
    with pytest.raises(ValidationError, match="tvt_fractions must sum to 1"):
        CompareParams(tvt_fractions=(0.5, 0.3, 0.3))


def test_validate_params_uses_the_real_registries():
    context = registry_context()
    assert {"adacc1", "csdt", "bmr-lr"} <= set(context["methods"])
    from tasks.datasets import DATASETS

    assert context["business_datasets"] == sorted(n for n, spec in DATASETS.items() if spec.cost_model)
    assert {"credit-scoring", "direct-marketing", "card-fraud"} <= set(context["business_datasets"])
    assert "negative_cost" in context["method_parameters"]["adac1"]
    params = validate_params(RetrainParams, {"dataset": "credit-scoring"})
    assert validate_params(RetrainParams, params) == params
    with pytest.raises(ValidationError, match="'wisconsin' is not a business dataset"):
        validate_params(RetrainParams, {"dataset": "wisconsin"})
