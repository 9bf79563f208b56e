"""``make install`` runs ``scripts/warm_numba_cache.py``: a fresh process must then load every numba kernel a
fit calls from numba's on-disk cache, without compiling, for float64 and float32 features.

One warm-up into a throw-away ``NUMBA_CACHE_DIR``, then one fresh process that fits the stump boosting (with
two features the stump search codes), the stump alone with the entropy criterion, SMOTEBoost and WOTBoost, and
reads each kernel's cache hits and misses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: The kernels called from Python, by module of ``algorithms.boosting`` (the kernels they call are
#: compiled into them).
KERNELS = {
    "_stump": ("_signed_weights", "_summarise_features", "_best_split", "_leaf_sums"),
    "_stump_codes": ("_distinct_values", "_codes_of", "_add_row_block", "_best_coded_split"),
    "_m2_rules": ("_interpolate",),
    "_m2_tree": ("_row_keys", "_merge_keys", "_partition", "_class_sums", "_search_level"),
}

FIRST_FITS = f"""
import importlib, json
import numpy as np
from sklearn.datasets import make_classification
from algorithms.boosting import AdaBoost
from algorithms.boosting._stump import DecisionStump
from algorithms.boosting.m2 import SMOTEBoost, WOTBoost

X, y = make_classification(n_samples=500, n_features=8, weights=[0.8], random_state=0)
X = np.column_stack([X, X[:, 0] > 0, np.maximum(np.round(X[:, 1]), 0)])  # coded: 25 %, 22 % off the mode
AdaBoost(n_estimators=5).fit(X, y)
AdaBoost(n_estimators=5).fit(X.astype(np.float32), y)
DecisionStump(criterion="entropy").fit(X, y)
SMOTEBoost(n_estimators=3).fit(X, y)
WOTBoost(n_estimators=3).fit(X.astype(np.float32), y)
counts = {{}}
for module, names in {KERNELS!r}.items():
    loaded = importlib.import_module("algorithms.boosting." + module)
    for name in names:
        stats = getattr(loaded, name).stats
        counts[module + "." + name] = [sum(stats.cache_hits.values()), sum(stats.cache_misses.values())]
print(json.dumps(counts))
"""


@pytest.mark.slow
def test_a_first_fit_after_the_install_warm_up_loads_every_kernel_without_compiling(tmp_path):
    run = {
        "cwd": REPO,
        "env": {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
        "capture_output": True,
        "text": True,
        "timeout": 600,
    }
    warm_up = subprocess.run([sys.executable, str(REPO / "scripts" / "warm_numba_cache.py")], **run)
    assert warm_up.returncode == 0, warm_up.stderr

    fitted = subprocess.run([sys.executable, "-c", FIRST_FITS], **run)

    assert fitted.returncode == 0, fitted.stderr
    counts = json.loads(fitted.stdout.strip().splitlines()[-1])
    assert len(counts) == sum(len(names) for names in KERNELS.values())
    for name, (hits, misses) in counts.items():
        assert misses == 0, f"{name} was compiled in the first fit: the warm-up did not cache it"
        assert hits >= 1, f"{name} was not loaded from the cache"
