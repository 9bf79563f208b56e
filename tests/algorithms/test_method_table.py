"""The method table, imported lazily (algorithms._method_table): keys without imports, one class per key read,
every entry importable, and registration by assignment."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sklearn.base import is_classifier

from algorithms import METHODS
from algorithms._method_table import FAMILY_METHODS, MethodTable, family_methods

REPO = Path(__file__).resolve().parents[2]


def _fresh_process_modules(code):
    """The modules a fresh interpreter has loaded after ``code``."""
    program = code + "\nimport json, sys; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=REPO, capture_output=True, text=True, check=True
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_every_entry_is_a_registered_classifier():
    families = [key for block in FAMILY_METHODS.values() for key in block]
    assert len(families) == len(set(families)), "a key is registered by two families"
    assert list(METHODS)[: len(families)] == families
    for key in families:
        assert is_classifier(METHODS[key]()), key


def test_reading_the_keys_imports_no_family_and_a_key_imports_only_its_class():
    keys_only = _fresh_process_modules(
        "from algorithms import METHODS\nkeys = sorted(METHODS); 'csdt' in METHODS"
    )
    assert not {m for m in keys_only if m.startswith(("algorithms.boosting", "algorithms.tree", "imblearn"))}
    adacc = _fresh_process_modules("from algorithms import METHODS\nMETHODS['adacc1']")
    assert "algorithms.boosting.adacc" in adacc
    others = (
        "imblearn",
        "sklearn.calibration",
        "sklearn.neighbors",
        "algorithms.tree",
        "algorithms.baselines",
    )
    for family_module in (*others, "algorithms.boosting.m2", "algorithms.boosting.calibrated"):
        assert family_module not in adacc, family_module


def test_families_serve_their_block_and_the_registry_takes_new_methods():
    from algorithms.boosting import BOOSTING_METHODS
    from algorithms.cost import COST_METHODS
    from algorithms.tree import TREE_METHODS

    for family, registry in (("boosting", BOOSTING_METHODS), ("cost", COST_METHODS), ("tree", TREE_METHODS)):
        assert list(registry) == list(FAMILY_METHODS[family])
        assert all(registry[key] is METHODS[key] for key in registry)
    registry = family_methods("tree")
    registry["plain"] = "sklearn.tree:DecisionTreeClassifier"
    from sklearn.tree import DecisionTreeClassifier

    assert "plain" in registry and registry["plain"] is DecisionTreeClassifier
    del registry["plain"]
    assert "plain" not in registry and "plain" not in family_methods("tree")
    with pytest.raises(KeyError):
        MethodTable()["missing"]
