"""Evaluation protocols as row splits: cross-validation, repeated holdout, train / validation / test.

Protocols:

- ``cv``: R x K stratified folds (AdaCC paper, 10 x 5);
- ``holdout``: R random stratified splits, by default 50/50 (WOTBoost paper, 100 splits);
- ``tvt``: R stratified train / validation / test splits, by default 40/30/30 (CSDT paper, Table 3).

Every split of repeat ``r`` derives its seed from ``(seed, r)`` alone, so adding repeats never changes the
splits of earlier ones and finished cells stay valid when a run is extended.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import StratifiedKFold, train_test_split

__all__ = ["Split", "derive_seed", "iter_split_ids", "make_split"]


@dataclass(frozen=True)
class Split:
    """Row indices of one split; ``validation`` is empty except under the ``tvt`` protocol."""

    train: np.ndarray
    test: np.ndarray
    validation: np.ndarray

    def __post_init__(self):
        for name in ("train", "test", "validation"):
            object.__setattr__(self, name, np.asarray(getattr(self, name), dtype=np.intp))


def derive_seed(seed: int, *path: int) -> int:
    """A 32-bit seed from a root seed and a path (repeat, fold, ...) via ``numpy.random.SeedSequence``."""
    return int(np.random.SeedSequence([int(seed), *map(int, path)]).generate_state(1)[0])


def _check_target(target) -> np.ndarray:
    target = np.asarray(target)
    if target.ndim != 1:
        raise ValueError(f"target must be one-dimensional, got shape {target.shape}")
    classes, counts = np.unique(target, return_counts=True)
    if classes.size != 2:
        raise ValueError(f"target must hold exactly two classes, got {classes.tolist()}")
    return target


def make_split(
    target,
    protocol: str,
    *,
    repeat: int,
    fold: int = 0,
    n_folds: int = 5,
    seed: int = 0,
    holdout_test_fraction: float = 0.5,
    tvt_fractions: Sequence[float] = (0.4, 0.3, 0.3),
) -> Split:
    """Row indices of split ``(repeat, fold)`` of a protocol, stratified on ``target``.

    Parameters
    ----------
    target : array-like of shape (n_samples,)
        Binary labels; every split keeps their proportions.
    protocol : {"cv", "holdout", "tvt"}
        See the module docstring.
    repeat : int
        Repetition index; the split's randomness is ``derive_seed(seed, repeat)``.
    fold : int
        Fold index in ``[0, n_folds)`` under ``cv``; must be 0 otherwise.
    n_folds : int
        K of the ``cv`` protocol.
    seed : int
        Root seed.
    holdout_test_fraction : float
        Test share of the ``holdout`` protocol.
    tvt_fractions : (float, float, float)
        Train, validation and test shares of the ``tvt`` protocol (sum 1).

    Returns
    -------
    Split
        Disjoint train / test (/ validation) indices that together cover every row.

    Raises
    ------
    ValueError
        On an unknown protocol, a fold out of range, or a target without exactly two classes.
    """
    target = _check_target(target)
    split_seed = derive_seed(seed, repeat)
    rows = np.arange(target.shape[0])
    empty = np.empty(0, dtype=np.intp)
    if protocol == "cv":
        if not 0 <= fold < n_folds:
            raise ValueError(f"fold must be in [0, {n_folds}) under the cv protocol, got {fold}")
        folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=split_seed)
        for index, (train, test) in enumerate(folds.split(rows, target)):
            if index == fold:
                return Split(train, test, empty)
    if fold != 0:
        raise ValueError(f"the {protocol!r} protocol has one split per repeat; fold must be 0, got {fold}")
    if protocol == "holdout":
        train, test = train_test_split(
            rows, test_size=holdout_test_fraction, stratify=target, random_state=split_seed
        )
        return Split(np.sort(train), np.sort(test), empty)
    if protocol == "tvt":
        train_share, validation_share, test_share = tvt_fractions
        train, rest = train_test_split(rows, train_size=train_share, stratify=target, random_state=split_seed)
        validation, test = train_test_split(
            rest,
            test_size=test_share / (validation_share + test_share),
            stratify=target[rest],
            random_state=derive_seed(seed, repeat, 1),
        )
        return Split(np.sort(train), np.sort(test), np.sort(validation))
    raise ValueError(f"unknown protocol {protocol!r}; expected one of 'cv', 'holdout', 'tvt'")


def iter_split_ids(protocol: str, n_repeats: int, n_folds: int) -> Iterator[tuple[int, int]]:
    """Every ``(repeat, fold)`` of a protocol, repeat-major."""
    for repeat in range(n_repeats):
        for fold in range(n_folds if protocol == "cv" else 1):
            yield repeat, fold
