"""Every estimator of the whole method table ``algorithms.METHODS`` passes scikit-learn's estimator checks.

New families join ``METHODS`` and are covered here automatically. An estimator that cannot pass a check names
it, with the reason, in a class attribute ``_expected_failed_checks: dict[str, str]``. Estimators with a
``random_state`` are checked seeded (``random_state=0``), as scikit-learn's own tests do: some checks fit
without seeding, and an unseeded randomised method would pass or fail them by chance.
"""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from algorithms import METHODS


def _seeded(estimator):
    if "random_state" in estimator.get_params():
        estimator.set_params(random_state=0)
    return estimator


def _expected_failed_checks(estimator):
    return dict(getattr(estimator, "_expected_failed_checks", {}))


@parametrize_with_checks(
    [_seeded(METHODS[key]()) for key in sorted(METHODS)], expected_failed_checks=_expected_failed_checks
)
def test_sklearn_estimator_contract(estimator, check):
    check(estimator)
