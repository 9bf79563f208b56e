"""cslearn's own holdout and tvt protocols with the strongest example-dependent methods (issue 22, 6c).

The protocol of :mod:`benchmarks.bench_example_costs` (one stratified split per protocol, repeat 0, seed 0;
cost models fitted on the training rows; every method fitted as ``compare`` fits it and scored by test
savings) on the four business datasets, ``credit-scoring``, ``direct-marketing``, ``card-fraud`` (its
registered cost model, the amount as it is) and ``credit-pakdd``, for the methods of issue 22 (cslogit,
csboost, bmr-hgb and the four tree ensembles, all at their defaults) next to the references CSDT and
BMR-LR and the strongest boosting methods of the earlier table (AdaCC1, CGAda, AdaMEC, CSB2, 100 stumps).

Run: ``python -m benchmarks example_costs_strong`` (``--quick``: direct marketing, 20 rounds). Results go
to their own section of ``docs/results/example-dependent-costs.md``.
"""

from __future__ import annotations

from benchmarks._report import write_section
from benchmarks.bench_example_costs import HEADER, QUICK_ROUNDS, REPORT, ROUNDS, run, table

DATASETS = ("credit-scoring", "direct-marketing", "card-fraud", "credit-pakdd")
STRONG_METHODS = ("cslogit", "csboost", "bmr-hgb", "csforest", "csbagging", "cspasting", "cspatches")
REFERENCES = ("csdt", "bmr-lr", "adacc1", "cgada", "adamec", "csb2")


def main(quick: bool) -> None:
    datasets = ("direct-marketing",) if quick else DATASETS
    rounds = QUICK_ROUNDS if quick else ROUNDS
    keys = [*STRONG_METHODS, *REFERENCES]
    results, errors, sizes = run(datasets, rounds, keys)
    body = table(results, errors, sizes, datasets, keys)
    print(body)
    write_section(
        "example_costs_strong" + ("_quick" if quick else ""),
        f"The strongest example-dependent methods, four datasets ({rounds} boosting rounds)",
        body,
        "python -m benchmarks example_costs_strong" + (" --quick" if quick else ""),
        report=REPORT,
        header=HEADER,
    )
