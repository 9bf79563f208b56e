"""The snapshot of known names: read without importing the code it describes, rebuilt whenever it may
change."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from algorithms import METHODS
from tasks.config.method_info import describe_methods
from tasks.config.name_index import index_path, name_index
from tasks.datasets import DATASETS, ingest_file
from tests.user_data import PAYMENT_COST_COLUMNS, write_payments_csv

#: Modules that take seconds to import; a first check of a configuration needs none of them.
HEAVY_MODULES = ("sklearn", "pandas", "pandera", "prefect", "mlflow", "algorithms", "tasks.datasets")

_QUICK_CHECK = """
import json, sys
from pydantic import ValidationError
from schemas.flow_params import CompareParams
from tasks.config.checks import quick_validate
try:
    quick_validate(CompareParams, {"datasets": ["wisconsn"], "methods": ["adaboost"]})
except ValidationError as error:
    message = error.errors()[0]["msg"]
print(json.dumps({"message": message, "loaded": sorted(sys.modules)}))
"""


def test_a_fresh_snapshot_answers_without_importing_the_registries(tmp_path, monkeypatch):
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    name_index()  # built, or found fresh, for this state folder and dataset cache
    completed = subprocess.run(
        [sys.executable, "-c", _QUICK_CHECK], capture_output=True, text=True, env=dict(os.environ), check=True
    )
    outcome = json.loads(completed.stdout)
    assert "unknown datasets ['wisconsn'] (did you mean 'wisconsin'?)" in outcome["message"]
    loaded = set(outcome["loaded"])
    assert not [name for name in HEAVY_MODULES if name in loaded], sorted(loaded & set(HEAVY_MODULES))


def test_the_snapshot_holds_the_registries_and_follows_user_datasets(tmp_path, monkeypatch):
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    index = name_index()
    assert list(index.methods) == list(METHODS)
    assert list(index.datasets) == list(DATASETS)
    credit = index.datasets["credit-scoring"]
    assert (credit.kind, credit.example_costs, credit.rows, credit.positives) == (
        "registered",
        True,
        DATASETS["credit-scoring"].expected_rows,
        DATASETS["credit-scoring"].expected_positives,
    )

    ingest_file(
        write_payments_csv(tmp_path / "claims.csv"),
        target="fraud",
        positive="yes",
        cost_columns=PAYMENT_COST_COLUMNS,
    )
    claims = name_index().datasets["claims"]  # the user folder changed: the datasets part is rebuilt
    assert (claims.kind, claims.example_costs, claims.rows, claims.positives) == ("user", True, 400, 67)

    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "another-cache"))
    assert "claims" not in name_index().datasets  # another cache folder, other user datasets


def test_a_damaged_or_outdated_snapshot_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("CSLEARN_CACHE", str(tmp_path / "cache"))
    expected = {key: info.to_dict() for key, info in describe_methods().items()}
    name_index()
    path = index_path()
    for damage in (
        "{not json",
        json.dumps([1]),
        json.dumps({**json.loads(path.read_text()), "code": "0" * 64}),
    ):
        path.write_text(damage)
        index = name_index()
        assert {key: info.to_dict() for key, info in index.methods.items()} == expected
        snapshot = json.loads(path.read_text())
        assert snapshot["format"] == 1 and snapshot["code"] != "0" * 64
