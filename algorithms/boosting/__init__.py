"""Boosting estimators on one shared loop (:mod:`algorithms.boosting._base`).

``BOOSTING_METHODS`` maps each method's stable key to its estimator class; :data:`algorithms.METHODS`
joins it with the other families.
"""

from algorithms.boosting._base import BaseBoostingClassifier, BoostingRules, FixedCostBoostingClassifier
from algorithms.boosting.adaboost import AdaBoost
from algorithms.boosting.adac import AdaC1, AdaC2, AdaC3
from algorithms.boosting.adacc import AdaCC1, AdaCC2, AdaNCC1, AdaNCC2
from algorithms.boosting.adacost import AdaCost
from algorithms.boosting.adamec import AdaMEC
from algorithms.boosting.calibrated import AdaMECCalibrated, CGAdaCalibrated
from algorithms.boosting.cgada import CGAda
from algorithms.boosting.csada import CostSensitiveAdaBoost
from algorithms.boosting.csb import CSB1, CSB2
from algorithms.boosting.m2 import SMOTEBoost, WOTBoost
from algorithms.boosting.rareboost import RareBoost

BOOSTING_METHODS: dict[str, type] = {
    # AdaBoost and the cumulative-cost methods (AdaCC paper, Section 4 and the AdaN-CC ablations)
    "adaboost": AdaBoost,
    "adacc1": AdaCC1,
    "adacc2": AdaCC2,
    "adancc1": AdaNCC1,
    "adancc2": AdaNCC2,
    # fixed-cost competitors (AdaCC paper, Table 3) and their calibrated variants
    "cgada": CGAda,
    "cgada-cal": CGAdaCalibrated,
    "adamec": AdaMEC,
    "adamec-cal": AdaMECCalibrated,
    "rareboost": RareBoost,
    "csb1": CSB1,
    "csb2": CSB2,
    "adacost": AdaCost,
    "adac1": AdaC1,
    "adac2": AdaC2,
    "adac3": AdaC3,
    # "Cost-Sensitive AdaBoost" (Algorithm 2)
    "cs-adaboost": CostSensitiveAdaBoost,
    # AdaBoost.M2 with synthetic minority samples (WOTBoost paper)
    "smoteboost": SMOTEBoost,
    "wotboost": WOTBoost,
}

__all__ = [
    "BOOSTING_METHODS",
    "AdaBoost",
    "AdaC1",
    "AdaC2",
    "AdaC3",
    "AdaCC1",
    "AdaCC2",
    "AdaCost",
    "AdaMEC",
    "AdaMECCalibrated",
    "AdaNCC1",
    "AdaNCC2",
    "BaseBoostingClassifier",
    "BoostingRules",
    "CGAda",
    "CGAdaCalibrated",
    "CSB1",
    "CSB2",
    "CostSensitiveAdaBoost",
    "FixedCostBoostingClassifier",
    "RareBoost",
    "SMOTEBoost",
    "WOTBoost",
]
