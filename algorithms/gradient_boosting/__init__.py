"""Gradient boosting on example-dependent costs.

``GRADIENT_BOOSTING_METHODS`` maps keys to estimator classes that construct with no arguments:

- ``"csboost"``: LightGBM trees boosted on each row's expected cost (Höppner et al. 2022), deciding by each
  row's minimum-risk threshold.
"""

from algorithms._method_table import family_methods
from algorithms.gradient_boosting.csboost import CostSensitiveGradientBoosting

#: The family's block of :data:`algorithms._method_table.FAMILY_METHODS`.
GRADIENT_BOOSTING_METHODS = family_methods("gradient_boosting")

__all__ = ["GRADIENT_BOOSTING_METHODS", "CostSensitiveGradientBoosting"]
