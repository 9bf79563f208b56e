"""Flow parameters checked against the known names and the data before any work starts.

The models of ``schemas.flow_params`` check their structure and bounds; the names only the code and the data
know (method keys and their constructor parameters, dataset names of both kinds, the datasets with
example-dependent costs) are checked with a validation context:

- :func:`name_context` reads the names from their sources (``algorithms.METHODS``, the data layer's
  :func:`tasks.datasets.available_datasets`, so a dataset the user ingested from a file is as valid as a
  registered one, and each business dataset's cost-model parameters); every flow validates its parameters
  through :func:`validate_params`, which uses it;
- :func:`quick_name_context` reads the on-disk snapshot of the names (:mod:`tasks.config.name_index`), so the
  command line rejects a mistyped name in a fraction of a second, before anything heavy is imported
  (:func:`quick_validate`).

:func:`protocol_problems` checks a comparison's protocol against the datasets' class counts (stratified
K-fold needs K rows of each class, every split a row of each class, C- selection by inner CV as many rows
of each class in a training split as inner folds); :func:`check_protocol` raises :class:`ProtocolError` with
every problem found. (Bounds that need no data, such as the number of cells, are the models' own.)
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from schemas.flow_params import CompareParams
from tasks.storage import state_home

__all__ = [
    "ProtocolError",
    "check_protocol",
    "protocol_problems",
    "quick_name_context",
    "quick_validate",
    "name_context",
    "validate_params",
]

Params = TypeVar("Params", bound=BaseModel)


class ProtocolError(ValueError):
    """A comparison's protocol does not fit its data; ``problems`` lists each reason."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


def _dataset_entries(cache_dir) -> dict:
    """Every usable dataset's entry; a given cache folder that does not exist yet holds no user dataset and is
    not created by looking."""
    from tasks.datasets import DATASETS, DatasetEntry, available_datasets

    if cache_dir is not None and not Path(cache_dir).expanduser().is_dir():
        return {name: DatasetEntry(name, "registered", spec) for name, spec in DATASETS.items()}
    return available_datasets(cache_dir=cache_dir)


def _live_methods() -> dict[str, type]:
    return importlib.import_module("algorithms").METHODS


def name_context(*, cache_dir=None) -> dict:
    """The names a flow configuration may use, from their sources: the context of ``schemas.flow_params``.

    ``cache_dir`` is the dataset cache whose user datasets count (default: the data layer's).
    """
    from tasks.cost_models import COST_MODELS

    methods = _live_methods()
    entries = _dataset_entries(cache_dir)
    business = sorted(name for name, entry in entries.items() if entry.has_example_costs)
    return {
        "methods": sorted(methods),
        "method_parameters": {key: sorted(methods[key]().get_params(deep=False)) for key in methods},
        "datasets": list(entries),
        "registered_datasets": [name for name, entry in entries.items() if entry.kind == "registered"],
        "business_datasets": business,
        "cost_parameters": {
            name: sorted(COST_MODELS[entries[name].cost_model]().get_params())
            if entries[name].cost_model
            else []
            for name in business
        },
        "state_home": str(state_home()),
    }


def quick_name_context() -> dict:
    """The same context from the snapshot of :mod:`tasks.config.name_index` (rebuilt first when stale).

    Once ``algorithms`` is imported (a test registering a method, a process that already fit one), its live
    ``METHODS`` stand in for the snapshot's methods.
    """
    from tasks.config.name_index import name_index

    index = name_index()
    if "algorithms" in sys.modules:
        methods = _live_methods()
        parameters = {key: sorted(methods[key]().get_params(deep=False)) for key in methods}
    else:
        parameters = {key: list(info.parameters) for key, info in index.methods.items()}
    return {
        "methods": sorted(parameters),
        "method_parameters": parameters,
        "datasets": list(index.datasets),
        "registered_datasets": [name for name, facts in index.datasets.items() if facts.kind == "registered"],
        "business_datasets": sorted(name for name, facts in index.datasets.items() if facts.example_costs),
        "state_home": str(state_home()),
    }


def validate_params(model: type[Params], params: Params | Mapping) -> Params:
    """``params`` validated as ``model`` against the known names; raises ``pydantic.ValidationError``.

    The user datasets that count are those of ``params["cache_dir"]`` when the model has that field.
    """
    raw = params.model_dump() if isinstance(params, BaseModel) else dict(params)
    return model.model_validate(raw, context=name_context(cache_dir=raw.get("cache_dir")))


def quick_validate(model: type[Params], params: Mapping) -> Params:
    """``params`` validated as ``model`` against the snapshot (:func:`quick_name_context`) and, for a
    comparison, its protocol against the datasets' known counts; raises ``pydantic.ValidationError`` or
    :class:`ProtocolError`.

    A retrain with its own ``cache_dir`` is checked for structure only here (the snapshot knows the default
    cache's user datasets); :func:`validate_params` checks its names.
    """
    raw = dict(params)
    if raw.get("cache_dir") is not None:
        return model.model_validate(raw)
    context = quick_name_context()
    validated = model.model_validate(raw, context=context)
    if isinstance(validated, CompareParams):
        from tasks.config.name_index import name_index

        facts = name_index().datasets
        counts = {name: (facts[name].rows, facts[name].positives) for name in validated.datasets}
        check_protocol(validated, counts)
    return validated


Counts = Mapping[str, tuple[int | None, int | None]]


def protocol_problems(params: CompareParams, counts: Counts) -> list[str]:
    """Why the protocol of ``params`` cannot run on the datasets, one sentence each (empty: it can).

    Parameters
    ----------
    params : CompareParams
    counts : mapping
        ``(rows, positives)`` of each dataset to check, by name; ``None`` where not known yet (that dataset
        is checked once described).
    """
    problems = []
    for name, (rows, positives) in counts.items():
        if rows is None or positives is None:
            continue
        smallest = min(positives, rows - positives)
        problems += _split_problems(params, name, smallest)
    return problems


def _split_problems(params: CompareParams, name: str, smallest: int) -> list[str]:
    """The protocol's splits against ``smallest``, the row count of the dataset's smaller class."""
    if params.protocol == "cv":
        if params.folds > smallest:
            return [
                f"{params.folds} folds are more than the {smallest} rows of {name}'s smaller class: "
                f"stratified {params.folds}-fold CV needs {params.folds} rows of each class; use "
                f"{smallest} folds or fewer"
            ]
        training_share = (params.folds - 1) / params.folds
    else:
        shares = (
            (1 - params.holdout_test_fraction, params.holdout_test_fraction)
            if params.protocol == "holdout"
            else params.tvt_fractions
        )
        if math.floor(smallest * min(shares)) < 1:
            return [
                f"{name}'s smaller class has {smallest} rows: the {params.protocol} protocol's smallest "
                f"share ({min(shares):g}) would get no row of it"
            ]
        training_share = shares[0]
    in_training = math.floor(smallest * training_share)
    if params.cost_selection == "inner-cv" and params.inner_folds > in_training:
        return [
            f"{params.inner_folds} inner folds are more than the about {in_training} rows of {name}'s "
            "smaller class in a training split: C- selection by inner CV needs as many"
        ]
    return []


def check_protocol(params: CompareParams, counts: Counts) -> None:
    """Raise :class:`ProtocolError` listing :func:`protocol_problems`, if any."""
    problems = protocol_problems(params, counts)
    if problems:
        raise ProtocolError(problems)
