"""Write card fraud at the CSDT paper's fraud ratio (1.50 %, Section 5) as a CSV with its cost columns.

The paper's fraud data (236,735 transactions, 1.50 % fraud) is private; the public ULB data (284,807
transactions, 0.173 % fraud) stands in for it. To keep the paper's class ratio (and a run that finishes on two
shared cores) this keeps every fraud and a seeded random sample of the legitimate transactions, and writes the
cost matrix of ``tasks.cost_models`` (CSDT Table 6: C_FP = C_TP = C_a = 10, C_FN = Amount, C_TN = 0) as four
columns, so that ``cslearn datasets ingest`` turns it into a dataset with example-dependent costs:

    python scripts/reproduce/card_fraud_sample.py OUT.csv
    cslearn datasets ingest OUT.csv --target Class --positive 1 --cost-columns c_fp,c_fn,c_tp,c_tn \\
        --name card-fraud-1p5
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tasks.cost_models import COST_MODELS  # noqa: E402
from tasks.datasets import load_dataset  # noqa: E402

FRAUD_RATIO, SEED = 0.015, 0


def main(out: str) -> None:
    dataset = load_dataset("card-fraud")
    frame = dataset.features.copy()
    target = np.asarray(dataset.target)
    frauds = np.flatnonzero(target == 1)
    n_legitimate = round(frauds.size * (1 - FRAUD_RATIO) / FRAUD_RATIO)
    legitimate = np.random.default_rng(SEED).choice(np.flatnonzero(target == 0), n_legitimate, replace=False)
    rows = np.sort(np.concatenate([frauds, legitimate]))
    frame = frame.iloc[rows].reset_index(drop=True)
    costs = COST_MODELS["card-fraud"]().fit(frame, target[rows]).cost_matrix(frame)
    frame[["c_fp", "c_fn", "c_tp", "c_tn"]] = np.asarray(costs)
    frame["Class"] = target[rows]
    frame.to_csv(out, index=False)
    print(f"{out}: {len(frame):,} rows, {frauds.size} frauds ({frauds.size / len(frame):.2%})")


if __name__ == "__main__":
    main(sys.argv[1])
