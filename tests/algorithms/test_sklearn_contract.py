"""Every estimator of the whole ``algorithms.METHODS`` registry passes scikit-learn's estimator checks.

New families join ``METHODS`` and are covered here automatically. An estimator that cannot pass a check names
it, with the reason, in a class attribute ``_expected_failed_checks: dict[str, str]``.
"""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from algorithms import METHODS


def _expected_failed_checks(estimator):
    return dict(getattr(estimator, "_expected_failed_checks", {}))


@parametrize_with_checks(
    [METHODS[key]() for key in sorted(METHODS)], expected_failed_checks=_expected_failed_checks
)
def test_sklearn_estimator_contract(estimator, check):
    check(estimator)
