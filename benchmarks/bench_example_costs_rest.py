"""Every method the two other example-dependent tables leave out, so that each method has a cell on each of
the four business datasets (issue 22, 6c).

:mod:`benchmarks.bench_example_costs` runs the boosting methods, CSDT and BMR-LR on credit scoring, bank
marketing and card fraud; :mod:`benchmarks.bench_example_costs_strong` runs the methods of issue 22 and six
references on those three and PAKDD. This table runs, under the same protocol (one stratified split per
protocol, repeat 0, seed 0; cost models fitted on the training rows; each method fitted as ``compare`` fits it
and scored by test savings):

- on ``credit-pakdd``: every method of ``algorithms.METHODS`` that the strong table does not run;
- on the other three: the methods of neither table (the data-level baselines, the plain and cost-proportionate
  trees, BMR on a random forest and a tree).

A cell another table holds is shown as "–".

Run: ``python -m benchmarks example_costs_rest`` (``--quick``: direct marketing only, 20 rounds). Results go
to their own section of ``docs/results/example-dependent-costs.md``.
"""

from __future__ import annotations

from algorithms import METHODS
from algorithms.boosting import BOOSTING_METHODS
from benchmarks._report import write_section
from benchmarks.bench_example_costs import (
    DATASETS,
    HEADER,
    QUICK_ROUNDS,
    REFERENCE_METHODS,
    REPORT,
    ROUNDS,
    run,
    table,
)
from benchmarks.bench_example_costs_strong import DATASETS as FOUR_DATASETS
from benchmarks.bench_example_costs_strong import REFERENCES, STRONG_METHODS

IN_FIRST_TABLE = (*BOOSTING_METHODS, *REFERENCE_METHODS)
IN_STRONG_TABLE = (*STRONG_METHODS, *REFERENCES)
#: Methods of neither table, on the three datasets of the first one.
LEFT_OUT = tuple(key for key in METHODS if key not in IN_FIRST_TABLE and key not in IN_STRONG_TABLE)
#: Methods the strong table does not run, on the dataset only it covers.
NOT_ON_PAKDD = tuple(key for key in METHODS if key not in IN_STRONG_TABLE)
PAKDD = "credit-pakdd"


def main(quick: bool) -> None:
    rounds = QUICK_ROUNDS if quick else ROUNDS
    three = ("direct-marketing",) if quick else DATASETS
    results, errors, sizes = run(three, rounds, LEFT_OUT)
    if not quick:
        on_pakdd = run((PAKDD,), rounds, NOT_ON_PAKDD)
        for collected, more in zip((results, errors, sizes), on_pakdd, strict=True):
            collected.update(more)
    datasets = three if quick else FOUR_DATASETS
    keys = list(LEFT_OUT) if quick else list(NOT_ON_PAKDD)
    body = table(results, errors, sizes, datasets, keys)
    print(body)
    write_section(
        "example_costs_rest" + ("_quick" if quick else ""),
        f"Every other method, four datasets ({rounds} boosting rounds)",
        body,
        "python -m benchmarks example_costs_rest" + (" --quick" if quick else ""),
        report=REPORT,
        header=HEADER,
    )
