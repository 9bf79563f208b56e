"""Ensembles of example-dependent cost-sensitive decision trees (Correa Bahnsen et al. 2015).

``ENSEMBLE_METHODS`` maps registry keys to estimator classes that construct with no arguments:
``"csforest"``, ``"csbagging"``, ``"cspasting"``, ``"cspatches"`` (CSDT trees on random draws of rows and
features, combined by out-of-bag-savings-weighted vote; ``combination`` also offers the majority vote and
stacking with cslogit).
"""

from algorithms.ensemble.cost_ensemble import (
    CostSensitiveBagging,
    CostSensitiveEnsemble,
    CostSensitivePasting,
    CostSensitiveRandomForest,
    CostSensitiveRandomPatches,
    EnsembleMemberTree,
)

ENSEMBLE_METHODS: dict[str, type] = {
    "csforest": CostSensitiveRandomForest,
    "csbagging": CostSensitiveBagging,
    "cspasting": CostSensitivePasting,
    "cspatches": CostSensitiveRandomPatches,
}

__all__ = [
    "ENSEMBLE_METHODS",
    "CostSensitiveBagging",
    "CostSensitiveEnsemble",
    "CostSensitivePasting",
    "CostSensitiveRandomForest",
    "CostSensitiveRandomPatches",
    "EnsembleMemberTree",
]
