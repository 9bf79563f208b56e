"""scikit-learn's estimator checks on every estimator of this family, before the lead registers them in
``BOOSTING_METHODS`` (after that, ``tests/algorithms/test_sklearn_contract.py`` covers them too). Each class
names the checks it cannot pass, with the reason, in ``_expected_failed_checks``."""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from algorithms.boosting.adac import AdaC1, AdaC2, AdaC3
from algorithms.boosting.adacost import AdaCost
from algorithms.boosting.adamec import AdaMEC
from algorithms.boosting.calibrated import AdaMECCalibrated, CGAdaCalibrated
from algorithms.boosting.cgada import CGAda
from algorithms.boosting.csada import CostSensitiveAdaBoost
from algorithms.boosting.csb import CSB1, CSB2
from algorithms.boosting.rareboost import RareBoost

FIXED_COST_ESTIMATORS = [
    AdaCost,
    AdaC1,
    AdaC2,
    AdaC3,
    CSB1,
    CSB2,
    CGAda,
    AdaMEC,
    RareBoost,
    AdaMECCalibrated,
    CGAdaCalibrated,
    CostSensitiveAdaBoost,
]


def _expected_failed_checks(estimator):
    return dict(getattr(estimator, "_expected_failed_checks", {}))


@parametrize_with_checks(
    [cls() for cls in FIXED_COST_ESTIMATORS], expected_failed_checks=_expected_failed_checks
)
def test_fixed_cost_estimator_contract(estimator, check):
    check(estimator)
