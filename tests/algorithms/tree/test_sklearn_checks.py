"""scikit-learn's estimator checks for tree parameter combinations that no key covers.

The registry classes (``"csdt"``, ``"dt-costp"``, ``"dt"``) run through the same checks in
``tests/algorithms/test_sklearn_contract.py``.
"""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from algorithms.tree import CostSensitiveDecisionTreeClassifier


def _expected_failed_checks(estimator):
    if estimator.pruning is None:
        return {}
    return {"check_sample_weight_equivalence_on_dense_data": "pruning holds out a random share of the rows"}


@parametrize_with_checks(
    [
        CostSensitiveDecisionTreeClassifier(random_state=0),  # the defaults: cost criterion, no pruning
        CostSensitiveDecisionTreeClassifier(criterion="entropy", pruning="error", random_state=0),
        CostSensitiveDecisionTreeClassifier(max_features="sqrt", max_thresholds=5, random_state=0),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_other_parameter_combinations_pass_the_sklearn_checks(estimator, check):
    check(estimator)
