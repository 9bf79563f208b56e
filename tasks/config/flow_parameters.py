"""Flat, typed flow parameters generated from the parameter models of ``schemas.flow_params``.

Prefect derives what a deployment accepts (the parameter schema its API enforces with
``enforce_parameter_schema``, and the form its UI draws) from the flow function's signature and docstring.
A flow taking one model shows one opaque object: no descriptions, no choices, and ``prefect deployment run
--param max_rows=20000`` cannot set one field. :func:`flat_parameters` turns a flow body that takes the model
into a function taking each field as its own keyword parameter:

- its type, bounds and patterns are the field's, so the API refuses what the model refuses structurally; an
  optional field (default ``None``) is shown as its value's type alone with no default (pydantic's
  ``MISSING``), so Prefect's form draws a plain input (no "None" toggle) left empty to mean the field's
  default, as its description says; an empty value (``None``, ``""``, ``[]``) means the same;
- its description is the field's entry in the model's numpydoc ``Attributes`` section, written into the
  function's docstring as the ``Args:`` section Prefect reads;
- a field given ``choices`` lists the known names (datasets, methods) as the ``enum`` of its JSON
  schema: the UI shows a dropdown and the API refuses any other name. The list is the names known when the
  flow's module is imported, for a deployment at ``prefect deploy`` (deploy again after ingesting a dataset);
  in Python a name is checked against the live names when the model is validated ("did you mean ...?");
- the machine's own settings, :data:`MACHINE_FIELDS` (the MLflow tracking URI and the dataset cache), are not
  parameters: a deployment takes them from its worker's environment (``MLFLOW_TRACKING_URI``,
  ``CSLEARN_CACHE``), so no API caller can point a worker at another store or folder, and no credential can
  reach Prefect's database. :func:`machine_environment` sets them for a block from a model (what the command
  line was given).

:func:`flow_arguments` is the way back, a model as a flat flow's keyword arguments, :func:`parameter_model`
the model of a flat function (``flows.deployment_parameters`` validates it before a deployed run starts), and
:func:`logged_params` what a run records of a model: no machine setting, and the cell store relative to the
state folder.
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Annotated, Any, TypeVar

from griffe import Docstring, DocstringSectionKind, Parser, parse
from pydantic import BaseModel, Field, WithJsonSchema
from pydantic_core import MISSING

from tasks.config.checks import name_context, validate_params
from tasks.tracking.credentials import use_uri_credentials

__all__ = [
    "MACHINE_FIELDS",
    "comparison_size",
    "default_comparison_size",
    "field_descriptions",
    "flat_parameters",
    "flow_arguments",
    "given_values",
    "logged_params",
    "machine_environment",
    "parameter_model",
]

Model = TypeVar("Model", bound=BaseModel)
Result = TypeVar("Result")

#: Fields that are settings of the machine a flow runs on, with the environment variable that carries each.
MACHINE_FIELDS = {"tracking_uri": "MLFLOW_TRACKING_URI", "cache_dir": "CSLEARN_CACHE"}

#: reST markup shown as plain Markdown in Prefect's UI: ``literal`` and :role:`target`.
_LITERAL = re.compile(r"``([^`]+)``|:[a-z]+:`([^`]+)`")


def field_descriptions(model: type[BaseModel]) -> dict[str, str]:
    """Each field's description: its entry in the model's numpydoc ``Attributes`` section, on one line."""
    descriptions = {}
    for section in parse(Docstring(inspect.getdoc(model) or ""), Parser.numpy):
        if section.kind is DocstringSectionKind.attributes:
            for attribute in section.value:
                text = " ".join(attribute.description.split())
                descriptions[attribute.name] = _LITERAL.sub(lambda match: f"`{match[1] or match[2]}`", text)
    return descriptions


def _with_choices(annotation, names: list[str]):
    """``annotation`` with every ``str`` in it listing ``names`` as its JSON schema's ``enum``."""
    if annotation is str:
        return Annotated[str, WithJsonSchema({"type": "string", "enum": list(names)})]
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is None:
        return annotation
    if origin is Annotated:
        return Annotated[(_with_choices(arguments[0], names), *annotation.__metadata__)]
    replaced = tuple(_with_choices(argument, names) for argument in arguments)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[replaced]  # noqa: UP007 - built from a tuple of members
    return origin[replaced]


class _LeftEmpty:
    """Annotation marker: a field whose default is ``None`` as a form shows it, its value's type alone with no
    ``None`` branch (Prefect's UI would draw a "Property is type None" toggle); leaving it empty (omitting
    it) means the default, as the field's description says."""

    def __get_pydantic_json_schema__(self, core_schema, handler):
        schema = handler(core_schema)
        branches = [branch for branch in schema.get("anyOf", []) if branch.get("type") != "null"]
        if len(branches) == 1:
            rest = {key: value for key, value in schema.items() if key != "anyOf"}
            return {**branches[0], **rest}
        return schema


def given_values(model: type[BaseModel], values: Mapping[str, Any]) -> dict[str, Any]:
    """The flat parameters ``values`` of ``model`` without those left empty (:func:`_left_empty`), which
    take the model's defaults."""
    return {name: value for name, value in values.items() if not _left_empty(model, name, value)}


def _left_empty(model: type[BaseModel], name: str, value: Any) -> bool:
    """Whether a flat parameter was left empty: not given (``MISSING``), or, for a field whose default is
    ``None``, given as ``None`` or an empty list or text (what a form sends for a field left blank)."""
    if value is MISSING:
        return True
    field = model.model_fields[name]
    return not field.is_required() and field.default is None and value in (None, "", [], ())


def _parameter(name: str, model: type[BaseModel], names: list[str] | None) -> inspect.Parameter:
    """The keyword parameter of field ``name``: its annotation with constraints (and ``names`` as choices);
    an optional field (default ``None``) shows its value's type only (:class:`_LeftEmpty`)."""
    field = model.model_fields[name]
    annotation = field.rebuild_annotation()
    if names is not None:
        annotation = _with_choices(annotation, names)
    if field.json_schema_extra:  # a pattern for Prefect's API, beside the model's own validator
        annotation = Annotated[annotation, Field(json_schema_extra=field.json_schema_extra)]
    if not field.is_required() and field.default is None:  # MISSING: left empty (Prefect validates it)
        annotation = Annotated[typing.Union[annotation, MISSING], _LeftEmpty()]  # noqa: UP007
    if field.is_required():
        default = inspect.Parameter.empty
    elif field.default is None:
        default = MISSING  # no `"default": null` in the schema, which the form would send and refuse
    else:
        default = field.get_default(call_default_factory=True)
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _args_section(descriptions: Mapping[str, str], names) -> str:
    """The Google-style ``Args:`` section Prefect reads parameter descriptions from."""
    lines = [f"    {name}: {descriptions[name]}" for name in names if name in descriptions]
    return "Args:\n" + "\n".join(lines) if lines else ""


def flat_parameters(
    model: type[Model],
    *,
    choices: Mapping[str, str] | None = None,
    notes: Mapping[str, Callable[[], str]] | None = None,
) -> Callable[[Callable[[Model], Result]], Callable[..., Result]]:
    """Decorate a flow body taking a ``model`` so that it takes the model's fields as flat keyword parameters.

    Parameters
    ----------
    model : type
        A frozen pydantic model of ``schemas.flow_params``.
    choices : mapping of field -> name list, optional
        Fields whose values are known names, with the key of their list in
        ``tasks.config.checks.name_context`` (``"datasets"``, ``"methods"``, ``"business_datasets"``).
    notes : mapping of field -> callable, optional
        A sentence added to a field's description, computed when the flow's module is imported (for a
        deployment, at ``prefect deploy``), e.g. how many cells the defaults fit.

    Returns
    -------
    callable
        A decorator. The function it returns takes every field but :data:`MACHINE_FIELDS` as a keyword
        parameter (type, constraints, default and description from the model; known names as an
        ``enum``), validates them into ``model`` against the known names (``tasks.config.checks.
        validate_params``) and calls the body with it. Decorate it with ``prefect.flow``.
    """
    choices = dict(choices or {})

    def decorate(body: Callable[[Model], Result]) -> Callable[..., Result]:
        context = name_context() if choices else {}
        descriptions = field_descriptions(model)
        for name, note in (notes or {}).items():
            descriptions[name] = f"{descriptions[name]} {note()}"
        names = [name for name in model.model_fields if name not in MACHINE_FIELDS]
        parameters = [
            _parameter(name, model, context[choices[name]] if name in choices else None) for name in names
        ]

        signature = inspect.Signature(parameters, return_annotation=inspect.signature(body).return_annotation)

        def flow_function(**values: Any) -> Result:
            signature.bind(**values)  # a TypeError for anything else, such as a machine setting
            return body(validate_params(model, given_values(model, values)))

        functools.update_wrapper(flow_function, body)
        del flow_function.__wrapped__  # Prefect and pydantic read the flat signature below, not the body's
        flow_function.__signature__ = signature
        flow_function.__parameter_model__ = model  # parameter_model(flow_function)
        flow_function.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
        summary = inspect.cleandoc(body.__doc__ or "")
        flow_function.__doc__ = f"{summary}\n\n{_args_section(descriptions, names)}".strip()
        return flow_function

    return decorate


def parameter_model(function: Callable[..., Any]) -> type[BaseModel] | None:
    """The parameter model of a :func:`flat_parameters` function (``None`` for any other function)."""
    return getattr(function, "__parameter_model__", None)


def flow_arguments(params: BaseModel) -> dict[str, Any]:
    """``params`` as the keyword arguments of a :func:`flat_parameters` flow: all but the machine's fields."""
    return {name: getattr(params, name) for name in type(params).model_fields if name not in MACHINE_FIELDS}


def logged_params(params: BaseModel, **dump_options: Any) -> dict[str, Any]:
    """What a run records of ``params``: no machine setting (a tracking URI, a local folder).

    The cell store is already relative to the state folder (``schemas.flow_params``). ``dump_options`` go to
    ``model_dump`` (e.g. ``mode="json"``).
    """
    return params.model_dump(exclude=set(MACHINE_FIELDS), **dump_options)


@contextmanager
def machine_environment(params: BaseModel) -> Iterator[None]:
    """Within the block, the machine settings ``params`` gives are the environment's; restored afterwards.

    A tracking URI's credentials go to MLflow's variables
    (``tasks.tracking.credentials.use_uri_credentials``), so the URI in ``MLFLOW_TRACKING_URI`` is bare.
    """
    updates = {
        variable: getattr(params, name)
        for name, variable in MACHINE_FIELDS.items()
        if getattr(params, name, None) is not None
    }
    if "MLFLOW_TRACKING_URI" in updates:
        updates["MLFLOW_TRACKING_URI"] = use_uri_credentials(updates["MLFLOW_TRACKING_URI"])
    previous = {variable: os.environ.get(variable) for variable in updates}
    os.environ.update({variable: str(value) for variable, value in updates.items()})
    try:
        yield
    finally:
        for variable, value in previous.items():
            if value is None:
                os.environ.pop(variable, None)
            else:
                os.environ[variable] = value


def comparison_size(params, *, n_methods: int | None = None) -> tuple[int, str]:
    """How many cells a comparison fits, and the product in words: ``(1500, "1 dataset x 30 methods x 10
    repeats x 5 folds")``. ``params`` is a ``CompareParams``; ``n_methods`` counts ``methods=None`` (every
    method; default: the known methods, ``tasks.config.checks.quick_name_context``)."""
    from tasks.config.checks import quick_name_context

    if params.methods is not None:
        n_methods = len(params.methods)
    elif n_methods is None:
        n_methods = len(quick_name_context()["methods"])
    n_datasets = len(params.datasets)
    words = (
        f"{n_datasets} dataset{'s' * (n_datasets != 1)} x {n_methods} method{'s' * (n_methods != 1)} x "
        f"{params.n_repeats} repeat{'s' * (params.n_repeats != 1)}"
        + (f" x {params.n_folds} folds" if params.protocol == "cv" else "")
    )
    return n_datasets * n_methods * params.n_repeats * params.n_folds, words


def default_comparison_size() -> str:
    """What the compare deployment fits with its defaults, for its description (``make deploy`` writes it
    into ``prefect.yaml``'s ``{{ $CSLEARN_COMPARE_DEFAULT_SIZE }}``): ``1,500 cells (1 dataset x 30 methods
    x 10 repeats x 5 folds)``."""
    from schemas.flow_params import CompareParams

    cells, words = comparison_size(CompareParams())
    return f"{cells:,} cells ({words})"
