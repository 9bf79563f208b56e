"""Cost-sensitive methods around any classifier: Bayes minimum risk and cost-proportionate sampling.

``COST_METHODS`` maps registry keys to classifiers that construct with no arguments: ``"bmr-lr"``,
``"bmr-rf"``, ``"bmr-dt"``, ``"bmr-hgb"`` (Bayes minimum risk around a calibrated logistic regression,
random forest, decision tree or histogram gradient boosting). The samplers are imblearn samplers, not
classifiers; they are listed in ``COST_SAMPLERS`` for use in an imblearn ``Pipeline``. Savings and cost
are in ``algorithms.metrics``.
"""

from algorithms.cost.bayes_minimum_risk import (
    BayesMinimumRiskClassifier,
    BayesMinimumRiskDecisionTree,
    BayesMinimumRiskHistGradientBoosting,
    BayesMinimumRiskLogisticRegression,
    BayesMinimumRiskRandomForest,
    bayes_minimum_risk_thresholds,
)
from algorithms.cost.sampling import (
    CostProportionateOverSampler,
    CostProportionateRejectionSampler,
    misclassification_costs,
)

COST_METHODS: dict[str, type] = {
    "bmr-lr": BayesMinimumRiskLogisticRegression,
    "bmr-rf": BayesMinimumRiskRandomForest,
    "bmr-dt": BayesMinimumRiskDecisionTree,
    "bmr-hgb": BayesMinimumRiskHistGradientBoosting,
}

#: Cost-proportionate samplers by name (imblearn samplers taking ``cost_matrix`` in ``fit_resample``).
COST_SAMPLERS: dict[str, type] = {
    "rejection": CostProportionateRejectionSampler,
    "over": CostProportionateOverSampler,
}

__all__ = [
    "COST_METHODS",
    "COST_SAMPLERS",
    "BayesMinimumRiskClassifier",
    "BayesMinimumRiskDecisionTree",
    "BayesMinimumRiskHistGradientBoosting",
    "BayesMinimumRiskLogisticRegression",
    "BayesMinimumRiskRandomForest",
    "CostProportionateOverSampler",
    "CostProportionateRejectionSampler",
    "bayes_minimum_risk_thresholds",
    "misclassification_costs",
]
