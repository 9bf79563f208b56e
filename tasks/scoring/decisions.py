"""One batch through the model: its input contract, then the table the served model returns.

The model (``tasks.model_registry.serving.CostAwareModel``) takes the raw columns of its signature. A batch
that lacks one of them is refused whole, naming the columns (nothing is guessed). Within a batch, a row whose
numeric column is not a finite number, or whose cost columns are incomplete or negative, is set aside with
its reason; every other row gets the served model's columns ``decision``, ``probability``,
``expected_cost``, ``C_FP``, ``C_FN``, ``C_TP``, ``C_TN``, after ``batch`` and ``row`` (its position in the
batch, from 0) and the ``keep_columns`` asked for (identifiers to join back on). Levels the model never saw
are counted (they set none of its 0/1 columns, as a missing value does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from tasks.model_registry.serving import OUTPUT_COLUMNS, CostAwareModel

__all__ = ["ScoredBatch", "score_batch"]


@dataclass(frozen=True)
class ScoredBatch:
    """The decisions of one batch, the rows set aside (``row``, ``reason``), and what the log shows."""

    batch_id: str
    table: pd.DataFrame
    refused: pd.DataFrame
    unseen_levels: dict = field(default_factory=dict)

    def summary(self) -> dict:
        """Rows, rows refused, flagged share, mean probability and total expected cost of the batch."""
        rows = len(self.table)
        return {
            "batch": self.batch_id,
            "rows": rows,
            "refused_rows": len(self.refused),
            "flagged_share": float(self.table["decision"].mean()) if rows else float("nan"),
            "mean_probability": float(self.table["probability"].mean()) if rows else float("nan"),
            "total_expected_cost": float(self.table["expected_cost"].sum()),
        }


def score_batch(
    model: CostAwareModel, frame: pd.DataFrame, batch_id: str, *, keep_columns: Sequence[str] = ()
) -> ScoredBatch:
    """Score ``frame`` with ``model`` (see the module docstring).

    Raises
    ------
    ValueError
        The batch lacks one of the model's input columns or a ``keep_columns`` column, naming them.
    """
    frame = frame.reset_index(drop=True)
    missing = [name for name in [*model.input_names, *keep_columns] if name not in frame]
    if missing:
        raise ValueError(
            f"batch {batch_id} lacks column(s) {missing}; the model takes {model.input_names}"
            + (f" and --keep-columns asks for {list(keep_columns)}" if keep_columns else "")
            + "; nothing of it was scored"
        )
    bad_rows: dict[int, str] = {}
    if model.encoding is not None:
        problem = model.encoding.input_problems(frame)
        bad_rows.update(problem.bad_rows if problem is not None else {})
    else:
        for name in model.feature_names:
            values = pd.to_numeric(frame[name], errors="coerce").to_numpy(dtype=float)
            for row in np.flatnonzero(~np.isfinite(values)):
                bad_rows.setdefault(int(row), f"{name}: {frame[name].iloc[row]!r} is not a finite number")
    good = frame.drop(index=list(bad_rows))
    try:
        decided = model.predict(good) if len(good) else pd.DataFrame(columns=list(OUTPUT_COLUMNS))
    except ValueError as error:  # costs: incomplete or negative columns (schemas.cost_matrix names rows)
        raise ValueError(f"batch {batch_id}: {error}; nothing of it was scored") from error
    table = pd.concat(
        [
            pd.DataFrame({"batch": batch_id, "row": good.index.to_numpy()}, index=good.index),
            good[list(keep_columns)],
            decided,
        ],
        axis=1,
    ).reset_index(drop=True)
    refused = pd.DataFrame(
        {"batch": batch_id, "row": list(bad_rows), "reason": list(bad_rows.values())},
        columns=["batch", "row", "reason"],
    )
    unseen = model.encoding.unseen_levels(frame) if model.encoding is not None else {}
    return ScoredBatch(batch_id, table, refused, unseen)
