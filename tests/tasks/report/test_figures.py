"""Figures: what they show (titles, axes, legends, values), that they render headless and identically."""

from __future__ import annotations

import matplotlib.colors
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from algorithms import METHODS
from flows.cli import main
from tasks.report.boundaries import _fit, boundaries_figure, toy_dataset
from tasks.report.figures import (
    CHILD_FIGURE_DPI,
    IN_TRAINING_PANELS,
    METHOD_PALETTE,
    WEIGHT_PANELS,
    average_curves,
    candidates_figure,
    child_run_figure,
    cost_recall_figure,
    cost_threshold_figure,
    critical_difference_figure,
    figure_png,
    method_color,
    method_colors,
    roc_pr_figure,
    save_figure,
    training_curves_figure,
)
from tasks.report.sections import curve_methods
from tasks.report.statistics import compare_methods
from tests.tasks.report.test_statistics import DEMSAR_AUC, _summary

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _texts(figure) -> set[str]:
    return {text.get_text() for text in figure.findobj(lambda artist: hasattr(artist, "get_text"))}


def _legend_labels(axis) -> list[str]:
    return [text.get_text() for text in axis.get_legend().get_texts()]


@pytest.fixture(scope="module")
def one_split():
    """Scores and example-dependent costs of two methods on one synthetic split."""
    random = np.random.default_rng(1)
    target = (random.uniform(size=400) < 0.25).astype(int)
    costs = np.column_stack(
        [np.full(400, 3.0), random.uniform(20, 300, 400), np.full(400, 3.0), np.zeros(400)]
    )
    frames = []
    for method, signal in (("good", 2.0), ("weak", 0.5)):
        frame = pd.DataFrame(
            {"method": method, "target": target, "score": random.normal(size=400) + signal * target}
        )
        frame[["C_FP", "C_FN", "C_TP", "C_TN"]] = costs
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def test_critical_difference_diagram_names_every_method_with_its_rank():
    comparison = compare_methods(_summary(DEMSAR_AUC), "auc", control="C4.5")
    figure = critical_difference_figure(comparison)
    texts = _texts(figure)
    assert {"C4.5+m+cf (1.93)", "C4.5+m (2.00)", "(2.93) C4.5+cf", "(3.14) C4.5"} <= texts
    assert "CD = 1.3" in texts  # the Nemenyi critical difference, drawn above the axis
    assert figure_png(figure) == figure_png(critical_difference_figure(comparison))  # same input, same bytes
    one_dataset = compare_methods(_summary({"a": (0.9, 0.8, 0.7)}, methods=("x", "y", "z")), "auc")
    with pytest.raises(ValueError, match="needs the Friedman and Nemenyi tests"):
        critical_difference_figure(one_dataset)


def test_training_curves_average_datasets_and_label_every_panel():
    curves = average_curves(
        {
            ("a", "adacc1"): {"train_tpr": [0.5, 0.7, 0.9], "train_tnr": [0.9, 0.8, 0.8]},
            ("b", "adacc1"): {"train_tpr": [0.7, 0.9], "train_tnr": [0.7, 0.8]},  # stopped after 2 rounds
            ("a", "adaboost"): {"train_tpr": [0.4, 0.5, 0.6], "alpha": [1.0, 0.5, 0.3]},
        }
    )
    assert curves["adacc1"]["train_tpr"] == pytest.approx([0.6, 0.8, 0.9])
    figure = training_curves_figure(curves, IN_TRAINING_PANELS, title="In-training rates")
    tpr_axis, tnr_axis = figure.axes
    assert tpr_axis.get_title() == "In-training TPR" and tpr_axis.get_xlabel() == "boosting round t"
    assert [line.get_label() for line in tpr_axis.get_lines()] == ["adaboost", "adacc1"]
    assert [line.get_label() for line in tnr_axis.get_lines()] == ["adacc1"]
    assert list(tpr_axis.get_lines()[1].get_xdata()) == [1, 2, 3]
    with pytest.raises(ValueError, match="no method has any of the traces"):
        training_curves_figure({"dt": {}}, WEIGHT_PANELS, title="none")


def test_roc_and_precision_recall_curves_carry_the_auc_of_each_method(one_split):
    figure = roc_pr_figure(one_split, title="split 0")
    roc_axis, pr_axis = figure.axes
    good = one_split[one_split["method"] == "good"]
    expected = f"good (AUC {roc_auc_score(good['target'], good['score']):.3f})"
    assert expected in _legend_labels(roc_axis) and "chance" in _legend_labels(roc_axis)
    assert roc_axis.get_xlabel() == "false positive rate (1 - TNR)" and pr_axis.get_ylabel() == "precision"
    assert any(label.startswith("chance (0.2") for label in _legend_labels(pr_axis))


def test_each_method_has_one_colour_whatever_the_figure_shows():
    small, large = method_colors(["dt", "adacc1"]), method_colors(["adacc1", "adaboost", "dt", "csdt"])
    assert small == {key: large[key] for key in small}  # by key only, not by the other methods shown
    assert small["dt"] == method_color("dt") != small["adacc1"]
    table_colours = [method_color(key) for key in METHODS]
    assert table_colours[: len(METHOD_PALETTE)] == list(METHOD_PALETTE[: len(METHODS)])  # in table order
    assert len(set(table_colours)) == min(len(METHODS), len(METHOD_PALETTE))  # no two methods alike
    assert method_color("my-own-method") == method_color("my-own-method")  # a key outside the table


def test_roc_figures_of_many_methods_draw_the_leaders_and_the_control(one_split):
    ranking = [f"m{index}" for index in range(30)]
    assert curve_methods(ranking[:7]) == ranking[:7]  # few: every one
    assert curve_methods(ranking, control="m20") == [*ranking[:5], "m20"]
    assert curve_methods(ranking, control="m1") == ranking[:5]
    figure = roc_pr_figure(one_split, title="split 0", methods=["weak"])
    roc_axis, _ = figure.axes
    assert [label.split(" (")[0] for label in _legend_labels(roc_axis)] == ["weak", "chance"]
    legend = roc_axis.get_legend()
    assert legend.get_bbox_to_anchor().y1 < roc_axis.bbox.y0 + 1  # below the axes, not on the curves


def test_child_run_figures_are_legible_where_mlflow_shows_them(one_split):
    good = one_split[one_split["method"] == "good"]
    curves = {"train_tpr": [0.5, 0.7, 0.8], "train_tnr": [0.9, 0.8, 0.8], "weighted_error": [0.2, 0.3, 0.3]}
    figure = child_run_figure(curves, good, title="direct-marketing / adacc1", method="adacc1")
    width, height = figure.get_size_inches() * CHILD_FIGURE_DPI
    assert width == pytest.approx(660) and height < 800  # the width of MLflow's artifact view
    visible = [axis for axis in figure.axes if axis.get_visible()]
    assert len(visible) == 5  # rates, weights, ROC, PR, cost
    for axis in visible:
        ticks = axis.get_xticklabels() + axis.get_yticklabels()
        assert min(tick.get_fontsize() for tick in ticks) * CHILD_FIGURE_DPI / 72 >= 11  # pixels
        colours = {matplotlib.colors.to_hex(line.get_color()) for line in axis.get_lines()}
        assert colours - {"#999999"} == {matplotlib.colors.to_hex(method_color("adacc1"))}  # its own colour
    assert _legend_labels(visible[0]) == ["TPR", "TNR"] and _legend_labels(visible[1]) == ["weighted error"]


def test_cost_figures_show_cost_savings_and_the_models_own_decisions(one_split):
    figure = cost_threshold_figure(one_split, title="costs", operating_costs={"good": 5000.0}, unit="EUR")
    good_axis = figure.axes[0]
    assert good_axis.get_title() == "good" and good_axis.get_ylabel() == "total cost on the test split (EUR)"
    no_model = [line for line in good_axis.get_lines() if line.get_label() == "cost without a model"]
    assert len(no_model) == 1 and no_model[0].get_linestyle() == ":"
    assert any(child.get_ylabel() == "savings" for child in good_axis.child_axes)
    assert "model's decisions" in _texts(figure)
    recall = cost_recall_figure(one_split, title="recall", operating_points={"good": (0.8, 5000.0)})
    axis = recall.axes[0]
    assert axis.get_xlabel() == "share of positives caught (recall, TPR)"
    assert {"good", "weak", "cheapest threshold", "model's own decisions"} <= set(_legend_labels(axis))


def test_candidates_bars_show_savings_and_f1_and_the_champion_to_beat():
    board = pd.DataFrame({"method": ["csdt", "bmr-lr"], "savings": [0.41, 0.47], "f1": [0.30, 0.35]})
    figure = candidates_figure(board, title="candidates", champion=("champion v1 cgada", 0.52))
    savings_axis, f1_axis = figure.axes[:2]
    assert [label.get_text() for label in savings_axis.get_yticklabels()] == ["csdt", "bmr-lr"]
    assert {"0.410", "0.470", "0.350", "champion v1 cgada: 0.520"} <= _texts(figure)
    assert f1_axis.get_xlabel() == "holdout F1"
    [reference] = [line for line in savings_axis.get_lines() if line.get_linestyle() == "--"]
    assert list(reference.get_xdata()) == [0.52, 0.52] and savings_axis.get_xlim()[1] > 0.52
    bars = {patch.get_facecolor()[:3] for patch in savings_axis.patches}
    assert bars == {method_color("csdt")[:3], method_color("bmr-lr")[:3]}


def test_figures_save_as_png_svg_or_pdf_and_nothing_else(tmp_path, one_split):
    figure = roc_pr_figure(one_split, title="split 0")
    assert save_figure(figure, tmp_path / "a.png").read_bytes().startswith(PNG_SIGNATURE)
    first = save_figure(roc_pr_figure(one_split, title="split 0"), tmp_path / "a.svg").read_bytes()
    second = save_figure(roc_pr_figure(one_split, title="split 0"), tmp_path / "b.svg").read_bytes()
    assert first.startswith(b"<?xml") and first == second  # no date, fixed ids
    assert save_figure(figure, tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    with pytest.raises(
        ValueError, match=r"cannot write a figure as 'a.jpg': use a .png, .svg or .pdf file name"
    ):
        save_figure(figure, tmp_path / "a.jpg")


def test_a_shorter_boosting_fit_is_the_prefix_of_a_longer_one():
    """The boundaries figure sizes round t's points by the final weights of the (t - 1)-round fit."""
    features, target = toy_dataset(0)
    assert features.shape == (40, 2) and target.sum() == 10
    for method in ("adaboost", "adacc1"):
        five, two = _fit(method, 5, 0, features, target), _fit(method, 2, 0, features, target)
        for short, long in zip(two.estimators_, five.estimators_[:2], strict=True):
            assert (short.feature_, short.threshold_) == (long.feature_, long.threshold_)
        assert np.allclose(two.estimator_weights_, five.estimator_weights_[:2])


def test_boundaries_show_each_round_for_boosting_and_regions_for_others():
    figure = boundaries_figure(["adaboost", "dt"], rounds=3)
    visible = [axis for axis in figure.axes if axis.get_visible()]
    assert len(visible) == 4 + 1  # 3 rounds + the ensemble, then the tree's decision regions
    assert [axis.get_title() for axis in visible] == [
        "round 1",
        "round 2",
        "round 3",
        "ensemble",
        "decision regions",
    ]
    assert visible[0].get_ylabel() == "adaboost" and visible[-1].get_ylabel() == "dt"
    uniform, reweighted = (  # the last two collections: negatives' and positives' dots
        np.concatenate([dots.get_sizes() for dots in axis.collections[-2:]]) for axis in visible[:2]
    )
    assert uniform.size == reweighted.size == 40
    assert np.ptp(uniform) == 0 and np.ptp(reweighted) > 0  # round 1: uniform weights; round 2: reweighted
    with pytest.raises(ValueError, match="unknown method 'nope'"):
        boundaries_figure(["nope"])
    with pytest.raises(ValueError, match="rounds must be at least 1, got 0"):
        boundaries_figure(["adaboost"], rounds=0)


def test_cli_draws_the_boundaries(tmp_path, capsys):
    out = tmp_path / "figs" / "boundaries.png"
    assert (
        main(["figure", "boundaries", "--methods", "adaboost", "adacc1", "--rounds", "2", "--out", str(out)])
        == 0
    )
    assert capsys.readouterr().out.strip() == str(out)
    assert out.read_bytes().startswith(PNG_SIGNATURE)
    assert main(["figure", "boundaries", "--methods", "svm"]) == 2
    assert "cslearn figure boundaries: unknown method 'svm'" in capsys.readouterr().err
