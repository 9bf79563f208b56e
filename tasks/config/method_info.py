"""The estimators the pipeline fits, by key, and what a user needs to know to choose among them.

Flows never import ``algorithms``; they name methods by key, validate the keys through
:mod:`tasks.config.checks` and build estimators through :func:`tasks.fitting.estimators.build_estimator`.

:func:`describe_methods` derives every method's description from the estimator itself, never from a table
kept by hand: its family is the ``algorithms`` subpackage that defines it, its paper the first of the four
papers (``docs/algorithms.md`` section 0) that its class or module docstring cites, and its use of costs is
observed: the method is fit twice on a small fixed problem with two different cost matrices (a fit that uses
them gives different scores, or fails for one of them), and its ``predict`` either takes the rows' costs or
not (Bayes minimum risk decides with them). ``algorithms`` is imported only when a function here needs it, so
importing this module stays cheap.
"""

from __future__ import annotations

import importlib
import re
import sys
from dataclasses import asdict, dataclass

import numpy as np

from schemas.flow_params import CompareParams

__all__ = ["MethodInfo", "compared_methods", "describe_methods"]

#: The papers, as the docstrings cite them: (name shown to users, pattern), in the order they are tried.
PAPER_CITATIONS = (
    ("AdaCC", re.compile(r"AdaCC|AdaN-CC")),
    ("CSDT", re.compile(r"\bCSDT\b")),
    ("WOTBoost", re.compile(r"\bWOTBoost\b")),
    ("Cost-Sensitive AdaBoost (Algorithm 2)", re.compile(r"\bAlgorithm 2\b")),
    # the example-dependent methods beyond the four papers
    ("Correa Bahnsen 2014", re.compile(r"Correa Bahnsen et al\.\s+\(?2014")),
    ("Correa Bahnsen 2015", re.compile(r"Correa Bahnsen et al\.\s+\(?2015")),
    ("Höppner 2022", re.compile(r"Höppner et al\.\s+\(?2022")),
)

#: Size of the problem on which a method's use of costs is observed, and its boosting rounds.
_PROBE_ROWS, _PROBE_ROUNDS = 200, 5


def _registered() -> dict[str, type]:
    """``algorithms.METHODS``, imported on first use (scikit-learn takes seconds to import)."""
    return importlib.import_module("algorithms").METHODS


@dataclass(frozen=True)
class MethodInfo:
    """What ``cslearn methods list`` shows about one registered method.

    Attributes
    ----------
    key : str
        Key in the method table (``algorithms.METHODS``).
    estimator : str
        Qualified name of the estimator class.
    family : str
        The ``algorithms`` subpackage that defines it: ``boosting``, ``tree``, ``cost`` or ``baselines``.
    paper : str or None
        The first of the four papers its docstrings cite (``None``: none).
    summary : str
        First line of the class docstring.
    parameters : tuple of str
        Constructor parameters (what ``method_params`` may set).
    fit_uses_costs : bool or None
        Whether a ``cost_matrix`` given to ``fit`` changes the fitted model (``None``: both probe fits
        failed).
    predict_uses_costs : bool
        Whether ``predict`` takes the rows' ``cost_matrix`` (the decision depends on each row's costs).
    class_costs : bool
        Whether it takes the class cost C- as ``negative_cost`` (compare selects it from a grid).
    """

    key: str
    estimator: str
    family: str
    paper: str | None
    summary: str
    parameters: tuple[str, ...]
    fit_uses_costs: bool | None
    predict_uses_costs: bool
    class_costs: bool

    @property
    def uses_costs(self) -> bool:
        """Whether the method uses costs at all (example-dependent or class costs, in fit or decision)."""
        return bool(self.fit_uses_costs) or self.predict_uses_costs or self.class_costs

    @property
    def costs_text(self) -> str:
        """How the method uses costs, in a few words."""
        if self.predict_uses_costs and self.fit_uses_costs:
            return "example costs, in fit and decision"
        if self.predict_uses_costs:
            return "example costs, at decision"
        if self.fit_uses_costs and self.class_costs:
            return "example or class costs"
        if self.fit_uses_costs:
            return "example costs"
        if self.class_costs:
            return "class costs"
        return "?" if self.fit_uses_costs is None else "no"

    def to_dict(self) -> dict:
        """JSON-ready, with ``uses_costs`` and ``costs`` (the text) added."""
        return {
            **asdict(self),
            "parameters": list(self.parameters),
            "uses_costs": self.uses_costs,
            "costs": self.costs_text,
        }

    @classmethod
    def from_dict(cls, record: dict) -> MethodInfo:
        fields = {name: record[name] for name in cls.__dataclass_fields__}
        return cls(**{**fields, "parameters": tuple(fields["parameters"])})


def compared_methods(params: CompareParams) -> list[str]:
    """The methods of a comparison: those ``params`` names, or every registered one (sorted by key)."""
    if params.methods is not None:
        return list(params.methods)
    return sorted(_registered())


def _cited_paper(estimator: type) -> str | None:
    """The paper cited first in the class docstring, else in its module's docstring."""
    for text in (estimator.__doc__, sys.modules[estimator.__module__].__doc__):
        positions = [
            (match.start(), name)
            for name, pattern in PAPER_CITATIONS
            if (match := pattern.search(text or "")) is not None
        ]
        if positions:
            return min(positions)[1]
    return None


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0] if lines else ""


def _probe_problem():
    """A fixed, noisy two-feature problem and two cost matrices that differ row by row (C_FN up to 20)."""
    rng = np.random.default_rng(0)
    features = rng.normal(size=(_PROBE_ROWS, 2))
    target = (features[:, 0] + 0.8 * rng.normal(size=_PROBE_ROWS) > 1.0).astype(int)
    class_level = np.tile([0.5, 1.0, 0.0, 0.0], (_PROBE_ROWS, 1))
    example_level = class_level.copy()
    example_level[:, 0] = 0.2 + rng.random(_PROBE_ROWS)
    example_level[:, 1] = 1.0 + 19.0 * rng.random(_PROBE_ROWS)
    return features, target, (class_level, example_level)


def _fit_uses_costs(estimator_class: type, problem) -> bool | None:
    """Whether two cost matrices give two different fits (scores differ, or only one fit fails)."""
    from tasks.fitting.estimators import fit_estimator
    from tasks.fitting.evaluate import decision_scores

    features, target, cost_matrices = problem
    outcomes = []
    for costs in cost_matrices:
        estimator = estimator_class()
        accepted = estimator.get_params(deep=False)
        estimator.set_params(
            **{"random_state": 0} if "random_state" in accepted else {},
            **{"n_estimators": _PROBE_ROUNDS} if "n_estimators" in accepted else {},
        )
        try:
            outcomes.append(decision_scores(fit_estimator(estimator, features, target, costs), features))
        except Exception as error:  # a fit that fails for one cost matrix only depends on the costs
            outcomes.append(type(error).__name__)
    if all(isinstance(outcome, str) for outcome in outcomes):
        return None
    if any(isinstance(outcome, str) for outcome in outcomes):
        return True
    return not np.allclose(*outcomes)


def describe_methods() -> dict[str, MethodInfo]:
    """Every registered method's :class:`MethodInfo`, in the method table's order, derived from the
    estimators.

    Imports ``algorithms`` and fits every method twice on a 200-row problem (a few seconds in all);
    ``tasks.config.name_index`` keeps the result on disk until the code changes.
    """
    from tasks.fitting.estimators import has_class_costs
    from tasks.fitting.evaluate import predict_uses_costs

    problem = _probe_problem()
    described = {}
    for key, estimator_class in _registered().items():
        estimator = estimator_class()
        described[key] = MethodInfo(
            key=key,
            estimator=f"{estimator_class.__module__}.{estimator_class.__qualname__}",
            family=estimator_class.__module__.split(".")[1],
            paper=_cited_paper(estimator_class),
            summary=_first_line(estimator_class.__doc__),
            parameters=tuple(sorted(estimator.get_params(deep=False))),
            fit_uses_costs=_fit_uses_costs(estimator_class, problem),
            predict_uses_costs=predict_uses_costs(estimator),
            class_costs=has_class_costs(estimator),
        )
    return described
