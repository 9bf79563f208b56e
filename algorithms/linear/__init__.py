"""Linear models fitted on example-dependent costs.

``LINEAR_METHODS`` maps registry keys to estimator classes that construct with no arguments:

- ``"cslogit"``: logistic regression minimising the average expected cost with each row's costs, elastic-net
  penalty (Correa Bahnsen et al. 2014; Höppner et al. 2022), deciding by each row's minimum-risk threshold.
"""

from algorithms.linear.cslogit import CostSensitiveLogisticRegression, expected_cost_objective

LINEAR_METHODS: dict[str, type] = {
    "cslogit": CostSensitiveLogisticRegression,
}

__all__ = ["LINEAR_METHODS", "CostSensitiveLogisticRegression", "expected_cost_objective"]
