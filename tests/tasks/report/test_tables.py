"""The papers' table forms and the terminal leaderboard, from the summary of real cells."""

from __future__ import annotations

import pandas as pd
import pytest

from tasks.report.results import CELL_MEASURES, average_over_datasets, results_frame, summarize
from tasks.report.statistics import compare_methods
from tasks.report.tables import cost_table, leaderboard, per_dataset_table, rank_table, table_by_size
from tasks.report.text import format_leaderboard, leaderboard_markdown
from tests.tasks.report.conftest import METHODS


@pytest.fixture(scope="module")
def summary(real_cells):
    return summarize(results_frame(real_cells[2]), measures=CELL_MEASURES)


@pytest.fixture(scope="module")
def comparison(summary):
    return compare_methods(summary, "balanced_accuracy")


def test_table_by_size_averages_fold_means_and_fold_stds_over_datasets(summary):
    table = table_by_size(summary)
    row = table[(table["method"] == "adacc1") & (table["n_estimators"] == 3)].iloc[0]
    rows = summary[(summary["method"] == "adacc1") & (summary["n_estimators"] == 3)]
    assert row["datasets"] == 3
    assert row["g_mean"] == pytest.approx(rows["g_mean_mean"].mean())
    assert row["g_mean_std"] == pytest.approx(rows["g_mean_std"].mean())
    assert row["savings"] == pytest.approx(rows["savings_mean"].dropna().mean())  # one business dataset
    means = average_over_datasets(summary)
    assert means.set_index(["method", "n_estimators"])["g_mean"].to_dict() == pytest.approx(
        table.set_index(["method", "n_estimators"])["g_mean"].to_dict()
    )
    assert table["n_estimators"].isna().sum() == 2  # dt and bmr-lr are not ensembles


def test_rank_table_has_the_mean_rank_and_wins_rows(comparison):
    ranks = rank_table(comparison)
    assert list(ranks.index[-2:]) == ["mean rank", "wins"]
    assert list(ranks.columns) == list(comparison.mean_ranks.index)
    assert ranks.loc["wins"].sum() >= 3  # every dataset has at least one winner
    per_dataset = ranks.drop(index=["mean rank", "wins"])
    assert per_dataset.sum(axis=1).tolist() == pytest.approx([10.0] * 3)  # 1 + 2 + 3 + 4 per dataset


def test_per_dataset_table_takes_each_methods_largest_size(summary):
    table = per_dataset_table(summary)
    assert len(table) == 3 * 4
    assert set(table.loc[table["method"] == "adaboost", "n_estimators"]) == {6}
    assert {"g_mean_mean", "g_mean_std", "auc_mean", "f1_mean", "tpr_mean", "tnr_mean"} <= set(table.columns)


def test_cost_table_lists_business_datasets_only(summary):
    table = cost_table(summary)
    assert list(table.columns.get_level_values("dataset").unique()) == ["direct-marketing"]
    assert list(table.columns.get_level_values("measure")) == [
        "savings",
        "accuracy",
        "f1",
        "tree_nodes",
        "fit_seconds",
    ]
    assert table.loc["dt", ("direct-marketing", "tree_nodes")] > 1
    assert pd.isna(table.loc["adaboost", ("direct-marketing", "tree_nodes")])
    assert cost_table(summary[summary["dataset"] != "direct-marketing"]).empty


def test_leaderboard_follows_the_mean_ranks(summary, comparison):
    board = leaderboard(summary, comparison)
    assert board["method"].tolist() == list(comparison.mean_ranks.index)
    assert board["mean_rank"].is_monotonic_increasing and set(board["method"]) == set(METHODS)
    assert (board["folds"] == 2).all() and (board["failed"] == 0).all()
    text = format_leaderboard(board)
    header = text.splitlines()[0].split()
    assert header[:5] == ["#", "method", "mean", "rank", "wins"]
    assert text.splitlines()[1].split()[:2] == ["1", board["method"].iloc[0]]


def test_leaderboard_markdown_marks_the_best_and_states_the_tests(summary, comparison):
    board = leaderboard(summary, comparison)
    lines = leaderboard_markdown(board, comparison).splitlines()
    assert lines[0].startswith("| # | method | mean rank | wins | OPM | balanced accuracy |")
    assert lines[1] == "|" + "---|" * lines[0].count(" | ") + "---|"
    first = lines[2].split(" | ")
    assert first[1] == comparison.mean_ranks.index[0]
    assert first[2] == f"**{comparison.mean_ranks.iloc[0]:.2f}**"
    best_auc = board["auc"].max()
    assert sum(f"**{best_auc:.3f}**" in line for line in lines[2:6]) >= 1
    assert lines[7].startswith("No method is significantly better (p = 0.12); bmr-lr has the best mean rank")
    assert any(line.startswith("Friedman test over 3 datasets and 4 methods") for line in lines)
