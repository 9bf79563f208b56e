"""A user's own dataset with example-dependent cost columns, as a CSV file, for end-to-end tests.

The rows stand for card payments: ``amount`` and ``balance`` drive the fraud probability, ``channel`` is
categorical, and the four cost columns follow the card-fraud cost model of the CSDT paper (Table 6): a false
positive or a true positive costs the administrative cost of a call (5), a false negative loses the amount,
a true negative costs nothing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

#: The cost columns of :func:`write_payments_csv`, in the order C_FP, C_FN, C_TP, C_TN.
PAYMENT_COST_COLUMNS = ("cost_fp", "cost_fn", "cost_tp", "cost_tn")


def write_payments_csv(path: Path, rows: int = 400, seed: int = 0) -> Path:
    """Write a deterministic payments CSV (label column ``fraud``, ``yes`` about 1 row in 6) to ``path``."""
    rng = np.random.default_rng(seed)
    amount = np.round(rng.gamma(2.0, 60.0, rows), 2)
    balance = np.round(rng.normal(1000.0, 300.0, rows), 2)
    score = 0.015 * amount - 0.002 * balance + rng.normal(0.0, 1.0, rows)
    fraud = score > np.quantile(score, 5 / 6)
    frame = pd.DataFrame(
        {
            "amount": amount,
            "balance": balance,
            "channel": rng.choice(["web", "shop", "phone"], rows),
            "fraud": np.where(fraud, "yes", "no"),
            "cost_fp": 5.0,
            "cost_fn": amount,
            "cost_tp": 5.0,
            "cost_tn": 0.0,
        }
    )
    frame.to_csv(path, index=False)
    return path
