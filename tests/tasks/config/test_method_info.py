"""What ``cslearn methods list`` shows, derived from the estimators: family, paper and use of costs."""

from __future__ import annotations

import pytest
from sklearn.tree import DecisionTreeClassifier

from algorithms import METHODS
from tasks.config.method_info import MethodInfo, describe_methods


@pytest.fixture(scope="module")
def described():
    return describe_methods()


def test_every_registered_method_is_described_once_in_registry_order(described):
    assert list(described) == list(METHODS)
    for key, info in described.items():
        estimator = METHODS[key]()
        assert info.parameters == tuple(sorted(estimator.get_params(deep=False)))
        assert info.estimator == f"{type(estimator).__module__}.{type(estimator).__qualname__}"
        assert info.family == type(estimator).__module__.split(".")[1]
        assert info.summary and "\n" not in info.summary


def test_the_paper_is_the_one_the_docstrings_cite(described):
    papers = {key: info.paper for key, info in described.items()}
    assert {papers[key] for key in ("adaboost", "adacc1", "adancc2", "cgada", "adac3", "rareboost")} == {
        "AdaCC"
    }
    assert {papers[key] for key in ("csdt", "dt-costp", "dt", "bmr-lr", "bmr-rf")} == {"CSDT"}
    assert {papers[key] for key in ("wotboost", "smoteboost", "smote-dt", "rusboost")} == {"WOTBoost"}
    assert papers["cs-adaboost"] == "Cost-Sensitive AdaBoost (Algorithm 2)"
    assert papers["cslogit"] == "Correa Bahnsen 2014" and papers["csboost"] == "Höppner 2022"
    assert {papers[key] for key in ("csforest", "csbagging", "cspasting", "cspatches")} == {
        "Correa Bahnsen 2015"
    }
    assert None not in papers.values()


def test_the_use_of_costs_is_observed_not_declared(described):
    """Oracles from the papers: cost-blind methods (AdaBoost, the resamplers, plain trees) ignore the matrix;
    the fixed-cost boosters, AdaCC (regret as cost mass, issue 8) and the cost-sensitive trees fit
    differently;
    BMR, AdaMEC and the calibrated boosters decide with it; cslogit, csboost and the tree ensembles fit
    and decide with it."""
    fit = {key for key, info in described.items() if info.fit_uses_costs}
    assert {"csdt", "dt-costp", "cgada", "adamec", "csb1", "adacost", "adac1", "cs-adaboost", "adacc1"} <= fit
    assert not fit & {"adaboost", "dt", "smoteboost", "wotboost", "smote-dt", "rusboost", "bmr-hgb"}
    assert {"cslogit", "csboost", "csforest", "csbagging", "cspasting", "cspatches"} <= fit
    assert {key for key, info in described.items() if info.predict_uses_costs} == {
        "bmr-lr",
        "bmr-rf",
        "bmr-dt",
        "bmr-hgb",
        "adamec",
        "adamec-cal",
        "cgada-cal",
        "cslogit",
        "csboost",
        "csforest",
        "csbagging",
        "cspasting",
        "cspatches",
    }
    assert {key for key, info in described.items() if info.class_costs} == {
        key for key in METHODS if "negative_cost" in METHODS[key]().get_params()
    }
    assert described["adaboost"].costs_text == "no" and not described["adaboost"].uses_costs
    assert described["adac1"].costs_text == "example or class costs"
    assert described["csdt"].costs_text == "example costs"
    assert described["bmr-lr"].costs_text == "example costs, at decision"
    assert described["cslogit"].costs_text == "example costs, in fit and decision"


def test_a_method_whose_fit_fails_either_way_is_shown_as_unknown(monkeypatch):
    """A plain scikit-learn tree registered by hand has no ``cost_matrix`` fit argument at all."""
    monkeypatch.setitem(METHODS, "plain-tree", DecisionTreeClassifier)
    info = describe_methods()["plain-tree"]
    assert info.fit_uses_costs is None and info.costs_text == "?" and info.paper is None
    assert MethodInfo.from_dict(info.to_dict()) == info
