"""The HTML report of a comparison built from a run record of real cells: content, self-containment,
identity."""

from __future__ import annotations

import base64
import dataclasses
import re

import pytest

from tasks.report.build import build_report
from tests.tasks.report.conftest import DATASETS, METHODS

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report(real_record):
    return build_report(real_record, metric="balanced_accuracy", control="adaboost")


def _table(html: str, table_id: str) -> str:
    match = re.search(rf'<div class="table-block" id="{table_id}">(.*?)</table>', html, re.S)
    assert match, f"no table {table_id!r} in the report"
    return match.group(1)


def test_the_report_holds_the_leaderboard_statistics_tables_and_provenance(report, real_record):
    html = report.html
    leaderboard = _table(html, "leaderboard")
    assert all(f'<td class="">{method}</td>' in leaderboard for method in METHODS)
    assert 'class="num best"' in leaderboard and 'class="num second"' in leaderboard
    for table_id in (
        "ranks",
        "by-size-table",
        "per-dataset",
        "cost-table",
        "run-details",
        "fingerprints",
        "parameters",
    ):
        _table(html, table_id)
    assert "Bonferroni-Dunn test against the control adaboost" in html
    assert "Friedman test over 3 datasets and 4 methods" in html
    for dataset, fingerprint in real_record.fingerprints.items():
        assert dataset in DATASETS and fingerprint in _table(html, "fingerprints")
    assert "f" * 40 in _table(html, "run-details")  # the code commit
    assert "<dd>1 × 2 folds</dd>" not in html and "cv · 1 repeat × 2 folds" in html


def test_an_insignificant_friedman_test_comes_first_and_greys_the_post_hoc_tests(report):
    html = report.html
    headline = re.search(r'<p class="headline" id="headline">(.*?)</p>', html).group(1)
    assert headline.startswith("No method is significantly better (p = ")  # these cells: Friedman p > 0.05
    assert "has the best mean rank by balanced accuracy (largest T, " in headline
    best_card = re.search(r"<dt>best mean rank by balanced accuracy</dt><dd>(.*?)</dd>", html).group(1)
    assert "; not significant: Friedman p = " in best_card
    for table_id in ("nemenyi", "bonferroni-dunn"):  # shown greyed, nothing shaded as significant
        block = re.search(rf'<div class="table-block exploratory" id="{table_id}">(.*?)</table>', html, re.S)
        assert block and "(exploratory)</h3>" in block.group(1) and "num sig" not in block.group(1)
    assert "critical_difference" not in report.figures  # its bars would read as conclusions


def test_every_figure_is_embedded_and_nothing_is_fetched(report):
    expected = {
        "cost_threshold_direct-marketing",
        "cost_recall_direct-marketing",
        *(f"roc_pr_{dataset}" for dataset in DATASETS),
        "in_training_rates",
        "weights_alpha_error",
    }
    assert set(report.figures) == expected
    sources = re.findall(r'<img src="([^"]+)"', report.html)
    assert len(sources) == len(expected)
    for source in sources:
        assert source.startswith("data:image/png;base64,")
        assert base64.b64decode(source.removeprefix("data:image/png;base64,")).startswith(PNG_SIGNATURE)
    assert set(map(bytes, report.figures.values())) == {
        base64.b64decode(source.split(",", 1)[1]) for source in sources
    }
    assert not re.search(r'(src|href)="(https?:)?//', report.html)  # no external asset
    assert "<link" not in report.html and "@import" not in report.html


def test_the_same_record_gives_the_same_bytes(report, real_record, tmp_path):
    again = build_report(real_record, metric="balanced_accuracy", control="adaboost")
    assert again.html == report.html and again.figures == report.figures
    path = report.write(tmp_path / "out")
    assert path.read_text(encoding="utf-8") == report.html
    assert sorted(p.name for p in (tmp_path / "out" / "figures").iterdir()) == sorted(
        f"{name}.png" for name in report.figures
    )


def test_a_run_without_results_or_with_a_bad_choice_is_refused(real_record):
    with pytest.raises(
        ValueError, match="has no results/results.parquet artifact .status FAILED.: it did not finish"
    ):
        build_report(dataclasses.replace(real_record, results=None, status="FAILED"))
    with pytest.raises(ValueError, match=r"metric 'gini' has no values in run 0+; available: \['opm', 'auc'"):
        build_report(real_record, metric="gini")
    with pytest.raises(ValueError, match="control 'svm' is not a compared method"):
        build_report(real_record, control="svm")


def test_failed_cells_are_listed_with_their_error(real_cells, real_record):
    from tasks.report.results import results_frame

    params, infos, results = real_cells
    broken = [dict(result) for result in results]
    broken[0] = {
        **broken[0],
        "status": "failed",
        "error": "FloatingPointError: weights overflowed",
        "rows": [],
    }
    report = build_report(dataclasses.replace(real_record, results=results_frame(broken)))
    failures = _table(report.html, "failed-cells")
    assert "FloatingPointError: weights overflowed" in failures
    assert "Failed cells (1)" in report.html and "<dd>1 of 24</dd>" in report.html
