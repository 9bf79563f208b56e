"""One split's labels, scores and costs: packed in real cells, read back as a table; cost curves (CSDT Eq.
2-4)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from algorithms.metrics import auc, cost_loss, savings_score
from schemas.flow_params import CompareParams
from tasks.compare.cell_compute import compute_cell, describe_dataset
from tasks.compare.cells import plan_cells
from tasks.cost_models import fit_cost_model
from tasks.datasets import load_dataset
from tasks.fitting.split_scores import (
    SPLIT_SCORE_COLUMNS,
    cost_curve,
    pack_split_scores,
    split_scores_frame,
    unpack_split_scores,
)
from tasks.fitting.splits import make_split


def test_packing_round_trips_and_fits_in_json():
    random = np.random.default_rng(3)
    target = random.integers(0, 2, 500)
    scores = random.normal(size=500)
    costs = random.uniform(0, 100, size=(500, 4))
    packed = json.loads(json.dumps(pack_split_scores(target, scores, costs)))
    arrays = unpack_split_scores(packed)
    assert np.array_equal(arrays["target"], target)
    assert np.array_equal(arrays["scores"], scores)  # float64: exact
    assert np.allclose(arrays["cost_matrix"], costs, rtol=1e-6)  # float32
    assert len(packed["scores"]) < 500 * 8 * 4 / 3 + 4  # base64 of the raw bytes
    assert unpack_split_scores(pack_split_scores(target, scores))["cost_matrix"] is None
    with pytest.raises(ValueError, match=r"1-D arrays of one length; got shapes \(500,\) and \(499,\)"):
        pack_split_scores(target, scores[:-1])
    with pytest.raises(ValueError, match="cost_matrix must have shape"):
        pack_split_scores(target, scores, costs[:, :3])


def test_cost_curve_matches_the_cost_and_savings_of_every_threshold():
    random = np.random.default_rng(0)
    target = (random.uniform(size=300) < 0.2).astype(int)
    scores = np.round(random.normal(size=300) + target, 1)  # rounded: many tied scores
    costs = np.column_stack(
        [random.uniform(1, 5, 300), random.uniform(10, 200, 300), np.full(300, 2.0), np.zeros(300)]
    )
    curve = cost_curve(target, scores, costs)
    assert curve["threshold"].iloc[0] == np.inf and curve["flagged"].iloc[0] == 0
    assert curve["flagged"].iloc[-1] == 300 and curve["tpr"].iloc[-1] == pytest.approx(1.0)
    assert len(curve) == np.unique(scores).size + 1  # tied scores are flagged together
    for _, row in curve.iterrows():
        flagged = (scores >= row["threshold"]).astype(int)
        assert row["flagged"] == flagged.sum()
        assert row["cost"] == pytest.approx(cost_loss(target, flagged, costs))
        assert row["savings"] == pytest.approx(savings_score(target, flagged, costs))
        assert row["tpr"] == pytest.approx(flagged[target == 1].mean())


@pytest.fixture(scope="module")
def wisconsin_cells():
    info = describe_dataset("wisconsin")
    params = CompareParams(
        datasets=("wisconsin",), methods=("dt", "adaboost"), repeats=1, folds=2, n_estimators=(4,)
    )
    specs = plan_cells(params, [info], ["dt", "adaboost"])
    return specs, [compute_cell(spec) for spec in specs]


def test_the_first_split_of_a_real_cell_keeps_its_test_scores(wisconsin_cells):
    specs, results = wisconsin_cells
    by_split = {(r["method"], r["fold"]): r for r in results}
    assert all(r["status"] == "ok" for r in results), [r["traceback"] for r in results]
    assert by_split[("dt", 1)]["split_scores"] is None and by_split[("adaboost", 1)]["split_scores"] is None
    dataset = load_dataset("wisconsin")
    split = make_split(dataset.target, "cv", repeat=0, fold=0, n_folds=2, seed=specs[0].seed)
    for method in ("dt", "adaboost"):
        cell = by_split[(method, 0)]
        arrays = unpack_split_scores(cell["split_scores"])
        assert np.array_equal(arrays["target"], np.asarray(dataset.target)[split.test])
        assert arrays["cost_matrix"] is None  # wisconsin has no cost model
        # The cell's own AUC was computed from the same scores (the largest T for the ensemble).
        assert auc(arrays["target"], arrays["scores"]) == pytest.approx(cell["rows"][-1]["auc"])
    assert by_split[("dt", 0)]["tree_nodes"] > 1 and by_split[("adaboost", 0)]["tree_nodes"] is None

    frame = split_scores_frame(results)
    assert list(frame.columns) == list(SPLIT_SCORE_COLUMNS)
    assert frame.groupby("method").size().to_dict() == {"adaboost": split.test.size, "dt": split.test.size}
    assert frame[["repeat", "fold"]].drop_duplicates().values.tolist() == [[0, 0]]
    assert frame["C_FP"].isna().all()


def test_a_business_cell_keeps_the_test_costs_of_its_split():
    info = describe_dataset("direct-marketing")
    params = CompareParams(datasets=("direct-marketing",), methods=("dt",), repeats=1, folds=5)
    spec = plan_cells(params, [info], ["dt"])[0]
    cell = compute_cell(spec)
    assert cell["status"] == "ok", cell["traceback"]
    dataset = load_dataset("direct-marketing")
    target = np.asarray(dataset.target)
    split = make_split(target, "cv", repeat=0, fold=0, n_folds=5, seed=spec.seed)
    model = fit_cost_model(info.cost_model, dataset.features.iloc[split.train], target[split.train])
    expected = model.cost_matrix(dataset.features.iloc[split.test])
    arrays = unpack_split_scores(cell["split_scores"])
    assert np.allclose(arrays["cost_matrix"], expected, rtol=1e-6)
    frame = split_scores_frame([cell])
    assert frame[["C_FP", "C_FN", "C_TP", "C_TN"]].notna().all().all()
    curve = cost_curve(frame["target"], frame["score"], frame[["C_FP", "C_FN", "C_TP", "C_TN"]].to_numpy())
    assert curve["savings"].max() >= cell["rows"][0]["savings"] - 1e-6  # the best threshold is never worse
