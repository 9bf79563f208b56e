"""Shared by the benchmarks of the strongest example-dependent methods (issue 22): the business problems.

- :func:`card_fraud_problem`: the ULB card data with Höppner et al.'s (2022) costs, ``C_FP = C_TP = 10``,
  ``C_FN = Amount``, ``C_TN = 0`` (``tasks.cost_models.CardFraudCostModel``'s defaults), and the amount
  replaced by its logarithm ``log(1 + Amount)`` as a feature;
- :func:`business_split`: one split of ``tasks.fitting.splits.make_split`` of a business dataset, the cost
  model fitted on the training rows only (card fraud as above).
"""

from __future__ import annotations

import os

import numpy as np


def load_uptime() -> str:
    """The 1, 5 and 15-minute load averages, as ``uptime`` prints them."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def card_fraud_problem():
    """Features (log-amount in place of the amount), 0/1 target and cost matrix of ``card-fraud``."""
    from tasks.cost_models import fit_cost_model
    from tasks.datasets import load_dataset

    dataset = load_dataset("card-fraud")
    features = dataset.features.reset_index(drop=True)
    target = np.asarray(dataset.target).astype(int)
    costs = fit_cost_model("card-fraud", features, target).cost_matrix(features)
    X = features.to_numpy(dtype=float).copy()
    amount_column = list(features.columns).index("Amount")
    X[:, amount_column] = np.log1p(X[:, amount_column])
    return X, target, np.asarray(costs, dtype=float)


def business_split(name: str, protocol: str, *, repeat: int = 0, seed: int = 0, max_rows: int | None = None):
    """``(train, validation or None, test)``, each ``(X, y, cost_matrix)``, of one split of a dataset.

    ``max_rows`` keeps a stratified random subset of that many rows first (for quick runs).
    """
    from tasks.cost_models import fit_cost_model
    from tasks.datasets import load_dataset
    from tasks.fitting.splits import make_split

    if name == "card-fraud":
        X, y, costs = card_fraud_problem()
        rows = _subset(y, max_rows, seed)
        X, y, costs = X[rows], y[rows], costs[rows]
        split = make_split(y, protocol, repeat=repeat, seed=seed)

        def part(indices):
            return X[indices], y[indices], costs[indices]

    else:
        dataset = load_dataset(name)
        features = dataset.features.reset_index(drop=True)
        target = np.asarray(dataset.target).astype(int)
        rows = _subset(target, max_rows, seed)
        features, y = features.iloc[rows].reset_index(drop=True), target[rows]
        split = make_split(y, protocol, repeat=repeat, seed=seed)
        cost_model = fit_cost_model(name, features.iloc[split.train], y[split.train])

        def part(indices):
            return (
                features.iloc[indices].to_numpy(dtype=float),
                y[indices],
                np.asarray(cost_model.cost_matrix(features.iloc[indices]), dtype=float),
            )

    validation = part(split.validation) if split.validation.size else None
    return part(split.train), validation, part(split.test)


def _subset(target, max_rows, seed):
    if max_rows is None or max_rows >= target.size:
        return np.arange(target.size)
    from sklearn.model_selection import train_test_split

    rows, _ = train_test_split(
        np.arange(target.size), train_size=max_rows, stratify=target, random_state=seed
    )
    return np.sort(rows)
