"""``cslearn report RUN --out DIR`` writes where it was pointed, never through a link, and refuses bad options
before any work (issue 25, part 3).

The run is a small retrain parent run (one candidate child run with its holdout metrics) in a real sqlite
MLflow store of the test's own; the command runs in process (``flows.cli.main``), as a user runs it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from flows.cli import main
from tasks.tracking.mlflow_runs import ensure_experiment, tracking_client


@pytest.fixture(scope="module")
def retrain_run(tmp_path_factory) -> tuple[str, str]:
    """(tracking URI, run id) of a finished retrain run with one candidate, in a sqlite store."""
    root = tmp_path_factory.mktemp("store")
    uri = f"sqlite:///{root / 'mlflow.db'}"
    client = tracking_client(uri)
    artifacts = (root / "artifacts").as_uri()
    experiment_id = ensure_experiment(client, "report-output", artifact_location=artifacts)
    tags = {"cslearn.purpose": "retrain", "cslearn.dataset": "card-fraud"}
    parent = client.create_run(experiment_id, run_name="retrain card-fraud", tags=tags).info.run_id
    child = client.create_run(
        experiment_id, run_name="bmr-lr", tags={"mlflow.parentRunId": parent, "cslearn.method": "bmr-lr"}
    ).info.run_id
    for name, value in {"savings": 0.41, "cost": 120.0, "f1": 0.3}.items():
        client.log_metric(child, name, value)
    client.set_terminated(child)
    client.set_terminated(parent)
    return uri, parent


def _report(retrain_run, *options: str) -> int:
    uri, run_id = retrain_run
    return main(["report", run_id, "--tracking-uri", uri, *options])


def test_links_in_the_folder_are_replaced_and_their_targets_left_untouched(retrain_run, tmp_path, capsys):
    victim, other = tmp_path / "victim.txt", tmp_path / "other.png"
    victim.write_text("keep me")
    other.write_text("keep me too")
    out = tmp_path / "out"
    (out / "figures").mkdir(parents=True)
    (out / "report.html").symlink_to(victim)
    (out / "figures" / "candidates.png").symlink_to(other)

    assert _report(retrain_run, "--out", str(out)) == 0

    assert capsys.readouterr().out.strip() == str(out / "report.html")
    assert victim.read_text() == "keep me" and other.read_text() == "keep me too"
    for written in (out / "report.html", out / "figures" / "candidates.png"):
        assert written.is_file() and not written.is_symlink()
    assert (out / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert (out / "figures" / "candidates.png").read_bytes().startswith(b"\x89PNG")
    mask = os.umask(0)
    os.umask(mask)
    assert (out / "report.html").stat().st_mode & 0o777 == 0o666 & ~mask  # as any new file, not private
    assert not [path.name for path in out.rglob("*.tmp")]


def test_a_folder_that_links_out_of_where_it_was_named_is_refused_before_any_work(
    retrain_run, tmp_path, capsys
):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "reports").mkdir()
    link = tmp_path / "reports" / "latest"
    link.symlink_to(elsewhere, target_is_directory=True)

    assert _report(retrain_run, "--out", str(link)) == 2

    assert capsys.readouterr().err == (
        f"cslearn report: --out: {link} is a symbolic link to {elsewhere}, outside {tmp_path / 'reports'}:"
        f" the report would be written somewhere else than where you pointed; name {elsewhere} itself if the"
        " report belongs there\n"
    )
    assert list(elsewhere.iterdir()) == []
    inside = tmp_path / "reports" / "run-1"  # a link to a folder beside it stays where the user pointed
    inside.mkdir()
    link.unlink()
    link.symlink_to(inside, target_is_directory=True)
    assert _report(retrain_run, "--out", str(link)) == 0
    assert (inside / "report.html").is_file()


def test_a_figures_folder_that_leads_elsewhere_is_refused(retrain_run, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "figures").symlink_to(elsewhere, target_is_directory=True)

    assert _report(retrain_run, "--out", str(out)) == 2

    assert f"{out / 'figures'} is a symbolic link to {elsewhere}, outside {out}" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == [] and not (out / "report.html").exists()


@pytest.mark.parametrize("named", ["a-file", "a-file/sub"])
def test_an_out_path_that_is_a_file_gets_one_line_and_exit_status_2(retrain_run, tmp_path, capsys, named):
    (tmp_path / "a-file").write_text("not a folder")
    out = tmp_path / named

    assert _report(retrain_run, "--out", str(out)) == 2

    assert capsys.readouterr().err == (
        f"cslearn report: --out: {tmp_path / 'a-file'} is a file, not a folder: the report is written as"
        " FOLDER/report.html with its figures in FOLDER/figures; name a folder (it is created if it does not"
        " exist)\n"
    )
    assert (tmp_path / "a-file").read_text() == "not a folder"


@pytest.mark.parametrize("alpha", ["5", "-1", "nan", "0", "1", "inf"])
def test_alpha_outside_zero_and_one_is_a_usage_error(retrain_run, tmp_path, capsys, alpha):
    with pytest.raises(SystemExit) as exited:
        _report(retrain_run, "--alpha", alpha, "--out", str(tmp_path / "out"))

    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "cslearn report: error: argument --alpha: alpha is a significance level, a number strictly between 0"
        f" and 1 such as 0.05 or 0.01; got {float(alpha):g}"
    )
    assert not Path(tmp_path / "out").exists()


def test_alpha_that_is_not_a_number_is_named(retrain_run, capsys):
    with pytest.raises(SystemExit) as exited:
        _report(retrain_run, "--alpha", "five")
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "cslearn report: error: argument --alpha: alpha must be a number such as 0.05; got 'five'"
    )
