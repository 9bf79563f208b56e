"""Ensembles of example-dependent cost-sensitive decision trees (Correa Bahnsen et al. 2015).

``ENSEMBLE_METHODS`` maps keys to estimator classes that construct with no arguments:
``"csforest"``, ``"csbagging"``, ``"cspasting"``, ``"cspatches"`` (CSDT trees on random draws of rows and
features, combined by out-of-bag-savings-weighted vote; ``combination`` also offers the majority vote and
stacking with cslogit).
"""

from algorithms._method_table import family_methods
from algorithms.ensemble.cost_ensemble import (
    CostSensitiveBagging,
    CostSensitiveEnsemble,
    CostSensitivePasting,
    CostSensitiveRandomForest,
    CostSensitiveRandomPatches,
    EnsembleMemberTree,
)

#: The family's block of :data:`algorithms._method_table.FAMILY_METHODS`.
ENSEMBLE_METHODS = family_methods("ensemble")

__all__ = [
    "ENSEMBLE_METHODS",
    "CostSensitiveBagging",
    "CostSensitiveEnsemble",
    "CostSensitivePasting",
    "CostSensitiveRandomForest",
    "CostSensitiveRandomPatches",
    "EnsembleMemberTree",
]
