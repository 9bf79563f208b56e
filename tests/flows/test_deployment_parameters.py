"""The parameter model of ``compare`` and ``retrain`` is validated in Prefect's parameter validation
(``flows.deployment_parameters``), the step that fails a deployed run before it starts; the deployments'
schemas themselves are tested against a real server in ``test_deploy.py``."""

from __future__ import annotations

import pytest
from prefect.exceptions import ParameterTypeError

from flows.compare import compare
from flows.deployment_parameters import ParameterCheckedFlow, declared_deployments
from flows.retrain import retrain


def test_rules_no_schema_expresses_are_refused_in_one_line_before_the_run():
    with pytest.raises(ParameterTypeError) as refused:
        retrain.validate_parameters({"dataset": "card-fraud", "cost_params": {"contact_cost": 2.0}})
    assert str(refused.value) == (
        "cost_params ['contact_cost'] are not parameters of card-fraud's cost model, which takes "
        "['alert_cost', 'amount_column']"
    )
    with pytest.raises(ParameterTypeError, match=r"^method_params names methods that are not candidates"):
        retrain.validate_parameters({"dataset": "direct-marketing", "method_params": {"svm": {}}})
    with pytest.raises(ParameterTypeError, match=r"^the run has 3,700,000 cells \(1 dataset"):
        compare.validate_parameters({"repeats": 1000, "folds": 100})
    with pytest.raises(ParameterTypeError, match=r"^candidates: unknown candidates \['nope'\]"):
        retrain.validate_parameters({"dataset": "direct-marketing", "candidates": ["nope"]})


def test_valid_parameters_pass_and_copies_keep_the_check():
    assert retrain.validate_parameters({"dataset": "direct-marketing"})["dataset"] == "direct-marketing"
    copy = retrain.with_options(retries=0, retry_delay_seconds=1)
    assert isinstance(copy, ParameterCheckedFlow) and (copy.retries, copy.retry_delay_seconds) == (0, 1)
    with pytest.raises(ParameterTypeError, match="not candidates"):
        copy.validate_parameters({"dataset": "direct-marketing", "method_params": {"svm": {}}})


def test_every_declared_deployment_is_named():
    assert len(declared_deployments()) == 7 and "compare-benchmark" in declared_deployments()
