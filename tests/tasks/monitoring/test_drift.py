"""Feature drift: the population stability index by hand, its bands, and scipy's KS test beside it."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from tasks.monitoring.drift import PSI_FLOOR, feature_drift, population_stability_index, psi_band
from tasks.monitoring.watch import retrain_reasons


def test_psi_by_hand_and_an_empty_bin_counts_with_the_floor():
    expected = population_stability_index([50, 50], [80, 20])
    assert expected == pytest.approx((0.8 - 0.5) * math.log(0.8 / 0.5) + (0.2 - 0.5) * math.log(0.2 / 0.5))
    floored = population_stability_index([100, 0], [50, 50])
    assert floored == pytest.approx(
        (0.5 - 1.0) * math.log(0.5 / 1.0) + (0.5 - PSI_FLOOR) * math.log(0.5 / PSI_FLOOR)
    )
    assert population_stability_index([10, 20, 30], [1, 2, 3]) == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("psi", "band"),
    [
        (0.0, "stable"),
        (0.099, "stable"),
        (0.1, "moderate"),
        (0.249, "moderate"),
        (0.25, "significant"),
        (3.0, "significant"),
    ],
)
def test_bands(psi, band):
    assert psi_band(psi) == band


def test_a_shifted_column_and_a_new_level_drift_a_resample_does_not():
    rng = np.random.default_rng(0)
    reference = pd.DataFrame({"x": rng.normal(size=5000), "job": rng.choice(["a", "b"], 5000)})
    shifted = pd.DataFrame({"x": rng.normal(0.8, size=2000), "job": rng.choice(["a", "gig"], 2000)})
    drift = feature_drift(reference, shifted, {"x"}).set_index("feature")
    assert drift.loc["x", "band"] == "significant" and drift.loc["x", "ks_p_value"] < 1e-10
    assert drift.loc["job", "psi"] > 1 and math.isnan(
        drift.loc["job", "ks_p_value"]
    )  # 'gig': a new level bin
    same = feature_drift(reference, reference.sample(2000, random_state=1), {"x"}).set_index("feature")
    assert (same["psi"] < 0.1).all() and same.loc["x", "ks_p_value"] > 0.05


def test_retrain_reasons_name_the_drifted_features_and_the_savings_drop():
    result = {"drifted_features": ["x", "job"], "realized_savings": 0.2, "holdout_savings": 0.5}
    reasons = retrain_reasons(result, drifted_features_to_retrain=2, savings_drop_to_retrain=0.1)
    assert reasons == [
        "2 feature(s) drifted (x, job)",
        "realized savings 0.2000 are 0.3000 below the holdout's 0.5000",
    ]
    assert retrain_reasons(result, drifted_features_to_retrain=0, savings_drop_to_retrain=0) == []
