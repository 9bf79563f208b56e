"""The M2 weak learner (issue 24, point 3): SMOTEBoost's round with scikit-learn's and the presorted tree.

Both learners fit the depth-3 tree on the round's rows (the ``n`` original rows with ``D_t``, then ``N``
synthetic ones): *before* is ``estimator=DecisionTreeClassifier(max_depth=3)`` (scikit-learn's fit of the
stacked rows, what the default was), *after* the default, :class:`~algorithms.boosting._m2_tree.\
PresortedTreeSearch`. Data: the card-fraud training split of ``cslearn retrain card-fraud`` (as
``bench_protocol`` prepares it: seed 0, 30 % holdout) and the two largest datasets of the WOTBoost
protocol, adult-numeric and satimage.

1. *The round.* SMOTEBoost fits of a few rounds, before and after interleaved, ``REPEATS`` times each; CPU
   seconds per round (the process's CPU time, which holds on a shared machine better than wall time;
   medians over the fits), split into the round's synthetic rows, stacking them behind the originals (only
   scikit-learn's fit needs that), the learner's fit, its output ``p(+|x)`` on the original rows and the
   rest of the loop. The learner is also set against the **least work** of an exact level-by-level
   search: one pass per level over every feature's merged sorted rows that gathers each row's weight and
   keeps the two running class sums (:func:`least_work_pass`, timed on the same round's rows).
2. *The presorted learner in parts* on card fraud: making and sorting the keys, the merge, the search, the
   partitions and the leaves' sums, each against the least work.
3. *Whole fits* of SMOTEBoost and WOTBoost (T = 50) on card fraud, both ways: CPU seconds, and how many
   rounds' trees have the same splits (a node whose rows are all of one class read as a leaf), differ by a
   tie broken the other way (other splits, the same predictions on the original rows), or predict
   differently.

Run: ``python -m benchmarks m2_learner`` (``--quick``: a 20 % card-fraud sample, fewer rounds and repeats).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from numba import njit
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from algorithms.boosting import _m2_rules, _m2_tree
from algorithms.boosting.m2 import SMOTEBoost, SyntheticMinorityRounds, SyntheticRoundSet, WOTBoost
from benchmarks._evidence import load_arrays, markdown_table
from benchmarks._problem import load_average, load_note
from benchmarks._report import write_section
from benchmarks.bench_protocol import _prepare_card_fraud

DATASETS = ("card-fraud", "adult-numeric", "satimage")
ROUNDS = {"card-fraud": 4, "adult-numeric": 10, "satimage": 10}
QUICK_ROUNDS = {"card-fraud": 2, "adult-numeric": 4, "satimage": 4}
REPEATS, QUICK_REPEATS = 3, 1
WHOLE_FIT_ROUNDS, QUICK_WHOLE_FIT_ROUNDS = 50, 5
LEARNERS = {"before": "scikit-learn's tree", "after": "presorted tree"}
#: Parts of a round, timed where they are called: (owner, attribute) per part.
ROUND_PARTS = {
    "synthetic rows": [(SyntheticMinorityRounds, "__call__")],
    "stacking the rows": [(SyntheticRoundSet, "stacked")],
    "learner fit": [(DecisionTreeClassifier, "fit"), (_m2_tree.PresortedTreeSearch, "fit")],
    "learner output": [(DecisionTreeClassifier, "predict_proba")],
}
ONCE_PER_FIT = {
    "neighbour search": [(_m2_rules, "minority_neighbours")],
    "presort": [(_m2_tree.PresortedTreeSearch, "__init__")],
}
#: The presorted learner's parts: the kernels ``PresortedTreeSearch.fit`` calls (the sort is the rest of
#: ``_sorted_keys``).
LEARNER_PARTS = {
    "keys (float32 cast, value bits)": "_row_keys",
    "keys and numpy's sort": "_sorted_keys",
    "merge": "_merge_keys",
    "search, 3 levels": "_search_level",
    "partition, 2 levels": "_partition",
    "leaves' class sums": "_class_sums",
}


@njit(cache=True, nogil=True)
def least_work_pass(keys, signed_weights):
    """One pass over every feature's sorted rows (the merged keys): gather each row's signed weight and keep
    the two running class sums. An exact search of a level cannot do less."""
    checksum = 0.0
    for feature in range(keys.shape[0]):
        weight_0 = weight_1 = 0.0
        for position in range(keys.shape[1]):
            weight = signed_weights[np.int64(keys[feature, position] & np.uint64(0xFFFFFFFF))]
            weight_1 += max(weight, 0.0)
            weight_0 += max(-weight, 0.0)
        checksum += weight_0 + weight_1
    return checksum


@contextmanager
def cpu_timers(parts):
    """Time every ``(owner, attribute)`` of ``parts`` (CPU seconds of the process) while the block runs.

    Yields ``{part: seconds}``. No timed call runs inside another, so the parts add up.
    """
    spent = {part: 0.0 for part in parts}
    originals = []
    for part, targets in parts.items():
        for owner, name in targets:
            original = getattr(owner, name)
            originals.append((owner, name, original))
            setattr(owner, name, _timed(original, part, spent))
    try:
        yield spent
    finally:
        for owner, name, original in reversed(originals):
            setattr(owner, name, original)


def _timed(function, part, spent):
    def timed(*args, **kwargs):
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[part] += time.process_time() - started

    return timed


class _RecordingSMOTEBoost(SMOTEBoost):
    """SMOTEBoost keeping every round's training set (``rounds_``)."""

    def _round_training_set_builder(self, X, y01):
        build = super()._round_training_set_builder(X, y01)
        self.rounds_ = []

        def round_set(weights, random_state):
            drawn = build(weights, random_state)
            self.rounds_.append(drawn)
            return drawn

        return round_set


def _estimator(cls, learner, rounds, seed=0, record=False):
    """``cls`` with scikit-learn's tree (before) or the default presorted tree (after); ``record``: SMOTEBoost
    keeping its rounds' training sets (``rounds_``)."""
    if learner == "before":
        return cls(DecisionTreeClassifier(max_depth=3), n_estimators=rounds, random_state=seed)
    return (_RecordingSMOTEBoost if record else cls)(n_estimators=rounds, random_state=seed)


def timed_fit(learner, X, y, rounds):
    """A SMOTEBoost fit (the presorted one keeping its rounds) and its CPU seconds: in total, per part of a
    round, once per fit."""
    with cpu_timers({**ROUND_PARTS, **ONCE_PER_FIT}) as spent:
        started = time.process_time()
        model = _estimator(SMOTEBoost, learner, rounds, record=True).fit(X, y)
        total = time.process_time() - started
    fitted = len(model.estimators_)
    per_round = {part: spent[part] / fitted for part in ROUND_PARTS}
    once = {part: spent[part] for part in ONCE_PER_FIT}
    per_round["rest of the loop"] = (total - sum(spent.values())) / fitted
    return model, {"total": total, "rounds": fitted, "per_round": per_round, "once": once}


def _splits(tree):
    """A fitted tree's splits as nested tuples ``(feature, threshold, rows, left, right)``, a leaf as
    ``(rows, its class if pure)``; a node whose rows are all of one class reads as a leaf (scikit-learn
    splits some pure nodes on a rounding residue; ``_m2_tree``'s docstring)."""
    nodes = tree.tree_

    def node(index):
        fractions = nodes.value[index, 0]
        pure = np.flatnonzero(fractions) if np.count_nonzero(fractions) == 1 else ()
        if nodes.children_left[index] == -1 or len(pure):
            return (int(nodes.n_node_samples[index]), tuple(int(k) for k in pure))
        return (
            int(nodes.feature[index]),
            float(nodes.threshold[index]),
            int(nodes.n_node_samples[index]),
            node(nodes.children_left[index]),
            node(nodes.children_right[index]),
        )

    return node(0)


def agreement(before, after, X):
    """Rounds whose trees have the same splits, rounds whose splits differ (a tie broken the other way),
    rounds whose trees predict differently on ``X`` (beyond rounding, 1e-9), and the largest difference of
    the two ensembles' decision functions."""
    same = tie = other = 0
    for theirs, mine in zip(before.estimators_, after.estimators_, strict=False):
        if not np.allclose(theirs.predict_proba(X), mine.predict_proba(X), rtol=0, atol=1e-9):
            other += 1
        elif _splits(theirs) == _splits(mine):
            same += 1
        else:
            tie += 1
    gap = float(np.max(np.abs(before.decision_function(X) - after.decision_function(X))))
    return {"same": same, "tie": tie, "other": other, "decision_gap": gap}


def recorded_rounds(X, y, rounds):
    """The training sets of a presorted SMOTEBoost fit's first ``rounds`` rounds."""
    return _estimator(SMOTEBoost, "after", rounds, record=True).fit(X, y).rounds_


def _fit_round(search, round_set):
    return search.fit(
        round_set.y01,
        round_set.weights,
        round_set.X_synthetic,
        round_set.y01_synthetic,
        round_set.synthetic_weights,
    )


def least_work(search, round_set, max_depth=3, repeats=3):
    """CPU seconds of ``max_depth`` least-work passes over a round's merged rows (after a fit of it)."""
    _fit_round(search, round_set)
    keys = search._buffers["merged_keys"]
    signed_weights = np.concatenate([round_set.weights, round_set.synthetic_weights])
    signed_weights[np.concatenate([round_set.y01, round_set.y01_synthetic]) == 0] *= -1.0
    least_work_pass(keys, signed_weights)
    passes = []
    for _ in range(repeats):
        started = time.process_time()
        least_work_pass(keys, signed_weights)
        passes.append(time.process_time() - started)
    return max_depth * statistics.median(passes)


def warm_up():
    """Fit both ways once on a small problem, so that no timed fit compiles or loads a numba kernel."""
    X, y = make_classification(n_samples=300, n_features=6, weights=[0.8], random_state=0)
    for cls in (SMOTEBoost, WOTBoost):
        for learner in LEARNERS:
            _estimator(cls, learner, 2).fit(X, y)


# ------------------------------------------------------------------------------------------------ 1. round
def measure_rounds(datasets, rounds, repeats):
    """Per dataset: interleaved before / after SMOTEBoost fits and the least work of the after fit's rounds
    (timed right after it), the parts of a round, how the two fits agree."""
    results = {}
    for name, (X, y) in datasets.items():
        fits = {learner: [] for learner in LEARNERS}
        least = []
        models = {}
        for _ in range(repeats):
            for learner in LEARNERS:
                models[learner], timing = timed_fit(learner, X, y, rounds[name])
                fits[learner].append(timing)
            search = _m2_tree.PresortedTreeSearch(X)
            least.extend(least_work(search, round_set) for round_set in models["after"].rounds_[:3])
        results[name] = {
            "fits": fits,
            "least_work": statistics.median(least),
            "rows": (y.size, models["after"].rounds_[0].X_synthetic.shape[0], X.shape[1]),
            "agreement": agreement(models["before"], models["after"], X),
        }
        before, after = _round_seconds(fits["before"]), _round_seconds(fits["after"])
        print(f"{name}: {before:.3f} s -> {after:.3f} s per round", flush=True)
    return results


def _median_part(fits, part):
    return statistics.median(fit["per_round"][part] for fit in fits)


def _round_seconds(fits):
    return statistics.median(sum(fit["per_round"].values()) for fit in fits)


def report_rounds(results):
    header = [
        "dataset",
        "rows n + N, features",
        "learner",
        *ROUND_PARTS,
        "rest of the loop",
        "round",
        "round: before / after",
        "learner / least work",
    ]
    rows = []
    for name, result in results.items():
        n_fixed, n_synthetic, n_features = result["rows"]
        for learner, label in LEARNERS.items():
            fits = result["fits"][learner]
            parts = [_median_part(fits, part) for part in (*ROUND_PARTS, "rest of the loop")]
            ratio = _round_seconds(result["fits"]["before"]) / _round_seconds(result["fits"]["after"])
            rows.append(
                [
                    name,
                    f"{n_fixed:,} + {n_synthetic:,}, {n_features}",
                    label,
                    *(f"{seconds * 1e3:,.1f}" for seconds in parts),
                    f"**{_round_seconds(fits) * 1e3:,.1f}**",
                    f"**{ratio:.1f}x**" if learner == "after" else "",
                    f"{_median_part(fits, 'learner fit') / result['least_work']:.1f}",
                ]
            )
    once = []
    for name, result in results.items():
        after = result["fits"]["after"]
        presort = statistics.median(fit["once"]["presort"] for fit in after)
        neighbours = statistics.median(fit["once"]["neighbour search"] for fit in after)
        once.append(f"{name}: presort {presort * 1e3:,.0f} ms, neighbour search {neighbours * 1e3:,.0f} ms")
    least = "; ".join(f"{name} {result['least_work'] * 1e3:,.1f} ms" for name, result in results.items())
    agree = "; ".join(
        f"{name}: {a['same']} of {a['same'] + a['tie'] + a['other']} rounds the same splits, {a['tie']} "
        f"a tie broken the other way, {a['other']} predicting differently; decision functions within "
        f"{a['decision_gap']:.1e}"
        for name, a in ((name, result["agreement"]) for name, result in results.items())
    )
    return (
        f"{markdown_table(header, rows)}\n\n"
        f"CPU ms per round (medians over the fits); *round: before / after* is the speed-up of the whole "
        f"round. Least work per round (3 passes): {least}. Once per fit: {'; '.join(once)}.\n\n"
        f"The two fits agree: {agree}."
    )


# ------------------------------------------------------------------------------------------ 2. the learner
def measure_learner_parts(X, y, repeats):
    """The presorted learner's parts (its kernels, timed where ``fit`` calls them) on card fraud's first
    rounds, the whole fit and the least work of the same rounds; CPU seconds per round."""
    round_sets = recorded_rounds(X, y, 3)
    search = _m2_tree.PresortedTreeSearch(X)
    originals = {name: getattr(_m2_tree, name) for name in LEARNER_PARTS.values()}
    spent = {part: 0.0 for part in LEARNER_PARTS}
    whole = least = 0.0
    try:
        for part, name in LEARNER_PARTS.items():
            setattr(_m2_tree, name, _timed(originals[name], part, spent))
        for _ in range(repeats):
            for round_set in round_sets:
                started = time.process_time()
                _fit_round(search, round_set)
                whole += time.process_time() - started
    finally:
        for name, original in originals.items():
            setattr(_m2_tree, name, original)
    for round_set in round_sets:
        least += least_work(search, round_set)
    calls = repeats * len(round_sets)
    per_round = {part: seconds / calls for part, seconds in spent.items()}
    per_round["keys and numpy's sort"] -= per_round["keys (float32 cast, value bits)"]
    per_round["the rest (checks, weights, nodes, the fitted tree)"] = whole / calls - sum(per_round.values())
    return per_round, whole / calls, least / len(round_sets)


def report_learner_parts(parts, whole, least_work):
    rows = [
        [
            part.replace("keys and numpy's sort", "numpy's sort of the synthetic rows' keys"),
            f"{seconds * 1e3:,.1f}",
            f"{seconds / least_work:.2f}",
        ]
        for part, seconds in parts.items()
    ]
    rows.append(["**whole learner fit**", f"**{whole * 1e3:,.1f}**", f"**{whole / least_work:.2f}**"])
    rows.append(["least work (3 passes)", f"{least_work * 1e3:,.1f}", "1.00"])
    return markdown_table(["part of a presorted fit (card fraud)", "CPU ms per round", "x least work"], rows)


# --------------------------------------------------------------------------------------- 3. whole fits
def measure_whole_fits(X, y, rounds):
    results = {}
    for cls in (SMOTEBoost, WOTBoost):
        models, seconds = {}, {}
        for learner in LEARNERS:
            started = time.process_time()
            models[learner] = _estimator(cls, learner, rounds).fit(X, y)
            seconds[learner] = time.process_time() - started
            print(f"{cls.__name__} {LEARNERS[learner]}: {seconds[learner]:.1f} s", flush=True)
        results[cls.__name__] = {
            "seconds": seconds,
            "rounds": {learner: len(model.estimators_) for learner, model in models.items()},
            "agreement": agreement(models["before"], models["after"], X),
        }
    return results


def report_whole_fits(results, rounds):
    header = [
        "method",
        "scikit-learn's tree: CPU s",
        "presorted tree: CPU s",
        "speed-up",
        "rounds",
        "same splits",
        "tie broken the other way",
        "different predictions",
        "decision functions within",
    ]
    rows = []
    for method, result in results.items():
        before, after = result["seconds"]["before"], result["seconds"]["after"]
        agree = result["agreement"]
        rows.append(
            [
                method,
                f"{before:,.1f}",
                f"{after:,.1f}",
                f"**{before / after:.1f}x**",
                f"{result['rounds']['before']} / {result['rounds']['after']}",
                str(agree["same"]),
                str(agree["tie"]),
                str(agree["other"]),
                f"{agree['decision_gap']:.1e}",
            ]
        )
    return f"Whole fits, T = {rounds}, on the card-fraud training split:\n\n{markdown_table(header, rows)}"


# ------------------------------------------------------------------------------------------------- main
def load_datasets(quick, folder):
    """``{name: (X, y)}``: card fraud's training split (a 20 % sample when quick) and the WOTBoost sets."""
    path = Path(folder) / "card-fraud.npz"
    _prepare_card_fraud(path, 0.2 if quick else None)
    data = np.load(path)
    datasets = {"card-fraud": (data["train_features"], data["train_target"].astype(np.int64))}
    for name in DATASETS[1:]:
        X, y, _ = load_arrays(name)
        datasets[name] = (X, y)
    return datasets


def main(quick: bool) -> None:
    load_before = load_average()
    with tempfile.TemporaryDirectory() as folder:
        datasets = load_datasets(quick, folder)
    rounds = QUICK_ROUNDS if quick else ROUNDS
    repeats = QUICK_REPEATS if quick else REPEATS
    whole_rounds = QUICK_WHOLE_FIT_ROUNDS if quick else WHOLE_FIT_ROUNDS
    warm_up()
    round_results = measure_rounds(datasets, rounds, repeats)
    parts, whole, least = measure_learner_parts(*datasets["card-fraud"], repeats)
    whole_fits = measure_whole_fits(*datasets["card-fraud"], whole_rounds)
    load_after = load_average()
    introduction = (
        "SMOTEBoost's round with `estimator=DecisionTreeClassifier(max_depth=3)` (scikit-learn's fit of the "
        "stacked rows, the earlier default) and with the default presorted tree (`algorithms/boosting/"
        "_m2_tree.py`), on the card-fraud training split of `cslearn retrain card-fraud`"
        f"{' (a 20 % sample)' if quick else ''} and the WOTBoost protocol's two largest datasets. Fits of "
        f"{', '.join(f'{count} rounds on {name}' for name, count in rounds.items())}, before and after "
        f"interleaved, {repeats} of each; CPU time of the process (one thread). {load_note(load_before)} "
        f"Load after the run: {load_after:.2f}."
    )
    body = "\n\n".join(
        [
            introduction,
            report_rounds(round_results),
            "The presorted learner in parts, on the training sets of SMOTEBoost's first three rounds on card "
            f"fraud ({repeats} times each; CPU ms per round, the kernels timed where `fit` calls them):",
            report_learner_parts(parts, whole, least),
            report_whole_fits(whole_fits, whole_rounds),
        ]
    )
    print(body)
    write_section(
        "m2_learner",
        "The M2 weak learner: SMOTEBoost's round with scikit-learn's tree and with the presorted tree",
        body,
        "python -m benchmarks m2_learner" + (" --quick" if quick else ""),
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
