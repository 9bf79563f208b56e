"""Example-dependent cost-sensitive decision trees (CSDT paper): criteria, exact splitter, node arrays,
pruning.

``TREE_METHODS`` maps keys to estimator classes that construct with no arguments:

- ``"csdt"``: cost impurity (Eq. 10-11), cost-based pruning on a validation set (Eq. 12);
- ``"dt-costp"``: Gini tree, cost-based pruning;
- ``"dt"``: Gini tree, no pruning.

Other combinations (``criterion`` x ``pruning``) are parameters of
:class:`CostSensitiveDecisionTreeClassifier`.
"""

from algorithms._method_table import family_methods
from algorithms.tree._export import export_graphviz, export_text
from algorithms.tree._nodes import NodeArrays
from algorithms.tree.csdt import (
    CostSensitiveDecisionTreeClassifier,
    CostSensitiveTreeCostPruned,
    DecisionTreeCostPruned,
    DecisionTreeUnpruned,
)

#: The family's block of :data:`algorithms._method_table.FAMILY_METHODS`.
TREE_METHODS = family_methods("tree")

__all__ = [
    "TREE_METHODS",
    "CostSensitiveDecisionTreeClassifier",
    "CostSensitiveTreeCostPruned",
    "DecisionTreeCostPruned",
    "DecisionTreeUnpruned",
    "NodeArrays",
    "export_graphviz",
    "export_text",
]
