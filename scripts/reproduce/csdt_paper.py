"""CSDT paper (Correa Bahnsen et al.), Tables 7-9 on its three business datasets, in one process.

Stratified train / validation / test splits (40/30/30, the paper's Table 3; pruning on the validation split),
every training set of its Section 6 (t: the training split, u: under-sampled, r: cost-proportionate
rejection-sampled, o: cost-proportionate over-sampled):

- DT and CSDT without pruning (notp), with error-based pruning (errp) and cost-based pruning (costp);
- DT, LR and RF with Bayes minimum risk (BMR; training set t, as in the paper);
- every boosting method with the example-dependent costs (training set t).

Each configuration is one ``compare`` flow run (``flows.compare.run_compare``, the flow ``cslearn compare``
runs), all in this process so Prefect and the libraries start once; the variants of one key
(``csdt``: costp; ``dt``: notp) are set with ``method_params``. Then ``scripts/results_markdown.py`` joins
the runs into one cost table, each method labelled ``<variant> <training set>``.

    PREFECT_API_URL=... python scripts/reproduce/csdt_paper.py [--datasets A B C] [--repeats 1] \
        [--n-estimators 50]

Defaults: credit-scoring, direct-marketing and card-fraud-1p5 (card fraud at the paper's 1.5 % fraud ratio,
made by ``card_fraud_sample.py``; its docstring says how to ingest it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from flows.compare import run_compare  # noqa: E402

TRAINING_SETS = {"train": "t", "under": "u", "rejection": "r", "over": "o"}
#: (label template, methods, method_params) per training set; the label names the paper's variant.
TREE_RUNS = (
    ("{method}", ("csdt", "dt", "dt-costp"), {}),
    ("csdt-notp", ("csdt",), {"csdt": {"pruning": None}}),
    ("csdt-errp", ("csdt",), {"csdt": {"pruning": "error"}}),
    ("dt-errp", ("dt",), {"dt": {"pruning": "error"}}),
)
BMR_METHODS = ("bmr-lr", "bmr-rf", "bmr-dt")
BOOSTING_METHODS = (
    "adaboost", "adacc1", "adacc2", "adancc1", "adancc2", "cgada", "cgada-cal", "adamec", "adamec-cal",
    "rareboost", "csb1", "csb2", "adacost", "adac1", "adac2", "adac3", "cs-adaboost", "smoteboost",
    "wotboost", "rusboost",
)  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--datasets", nargs="+", default=["credit-scoring", "direct-marketing", "card-fraud-1p5"]
    )
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--n-estimators", type=int, default=50)
    parser.add_argument("--out", default=".repro/csdt-runs.json", help="where the run ids and labels go")
    args = parser.parse_args(argv)
    common = {
        "datasets": args.datasets,
        "protocol": "tvt",
        "repeats": args.repeats,
        "n_estimators": [args.n_estimators],
        "experiment": "cslearn-repro-csdt",
    }
    configs = [
        (f"{label} {short}", {"methods": methods, "method_params": params, "training_set": name})
        for name, short in TRAINING_SETS.items()
        for label, methods, params in TREE_RUNS
    ]
    configs += [("{method} t", {"methods": BMR_METHODS}), ("{method} t", {"methods": BOOSTING_METHODS})]
    runs = []
    for label, config in configs:
        outcome = run_compare({**common, **config})
        runs.append(f"{outcome['parent_run_id']}={label}")
        print(f"{label}: run {outcome['parent_run_id']}, cells {outcome['cells']}", flush=True)
        Path(args.out).write_text(json.dumps(runs))
    print(" ".join(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
