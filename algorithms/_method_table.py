"""The method table: stable keys to estimator classes, each class imported on first use of its key.

:data:`FAMILY_METHODS` is the one table of every family's methods, ``key -> "module:Class"``; it imports
nothing. :class:`MethodTable` serves it as a mapping: the keys are known at once, and reading a key
imports only that class's module (and what that module imports), so ``METHODS["adacc1"]`` does not import
imbalanced-learn, the tree or the Bayes minimum risk estimators. ``algorithms.METHODS`` joins every family;
each family's own table (``BOOSTING_METHODS``, ``TREE_METHODS``, ``COST_METHODS``,
``BASELINE_METHODS``) serves its block.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping

__all__ = ["FAMILY_METHODS", "MethodTable", "family_methods"]

#: Every family's methods: key -> ``"module:Class"`` (the key order is the table's order).
FAMILY_METHODS: dict[str, dict[str, str]] = {
    "boosting": {
        # AdaBoost and the cumulative-cost methods (AdaCC paper, Section 4 and the AdaN-CC ablations)
        "adaboost": "algorithms.boosting.adaboost:AdaBoost",
        "adacc1": "algorithms.boosting.adacc:AdaCC1",
        "adacc2": "algorithms.boosting.adacc:AdaCC2",
        "adancc1": "algorithms.boosting.adacc:AdaNCC1",
        "adancc2": "algorithms.boosting.adacc:AdaNCC2",
        # fixed-cost competitors (AdaCC paper, Table 3) and their calibrated variants
        "cgada": "algorithms.boosting.cgada:CGAda",
        "cgada-cal": "algorithms.boosting.calibrated:CGAdaCalibrated",
        "adamec": "algorithms.boosting.adamec:AdaMEC",
        "adamec-cal": "algorithms.boosting.calibrated:AdaMECCalibrated",
        "rareboost": "algorithms.boosting.rareboost:RareBoost",
        "csb1": "algorithms.boosting.csb:CSB1",
        "csb2": "algorithms.boosting.csb:CSB2",
        "adacost": "algorithms.boosting.adacost:AdaCost",
        "adac1": "algorithms.boosting.adac:AdaC1",
        "adac2": "algorithms.boosting.adac:AdaC2",
        "adac3": "algorithms.boosting.adac:AdaC3",
        # "Cost-Sensitive AdaBoost" (Algorithm 2)
        "cs-adaboost": "algorithms.boosting.csada:CostSensitiveAdaBoost",
        # AdaBoost.M2 with synthetic minority samples (WOTBoost paper)
        "smoteboost": "algorithms.boosting.m2:SMOTEBoost",
        "wotboost": "algorithms.boosting.m2:WOTBoost",
    },
    "tree": {
        "csdt": "algorithms.tree.csdt:CostSensitiveTreeCostPruned",
        "dt-costp": "algorithms.tree.csdt:DecisionTreeCostPruned",
        "dt": "algorithms.tree.csdt:DecisionTreeUnpruned",
    },
    "cost": {
        "bmr-lr": "algorithms.cost.bayes_minimum_risk:BayesMinimumRiskLogisticRegression",
        "bmr-rf": "algorithms.cost.bayes_minimum_risk:BayesMinimumRiskRandomForest",
        "bmr-dt": "algorithms.cost.bayes_minimum_risk:BayesMinimumRiskDecisionTree",
        "bmr-hgb": "algorithms.cost.bayes_minimum_risk:BayesMinimumRiskHistGradientBoosting",
    },
    "baselines": {
        "smote-dt": "algorithms.baselines:SMOTEDecisionTree",
        "adasyn-dt": "algorithms.baselines:ADASYNDecisionTree",
        "ros-dt": "algorithms.baselines:RandomOverSamplingDecisionTree",
        "rus-dt": "algorithms.baselines:RandomUnderSamplingDecisionTree",
        "rusboost": "algorithms.baselines:RUSBoost",
    },
    # the strongest example-dependent methods beyond the four papers
    "linear": {
        "cslogit": "algorithms.linear.cslogit:CostSensitiveLogisticRegression",
    },
    "gradient_boosting": {
        "csboost": "algorithms.gradient_boosting.csboost:CostSensitiveGradientBoosting",
    },
    "ensemble": {
        "csforest": "algorithms.ensemble.cost_ensemble:CostSensitiveRandomForest",
        "csbagging": "algorithms.ensemble.cost_ensemble:CostSensitiveBagging",
        "cspasting": "algorithms.ensemble.cost_ensemble:CostSensitivePasting",
        "cspatches": "algorithms.ensemble.cost_ensemble:CostSensitiveRandomPatches",
    },
}


def _import_class(path: str) -> type:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class MethodTable(MutableMapping):
    """``key -> estimator class``, a class imported when its key is first read.

    Entries are classes or ``"module:Class"`` paths; assigning either registers a method (the flows' user
    methods, tests' stand-ins). Iteration, ``len``, ``in`` and ``keys()`` import nothing; ``values()`` and
    ``items()`` import every class.
    """

    def __init__(self, entries: Mapping[str, type | str] | None = None):
        self._entries: dict[str, type | str] = dict(entries or {})

    def __getitem__(self, key: str) -> type:
        entry = self._entries[key]
        if isinstance(entry, str):
            entry = self._entries[key] = _import_class(entry)
        return entry

    def __setitem__(self, key: str, value: type | str) -> None:
        self._entries[key] = value

    def __delitem__(self, key: str) -> None:
        del self._entries[key]

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({sorted(self._entries)})"


def family_methods(family: str) -> MethodTable:
    """A method table of one family's block of :data:`FAMILY_METHODS`."""
    return MethodTable(FAMILY_METHODS[family])
