"""Cost-sensitive methods around any classifier: Bayes minimum risk and cost-proportionate sampling.

``COST_METHODS`` maps keys to classifiers that construct with no arguments: ``"bmr-lr"``,
``"bmr-rf"``, ``"bmr-dt"``, ``"bmr-hgb"`` (Bayes minimum risk around a calibrated logistic regression,
random forest, decision tree or histogram gradient boosting). The samplers are imblearn samplers, not
classifiers; they are listed in ``COST_SAMPLERS`` for use in an imblearn ``Pipeline``. The minimum-risk
decision that every cost-deciding method shares is :mod:`algorithms.cost.minimum_risk`. Savings and cost are
in ``algorithms.metrics``.

The names below are imported on first use (PEP 562): the boosting family imports
:mod:`algorithms.cost.minimum_risk` (numpy only) and must not pay for imbalanced-learn, which the samplers
import.
"""

from __future__ import annotations

from algorithms._lazy import lazy_exports
from algorithms._method_table import family_methods

#: Public name -> the submodule that defines it.
_EXPORTS = {
    "BayesMinimumRiskClassifier": "bayes_minimum_risk",
    "BayesMinimumRiskDecisionTree": "bayes_minimum_risk",
    "BayesMinimumRiskHistGradientBoosting": "bayes_minimum_risk",
    "BayesMinimumRiskLogisticRegression": "bayes_minimum_risk",
    "BayesMinimumRiskRandomForest": "bayes_minimum_risk",
    "bayes_minimum_risk_thresholds": "minimum_risk",
    "minimum_risk_decision": "minimum_risk",
    "outcome_regrets": "minimum_risk",
    "CostProportionateOverSampler": "sampling",
    "CostProportionateRejectionSampler": "sampling",
    "misclassification_costs": "sampling",
}

__all__ = ["COST_METHODS", "COST_SAMPLERS", *sorted(_EXPORTS)]


_export, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


def __getattr__(name: str):
    """The public names from their submodules on first use, and the two tables built from them."""
    if name == "COST_METHODS":  # the family's block of algorithms._method_table.FAMILY_METHODS
        value = globals()[name] = family_methods("cost")
        return value
    if name == "COST_SAMPLERS":
        #: Cost-proportionate samplers by name (imblearn samplers taking ``cost_matrix`` in ``fit_resample``).
        value = globals()[name] = {
            "rejection": _export("CostProportionateRejectionSampler"),
            "over": _export("CostProportionateOverSampler"),
        }
        return value
    return _export(name)
