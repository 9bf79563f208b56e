"""Flat flow parameters generated from the parameter models (``tasks.config.flow_parameters``), without a
server."""

from __future__ import annotations

import inspect

import pytest
from prefect.utilities.callables import parameter_schema
from pydantic import ValidationError

from schemas.flow_params import CompareParams, RetrainParams
from tasks.config.checks import name_context
from tasks.config.flow_parameters import MACHINE_FIELDS, field_descriptions, flat_parameters, flow_arguments


@flat_parameters(RetrainParams, choices={"dataset": "business_datasets", "candidates": "methods"})
def received(params: RetrainParams) -> RetrainParams:
    """Return what the body was given."""
    return params


def test_every_field_but_the_machine_settings_is_a_keyword_parameter_with_its_default():
    parameters = inspect.signature(received).parameters
    assert list(parameters) == [name for name in RetrainParams.model_fields if name not in MACHINE_FIELDS]
    assert all(parameter.kind is inspect.Parameter.KEYWORD_ONLY for parameter in parameters.values())
    assert parameters["dataset"].default is inspect.Parameter.empty
    assert parameters["holdout_fraction"].default == 0.3 and parameters["method_params"].default == {}


def test_the_schema_prefect_builds_has_descriptions_choices_and_bounds():
    fields = parameter_schema(received).model_dump_for_openapi()["properties"]
    context = name_context()
    assert fields["dataset"]["enum"] == context["business_datasets"]
    assert fields["candidates"]["items"]["enum"] == context["methods"]
    assert fields["max_rows"]["minimum"] == 20 and "anyOf" not in fields["max_rows"]  # no "None" toggle
    assert "Leave empty to use every row" in fields["max_rows"]["description"]
    descriptions = field_descriptions(RetrainParams)
    assert fields["holdout_fraction"]["description"] == descriptions["holdout_fraction"]
    assert "``" not in fields["max_rows"]["description"]  # reST literals shown as Markdown code
    assert fields["experiment"]["pattern"].startswith("^")


def test_the_body_gets_the_validated_model_and_a_typo_is_named():
    params = received(dataset="credit-scoring", candidates=["csdt"], max_rows=500)
    assert params == RetrainParams(dataset="credit-scoring", candidates=("csdt",), max_rows=500)
    assert received(**flow_arguments(params)) == params
    with pytest.raises(ValidationError, match="did you mean 'credit-scoring'"):
        received(dataset="credit-scorin")
    with pytest.raises(TypeError):
        received(dataset="credit-scoring", tracking_uri="http://127.0.0.1:5000")  # not a parameter


def test_every_compare_field_is_described():
    assert set(CompareParams.model_fields) <= set(field_descriptions(CompareParams))
    assert set(RetrainParams.model_fields) <= set(field_descriptions(RetrainParams))


def test_optional_fields_are_plain_inputs_left_empty_to_mean_their_default():
    """Prefect's form draws a toggle for a `None` branch and sends a `null` default back, which its own
    validation then refuses: an optional field has neither, and leaving it out or empty means the default."""
    fields = parameter_schema(received).model_dump_for_openapi()["properties"]
    for name in ("max_rows", "model_name"):
        assert "anyOf" not in fields[name] and "default" not in fields[name], name
    assert (
        fields["model_name"]["type"] == "string" and "Leave empty for" in fields["model_name"]["description"]
    )
    assert received(dataset="credit-scoring").max_rows is None  # left out
    assert received(dataset="credit-scoring", max_rows=None, method_params={}).max_rows is None  # blank
