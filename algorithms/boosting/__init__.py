"""Boosting estimators on one shared loop (:mod:`algorithms.boosting._base`).

``BOOSTING_METHODS`` maps each method's stable key to its estimator class; :data:`algorithms.METHODS`
joins it with the other families.
"""

from algorithms.boosting._base import BaseBoostingClassifier, BoostingRules, FixedCostBoostingClassifier
from algorithms.boosting.adaboost import AdaBoost
from algorithms.boosting.adacc import AdaCC1, AdaCC2, AdaNCC1, AdaNCC2

BOOSTING_METHODS: dict[str, type] = {
    "adaboost": AdaBoost,
    "adacc1": AdaCC1,
    "adacc2": AdaCC2,
    "adancc1": AdaNCC1,
    "adancc2": AdaNCC2,
}

__all__ = [
    "BOOSTING_METHODS",
    "AdaBoost",
    "AdaCC1",
    "AdaCC2",
    "AdaNCC1",
    "AdaNCC2",
    "BaseBoostingClassifier",
    "BoostingRules",
    "FixedCostBoostingClassifier",
]
