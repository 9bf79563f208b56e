"""AdaBoost against scikit-learn, and the uniform-cost oracles (cost-sensitive rules with unit costs).

scikit-learn 1.9's ``AdaBoostClassifier`` implements only SAMME. For two classes SAMME's learner weight is
``ln((1 - e) / e)``, twice AdaCC Eq. 2's ``1/2 ln((1 - e) / e)``; its update ``D exp(w * 1[wrong])``
normalises to the same distribution as Eq. 1. Its binary decision function is the difference of the two
classes' vote shares, ``2 sum w_t h_t / sum w_t``: twice our score ``sum alpha_t h_t / sum alpha_t``.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.ensemble import AdaBoostClassifier
from sklearn.tree import DecisionTreeClassifier

from algorithms.boosting import AdaBoost, AdaCC1, AdaCC2, BaseBoostingClassifier, BoostingRules
from algorithms.boosting._rules import adaboost_alpha, unit_costs
from algorithms.boosting.adacc import _PRINTED_ALPHA_AND_UPDATE, _PUBLISHED_UPDATES, log_odds_alpha


@pytest.fixture(scope="module")
def tie_free_data():
    X, y = make_classification(
        n_samples=300, n_features=6, n_informative=4, weights=[0.8], flip_y=0.05, random_state=3
    )
    assert all(np.unique(column).size == column.size for column in X.T)  # no ties in any feature
    return X, y


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_adaboost_reproduces_scikit_learn(tie_free_data, criterion):
    from algorithms.boosting._stump import DecisionStump

    X, y = tie_free_data
    ours = AdaBoost(DecisionStump(criterion=criterion), n_estimators=40).fit(X, y)
    reference = AdaBoostClassifier(
        DecisionTreeClassifier(max_depth=1, criterion=criterion), n_estimators=40, random_state=0
    ).fit(X, y)
    assert len(ours.estimators_) == len(reference.estimators_) == 40
    np.testing.assert_array_equal(ours.predict(X), reference.predict(X))
    np.testing.assert_allclose(2.0 * ours.estimator_weights_, reference.estimator_weights_, rtol=1e-10)
    np.testing.assert_allclose(ours.estimator_errors_, reference.estimator_errors_, rtol=1e-10)
    np.testing.assert_allclose(2.0 * ours.decision_function(X), reference.decision_function(X), atol=1e-10)
    for staged_ours, staged_reference in zip(
        ours.staged_decision_function(X), reference.staged_decision_function(X), strict=True
    ):
        np.testing.assert_allclose(2.0 * staged_ours, staged_reference, atol=1e-10)


def test_adaboost_with_a_cloned_tree_matches_the_presorted_stump(tie_free_data):
    X, y = tie_free_data
    presorted = AdaBoost(n_estimators=30).fit(X, y)
    cloned = AdaBoost(DecisionTreeClassifier(max_depth=1), n_estimators=30, random_state=0).fit(X, y)
    np.testing.assert_allclose(presorted.estimator_weights_, cloned.estimator_weights_, rtol=1e-10)
    np.testing.assert_array_equal(presorted.predict(X), cloned.predict(X))


class _UnitCostRules(BaseBoostingClassifier):
    """A thin variant binding a rule set given at class level (how later families bind theirs)."""

    rules: BoostingRules

    def _boosting_rules(self):
        return self.rules


def _variant(rules):
    return type("UnitCostVariant", (_UnitCostRules,), {"rules": rules})


@pytest.mark.parametrize("placement", ["in exponent", "outside exponent"])
def test_printed_adacc_rules_with_unit_costs_are_adaboost(tie_free_data, placement):
    """Eq. 12 / 18 and Eq. 7 / 14 with C = 1 reduce to AdaBoost's Eq. 2 and Eq. 1."""
    X, y = tie_free_data
    alpha, update = _PRINTED_ALPHA_AND_UPDATE[placement]
    unit = _variant(BoostingRules(round_costs=unit_costs, alpha=alpha, update=update))(n_estimators=30).fit(
        X, y
    )
    adaboost = AdaBoost(n_estimators=30).fit(X, y)
    np.testing.assert_allclose(unit.estimator_weights_, adaboost.estimator_weights_, rtol=1e-10)
    np.testing.assert_allclose(unit.final_distribution_, adaboost.final_distribution_, rtol=1e-9)
    np.testing.assert_array_equal(unit.predict(X), adaboost.predict(X))


@pytest.mark.parametrize("placement", ["in exponent", "outside exponent"])
def test_published_adacc_rules_with_unit_costs_are_samme(tie_free_data, placement):
    """The published updates with unit costs are SAMME: alphas twice AdaBoost's, same distributions."""
    X, y = tie_free_data
    rules = BoostingRules(round_costs=unit_costs, alpha=log_odds_alpha, update=_PUBLISHED_UPDATES[placement])
    unit = _variant(rules)(n_estimators=30).fit(X, y)
    adaboost = AdaBoost(n_estimators=30).fit(X, y)
    np.testing.assert_allclose(unit.estimator_weights_, 2.0 * adaboost.estimator_weights_, rtol=1e-10)
    np.testing.assert_allclose(unit.final_distribution_, adaboost.final_distribution_, rtol=1e-9)
    np.testing.assert_allclose(unit.decision_function(X), adaboost.decision_function(X), atol=1e-12)


def test_adaboost_binding_is_the_default_rule_set():
    assert BoostingRules().alpha is adaboost_alpha


@pytest.mark.parametrize("estimator_class", [AdaCC1, AdaCC2])
def test_adacc_on_balanced_errors_differs_from_adaboost(tie_free_data, estimator_class):
    """Sanity check that the oracle above can fail: with cumulative costs the models are not AdaBoost."""
    X, y = tie_free_data
    adacc = estimator_class(n_estimators=30, formulation="paper").fit(X, y)
    adaboost = AdaBoost(n_estimators=30).fit(X, y)
    assert not np.allclose(adacc.estimator_weights_[:5], adaboost.estimator_weights_[:5])
