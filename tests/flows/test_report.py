"""``cslearn report`` on real compare and retrain runs (real Prefect and MLflow servers), read in headless
Chromium.

The compare run is small but real: three offline datasets (one with example-dependent costs), four methods,
2 folds, T in {3, 6}. Its report is opened in Debian's chromium as a person would open the file: every figure
must decode (the page's own check sets ``data-figures-loaded="N/N"`` on ``<html>``), the leaderboard must be
there, and a screenshot is kept (in ``$CSLEARN_SCREENSHOT_DIR`` when set, else in the test's tmp folder).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
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
from tasks.report.publish import DESCRIPTION_LIMIT
from tasks.storage import state_home
from tasks.tracking.mlflow_runs import tracking_client

pytestmark = pytest.mark.servers

DATASETS = ["wisconsin", "pima", "direct-marketing"]
METHODS = ["adaboost", "adacc1", "dt", "bmr-lr"]

#: Headless, offline, quiet: no GPU, no QUIC, no first-run, no background or component-update traffic.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


def _chromium(tmp_path: Path, *arguments: str) -> str:
    """Run chromium with a fresh profile in its own process group; returns stdout (killed after 120 s)."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.fail(
            "chromium is not installed: `make test` installs Debian's package (apt-get install -y chromium)"
        )
    profile = tmp_path / f"chromium-profile-{uuid.uuid4().hex[:8]}"
    process = subprocess.Popen(
        [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        shutil.rmtree(profile, ignore_errors=True)
    return output


def _dom(tmp_path: Path, html: Path) -> str:
    return _chromium(tmp_path, "--virtual-time-budget=15000", "--dump-dom", html.as_uri())


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


def test_the_report_of_a_real_run_renders_in_a_browser(built_report, tmp_path):
    figures = sorted(path.stem for path in (built_report.parent / "figures").iterdir())
    assert {"critical_difference", "cost_recall_direct-marketing", "roc_pr_pima", "in_training_rates"} <= set(
        figures
    )
    dom = _dom(tmp_path, built_report)
    assert _figures_loaded(dom) == f"{len(figures)}/{len(figures)}"
    assert re.search(r'<div id="broken-figures" hidden=""></div>', dom)
    leaderboard = re.search(r'id="leaderboard">(.*?)</table>', dom, re.S).group(1)
    assert all(f">{method}</td>" in leaderboard for method in METHODS)

    screenshots = Path(os.environ.get("CSLEARN_SCREENSHOT_DIR") or tmp_path)
    screenshots.mkdir(parents=True, exist_ok=True)
    for name, size in (("report-top.png", (1400, 1100)), ("report-full.png", (1400, 9000))):
        target = screenshots / name
        _chromium(
            tmp_path, f"--window-size={size[0]},{size[1]}", f"--screenshot={target}", built_report.as_uri()
        )
        pixels = matplotlib.image.imread(target)
        assert pixels.shape[:2] == (size[1], size[0])
        assert len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)) > 200  # a page, not a blank
    print(f"screenshots: {screenshots}")


def test_a_broken_figure_is_detected_and_shown(built_report, tmp_path):
    html = built_report.read_text(encoding="utf-8")
    broken = tmp_path / "broken.html"
    broken.write_text(
        html.replace("data:image/png;base64,iVBOR", "data:image/png;base64,AAAA", 1), encoding="utf-8"
    )
    total = html.count("<img ")
    dom = _dom(tmp_path, broken)
    assert _figures_loaded(dom) == f"{total - 1}/{total}"
    assert '<div id="broken-figures">1 figure(s) failed to load: Critical-difference diagram</div>' in dom


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
    assert lines[2].startswith("| # | method | mean rank | wins | OPM |")
    assert {line.split(" | ")[1] for line in lines[4:8]} == set(METHODS)
    assert any(line.startswith("Friedman test over 3 datasets and 4 methods") for line in lines)
    metrics = run.data.metrics
    assert {"cells/total", "cells/ok", "cells/failed", "cells/resumed", "cells/computed"} <= set(metrics)
    assert "friedman/p_value" in metrics and not any("_" in name.split("/")[0] for name in metrics)

    # The flow run's Prefect page: the leaderboard, links to the MLflow run and the report, the progress.
    artifacts = _flow_run_artifacts(run.data.tags["prefect.parent_flow_run_id"])
    assert {"compare-leaderboard", "compare-mlflow-run", "compare-report", "progress"} <= set(artifacts)
    assert artifacts["compare-leaderboard"].data == description
    assert f"#/experiments/{run.info.experiment_id}/runs/{run_id}" in artifacts["compare-mlflow-run"].data
    assert f"get-artifact?path=report%2Freport.html&run_uuid={run_id}" in artifacts["compare-report"].data
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
        assert width < 230 * panels and height < 260, (key, width, height)  # low resolution: cheap to log


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


def test_the_report_of_a_retrain_lists_candidates_and_the_registry(prefect_server, mlflow_server, tmp_path):
    outcome = run_retrain(
        {
            "dataset": "direct-marketing",
            "candidates": ["dt", "bmr-lr"],
            "max_rows": 2500,
            "holdout_fraction": 0.4,
            "seed": 7,
            "tracking_uri": mlflow_server,
            "experiment": f"report-retrain-{uuid.uuid4().hex[:8]}",
            "model_name": f"report-{uuid.uuid4().hex[:8]}",
        }
    )
    out = tmp_path / "retrain"
    assert main(["report", outcome["parent_run_id"], "--tracking-uri", mlflow_server, "--out", str(out)]) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    candidates = re.search(r'id="leaderboard">(.*?)</table>', html, re.S).group(1)
    rows = re.findall(r"<tr>\s*<td[^>]*>([\w-]+)</td>", candidates)
    assert rows == sorted(outcome["candidates"], key=lambda method: -outcome["candidates"][method])
    assert f"v{outcome['version']} (champion)" in candidates
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
    assert description.startswith(
        "### retrain direct-marketing x 2 candidates\n\n| # | candidate | savings |"
    )
    assert f"Registry: {outcome['reason']}" in description
    artifacts = _flow_run_artifacts(run.data.tags["prefect.flow_run_id"])
    assert {"retrain-leaderboard", "retrain-mlflow-run", "retrain-report", "progress"} <= set(artifacts)
