"""scikit-learn-compatible estimators for cost-sensitive and imbalanced classification.

``METHODS`` maps every method's stable key (as used by the flows, the CLI and the tests) to its estimator
class. Each family keeps its own registry in its subpackage; this module only joins them.
"""

from algorithms.baselines import BASELINE_METHODS
from algorithms.boosting import BOOSTING_METHODS
from algorithms.cost import COST_METHODS
from algorithms.tree import TREE_METHODS

METHODS: dict[str, type] = {**BOOSTING_METHODS, **TREE_METHODS, **COST_METHODS, **BASELINE_METHODS}

__all__ = ["METHODS"]
