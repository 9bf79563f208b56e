"""Ranks, wins, Friedman, Nemenyi and Bonferroni-Dunn against Demsar (2006), the paper the AdaCC study
follows.

Reference values (Demsar 2006, J. Mach. Learn. Res. 7):
- Table 5: critical values q_0.05 of the Nemenyi test (two-tailed, all pairs) and of the Bonferroni-Dunn test
  (k - 1 comparisons with a control), k = 2..10 methods.
- Section 3.2.4, the worked example: AUC of C4.5 and three variants (m: tuned minimal leaf size, cf: tuned
  confidence factor) on 14 datasets (Table 6): N = 14, k = 4, CD(Nemenyi, 0.05) = 2.569 sqrt(20 / 84) = 1.25
  and CD(Bonferroni-Dunn, 0.05) = 2.394 sqrt(20 / 84) = 1.17; with C4.5 as the control, C4.5+m+cf is
  significantly better and C4.5+m (rank difference 1.143) is not; the Nemenyi test separates no pair.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tasks.report.statistics import compare_methods, critical_difference, friedman_test, rank_methods
from tasks.report.text import NAMED_AT_MOST, best_method_verdict, describe_comparison

#: Demsar (2006) Table 5(a) and 5(b): q_0.05 for k methods. For k = 9 the Bonferroni-Dunn value is
#: z_{0.05 / 16} = 2.734 (the table as we have it reads 2.724, out of line with its neighbours).
Q_NEMENYI = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102, 10: 3.164}
Q_BONFERRONI_DUNN = {
    2: 1.960,
    3: 2.241,
    4: 2.394,
    5: 2.498,
    6: 2.576,
    7: 2.638,
    8: 2.690,
    9: 2.734,
    10: 2.773,
}

METHODS = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")

#: Demsar (2006) Table 6: AUC per dataset of the four C4.5 variants.
DEMSAR_AUC = {
    "adult (sample)": (0.763, 0.768, 0.771, 0.798),
    "breast cancer": (0.599, 0.591, 0.590, 0.569),
    "breast cancer wisconsin": (0.954, 0.971, 0.968, 0.967),
    "cmc": (0.628, 0.661, 0.654, 0.657),
    "ionosphere": (0.882, 0.888, 0.886, 0.898),
    "iris": (0.936, 0.931, 0.916, 0.931),
    "liver disorders": (0.661, 0.668, 0.609, 0.685),
    "lung cancer": (0.583, 0.583, 0.563, 0.625),
    "lymphography": (0.775, 0.838, 0.866, 0.875),
    "mushroom": (1.000, 1.000, 1.000, 1.000),
    "primary tumor": (0.940, 0.962, 0.965, 0.962),
    "rheum": (0.619, 0.666, 0.614, 0.669),
    "voting": (0.972, 0.981, 0.975, 0.975),
    "wine": (0.957, 0.978, 0.946, 0.970),
}


def _summary(table: dict[str, tuple], methods=METHODS, metric="auc") -> pd.DataFrame:
    """A ``summarize``-shaped frame: one row per (dataset, method) of non-ensembles with ``<metric>_mean``."""
    rows = [
        {"dataset": dataset, "method": method, "n_estimators": pd.NA, f"{metric}_mean": value}
        for dataset, values in table.items()
        for method, value in zip(methods, values, strict=True)
    ]
    frame = pd.DataFrame(rows)
    frame["n_estimators"] = frame["n_estimators"].astype("Int64")
    return frame


@pytest.fixture(scope="module")
def demsar():
    return compare_methods(_summary(DEMSAR_AUC), "auc", control="C4.5")


@pytest.mark.parametrize("n_methods", range(3, 11))
def test_critical_differences_use_demsars_critical_values(n_methods):
    scale = math.sqrt(n_methods * (n_methods + 1) / (6 * 14))
    assert critical_difference(n_methods, 14) == pytest.approx(Q_NEMENYI[n_methods] * scale, abs=1e-3 * scale)
    assert critical_difference(n_methods, 14, test="bonferroni-dunn") == pytest.approx(
        Q_BONFERRONI_DUNN[n_methods] * scale, abs=1e-3 * scale
    )
    with pytest.raises(ValueError, match="test must be 'nemenyi' or 'bonferroni-dunn', got 'tukey'"):
        critical_difference(n_methods, 14, test="tukey")


def test_worked_example_critical_differences(demsar):
    assert demsar.critical_difference == pytest.approx(1.25, abs=0.005)
    assert demsar.critical_difference_control == pytest.approx(1.17, abs=0.005)


def test_ranks_share_ties_and_higher_auc_ranks_first(demsar):
    ranks = demsar.ranks
    assert ranks.loc["mushroom"].tolist() == [2.5, 2.5, 2.5, 2.5]  # four-way tie
    assert ranks.loc["lung cancer"].to_dict() == {
        "C4.5": 2.5,
        "C4.5+m": 2.5,
        "C4.5+cf": 4.0,
        "C4.5+m+cf": 1.0,
    }
    assert ranks.loc["adult (sample)"].to_dict() == {
        "C4.5": 4.0,
        "C4.5+m": 3.0,
        "C4.5+cf": 2.0,
        "C4.5+m+cf": 1.0,
    }
    assert list(demsar.mean_ranks.index) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert demsar.mean_ranks["C4.5"] == pytest.approx(3.143, abs=5e-4)  # 44 / 14, as printed by Demsar
    assert demsar.mean_ranks["C4.5+m"] == pytest.approx(2.000, abs=5e-4)
    assert demsar.mean_ranks.sum() == pytest.approx(4 * 5 / 2)  # ranks of 4 methods sum to 10 per dataset
    # Wins: best or tied for best (mushroom counts for all four).
    assert demsar.wins.to_dict() == {"C4.5+m+cf": 7, "C4.5+m": 5, "C4.5+cf": 2, "C4.5": 3}  # counted by hand


def test_friedman_rejects_equivalence_and_does_not_depend_on_ranking_first(demsar):
    on_values = stats.friedmanchisquare(*np.array(list(DEMSAR_AUC.values())).T)
    assert demsar.friedman.statistic == pytest.approx(on_values.statistic)
    assert demsar.friedman.p_value == pytest.approx(on_values.pvalue)
    assert demsar.friedman.p_value < 0.05 and demsar.significant  # Demsar: F_F = 3.69 > F(3, 39) = 2.85
    assert (demsar.friedman.n_datasets, demsar.friedman.n_methods) == (14, 4)


def test_nemenyi_and_bonferroni_dunn_decide_as_the_critical_differences(demsar):
    scale = math.sqrt(4 * 5 / (6 * 14))
    ranks = demsar.mean_ranks
    for first in METHODS:
        for second in METHODS:
            if first != second:
                separated = abs(ranks[first] - ranks[second]) > Q_NEMENYI[4] * scale
                assert (demsar.nemenyi.loc[first, second] < 0.05) == separated
    assert demsar.significantly_different_pairs() == []  # Demsar: Nemenyi cannot separate any pair at 0.05

    assert demsar.control == "C4.5" and set(demsar.bonferroni_dunn.index) == set(METHODS) - {"C4.5"}
    for method, p_value in demsar.bonferroni_dunn.items():
        z = abs(ranks[method] - ranks["C4.5"]) / scale
        assert p_value == pytest.approx(min(1.0, 3 * 2 * stats.norm.sf(z)))  # Bonferroni over k - 1 = 3
        assert (p_value < 0.05) == (abs(ranks[method] - ranks["C4.5"]) > Q_BONFERRONI_DUNN[4] * scale)
    assert demsar.bonferroni_dunn["C4.5+m+cf"] < 0.05 < demsar.bonferroni_dunn["C4.5+m"]


def test_the_comparison_in_words(demsar):
    text = describe_comparison(demsar)
    assert "best mean rank C4.5+m+cf (1.93 over 14 datasets)" in text
    assert "Friedman test over 14 datasets and 4 methods: chi-square = 10.95, p = 0.012" in text
    assert "the methods differ significantly at alpha = 0.05" in text
    assert "Nemenyi (all pairs, critical difference 1.25): no pair differs significantly." in text
    assert (
        "Bonferroni-Dunn against C4.5 (critical difference 1.17): significantly better: C4.5+m+cf (p = 0.038)"
        in text
    )
    assert "not significantly different: C4.5+m (p = 0.058), C4.5+cf (p = 1)" in text


def test_default_control_is_the_best_method_and_bad_controls_are_named():
    summary = _summary(DEMSAR_AUC)
    assert compare_methods(summary, "auc").control == "C4.5+m+cf"
    with pytest.raises(ValueError, match=r"control 'J48' is not a compared method; methods: \['C4.5', "):
        compare_methods(summary, "auc", control="J48")
    with pytest.raises(ValueError, match=r"metric 'opm' is not in the summary; available: \['auc'\]"):
        compare_methods(summary, "opm")


def test_costs_rank_smaller_first_and_missing_results_rank_last():
    table = {"a": (10.0, 20.0, np.nan), "b": (30.0, 20.0, 5.0)}
    comparison = compare_methods(_summary(table, methods=("x", "y", "z"), metric="cost"), "cost")
    assert comparison.ranks.loc["a"].to_dict() == {"x": 1.0, "y": 2.0, "z": 3.0}  # z failed on a
    assert comparison.ranks.loc["b"].to_dict() == {"x": 3.0, "y": 2.0, "z": 1.0}


def test_too_few_datasets_or_methods_give_ranks_without_tests():
    one_dataset = compare_methods(_summary({"a": (0.9, 0.8, 0.7)}, methods=("x", "y", "z")), "auc")
    assert one_dataset.friedman is None and one_dataset.nemenyi is None and one_dataset.control is None
    assert one_dataset.mean_ranks.to_dict() == {"x": 1.0, "y": 2.0, "z": 3.0}
    assert "No Friedman test: it needs at least 2 datasets and 3 methods (this run has 1 and 3)." in (
        describe_comparison(one_dataset)
    )
    two_methods = _summary({"a": (0.9, 0.8), "b": (0.7, 0.8)}, methods=("x", "y"))
    assert compare_methods(two_methods, "auc").friedman is None
    ranks = rank_methods(two_methods, "auc")
    assert friedman_test(ranks) is None
    assert ranks.loc["mean rank"].to_dict() == {"x": 1.5, "y": 1.5}


def test_an_insignificant_friedman_test_draws_no_post_hoc_conclusion():
    summary = _summary(
        {"a": (0.9, 0.8, 0.7), "b": (0.7, 0.9, 0.8), "c": (0.8, 0.7, 0.9)}, methods=("x", "y", "z")
    )
    comparison = compare_methods(summary, "auc")
    assert comparison.friedman.p_value == pytest.approx(1.0) and not comparison.significant
    text = describe_comparison(comparison)
    assert text.splitlines()[0] == (  # the verdict first
        "No method is significantly better (p = 1); x has the best mean rank by AUC (largest T, 2.00 over 3 "
        "datasets)."
    )
    assert "no significant difference between the methods at alpha = 0.05" in text
    assert (
        "Post-hoc tests apply only after the Friedman test rejects equivalence; none is drawn (the report "
        "shows them greyed, as exploratory)." in text
    )
    assert best_method_verdict(comparison) == "x (mean rank 2.00); not significant: Friedman p = 1"
    result = friedman_test(rank_methods(summary, "auc"))
    assert result["p_value"] == pytest.approx(1.0)
    assert result["critical_difference"] == pytest.approx(2.343 * math.sqrt(3 * 4 / (6 * 3)), abs=1e-3)


def _paired_summary():
    """Demsar's C4.5+m (as AdaCC1) and C4.5 (as AdaN-CC1) over his 14 datasets, at two ensemble sizes."""
    rows = []
    for size, shift in ((100, 0.0), (200, 0.01)):
        for dataset, values in DEMSAR_AUC.items():
            rows.append(
                {"dataset": dataset, "method": "adacc1", "n_estimators": size, "auc_mean": values[1] + shift}
            )
            rows.append(
                {"dataset": dataset, "method": "adancc1", "n_estimators": size, "auc_mean": values[0]}
            )
    return pd.DataFrame(rows)


def test_cumulative_table_compares_each_pair_per_size_with_the_wilcoxon_test():
    from tasks.report.statistics import cumulative_table

    table = cumulative_table(_paired_summary(), metrics=("auc",))
    assert list(table["n_estimators"]) == [100, 200] and set(table["cumulative"]) == {"adacc1"}
    first = table.iloc[0]
    with_m = np.array([values[1] for values in DEMSAR_AUC.values()])
    plain = np.array([values[0] for values in DEMSAR_AUC.values()])
    assert first["datasets"] == 14
    assert first["cumulative_mean"] == pytest.approx(with_m.mean())
    assert first["relative_decrease"] == pytest.approx(1 - plain.mean() / with_m.mean())
    # C4.5+m beats C4.5 on 10 datasets, loses on 2 (breast cancer, iris), ties on lung cancer and mushroom;
    # Demsar (Section 3.1.3) finds the difference significant at 0.05 with the Wilcoxon test.
    assert (first["cumulative_wins"], first["non_cumulative_wins"]) == (10, 2)
    assert first["wilcoxon_p"] < 0.05
    assert table.iloc[1]["cumulative_wins"] == 14  # +0.01 everywhere: every dataset


def test_cumulative_table_needs_a_pair():
    from tasks.report.statistics import cumulative_table

    summary = _paired_summary().replace({"adancc1": "adaboost"})
    with pytest.raises(ValueError, match="no \\(cumulative, non-cumulative\\) pair"):
        cumulative_table(summary)


def test_the_post_hoc_sentences_name_the_few_that_differ_and_count_the_rest():
    """Twelve methods on twenty datasets: eleven alike (random order), one always last."""
    random = np.random.default_rng(3)
    methods = tuple(f"m{index:02d}" for index in range(12))
    table = {f"d{dataset}": (*(0.5 + 0.01 * random.permutation(11)), 0.1) for dataset in range(20)}
    comparison = compare_methods(_summary(table, methods=methods), "auc", control="m00")
    assert comparison.significant
    text = describe_comparison(comparison)
    bonferroni = next(line for line in text.splitlines() if line.startswith("Bonferroni-Dunn against m00"))
    differ = [method for method, p in comparison.bonferroni_dunn.items() if p < 0.05]
    alike = len(comparison.bonferroni_dunn) - len(differ)
    assert "m11" in differ and alike > NAMED_AT_MOST  # too many alike to list: counted
    assert bonferroni.endswith(f"; the other {alike} are not significantly different.")
    assert all(f"{method} (p " in bonferroni for method in differ)
    assert "not significantly different:" not in bonferroni
    nemenyi = next(line for line in text.splitlines() if line.startswith("Nemenyi"))
    pairs = comparison.significantly_different_pairs()
    assert 0 < len(pairs) and nemenyi.count(" beats ") == min(len(pairs), NAMED_AT_MOST)
    assert f"the other {66 - len(pairs)} pairs do not differ significantly." in nemenyi


@pytest.mark.parametrize("alpha", [5.0, -1.0, math.nan, 0.0, 1.0, math.inf])
def test_a_significance_level_outside_zero_and_one_is_refused(alpha):
    with pytest.raises(ValueError, match=r"strictly between 0 and 1 such as 0\.05 or 0\.01; got "):
        compare_methods(_summary(DEMSAR_AUC), "auc", alpha=alpha)
