"""Gradient boosting on example-dependent costs.

``GRADIENT_BOOSTING_METHODS`` maps registry keys to estimator classes that construct with no arguments:

- ``"csboost"``: LightGBM trees boosted on each row's expected cost (Höppner et al. 2022), deciding by each
  row's minimum-risk threshold.
"""

from algorithms.gradient_boosting.csboost import CostSensitiveGradientBoosting

GRADIENT_BOOSTING_METHODS: dict[str, type] = {
    "csboost": CostSensitiveGradientBoosting,
}

__all__ = ["GRADIENT_BOOSTING_METHODS", "CostSensitiveGradientBoosting"]
