"""What a deployment of a cslearn flow accepts, beyond the schema Prefect derives from the flow's signature.

Prefect's API refuses a flow run whose parameters break the deployment's parameter schema (HTTP 409, before
any run exists) when the deployment enforces it (``enforce_parameter_schema: true`` in ``prefect.yaml``). The
flat parameters of ``tasks.config.flow_parameters.flat_parameters`` give that schema every field's type,
bounds, patterns and known names; two things remain:

- **Unknown parameters.** Prefect derives a schema without ``additionalProperties`` (its ``ParameterSchema``
  has no such field), so the API accepted ``{"bogus": 1}`` and the run crashed on the worker, the reason in
  the worker's log only. :func:`close_parameter_schemas` sets ``additionalProperties: false`` on deployments
  already deployed; ``make deploy`` (``scripts/deploy.sh``) runs it after ``prefect deploy --all``
  (``python -m flows.deployment_parameters``: every deployment of ``prefect.yaml``).
- **Rules no schema expresses** (a run's cell count, overrides naming methods that are not candidates, names
  of another cache): :class:`ParameterCheckedFlow` validates the flow's parameter model in Prefect's own
  parameter validation, before the run starts. A configuration error then fails the run at once with the
  reason as its state message, and is never retried: Prefect retries a flow run that fails while running,
  not one whose parameters were refused.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml
from prefect import Flow
from prefect.exceptions import ParameterTypeError
from pydantic import ValidationError

from tasks.config.checks import validate_params
from tasks.config.flow_parameters import given_values, parameter_model

__all__ = [
    "ParameterCheckedFlow",
    "close_parameter_schemas",
    "declared_deployments",
    "parameter_checked_flow",
    "validation_summary",
]

#: The project's deployments file.
PROJECT_FILE = Path(__file__).resolve().parents[1] / "prefect.yaml"


def validation_summary(error: ValidationError) -> str:
    """A pydantic error as one line, its problems joined by "; ", each ``field: why`` in the deployment's
    field names (a rule across fields says why alone)."""
    problems = []
    for item in error.errors(include_url=False, include_input=False):
        raised = item.get("ctx", {}).get("error") if item["type"] == "value_error" else None
        why = str(raised) if raised is not None else item["msg"]
        where = ".".join(str(part) for part in item["loc"])
        problems.append(f"{where}: {why}" if where else why)
    return "; ".join(problems)


class ParameterCheckedFlow(Flow):
    """A Prefect flow over a :func:`tasks.config.flow_parameters.flat_parameters` function whose parameter
    model is validated (``tasks.config.checks.validate_params``: bounds, cross-field rules, known names) in
    Prefect's parameter validation, before the flow run starts: a configuration error ends the run Failed at
    once, with the reason as the state's message, and is not retried.

    ``with_options`` returns a flow of this class too.
    """

    def with_options(self, **options: Any) -> ParameterCheckedFlow:
        copy = super().with_options(**options)  # Prefect builds a plain Flow, with no state of its own
        copy.__class__ = type(self)
        return copy

    def validate_parameters(self, parameters: dict[str, Any]) -> dict[str, Any]:
        parameters = super().validate_parameters(parameters)
        model = parameter_model(self.fn)
        if model is not None:
            try:
                validate_params(model, given_values(model, parameters))
            except ValidationError as error:
                raise ParameterTypeError(validation_summary(error)) from None
        return parameters


def parameter_checked_flow(**options: Any) -> Callable[[Callable[..., Any]], ParameterCheckedFlow]:
    """``prefect.flow(**options)`` building a :class:`ParameterCheckedFlow`."""
    return lambda function: ParameterCheckedFlow(fn=function, **options)


def declared_deployments(project_file: Path = PROJECT_FILE) -> list[str]:
    """The names of the deployments ``prefect.yaml`` declares."""
    return [deployment["name"] for deployment in yaml.safe_load(project_file.read_text())["deployments"]]


def close_parameter_schemas(names: Iterable[str]) -> list[str]:
    """Set ``additionalProperties: false`` on the parameter schema of every deployment called one of
    ``names`` (deployment names, of any flow), so that Prefect's API refuses an unknown parameter with HTTP
    409; returns their ``flow/deployment`` names. A schema already closed is left as it is.
    """
    from prefect import get_client
    from prefect.client.schemas.actions import DeploymentUpdate
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterName

    closed = []
    with get_client(sync_client=True) as client:
        flows = {}
        found = client.read_deployments(
            deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=list(names)))
        )
        for deployment in found:
            schema = dict(deployment.parameter_openapi_schema or {})
            if schema.get("additionalProperties") is not False:
                schema["additionalProperties"] = False
                client.update_deployment(deployment.id, DeploymentUpdate(parameter_openapi_schema=schema))
            if deployment.flow_id not in flows:
                flows[deployment.flow_id] = client.read_flow(deployment.flow_id).name
            closed.append(f"{flows[deployment.flow_id]}/{deployment.name}")
    return sorted(closed)


if __name__ == "__main__":  # scripts/deploy.sh, after `prefect deploy --all`
    closed = close_parameter_schemas(sys.argv[1:] or declared_deployments())
    print(f"{len(closed)} deployments refuse unknown parameters: {', '.join(closed)}")
