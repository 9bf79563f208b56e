"""Boosting estimators on one shared loop (:mod:`algorithms.boosting._base`).

``BOOSTING_METHODS`` maps each method's stable key to its estimator class (the family's block of
:data:`algorithms._method_table.FAMILY_METHODS`); :data:`algorithms.METHODS` joins it with the other families.

The names below are imported on first use (PEP 562): importing one variant's module (``algorithms.boosting.
adacc``, which ``METHODS["adacc1"]`` does) runs this ``__init__`` first, and must not import the M2 methods'
neighbour search or the calibrated variants' Bayes minimum risk estimators with it.
"""

from __future__ import annotations

from algorithms._lazy import lazy_exports
from algorithms._method_table import family_methods

#: Public name -> the module of this package that defines it.
_EXPORTS = {
    "BaseBoostingClassifier": "_base",
    "BoostingRules": "_base",
    "FixedCostBoostingClassifier": "_base",
    "AdaBoost": "adaboost",
    "AdaC1": "adac",
    "AdaC2": "adac",
    "AdaC3": "adac",
    "AdaCC1": "adacc",
    "AdaCC2": "adacc",
    "AdaNCC1": "adacc",
    "AdaNCC2": "adacc",
    "AdaCost": "adacost",
    "AdaMEC": "adamec",
    "AdaMECCalibrated": "calibrated",
    "CGAdaCalibrated": "calibrated",
    "CGAda": "cgada",
    "CostSensitiveAdaBoost": "csada",
    "CSB1": "csb",
    "CSB2": "csb",
    "SMOTEBoost": "m2",
    "WOTBoost": "m2",
    "RareBoost": "rareboost",
}

BOOSTING_METHODS = family_methods("boosting")

__all__ = ["BOOSTING_METHODS", *sorted(_EXPORTS)]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
