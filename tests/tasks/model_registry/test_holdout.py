"""The deterministic, fingerprint-seeded holdout of a retrain (tasks.model_registry.holdout)."""

from __future__ import annotations

import numpy as np
import pytest

from tasks.model_registry import make_holdout


def _labels(n_negative: int, n_positive: int) -> np.ndarray:
    return np.r_[np.zeros(n_negative, dtype=int), np.ones(n_positive, dtype=int)]


def test_holdout_is_a_pure_function_of_data_fingerprint_and_seed():
    target = _labels(180, 20)
    first = make_holdout(target, fingerprint="f1", seed=3, holdout_fraction=0.25)
    again = make_holdout(target, fingerprint="f1", seed=3, holdout_fraction=0.25)
    np.testing.assert_array_equal(first.holdout, again.holdout)
    assert first.key == again.key == "f1/seed=3/fraction=0.25/max_rows=None"
    other_data = make_holdout(target, fingerprint="f2", seed=3, holdout_fraction=0.25)
    other_seed = make_holdout(target, fingerprint="f1", seed=4, holdout_fraction=0.25)
    assert not np.array_equal(first.holdout, other_data.holdout)
    assert not np.array_equal(first.holdout, other_seed.holdout)


def test_holdout_is_stratified_disjoint_and_covers_every_row():
    target = _labels(180, 20)
    split = make_holdout(target, fingerprint="f", seed=0, holdout_fraction=0.25)
    assert np.intersect1d(split.train, split.holdout).size == 0
    np.testing.assert_array_equal(np.sort(np.r_[split.train, split.holdout]), np.arange(200))
    assert split.holdout.size == 50
    assert target[split.holdout].sum() == 5  # 25 % of the 20 positives
    assert target[split.train].sum() == 15


def test_row_cap_draws_a_stratified_sample_before_splitting():
    target = _labels(900, 100)
    split = make_holdout(target, fingerprint="f", seed=0, holdout_fraction=0.5, max_rows=200)
    rows = np.r_[split.train, split.holdout]
    assert rows.size == 200 and np.unique(rows).size == 200
    assert target[rows].sum() == 20  # the 10 % positive share is kept
    assert target[split.holdout].sum() == 10


def test_a_row_cap_that_starves_the_minority_class_is_refused_with_the_needed_size():
    target = _labels(990, 10)
    with pytest.raises(ValueError, match=r"max_rows=50 keeps about 0\.5 rows of class 1 .*at least 200"):
        make_holdout(target, fingerprint="f", seed=0, holdout_fraction=0.3, max_rows=50)
