"""Compile cslearn's numba kernels into numba's on-disk cache, so that a first fit loads instead of compiling.

``make install`` runs this after installing the package. numba compiles a ``cache=True`` kernel on its first
call in a process (seconds) and stores the machine code in ``__pycache__`` beside the module (or under
``NUMBA_CACHE_DIR``); later processes load it in milliseconds as long as the module's source is unchanged.
The script first deletes the numba cache files under ``algorithms/`` (numba notices a changed module but not
a changed kernel that a cached kernel of another module calls), then fits every registered method once on a
small problem, with float64 and float32 features, so that every kernel a fit uses is compiled for the
installed source and this machine's CPU. Some kernels are called from Python rather than from another
kernel: those of the stump search's coded features (``algorithms/boosting/_stump_codes.py``, reached
through two features of few values in the warm-up data) and those of SMOTEBoost's and WOTBoost's synthetic
rows and presorted tree (``_m2_rules.py``, ``_m2_tree.py``); :data:`CALLED_KERNELS` lists them, and the
script checks that the fits compiled each one.

Run: ``python scripts/warm_numba_cache.py`` (exits 1, naming the method or the kernel, if a fit fails or
leaves a listed kernel uncompiled).
"""

from __future__ import annotations

import importlib
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification

PACKAGE = Path(__file__).resolve().parents[1] / "algorithms"

#: Kernels the fits must compile, by module: those called from Python (the kernels they call are compiled
#: into them). A kernel no fit reaches would compile in a user's first fit instead; the check names it.
CALLED_KERNELS = {
    "algorithms.boosting._stump_codes": (
        "_distinct_values",
        "_codes_of",
        "_add_row_block",
        "_best_coded_split",
    ),
    "algorithms.boosting._m2_rules": ("_interpolate",),
    "algorithms.boosting._m2_tree": (
        "_row_keys",
        "_merge_keys",
        "_partition",
        "_class_sums",
        "_search_level",
    ),
}


def clear_package_cache() -> int:
    """Delete numba's cache files (index ``.nbi``, code ``.nbc``) beside the package's modules."""
    stale = [*PACKAGE.rglob("__pycache__/*.nbi"), *PACKAGE.rglob("__pycache__/*.nbc")]
    for path in stale:
        path.unlink(missing_ok=True)
    return len(stale)


def warm_up() -> list[str]:
    """Fit every method of ``algorithms.METHODS`` on float64 and float32 data; return the failures."""
    from algorithms import METHODS

    X, y = make_classification(n_samples=300, n_features=6, weights=[0.7], random_state=0)
    # features of few values, most rows on one value (3 % and 39 % off it): the stump search codes them
    X = np.column_stack([X, X[:, 0] > 1, np.maximum(np.round(X[:, 1]), 0)])
    failures = []
    for name, method in METHODS.items():
        for features in (X, X.astype(np.float32)):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    method().fit(features, y)
            except Exception as error:  # report every failing method, then fail the script
                failures.append(f"{name} ({features.dtype}): {type(error).__name__}: {error}")
    return failures


def uncompiled_kernels() -> list[str]:
    """The kernels of :data:`CALLED_KERNELS` that have no compiled signature in this process."""
    return [
        f"{module}.{name}"
        for module, names in CALLED_KERNELS.items()
        for name in names
        if not getattr(importlib.import_module(module), name).signatures
    ]


def main() -> int:
    start = time.perf_counter()
    custom_cache = os.environ.get("NUMBA_CACHE_DIR")
    cleared = 0 if custom_cache else clear_package_cache()
    failures = warm_up()
    failures += [f"{kernel} was not compiled by any fit" for kernel in uncompiled_kernels()]
    where = f"NUMBA_CACHE_DIR={custom_cache}" if custom_cache else f"{PACKAGE}/**/__pycache__"
    seconds = time.perf_counter() - start
    print(f"numba cache warmed in {seconds:.1f} s ({where}; {cleared} old cache files removed)")
    for failure in failures:
        print(f"warm-up failed: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
