"""Shared by the benchmarks: the 45,000 x 50 problem, boosting weights, a busy second process, load notes."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time

import numpy as np
from sklearn.datasets import make_classification

N_SAMPLES, N_FEATURES, MINORITY_SHARE = 45_000, 50, 0.1
PROBLEM = (
    f"`make_classification(n_samples={N_SAMPLES}, n_features={N_FEATURES}, n_informative=10, "
    f"weights=[{1 - MINORITY_SHARE:.1f}], random_state=0)`"
)
#: Above this 1-minute load average (before a benchmark starts) the machine is not quiet.
QUIET_LOAD = 0.5


def make_problem(dtype=np.float64):
    """The fixed imbalanced problem of :data:`PROBLEM`, features in ``dtype``."""
    X, y = make_classification(
        n_samples=N_SAMPLES,
        n_features=N_FEATURES,
        n_informative=10,
        weights=[1.0 - MINORITY_SHARE],
        random_state=0,
    )
    return X.astype(dtype), y


def boosting_weights(X, y, round_number):
    """The distribution ``D^t`` AdaBoost trains its ``round_number``-th stump on (uniform for round 1)."""
    if round_number == 1:
        return np.full(y.size, 1.0 / y.size)
    from algorithms.boosting import AdaBoost

    model = AdaBoost(n_estimators=round_number - 1, random_state=0).fit(X, y)
    if len(model.estimators_) != round_number - 1:
        raise RuntimeError(f"AdaBoost stopped after {len(model.estimators_)} rounds ({model.stop_reason_})")
    return model.final_distribution_


@contextlib.contextmanager
def busy_process():
    """A second process spinning on a CPU (the "other core busy" condition) for the duration of the block."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)  # let it reach the CPU
        yield spinner
    finally:
        spinner.kill()
        spinner.wait()


def load_note(load_before: float) -> str:
    """A sentence on the machine's load before the run; flags figures from a machine that was not quiet."""
    note = f"1-minute load average before the run: {load_before:.2f}"
    if load_before > QUIET_LOAD:
        note += (
            f" — **not a quiet machine** (above {QUIET_LOAD}): read the ratios, measured side by side, and "
            "rerun at a quiet time for absolute figures"
        )
    return note + "."


def load_average() -> float:
    return os.getloadavg()[0]
