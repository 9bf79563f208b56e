"""Flow parameters checked against the registries before any work starts.

The models of ``schemas.flow_params`` check their structure; the names only a registry knows (method keys and
their constructor parameters, dataset keys, the business datasets) are checked with the validation context
:func:`registry_context` builds. Every flow, and the command line before it starts one, validates its
parameters through :func:`validate_params`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from pydantic import BaseModel

from tasks.datasets import DATASETS
from tasks.methods import METHODS, method_parameters

__all__ = ["business_datasets", "registry_context", "validate_params"]

Params = TypeVar("Params", bound=BaseModel)


def business_datasets() -> list[str]:
    """Names of the registered datasets that carry an example-dependent cost model."""
    return sorted(name for name, spec in DATASETS.items() if getattr(spec, "cost_model", None))


def registry_context() -> dict:
    """The keys a flow configuration may name: the validation context of ``schemas.flow_params``."""
    return {
        "methods": sorted(METHODS),
        "method_parameters": method_parameters(),
        "datasets": sorted(DATASETS),
        "business_datasets": business_datasets(),
    }


def validate_params(model: type[Params], params: Params | Mapping) -> Params:
    """``params`` validated as ``model`` against the registries; raises ``pydantic.ValidationError``."""
    raw = params.model_dump() if isinstance(params, BaseModel) else dict(params)
    return model.model_validate(raw, context=registry_context())
