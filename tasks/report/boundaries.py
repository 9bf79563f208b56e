"""Decision boundaries on a 2-D imbalanced toy set, round by round (AdaCC paper, Figures 1 and 6).

The toy set follows Figure 6: 40 points with 2 features, 30 negatives (majority) and 10 positives (minority)
drawn from two overlapping Gaussian clouds. Each method is fit with ``T`` rounds (5 in the paper). A row of
the
figure shows, for a boosting method, the weak learner of each round ``t`` with the points sized by the weight
``D^t`` it was trained on, then the ensemble's decision regions; a method that is not boosted shows its
decision regions only.

``D^t`` is the final distribution of the same method fit with ``t - 1`` rounds and the same seed: the
boosting loop draws its per-round seeds in order, so a fit with fewer rounds is the prefix of a longer one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from tasks.fitting.estimators import build_estimator
from tasks.report.figures import styled

__all__ = ["boundaries_figure", "toy_dataset"]

_NEGATIVE, _POSITIVE = "#d6604d", "#2166ac"
_REGIONS = ListedColormap(["#fbe3dc", "#dbe8f5"])


def toy_dataset(
    seed: int = 0, *, n_negative: int = 30, n_positive: int = 10
) -> tuple[np.ndarray, np.ndarray]:
    """Features (n, 2) and 0/1 labels of the toy set: negatives around (0, 0), positives around (1.2, 1.2)
    with a smaller spread, overlapping so that a stump cannot separate them."""
    random = np.random.default_rng(seed)
    negatives = random.normal(loc=(0.0, 0.0), scale=1.0, size=(n_negative, 2))
    positives = random.normal(loc=(1.2, 1.2), scale=0.6, size=(n_positive, 2))
    features = np.vstack([negatives, positives])
    target = np.r_[np.zeros(n_negative, dtype=int), np.ones(n_positive, dtype=int)]
    return features, target


def _fit(method: str, rounds: int | None, seed: int, features, target):
    estimator = build_estimator(method, random_state=seed)
    if rounds is not None and "n_estimators" in estimator.get_params(deep=False):
        estimator.set_params(n_estimators=rounds)
    return estimator.fit(features, target)


def _mesh(features: np.ndarray, steps: int = 200):
    low, high = features.min(axis=0) - 0.8, features.max(axis=0) + 0.8
    xx, yy = np.meshgrid(np.linspace(low[0], high[0], steps), np.linspace(low[1], high[1], steps))
    return xx, yy, np.c_[xx.ravel(), yy.ravel()]


def _positive_region(model, grid: np.ndarray) -> np.ndarray:
    predicted = np.asarray(model.predict(grid))
    classes = getattr(model, "classes_", np.array([0, 1]))
    return (predicted == classes[-1]).astype(float)


def _panel(axis, xx, yy, region, features, target, sizes, title):
    axis.contourf(xx, yy, region.reshape(xx.shape), levels=[-0.5, 0.5, 1.5], cmap=_REGIONS)
    axis.contour(xx, yy, region.reshape(xx.shape), levels=[0.5], colors="#444444", linewidths=0.9)
    for label, color in ((0, _NEGATIVE), (1, _POSITIVE)):
        rows = target == label
        axis.scatter(
            features[rows, 0], features[rows, 1], s=sizes[rows], c=color, edgecolors="white", linewidths=0.6
        )
    axis.set_title(title, fontsize=10, fontweight="normal")
    axis.set_xticks([])
    axis.set_yticks([])
    axis.grid(False)


@styled
def boundaries_figure(methods: Sequence[str], *, rounds: int = 5, seed: int = 0) -> Figure:
    """Round-by-round weak learners (dots sized by ``D^t``) and the final decision regions of each method.

    Parameters
    ----------
    methods : sequence of str
        Keys of ``algorithms.METHODS``.
    rounds : int
        Boosting rounds T (the paper uses 5).
    seed : int
        Seed of the toy set and of the estimators.

    Raises
    ------
    ValueError
        For an unknown method (the message lists the registered ones) or ``rounds < 1``.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    features, target = toy_dataset(seed)
    xx, yy, grid = _mesh(features)
    columns = rounds + 1
    figure = Figure(figsize=(2.3 * columns, 2.45 * len(methods) + 0.9), layout="constrained")
    axes = figure.subplots(len(methods), columns, squeeze=False)
    uniform = np.full(target.size, 1.0 / target.size)
    for row, method in enumerate(methods):
        model = _fit(method, rounds, seed, features, target)
        learners = list(getattr(model, "estimators_", []))[:rounds]
        boosted = bool(learners) and hasattr(model, "final_distribution_")
        for round_index in range(rounds):
            axis = axes[row, round_index]
            if not boosted or round_index >= len(learners):
                axis.set_visible(False)
                continue
            weights = (
                uniform
                if round_index == 0
                else _fit(method, round_index, seed, features, target).final_distribution_
            )
            sizes = np.clip(36 * np.asarray(weights) * target.size, 6, 420)  # uniform weight: 36
            _panel(
                axis,
                xx,
                yy,
                _positive_region(learners[round_index], grid),
                features,
                target,
                sizes,
                f"round {round_index + 1}",
            )
        _panel(
            axes[row, -1],
            xx,
            yy,
            _positive_region(model, grid),
            features,
            target,
            np.full(target.size, 36.0),
            "ensemble" if boosted else "decision regions",
        )
        axes[row, 0 if boosted else -1].set_ylabel(method, fontsize=11, fontweight="bold")
    figure.suptitle(
        f"Decision boundaries on a toy set ({int((target == 0).sum())} negatives in red, "
        f"{int(target.sum())} positives in blue; T = {rounds}); dot size = weight of the round"
    )
    return figure
