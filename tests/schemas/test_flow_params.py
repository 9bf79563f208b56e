"""The flow-parameter models: structure checked always, registry names checked against the given context."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from schemas.flow_params import CompareParams, IngestParams, RetrainParams
from tasks.config.checks import name_context, validate_params

CONTEXT = {
    "methods": ["adaboost", "csdt"],
    "method_parameters": {"adaboost": ["n_estimators"], "csdt": ["max_depth"]},
    "datasets": ["pima", "credit-scoring", "my-claims"],
    "registered_datasets": ["pima", "credit-scoring"],
    "business_datasets": ["credit-scoring", "my-claims"],
}


def test_registry_names_are_checked_only_against_a_context():
    assert RetrainParams(dataset="pima", candidates=("svm",)).candidates == ("svm",)
    assert IngestParams(datasets=("nowhere",)).datasets == ("nowhere",)
    with pytest.raises(ValidationError) as error:
        RetrainParams.model_validate({"dataset": "pima", "candidates": ("svm",)}, context=CONTEXT)
    message = str(error.value)
    assert (
        "dataset 'pima' is not a business dataset (one with example-dependent costs: a cost model or cost "
        "columns); choose one of: ['credit-scoring', 'my-claims']"
    ) in message
    assert "unknown candidates ['svm']; registered methods: ['adaboost', 'csdt']" in message
    with pytest.raises(
        ValidationError,
        match=r"unknown datasets \['nowhere'\]; registered datasets: \['credit-scoring', 'pima'\]",
    ):
        IngestParams.model_validate({"datasets": ("nowhere",)}, context=CONTEXT)
    with pytest.raises(ValidationError, match=r"unknown datasets \['my-claims'\]; registered datasets"):
        IngestParams.model_validate({"datasets": ("my-claims",)}, context=CONTEXT)  # a user's: not ingestible
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


def test_validate_params_uses_the_names_the_code_and_data_know():
    context = name_context()
    assert {"adacc1", "csdt", "bmr-lr"} <= set(context["methods"])
    from tasks.datasets import DATASETS

    assert context["business_datasets"] == sorted(n for n, spec in DATASETS.items() if spec.cost_model)
    assert {"credit-scoring", "direct-marketing", "card-fraud"} <= set(context["business_datasets"])
    assert "negative_cost" in context["method_parameters"]["adac1"]
    params = validate_params(RetrainParams, {"dataset": "credit-scoring"})
    assert validate_params(RetrainParams, params) == params
    with pytest.raises(ValidationError, match="'wisconsin' is not a business dataset"):
        validate_params(RetrainParams, {"dataset": "wisconsin"})


def test_an_unknown_name_suggests_the_closest_one_and_carries_it_for_the_command_line():
    with pytest.raises(ValidationError) as error:
        CompareParams.model_validate(
            {"datasets": ("pma", "nowhere"), "methods": ("adaboots",)}, context=CONTEXT
        )
    by_field = {item["loc"][0]: item for item in error.value.errors()}
    methods = by_field["methods"]
    assert methods["type"] == "unknown_name"
    assert methods["msg"] == (
        "unknown methods ['adaboots'] (did you mean 'adaboost'?); known: ['adaboost', 'csdt']"
    )
    assert methods["ctx"]["suggestions"] == {"adaboots": "adaboost"}
    datasets = by_field["datasets"]
    assert "(did you mean 'pima' for 'pma'?)" in datasets["msg"]
    assert datasets["ctx"]["unknown"] == ["pma", "nowhere"] and datasets["ctx"]["suggestions"] == {
        "pma": "pima"
    }
    with pytest.raises(ValidationError) as error:
        RetrainParams.model_validate({"dataset": "credit-scorng"}, context=CONTEXT)
    (item,) = error.value.errors()
    assert item["ctx"]["problem"].startswith("is not a business dataset")
    assert item["ctx"]["suggestions"] == {"credit-scorng": "credit-scoring"}


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"repeats": 1_000_000_000}, "repeats", "less than or equal to 1000"),
        ({"folds": 500}, "folds", "less than or equal to 100"),
        ({"n_estimators": (25, 10**23)}, "n_estimators", "less than or equal to 10000"),
        ({"inner_folds": 1000}, "inner_folds", "less than or equal to 100"),
        ({"seed": 2**32}, "seed", "less than or equal to 4294967295"),
        ({"max_workers": 10_000}, "max_workers", "less than or equal to 64"),
        ({"negative_costs": (0.5, float("inf"))}, "negative_costs", "finite number"),
        ({"method_params": {"adaboost": {"n_estimators": 10**12}}}, "method_params", "at most 10,000 rounds"),
    ],
)
def test_every_setting_that_sizes_a_run_has_an_upper_bound(changes, field, words):
    with pytest.raises(ValidationError) as error:
        CompareParams.model_validate(changes)
    assert [item["loc"][0] for item in error.value.errors()] == [field]
    assert words in str(error.value)


def test_a_run_has_at_most_max_cells_cells_counting_every_method_when_none_is_named():
    from schemas.flow_params import MAX_CELLS

    many = {"datasets": ("pima", "credit-scoring"), "repeats": 1000, "folds": 50}
    assert CompareParams.model_validate({**many, "methods": ("adaboost",)}).n_repeats == 1000  # 100,000 cells
    with pytest.raises(
        ValidationError, match=r"the run has 200,000 cells \(2 datasets x 2 methods x 1000 repeats"
    ):
        CompareParams.model_validate(many, context=CONTEXT)  # methods=None: every one of the context's two
    assert MAX_CELLS == 100_000
    with pytest.raises(ValidationError, match="n_estimators=99999999999"):
        RetrainParams.model_validate(
            {
                "dataset": "credit-scoring",
                "candidates": ("adaboost",),
                "method_params": {"adaboost": {"n_estimators": 99999999999}},
            }
        )


def test_the_context_holds_user_datasets_and_those_with_cost_columns_are_business_datasets(
    tmp_path, monkeypatch
):
    from tasks.datasets import DATASETS, ingest_file
    from tests.user_data import PAYMENT_COST_COLUMNS, write_payments_csv

    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    ingest_file(
        write_payments_csv(tmp_path / "claims.csv"),
        target="fraud",
        positive="yes",
        cost_columns=PAYMENT_COST_COLUMNS,
    )
    no_costs = tmp_path / "plain.csv"
    no_costs.write_text("a,y\n" + "".join(f"{i},{'yes' if i % 5 == 0 else 'no'}\n" for i in range(40)))
    ingest_file(no_costs, target="y")
    context = name_context()
    assert context["datasets"] == [*DATASETS, "claims", "plain"]
    assert context["registered_datasets"] == list(DATASETS)
    assert "claims" in context["business_datasets"] and "plain" not in context["business_datasets"]
    assert validate_params(RetrainParams, {"dataset": "claims"}).dataset == "claims"
    assert context["cost_parameters"]["claims"] == []  # its own cost columns: no cost model to set
    with pytest.raises(
        ValidationError, match=r"'claims' has its own cost columns, so cost_params \['alert_cost'\]"
    ):
        validate_params(RetrainParams, {"dataset": "claims", "cost_params": {"alert_cost": 1}})
    assert validate_params(CompareParams, {"datasets": ["plain", "claims"]}).datasets == ("plain", "claims")
    with pytest.raises(ValidationError, match="dataset 'plain' is not a business dataset"):
        validate_params(RetrainParams, {"dataset": "plain"})
    other_cache = tmp_path / "other"  # a retrain's own cache folder decides which user datasets exist
    with pytest.raises(
        ValidationError, match=r"dataset 'claims' is not a business .* one of: \['card-fraud'"
    ):
        validate_params(RetrainParams, {"dataset": "claims", "cache_dir": str(other_cache)})


def _bounds(constraints: list) -> dict:
    """The JSON schema a cost model's scikit-learn constraints of one parameter amount to."""
    from numbers import Integral

    from sklearn.utils._param_validation import Interval

    if constraints == [str]:
        return {"type": "string", "minLength": 1}
    if constraints == [str, None]:
        return {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}
    if constraints == ["boolean"]:
        return {"type": "boolean"}
    (interval,) = constraints
    assert isinstance(interval, Interval), constraints
    schema = {"type": "integer" if interval.type is Integral else "number"}
    if interval.left is not None:
        closed_left = interval.closed in ("left", "both")
        schema["minimum" if closed_left else "exclusiveMinimum"] = interval.left
    if interval.right is not None:
        closed_right = interval.closed in ("right", "both")
        schema["maximum" if closed_right else "exclusiveMaximum"] = interval.right
    return schema


def test_cost_params_take_every_cost_model_parameter_with_its_model_s_bounds():
    from pydantic import TypeAdapter

    from schemas.flow_params import CostParams
    from tasks.cost_models import COST_MODELS

    properties = TypeAdapter(CostParams).json_schema()["properties"]
    constraints = {
        name: rule for model in COST_MODELS.values() for name, rule in model._parameter_constraints.items()
    }
    assert set(properties) == set(constraints)  # none missing, none that no cost model takes
    for name, rule in constraints.items():
        expected = _bounds(rule)
        shown = {key: value for key, value in properties[name].items() if key != "title"}
        if name == "term_months":  # a bounded number of months (the cost model leaves it open)
            assert shown.pop("maximum") == 1200
        assert shown == expected, name


def test_cost_params_are_bounded_and_must_be_the_dataset_s_cost_model_s():
    with pytest.raises(ValidationError, match=r"cost_params.contact_cost\n  Input should be greater than 0"):
        RetrainParams(dataset="direct-marketing", cost_params={"contact_cost": -1})
    with pytest.raises(ValidationError, match=r"cost_params.contact_costs\n  Extra inputs are not permitted"):
        RetrainParams(dataset="direct-marketing", cost_params={"contact_costs": 2})
    assert validate_params(
        RetrainParams, {"dataset": "card-fraud", "cost_params": {"alert_cost": 5}}
    ).cost_params == {"alert_cost": 5.0}
    with pytest.raises(ValidationError) as refused:
        validate_params(RetrainParams, {"dataset": "card-fraud", "cost_params": {"contact_cost": 2}})
    assert (
        "cost_params ['contact_cost'] are not parameters of card-fraud's cost model, which takes "
        "['alert_cost', 'amount_column']"
    ) in str(refused.value)
    assert name_context()["cost_parameters"]["direct-marketing"] == [
        "balance_column", "contact_cost", "deposit_fraction", "interest_spread"
    ]  # fmt: skip
