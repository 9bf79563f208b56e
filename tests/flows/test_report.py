"""``cslearn report`` on real compare and retrain runs (real Prefect and MLflow servers), and the pages a
person reads after them in headless Chromium: the HTML report, the MLflow run page, the report in MLflow.

The compare run is small but real: three offline datasets (one with example-dependent costs), four methods,
2 folds, T in {3, 6}. Its report is opened in Debian's chromium as a person would open the file: every figure
must decode (the page's own check sets ``data-figures-loaded="N/N"`` on ``<html>``), the verdict and the
leaderboard must be there. The MLflow UI of the test server is driven over the DevTools protocol
(``tests/flows/browser.py``): the links the flows print open MLflow's training layout with the run's
description, the report renders inside MLflow's artifact view, a child run's figure is shown at its own size.
Three retrains of one model give a first champion, a repeat that changes nothing and a challenger.

Screenshots, kept in ``$CSLEARN_SCREENSHOT_DIR`` when set (else in the test's tmp folder), for a person:

- ``report-top.png``, ``report-full.png``: the compare report, verdict first (the headline, the "best" card);
- ``mlflow-run-page.png``: the compare parent run in the MLflow UI's training layout, its description shown;
- ``mlflow-report-view.png``: the report inside MLflow's artifact view, where the report link opens;
- ``mlflow-child-figure.png``: a child run's figure in MLflow's artifact view, legible, in its own colour;
- ``retrain-report-top.png``: a retrain's report with the registry verdict and the champion's reference line;
- ``retrain-unchanged-registry.png``: the registry section of a retrain that changed nothing.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest

from flows.cli import main
from flows.compare import run_compare
from flows.retrain import run_retrain
from schemas.flow_params import CompareParams
from tasks.config.checks import validate_params
from tasks.report.figures import method_color
from tasks.report.publish import DESCRIPTION_LIMIT
from tasks.storage import state_home
from tasks.tracking.mlflow_runs import tracking_client
from tasks.tracking.mlflow_urls import EXPERIMENT_KIND_TAG, MODEL_DEVELOPMENT, mlflow_run_url
from tests.flows.browser import browser_page, chromium_output

pytestmark = pytest.mark.servers

DATASETS = ["wisconsin", "pima", "direct-marketing"]
METHODS = ["adaboost", "adacc1", "dt", "bmr-lr"]


def _screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("CSLEARN_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _dom(tmp_path: Path, html: Path) -> str:
    return chromium_output(tmp_path, "--virtual-time-budget=15000", "--dump-dom", html.as_uri())


def _file_screenshot(tmp_path: Path, html: Path, target: Path, size: tuple[int, int]) -> Path:
    chromium_output(tmp_path, f"--window-size={size[0]},{size[1]}", f"--screenshot={target}", html.as_uri())
    pixels = matplotlib.image.imread(target)
    assert pixels.shape[:2] == (size[1], size[0])
    assert len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)) > 200  # a page, not a blank
    return target


def _figures_loaded(dom: str) -> str:
    match = re.search(r'<html[^>]*data-figures-loaded="([^"]*)"', dom)
    assert match, "the page's figure check did not run"
    return match.group(1)


@pytest.fixture(scope="module")
def compare_run(prefect_server, mlflow_server, tmp_path_factory):
    """A finished compare run and the split scores its cells kept, logged as ``results/split_scores``."""
    folder = tmp_path_factory.mktemp("report-compare")
    params = validate_params(
        CompareParams,
        {
            "datasets": DATASETS,
            "methods": METHODS,
            "protocol": "cv",
            "repeats": 1,
            "folds": 2,
            "n_estimators": [3, 6],
            "tracking_uri": mlflow_server,
            "experiment": f"report-{uuid.uuid4().hex[:8]}",
            "cell_store": str(state_home() / "test-cells" / folder.name),
        },
    )
    outcome = run_compare(params)
    assert outcome["cells"]["failed"] == 0
    return outcome, folder


@pytest.fixture(scope="module")
def built_report(compare_run, mlflow_server, tmp_path_factory):
    outcome, _ = compare_run
    out = tmp_path_factory.mktemp("report-html")
    status = main(["report", outcome["parent_run_id"], "--tracking-uri", mlflow_server, "--out", str(out)])
    assert status == 0
    return out / "report.html"


def test_the_report_of_a_real_run_renders_in_a_browser_verdict_first(built_report, tmp_path):
    figures = sorted(path.stem for path in (built_report.parent / "figures").iterdir())
    assert {"cost_recall_direct-marketing", "roc_pr_pima", "in_training_rates"} <= set(figures)
    dom = _dom(tmp_path, built_report)
    assert _figures_loaded(dom) == f"{len(figures)}/{len(figures)}"
    assert re.search(r'<div id="broken-figures" hidden=""></div>', dom)
    leaderboard = re.search(r'id="leaderboard">(.*?)</table>', dom, re.S).group(1)
    assert all(f">{method}</td>" in leaderboard for method in METHODS)
    # The verdict first: the headline and the "best" card say whether the best mean rank is significant.
    headline = re.search(r'<p class="headline" id="headline">(.*?)</p>', dom).group(1)
    card = re.search(r"<dt>best mean rank by OPM</dt><dd>(.*?)</dd>", dom).group(1)
    if "critical_difference" in figures:  # Friedman rejected: the post-hoc tests are drawn
        assert headline.startswith("Ranked by OPM (largest T): best mean rank ")
        assert "; significantly better than " in card
    else:  # it did not: said first, and the post-hoc tables are greyed
        assert headline.startswith("No method is significantly better (p = ")
        assert "; not significant: Friedman p = " in card
        assert '<div class="table-block exploratory" id="nemenyi">' in dom
    costs = re.search(r'<section id="costs">.*?<p class="intro">(.*?)</p>', dom, re.S).group(1)
    assert re.search(
        r"Cost without a model .*: direct-marketing [\d,]+ EUR; savings = 1 - cost / that", costs
    )

    screenshots = _screenshots(tmp_path)
    _file_screenshot(tmp_path, built_report, screenshots / "report-top.png", (1400, 1100))
    _file_screenshot(tmp_path, built_report, screenshots / "report-full.png", (1400, 9000))
    print(f"screenshots: {screenshots}")


def test_a_broken_figure_is_detected_and_shown(built_report, tmp_path):
    html = built_report.read_text(encoding="utf-8")
    broken = tmp_path / "broken.html"
    broken.write_text(
        html.replace("data:image/png;base64,iVBOR", "data:image/png;base64,AAAA", 1), encoding="utf-8"
    )
    total = html.count("<img ")
    first = re.search(r'<img src="data:image/png;base64,iVBOR[^"]*" alt="([^"]+)"', html).group(1)
    dom = _dom(tmp_path, broken)
    assert _figures_loaded(dom) == f"{total - 1}/{total}"
    assert f'<div id="broken-figures">1 figure(s) failed to load: {first}</div>' in dom


def test_the_report_regenerates_identically(built_report, compare_run, mlflow_server, tmp_path):
    outcome, _ = compare_run
    environment = {**os.environ, "PYTHONHASHSEED": "12345"}
    command = [str(Path(sys.executable).parent / "cslearn"), "report", outcome["parent_run_id"]]
    command += ["--tracking-uri", mlflow_server, "--out", str(tmp_path / "again")]
    subprocess.run(command, check=True, env=environment, capture_output=True, timeout=300)
    assert (tmp_path / "again" / "report.html").read_bytes() == built_report.read_bytes()
    for figure in (built_report.parent / "figures").iterdir():
        assert (tmp_path / "again" / "figures" / figure.name).read_bytes() == figure.read_bytes()


def _artifact_bytes(client, run_id: str, path: str, folder: Path) -> bytes:
    return Path(client.download_artifacts(run_id, path, str(folder))).read_bytes()


def _flow_run_artifacts(flow_run_id: str) -> dict:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    with get_client(sync_client=True) as prefect:
        found = prefect.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id]))
        )
    return {artifact.key or artifact.type: artifact for artifact in found}


def test_the_flow_logs_the_report_cslearn_report_builds(built_report, compare_run, mlflow_server, tmp_path):
    outcome, _ = compare_run
    run_id = outcome["parent_run_id"]
    client = tracking_client(mlflow_server)
    logged = _artifact_bytes(client, run_id, "report/report.html", tmp_path / "logged")
    assert logged == built_report.read_bytes()  # byte-identical to `cslearn report RUN_ID`
    figures = sorted(path.name for path in (built_report.parent / "figures").iterdir())
    assert sorted(item.path for item in client.list_artifacts(run_id, "figures")) == [
        f"figures/{name}" for name in figures
    ]
    for name in figures:
        logged = _artifact_bytes(client, run_id, f"figures/{name}", tmp_path / "figures")
        assert logged == (built_report.parent / "figures" / name).read_bytes()
    assert outcome["report"]["artifact"] == "report/report.html"
    assert sorted(outcome["report"]["figures"]) == [f"figures/{name}" for name in figures]
    for dataset in DATASETS:
        assert f"roc_pr_{dataset}.png" in figures
    assert {"cost_threshold_direct-marketing.png", "cost_recall_direct-marketing.png"} <= set(figures)

    run = client.get_run(run_id)
    description = run.data.tags["mlflow.note.content"]
    assert len(description) <= DESCRIPTION_LIMIT
    lines = description.splitlines()
    assert lines[0] == "### compare 3 datasets x 4 methods cv 1x2" == f"### {run.info.run_name}"
    headline = re.search(r'<p class="headline" id="headline">(.*?)</p>', built_report.read_text()).group(1)
    assert lines[2] == f"**{headline}**"  # the verdict first, in what MLflow shows before "Show more"
    assert lines[4].startswith("| # | method | mean rank | wins | OPM |")
    assert {line.split(" | ")[1] for line in lines[6:10]} == set(METHODS)
    assert any(line.startswith("Friedman test over 3 datasets and 4 methods") for line in lines)
    metrics = run.data.metrics
    assert {"cells/total", "cells/ok", "cells/failed", "cells/resumed", "cells/computed"} <= set(metrics)
    assert "friedman/p_value" in metrics and not any("_" in name.split("/")[0] for name in metrics)
    # The answer on the parent: each method's mean rank, for MLflow's charts and run comparison.
    ranks = {name.removeprefix("rank/"): value for name, value in metrics.items() if name.startswith("rank/")}
    assert set(ranks) == set(METHODS) and sum(ranks.values()) == pytest.approx(4 * 5 / 2)  # ranks 1..4
    assert ranks == pytest.approx(outcome["ranks"]["mean rank"], abs=1e-3)

    # The flow run's Prefect page (the parent flow run the user started, named from its parameters): the
    # leaderboard, links that open from an http page (the MLflow run, the report in MLflow's artifact view),
    # the progress; keys carry what the run is about.
    from prefect.client.orchestration import get_client

    flow_run_id = run.data.tags["prefect.parent_flow_run_id"]
    with get_client(sync_client=True) as prefect:
        parent = prefect.read_flow_run(flow_run_id)
        subflow = prefect.read_flow_run(run.data.tags["prefect.flow_run_id"])
    assert parent.name == "compare 3 datasets x 4 methods" and subflow.name == f"cells of {parent.name}"
    artifacts = _flow_run_artifacts(flow_run_id)
    key = f"compare-{run.data.params['experiment']}"
    assert {f"{key}-leaderboard", f"{key}-mlflow-run", f"{key}-report", "progress"} <= set(artifacts)
    assert artifacts[f"{key}-leaderboard"].data == description
    assert (
        mlflow_run_url(mlflow_server, run.info.experiment_id, run_id) in artifacts[f"{key}-mlflow-run"].data
    )
    assert outcome["report"]["url"] in artifacts[f"{key}-report"].data
    assert artifacts["progress"].data == 100.0


def test_each_child_run_has_one_small_figure_of_its_own(compare_run, mlflow_server, tmp_path):
    outcome, _ = compare_run
    client = tracking_client(mlflow_server)
    for key, child in outcome["child_runs"].items():
        paths = {item.path for item in client.list_artifacts(child, "figures")}
        assert paths == {"figures/summary.png"}, key
        png = _artifact_bytes(client, child, "figures/summary.png", tmp_path / key.replace("/", "-"))
        height, width = matplotlib.image.imread(io.BytesIO(png)).shape[:2]
        panels = 2 + 2 * key.endswith(("adaboost", "adacc1")) + key.startswith("direct-marketing")
        rows = -(-panels // 2)  # two panels a row, at the width of MLflow's artifact view
        assert width == 660 and 230 * rows < height <= 230 * rows + 50, (key, width, height)


def _mlflow_page_ready(page) -> bool:
    """The MLflow UI has drawn its navigation (its JavaScript bundle fetched the run)."""
    return page.wait_for("document.querySelectorAll('a[href^=\"#/experiments\"]').length > 0", timeout=180)


def test_mlflow_links_open_the_training_layout_with_the_description(compare_run, mlflow_server, tmp_path):
    """The run page the CLI and Prefect link: MLflow 3's training layout (runs, models, the model registry in
    the sidebar), not its GenAI one (traces, judges, evaluation runs), with the leaderboard description."""
    outcome, _ = compare_run
    client = tracking_client(mlflow_server)
    run = client.get_run(outcome["parent_run_id"])
    assert client.get_experiment(run.info.experiment_id).tags[EXPERIMENT_KIND_TAG] == MODEL_DEVELOPMENT
    url = outcome["report"]["run_url"]
    assert url == mlflow_run_url(mlflow_server, run.info.experiment_id, run.info.run_id)
    assert url.endswith("?workflowType=machine_learning")
    with browser_page(tmp_path, width=1600, height=2300) as page:
        page.open(url)
        assert _mlflow_page_ready(page)
        assert page.wait_for("document.body.innerText.includes('Friedman test over 3 datasets')", timeout=120)
        text = page.text()
        assert "Model registry" in text and "Evaluation runs" not in text and "Judges" not in text
        assert page.evaluate("document.querySelector('a[href=\"#/models\"]') !== null")  # the registry
        assert run.info.run_name in text and "| # | method |" not in text  # the markdown is rendered
        page.screenshot(_screenshots(tmp_path) / "mlflow-run-page.png")


def test_the_report_link_opens_the_report_inside_mlflow(compare_run, mlflow_server, tmp_path):
    """The report link (``report.url``: MLflow's artifact view of the run) shows the report rendered, from an
    http page: the frame MLflow draws it in holds the report's dark header."""
    outcome, _ = compare_run
    report = outcome["report"]
    assert report["url"].startswith(f"{mlflow_server}/#/experiments/")
    assert "/artifacts/report/report.html?workflowType=machine_learning" in report["url"]
    assert report["path"] is None  # a tracking server: no local file to name
    screenshot = _screenshots(tmp_path) / "mlflow-report-view.png"
    with browser_page(tmp_path, width=1600, height=1100) as page:
        page.open(report["url"])
        assert _mlflow_page_ready(page)
        assert page.wait_for("document.querySelector('iframe.mlflow-html-iframe') !== null", timeout=120)
        frame = page.evaluate(
            "(() => { const r = document.querySelector('iframe.mlflow-html-iframe').getBoundingClientRect();"
            " return [r.left, r.top, r.width, r.height]; })()"
        )
        assert frame[2] > 400 and frame[3] > 400
        page.evaluate("new Promise(resolve => setTimeout(resolve, 4000))")  # the frame paints its blob
        page.screenshot(screenshot)
    pixels = matplotlib.image.imread(screenshot)[..., :3]
    left, top = int(frame[0]) + 20, int(frame[1]) + 20
    header = pixels[top : top + 60, left : left + 300].reshape(-1, 3).mean(axis=0)
    assert header[2] > header[0] + 0.1 and header.mean() < 0.45, header  # the report's dark-blue header


def test_a_child_runs_figure_is_shown_at_its_own_size_in_mlflow(compare_run, mlflow_server, tmp_path):
    outcome, _ = compare_run
    child = outcome["child_runs"]["direct-marketing/adacc1"]
    run = tracking_client(mlflow_server).get_run(child)
    view = (
        f"{mlflow_server}/#/experiments/{run.info.experiment_id}/runs/{child}/artifacts/figures/summary.png"
    )
    with browser_page(tmp_path, width=1600, height=1300) as page:
        page.open(f"{view}?workflowType=machine_learning")
        assert _mlflow_page_ready(page)
        assert page.wait_for("[...document.images].some(i => i.naturalWidth === 660)", timeout=120)
        shown = page.evaluate(
            "(() => { const i = [...document.images].find(i => i.naturalWidth === 660);"
            " return [i.getBoundingClientRect().width, i.naturalWidth]; })()"
        )
        assert shown[0] == pytest.approx(shown[1], abs=2)  # not scaled down: 8-point ticks stay legible
        page.screenshot(_screenshots(tmp_path) / "mlflow-child-figure.png")
    png = _artifact_bytes(tracking_client(mlflow_server), child, "figures/summary.png", tmp_path / "child")
    pixels = matplotlib.image.imread(io.BytesIO(png))[..., :3].reshape(-1, 3)
    adacc1 = np.asarray(method_color("adacc1")[:3])
    assert (np.abs(pixels - adacc1).max(axis=1) < 0.02).sum() > 500  # its curves in the method's colour


def test_runs_that_cannot_be_reported_are_refused(compare_run, mlflow_server, capsys):
    outcome, _ = compare_run
    child = next(iter(outcome["child_runs"].values()))
    assert main(["report", child, "--tracking-uri", mlflow_server]) == 2
    assert f"run {child} is a child run; build the report of its parent run {outcome['parent_run_id']}" in (
        capsys.readouterr().err
    )
    assert main(["report", "0" * 32, "--tracking-uri", mlflow_server]) == 2
    assert f"no MLflow run '{'0' * 32}'" in capsys.readouterr().err
    arguments = ["report", outcome["parent_run_id"], "--tracking-uri", mlflow_server, "--control", "svm"]
    assert main(arguments) == 2
    assert "control 'svm' is not a compared method" in capsys.readouterr().err


def _retrain(mlflow_server: str, experiment: str, model_name: str, candidates: list[str]) -> dict:
    return run_retrain(
        {
            "dataset": "direct-marketing",
            "candidates": candidates,
            "max_rows": 2500,
            "holdout_fraction": 0.4,
            "seed": 7,
            "tracking_uri": mlflow_server,
            "experiment": experiment,
            "model_name": model_name,
        }
    )


@pytest.fixture(scope="module")
def retrains(prefect_server, mlflow_server):
    """Three retrains of one model: the first champion, the same retrain again (it changes nothing), and one
    with another candidate (a challenger or a new champion), with their reports."""
    experiment, model_name = f"report-retrain-{uuid.uuid4().hex[:8]}", f"report-{uuid.uuid4().hex[:8]}"
    first = _retrain(mlflow_server, experiment, model_name, ["dt", "bmr-lr"])
    again = _retrain(mlflow_server, experiment, model_name, ["dt", "bmr-lr"])
    other = _retrain(mlflow_server, experiment, model_name, ["bmr-dt"])
    return first, again, other


def _report_of(outcome: dict, mlflow_server: str, out: Path) -> str:
    assert main(["report", outcome["parent_run_id"], "--tracking-uri", mlflow_server, "--out", str(out)]) == 0
    return (out / "report.html").read_text(encoding="utf-8")


def test_the_report_of_a_retrain_lists_candidates_and_the_registry(retrains, mlflow_server, tmp_path):
    outcome, _, _ = retrains
    out = tmp_path / "retrain"
    html = _report_of(outcome, mlflow_server, out)
    candidates = re.search(r'id="leaderboard">(.*?)</table>', html, re.S).group(1)
    rows = re.findall(r"<tr>\s*<td[^>]*>([\w-]+)</td>", candidates)
    assert rows == sorted(outcome["candidates"], key=lambda method: -outcome["candidates"][method])
    assert f"v{outcome['version']} (champion)" in candidates
    assert "total cost (EUR)" in candidates  # costs carry their unit
    assert re.search(r"cost without a model on the holdout .*: [\d,]+ EUR; savings = 1 - cost / that", html)
    headline = re.search(r'<p class="headline" id="headline">(.*?)</p>', html).group(1)
    assert headline == outcome["verdict"] and headline.startswith(f"new champion: v{outcome['version']} ")
    assert headline.endswith(f", the first of {outcome['model_name']}")
    assert "Holdout savings and F1 per candidate" in html and "<dd>direct-marketing</dd>" in html
    versions = re.search(r'id="model-versions">(.*?)</table>', html, re.S).group(1)
    assert outcome["model_name"] in versions and "champion" in versions
    assert _figures_loaded(_dom(tmp_path, out / "report.html")) == "1/1"

    client = tracking_client(mlflow_server)
    run_id = outcome["parent_run_id"]
    assert (
        _artifact_bytes(client, run_id, "report/report.html", tmp_path / "logged")
        == (out / "report.html").read_bytes()
    )
    assert (
        _artifact_bytes(client, run_id, "figures/candidates.png", tmp_path / "logged")
        == (out / "figures" / "candidates.png").read_bytes()
    )
    assert outcome["report"]["figures"] == ["figures/candidates.png"]
    run = client.get_run(run_id)
    assert run.info.run_name == "retrain direct-marketing x 2 candidates"
    description = run.data.tags["mlflow.note.content"]
    assert description.startswith(  # the verdict first
        f"### retrain direct-marketing x 2 candidates\n\nRegistry: {outcome['verdict']}.\n\n"
        "| # | candidate | savings |"
    )
    # The answer on the parent run: MLflow's charts show a series of retrains on one chart.
    metrics = run.data.metrics
    assert metrics["best/savings"] == pytest.approx(outcome["candidates"][outcome["best"]])
    assert metrics["registry/promoted"] == 1.0 and "champion/savings" not in metrics  # the first champion
    assert run.data.tags["cslearn.registry.outcome"] == "champion"
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as prefect:
        flow_run = prefect.read_flow_run(run.data.tags["prefect.flow_run_id"])
        task_runs = prefect.read_task_runs()
    assert flow_run.name == "retrain direct-marketing"
    names = {task_run.name for task_run in task_runs if task_run.flow_run_id == flow_run.id}
    assert {"fit dt", "fit bmr-lr"} <= names
    artifacts = _flow_run_artifacts(run.data.tags["prefect.flow_run_id"])
    key = "retrain-direct-marketing"  # one key's history is one model's
    assert {f"{key}-leaderboard", f"{key}-mlflow-run", f"{key}-report", "progress"} <= set(artifacts)


def test_a_retrain_that_changes_nothing_says_so(retrains, mlflow_server, tmp_path):
    first, again, _ = retrains
    assert again["outcome"] == "unchanged" and again["version"] is None
    html = _report_of(again, mlflow_server, tmp_path / "unchanged")
    headline = re.search(r'<p class="headline" id="headline">(.*?)</p>', html).group(1)
    champion = f"v{first['version']} {first['best']} {first['candidates'][first['best']]:.3f}"
    assert headline == (
        f"unchanged: the data and code are those of the champion {champion}; nothing registered"
    )
    candidates = re.search(r'id="leaderboard">(.*?)</table>', html, re.S).group(1)
    assert "registered as" not in candidates and '<td class="">–</td>' not in candidates  # no dashes
    registry = re.search(r'<section id="registry">(.*?)</section>', html, re.S).group(1)
    assert "Nothing was registered: the best candidate repeats the champion" in registry
    assert f"Registry: {headline}." in registry
    with browser_page(tmp_path, width=1400, height=1000) as page:
        page.open((tmp_path / "unchanged" / "report.html").as_uri() + "#registry")
        assert page.wait_for("document.documentElement.dataset.figuresLoaded === '1/1'", timeout=60)
        page.screenshot(_screenshots(tmp_path) / "retrain-unchanged-registry.png")
    metrics = tracking_client(mlflow_server).get_run(again["parent_run_id"]).data.metrics
    assert metrics["best/margin"] == pytest.approx(0.0, abs=1e-12) and metrics["registry/promoted"] == 0.0


def test_a_retrain_against_a_champion_draws_it_and_states_the_margin(retrains, mlflow_server, tmp_path):
    first, _, other = retrains
    best, savings = other["best"], other["candidates"][other["best"]]
    champion = f"v{first['version']} {first['best']}"
    champion_savings = first["candidates"][first["best"]]
    margin = savings - champion_savings
    if other["outcome"] == "champion":
        expected = f"new champion: v{other['version']} {best} {savings:.3f} ({margin:+.3f} over {champion} "
    else:
        expected = (
            f"champion kept: {champion} {champion_savings:.3f}; best new {best} {savings:.3f} ({margin:+.3f})"
        )
    assert other["verdict"].startswith(expected)
    out = tmp_path / "against"
    html = _report_of(other, mlflow_server, out)
    assert re.search(r'<p class="headline" id="headline">(.*?)</p>', html).group(1) == other["verdict"]
    assert f"the dashed line is the champion {champion} re-scored on the same holdout" in html
    run = tracking_client(mlflow_server).get_run(other["parent_run_id"])
    assert run.data.metrics["champion/savings"] == pytest.approx(champion_savings)
    assert run.data.metrics["best/margin"] == pytest.approx(margin)
    assert run.data.tags["cslearn.registry.champion"] == champion
    target = _file_screenshot(
        tmp_path, out / "report.html", _screenshots(tmp_path) / "retrain-report-top.png", (1400, 1300)
    )
    assert target.is_file()
