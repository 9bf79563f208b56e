"""Linear models fitted on example-dependent costs.

``LINEAR_METHODS`` maps keys to estimator classes that construct with no arguments:

- ``"cslogit"``: logistic regression minimising the average expected cost with each row's costs, elastic-net
  penalty (Correa Bahnsen et al. 2014; Höppner et al. 2022), deciding by each row's minimum-risk threshold.
"""

from algorithms._method_table import family_methods
from algorithms.linear.cslogit import CostSensitiveLogisticRegression, expected_cost_objective

#: The family's block of :data:`algorithms._method_table.FAMILY_METHODS`.
LINEAR_METHODS = family_methods("linear")

__all__ = ["LINEAR_METHODS", "CostSensitiveLogisticRegression", "expected_cost_objective"]
