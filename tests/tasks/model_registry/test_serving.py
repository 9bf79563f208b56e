"""The cost-aware model a logged model serves: costs from each row (or given), cost-minimising decisions."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mlflow.sklearn
import numpy as np
import pandas as pd
import pytest

import algorithms
from algorithms import METHODS
from algorithms.cost import bayes_minimum_risk_thresholds
from algorithms.metrics import COST_COLUMNS, savings_score
from tasks.cost_models import CreditScoringCostModel
from tasks.model_registry import (
    CostAwareModel,
    cost_model_from_state,
    cost_model_state,
    skops_safe_copy,
    skops_trusted_types,
)
from tasks.model_registry.serving import load_model_folder


@pytest.fixture(scope="module")
def fitted(retrain_data):
    """(data, bmr-lr, csdt) fit with the synthetic data's training costs."""
    data = retrain_data
    models = {
        method: METHODS[method](random_state=0).fit(
            data.train_features, data.train_target, cost_matrix=data.train_costs
        )
        for method in ("bmr-lr", "csdt")
    }
    return data, models


def test_costs_are_derived_from_each_row_and_bayes_minimum_risk_decides_with_them(fitted):
    data, models = fitted
    served = CostAwareModel(models["bmr-lr"], data.fitted_cost_model).predict(data.holdout_features)
    assert list(served.columns) == ["decision", "probability", "expected_cost", *COST_COLUMNS]
    np.testing.assert_array_equal(served[list(COST_COLUMNS)].to_numpy(), data.holdout_costs)
    # CSDT Section 2.3: positive iff the calibrated probability exceeds t_i = C_FP / (C_FN + C_FP - C_TP).
    probability = models["bmr-lr"].predict_proba(data.holdout_features)[:, 1]
    thresholds = bayes_minimum_risk_thresholds(data.holdout_costs)
    np.testing.assert_array_equal(served["decision"], (probability > thresholds).astype(int))
    expected = models["bmr-lr"].predict(data.holdout_features, cost_matrix=data.holdout_costs)
    np.testing.assert_array_equal(served["decision"], expected)
    assert served["decision"].tolist() != models["bmr-lr"].predict(data.holdout_features).tolist()


def test_expected_cost_prices_the_decision_under_the_probability(fitted):
    data, models = fitted
    served = CostAwareModel(models["csdt"], data.fitted_cost_model).predict(data.holdout_features)
    np.testing.assert_array_equal(served["decision"], models["csdt"].predict(data.holdout_features))
    p, (c_fp, c_fn, c_tp, c_tn) = served["probability"].to_numpy(), data.holdout_costs.T
    by_hand = np.where(served["decision"] == 1, p * c_tp + (1 - p) * c_fp, p * c_fn + (1 - p) * c_tn)
    np.testing.assert_allclose(served["expected_cost"], by_hand)


def test_cost_columns_in_the_request_take_precedence(fitted):
    data, models = fitted
    rows = data.holdout_features.copy()
    given = np.tile([1.0, 1000.0, 1.0, 0.0], (len(rows), 1))  # a miss now costs 1000 on every row
    request = pd.concat([rows, pd.DataFrame(given, columns=list(COST_COLUMNS), index=rows.index)], axis=1)
    served = CostAwareModel(models["bmr-lr"], data.fitted_cost_model).predict(request)
    np.testing.assert_array_equal(served[list(COST_COLUMNS)].to_numpy(), given)
    np.testing.assert_array_equal(served["decision"], models["bmr-lr"].predict(rows, cost_matrix=given))
    assert (
        served["decision"].sum()
        > CostAwareModel(models["bmr-lr"], data.fitted_cost_model).predict(rows)["decision"].sum()
    )


def test_bad_requests_are_refused_with_what_to_send(fitted):
    data, models = fitted
    model = CostAwareModel(models["bmr-lr"], data.fitted_cost_model)
    rows = data.holdout_features.head(3)
    with pytest.raises(ValueError, match=r"cost columns \['C_FP'\] given without \['C_FN', 'C_TP', 'C_TN'\]"):
        model.predict(rows.assign(C_FP=1.0))
    with pytest.raises(ValueError, match=r"input lacks feature column\(s\) \['V2'\]"):
        model.predict(rows.drop(columns="V2"))
    with pytest.raises(ValueError, match="'Amount'.*negative values"):
        model.predict(rows.assign(Amount=-5.0))
    with pytest.raises(ValueError, match=r"C_FN"):
        model.predict(rows.assign(C_FP=1.0, C_FN=-1.0, C_TP=1.0, C_TN=0.0))
    without_cost_model = CostAwareModel(models["bmr-lr"], None)
    with pytest.raises(ValueError, match=r"decides with each row's costs .* pass the cost columns"):
        without_cost_model.predict(rows)
    assert without_cost_model.predict(rows.assign(C_FP=1.0, C_FN=9.0, C_TP=1.0, C_TN=0.0)).shape == (3, 7)
    served_plain = CostAwareModel(models["csdt"], None).predict(rows)  # decides without costs, prices none
    assert served_plain["expected_cost"].isna().all()


def test_the_fitted_cost_model_round_trips_through_json(retrain_data):
    credit = CreditScoringCostModel().fit(
        pd.DataFrame({"MonthlyIncome": [1000.0, 5000.0, 3000.0], "DebtRatio": [0.2, 0.5, 0.9]}), [0, 1, 0]
    )
    for model in (credit, retrain_data.fitted_cost_model):
        state = json.loads(json.dumps(cost_model_state(model)))
        rebuilt = cost_model_from_state(state)
        assert rebuilt.get_params() == model.get_params()
        rows = pd.DataFrame({"MonthlyIncome": [2500.0], "DebtRatio": [0.3], "Amount": [42.0]})
        np.testing.assert_array_equal(rebuilt.cost_matrix(rows), model.cost_matrix(rows))
    assert cost_model_state(credit)["fitted"]["positive_prior_"] == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match=r"unknown cost model 'loan'"):
        cost_model_from_state({"name": "loan"})
    with pytest.raises(ValueError, match=r"'__class__' is not a fitted statistic"):
        cost_model_from_state({"name": "card-fraud", "fitted": {"__class__": 1}})
    with pytest.raises(ValueError, match=r"fitted statistic 'mean_profit_' must be a number"):
        cost_model_from_state({"name": "credit-scoring", "fitted": {"mean_profit_": "os.system"}})


def test_savings_of_the_served_decisions_equal_the_holdout_savings(fitted):
    data, models = fitted
    served = CostAwareModel(models["bmr-lr"], data.fitted_cost_model).predict(data.holdout_features)
    direct = models["bmr-lr"].predict(data.holdout_features, cost_matrix=data.holdout_costs)
    assert savings_score(data.holdout_target, served["decision"], data.holdout_costs) == savings_score(
        data.holdout_target, direct, data.holdout_costs
    )


def test_a_model_folder_with_bundled_code_loads_without_touching_sys_path(fitted, tmp_path):
    """Older artifacts shipped ``code/algorithms``: cslearn's loader never puts it on ``sys.path``."""
    data, models = fitted
    planted = tmp_path / "planted"
    (planted / "algorithms").mkdir(parents=True)
    marker = tmp_path / "ran"
    (planted / "algorithms" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    folder = tmp_path / "model"
    written = skops_safe_copy(models["csdt"])
    mlflow.sklearn.save_model(
        written,
        str(folder),
        serialization_format="skops",
        skops_trusted_types=skops_trusted_types(written),
        code_paths=[str(planted / "algorithms")],
    )
    assert (folder / "code" / "algorithms" / "__init__.py").is_file()
    path_before = list(sys.path)
    loaded = load_model_folder(folder)
    assert sys.path == path_before and not marker.exists()
    assert (
        Path(sys.modules["algorithms"].__file__).resolve().parent
        == Path(algorithms.__file__).resolve().parent
    )
    np.testing.assert_array_equal(
        loaded.estimator.predict(data.holdout_features), models["csdt"].predict(data.holdout_features)
    )
    assert loaded.cost_model is None  # no cost_model.json: costs must come with the request
