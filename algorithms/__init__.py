"""scikit-learn-compatible estimators for cost-sensitive and imbalanced classification.

``METHODS`` maps every method's stable key (as used by the flows, the CLI and the tests) to its estimator
class. Each family keeps its own registry in its subpackage; this module only joins them, on first use of
``METHODS``, so that importing one family (``algorithms.boosting``) does not import the others'
dependencies (imbalanced-learn's, about 0.3 s of a fresh process's first fit).
"""

import threading

__all__ = ["METHODS"]

_registry_lock = threading.Lock()


def __getattr__(name: str):
    """``METHODS``, built once (PEP 562): every caller then shares, and may extend, the same dict."""
    if name != "METHODS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _registry_lock:
        if "METHODS" not in globals():
            from algorithms.baselines import BASELINE_METHODS
            from algorithms.boosting import BOOSTING_METHODS
            from algorithms.cost import COST_METHODS
            from algorithms.ensemble import ENSEMBLE_METHODS
            from algorithms.gradient_boosting import GRADIENT_BOOSTING_METHODS
            from algorithms.linear import LINEAR_METHODS
            from algorithms.tree import TREE_METHODS

            globals()["METHODS"] = {
                **BOOSTING_METHODS,
                **TREE_METHODS,
                **COST_METHODS,
                **BASELINE_METHODS,
                **LINEAR_METHODS,
                **GRADIENT_BOOSTING_METHODS,
                **ENSEMBLE_METHODS,
            }
    return globals()["METHODS"]
