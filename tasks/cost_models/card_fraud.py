"""Card-fraud cost matrix (CSDT paper, Table 6; Correa Bahnsen et al. 2013).

Every alert costs its investigation ``C_a`` whether the transaction is a fraud or not; a missed fraud
costs its amount:

    C_FP = C_TP = C_a,   C_FN_i = Amt_i,   C_TN = 0.

Nothing is fitted. The paper does not state ``C_a``; the default is 10 euros, the fixed cost Höppner et al.
(2022, "Instance-dependent cost-sensitive learning for detecting transfer fraud", EJOR) use on the very ULB
card data cslearn ships (its ``Amount`` column is in euros).

Transactions with ``Amt_i <= C_a`` break the reasonableness condition ``C_FN > C_TP``: investigating them
costs at least as much as the fraud could. On the ULB data that is 100,264 of 284,807 transactions with the
default ``C_a`` (249 of the 492 frauds; 1,825 transactions have ``Amount == 0``). cslearn keeps the paper's
costs unchanged: they are the real money at stake, and for such rows the right decision is never to alert.
The cost-matrix schema reports those rows (``on_unreasonable="report"``); a caller that wants only
reasonable rows filters them out of the training split, as Höppner et al. do. A negative amount is an error.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from tasks.cost_models.cost_model import CostModel, MonetaryColumn

__all__ = ["CardFraudCostModel"]


class CardFraudCostModel(CostModel):
    """Example-dependent costs of raising or not raising a fraud alert (CSDT Table 6).

    Parameters
    ----------
    amount_column : str, default="Amount"
        Feature column with the transaction amount (euros, non-negative).
    alert_cost : float, default=10.0
        ``C_a``, the administrative cost of investigating an alert (euros).

    Attributes
    ----------
    n_training_examples_ : int
        Rows seen by :meth:`fit`; no statistic enters the formula.
    """

    name = "card-fraud"
    unit = "EUR"  # the transaction amounts are in euros

    _parameter_constraints = {
        "amount_column": [str],
        "alert_cost": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, *, amount_column="Amount", alert_cost=10.0):
        self.amount_column = amount_column
        self.alert_cost = alert_cost

    def _monetary_columns(self):
        return {"amount": MonetaryColumn(self.amount_column, "transaction amount")}

    def _fit_statistics(self, columns, target):
        """Nothing to learn: every term of Table 6 is a parameter or a per-transaction column."""

    def _costs(self, columns):
        costs = np.zeros((columns["amount"].shape[0], 4))
        costs[:, 0] = self.alert_cost
        costs[:, 1] = columns["amount"]
        costs[:, 2] = self.alert_cost
        return costs
