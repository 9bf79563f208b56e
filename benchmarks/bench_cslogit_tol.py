"""cslogit's stopping tolerance, chosen on protocol (a)'s ten folds (issue 22, 6a; defaults by evidence).

L-BFGS-B stops when the largest projected gradient component falls below ``tol``. The objective is an average
of regrets normalised by their mean, of the order of 0.01 on card fraud, and so is its gradient: once the
intercept has run far into the sigmoid's flat tail, the gradient can fall below a loose ``tol`` long before
the coefficients have moved. Each candidate ``tol`` is fitted at the other defaults on the training half of
every fold of :mod:`benchmarks.bench_hoppner` (same data, costs and folds) and scored by test savings at the
rows' minimum-risk thresholds; the table gives the mean and standard deviation of the savings, the worst fold,
the mean objective, the iterations and the fit seconds.

Run: ``python -m benchmarks cslogit_tol`` (about a minute; ``--quick``: one 2-fold repeat on 40,000 rows).
Results go to their own section of ``docs/results/strongest-methods.md``.
"""

from __future__ import annotations

import statistics
import time

from algorithms.linear import CostSensitiveLogisticRegression
from algorithms.metrics import savings_score
from benchmarks._report import write_section
from benchmarks._strong import load_uptime
from benchmarks.bench_hoppner import HEADER, REPORT, protocol_problem

CANDIDATES = (1e-5, 1e-6, 1e-7)


def main(quick: bool) -> None:
    X, y, costs, splitter = protocol_problem(quick)
    load = load_uptime()
    outcomes = {tol: [] for tol in CANDIDATES}
    for fold, (train, test) in enumerate(splitter.split(X, y)):
        for tol in CANDIDATES:
            started = time.perf_counter()
            model = CostSensitiveLogisticRegression(tol=tol).fit(X[train], y[train], cost_matrix=costs[train])
            seconds = time.perf_counter() - started
            decided = model.predict(X[test], cost_matrix=costs[test])
            saved = savings_score(y[test], decided, costs[test])
            outcomes[tol].append((saved, model.objective_, model.n_iter_, seconds))
            print(f"  fold {fold} tol {tol:g}: savings {saved:.3f}, {model.n_iter_} iterations", flush=True)
    lines = [
        "| tol | savings | worst fold | objective | iterations | fit s |",
        "|---|---|---|---|---|---|",
    ]
    for tol, rows in outcomes.items():
        saved, objective, iterations, seconds = zip(*rows, strict=True)
        spread = f" ± {statistics.stdev(saved):.3f}" if len(saved) > 1 else ""
        lines.append(
            f"| {tol:g} | {statistics.mean(saved):.3f}{spread} | {min(saved):.3f} | "
            f"{statistics.mean(objective):.5f} | {statistics.mean(iterations):.1f} | "
            f"{statistics.median(seconds):.2f} |"
        )
    body = (
        f"{splitter.get_n_splits()} folds; load average at the start {load}, at the end {load_uptime()}. "
        f"Rows: {y.size:,} ({int(y.sum())} frauds).\n\n" + "\n".join(lines)
    )
    print(body)
    write_section(
        "cslogit_tol" + ("_quick" if quick else ""),
        "cslogit's stopping tolerance on (a)'s folds" + (" (quick)" if quick else ""),
        body,
        "python -m benchmarks cslogit_tol" + (" --quick" if quick else ""),
        report=REPORT,
        header=HEADER,
    )
