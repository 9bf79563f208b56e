"""Two retrains promoting one registered model at once, in two real processes, never lose the better model.

Each racer is a real process (:mod:`tests.tasks.model_registry.promotion_racer`) that calls
``register_and_promote`` with a candidate already fitted and logged in the store: cgada (holdout savings
0.28) or bmr-lr (0.42), over a champion v1 adacc1 (0.03), on the 1,000-row synthetic table. At a promotion
confidence of 80 % cgada beats adacc1 and bmr-lr beats cgada, so the better model is bmr-lr whatever the
order.

How the race is aligned: MLflow's ``get_model_version_by_alias`` is wrapped in each racer so that, right
after its first read of the ``champion`` alias, the process creates ``<name>.arrived`` in a barrier folder
and waits for the test's ``<name>.go``. The test starts both racers, waits until both have everything
imported (``<name>.ready``) and one has read the champion, then gives the other two seconds to read it too.
Before the fix both read champion v1 there, were released one after the other (bmr-lr first, then cgada)
and the alias ended on cgada, with bmr-lr's version holding none. Now, on a local store, the second process
waits for the model's lock before it reads the champion, so only one has arrived; it is released, finishes,
and the second then reads the new champion and compares against it. On a tracking server both still read
v1 at once (no lock spans machines) and the alias is reconciled: released in turn, the second sees the new
champion when it reads the alias again before setting it; released together, each reads it again after a
pause and the one registered later must beat the earlier to keep it.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from mlflow import MlflowClient

import tasks.model_registry.promotion
from tasks.model_registry import CHALLENGER, CHAMPION, fit_and_log_candidate, register_and_promote
from tasks.tracking.mlflow_runs import ensure_experiment, start_run, tracking_client
from tests.tasks.model_registry.conftest import synthetic_retrain_data

ROWS = 1000
#: The confidence at which the three candidates form a chain (a user's ``--promotion-confidence 0.8``).
PROMOTION = {"confidence": 0.8}
WORST, MIDDLE, BEST = "adacc1", "cgada", "bmr-lr"
#: Seconds given to a second racer to read the champion once the first one is held at the barrier.
SECOND_READ_SECONDS = 2.0
#: Seconds a racer may take to start, import and promote on a loaded machine.
RACER_SECONDS = 240.0


def _log_candidates(tracking_uri: str, folder: Path) -> dict[str, Path]:
    """Fit and log the three candidates in the store; each pickled for the racers to load."""
    data = synthetic_retrain_data(rows=ROWS)
    client = tracking_client(tracking_uri)
    experiment_id = ensure_experiment(client, f"races-{uuid.uuid4().hex[:8]}")
    parent = start_run(client, experiment_id, run_name="races")
    paths = {}
    for method in (WORST, MIDDLE, BEST):
        result = fit_and_log_candidate(
            data, method, tracking_uri=tracking_uri, experiment_id=experiment_id, parent_run_id=parent
        )
        paths[method] = folder / f"{method}.pkl"
        paths[method].write_bytes(pickle.dumps(result))
    return paths


@pytest.fixture(scope="module")
def local_store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("local-races")
    uri = f"sqlite:///{folder / 'mlflow.db'}"
    return uri, _log_candidates(uri, folder)


@pytest.fixture(scope="module")
def server_store(mlflow_server, tmp_path_factory):
    return mlflow_server, _log_candidates(mlflow_server, tmp_path_factory.mktemp("server-races"))


@dataclass
class Race:
    """What the racers decided (racer -> ``RegistryDecision.as_dict()``) and who had read the champion while
    the first one to read it was held."""

    decisions: dict[str, dict]
    read_at_once: set[str]
    released_first: str


def _racer(spec: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.tasks.model_registry.promotion_racer", json.dumps(spec)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ,  # PYTHONPATH: the racers run this worktree's code
    )


def _wait_until(condition, processes: dict[str, subprocess.Popen], what: str) -> None:
    deadline = time.monotonic() + RACER_SECONDS
    while not condition():
        for name, process in processes.items():
            if process.poll() is not None and process.returncode != 0:
                pytest.fail(f"racer {name} ended with status {process.returncode}:\n{process.stderr.read()}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting until {what}")
        time.sleep(0.05)


def race(
    tracking_uri: str, model_name: str, candidates: dict[str, Path], folder: Path, *, together: bool
) -> Race:
    """Run one racer per candidate (racer name = method) on ``model_name`` and settle them at the barrier.

    When every racer has read the champion at once (no lock kept them apart), ``together`` releases them all
    at the same moment; otherwise they are released one at a time, in the order of ``candidates`` among
    those waiting, each run to its end before the next is released.
    """
    barrier = folder / f"barrier-{uuid.uuid4().hex[:8]}"
    barrier.mkdir()
    processes = {
        name: _racer(
            {
                "tracking_uri": tracking_uri,
                "model_name": model_name,
                "candidate": str(path),
                "rows": ROWS,
                "promotion": PROMOTION,
                "barrier": str(barrier),
                "name": name,
            }
        )
        for name, path in candidates.items()
    }

    def arrived(name: str) -> bool:
        return (barrier / f"{name}.arrived").exists()

    try:
        _wait_until(
            lambda: (
                all((barrier / f"{name}.ready").exists() for name in processes)
                and any(arrived(name) for name in processes)
            ),
            processes,
            "the racers are ready and one has read the champion",
        )
        time.sleep(SECOND_READ_SECONDS)
        read_at_once = {name for name in processes if arrived(name)}
        released_first = next(name for name in candidates if arrived(name))
        if together and read_at_once == set(processes):
            for name in processes:
                (barrier / f"{name}.go").touch()
        else:
            for _ in candidates:
                _wait_until(
                    lambda: any(arrived(name) and processes[name].poll() is None for name in processes),
                    processes,
                    "a racer has read the champion",
                )
                name = next(name for name in candidates if arrived(name) and processes[name].poll() is None)
                (barrier / f"{name}.go").touch()
                processes[name].wait(RACER_SECONDS)
        decisions = {}
        for name, process in processes.items():
            out, err = process.communicate(timeout=RACER_SECONDS)
            assert process.returncode == 0, f"racer {name} failed:\n{err}"
            decisions[name] = json.loads(out.splitlines()[-1])
        return Race(decisions, read_at_once, released_first)
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()


def _first_champion(tracking_uri: str, candidates: dict[str, Path]) -> str:
    """A new registered model whose champion v1 is the worst candidate."""
    name = f"race-{uuid.uuid4().hex[:8]}"
    worst = pickle.loads(candidates[WORST].read_bytes())
    data = synthetic_retrain_data(rows=ROWS)
    decision = register_and_promote(tracking_client(tracking_uri), name, worst, data, promotion=PROMOTION)
    assert (decision.version, decision.alias) == ("1", CHAMPION)
    return name


def _racers(candidates: dict[str, Path]) -> dict[str, Path]:
    """bmr-lr first: the release order that lost it before the fix (it set the alias, then cgada did)."""
    return {BEST: candidates[BEST], MIDDLE: candidates[MIDDLE]}


def _assert_the_better_model_is_champion(client: MlflowClient, model_name: str, result: Race) -> None:
    best, middle = result.decisions[BEST], result.decisions[MIDDLE]
    champion = client.get_model_version_by_alias(model_name, CHAMPION)
    assert (str(champion.version), champion.tags["cslearn.method"]) == (best["version"], BEST)
    assert best["alias"] == CHAMPION
    versions = client.search_model_versions(f"name='{model_name}'")
    assert {version.tags["cslearn.promotion"] for version in versions} <= {CHAMPION, CHALLENGER}
    assert len({best["version"], middle["version"]}) == 2


@pytest.mark.slow
def test_two_retrains_at_once_on_a_local_store_keep_the_better_model(local_store, tmp_path):
    assert Path(tasks.model_registry.promotion.__file__).is_relative_to(Path(__file__).resolve().parents[3])
    uri, candidates = local_store
    model_name = _first_champion(uri, candidates)
    result = race(uri, model_name, _racers(candidates), tmp_path, together=False)

    _assert_the_better_model_is_champion(MlflowClient(uri), model_name, result)
    first = result.released_first
    second = MIDDLE if first == BEST else BEST
    assert result.read_at_once == {first}  # the lock kept the second out while the first decided
    assert result.decisions[first]["previous_champion_version"] == "1"
    # the second compared against the champion the first left, not the v1 it would have read at once
    assert result.decisions[second]["previous_champion_version"] == result.decisions[first]["version"]
    if first == BEST:
        assert result.decisions[MIDDLE]["alias"] == CHALLENGER
        assert result.decisions[MIDDLE]["reason"].startswith(
            f"v{result.decisions[MIDDLE]['version']} (0.2823) does not beat champion"
            f" v{result.decisions[BEST]['version']} (0.4213) on the same holdout"
        )


@pytest.mark.slow
def test_two_first_retrains_of_a_new_model_on_a_local_store_both_register(local_store, tmp_path):
    """Before the fix one of them crashed (``Registered Model (name=...) already exists``) and its candidate
    was never registered."""
    uri, candidates = local_store
    model_name = f"race-new-{uuid.uuid4().hex[:8]}"
    result = race(uri, model_name, _racers(candidates), tmp_path, together=True)

    _assert_the_better_model_is_champion(MlflowClient(uri), model_name, result)
    assert len(MlflowClient(uri).search_registered_models(f"name='{model_name}'")) == 1
    assert result.decisions[result.released_first]["previous_champion_version"] is None


@pytest.mark.servers
@pytest.mark.slow
@pytest.mark.parametrize("together", [False, True], ids=["released in turn", "released together"])
def test_two_retrains_at_once_on_a_tracking_server_keep_the_better_model(server_store, tmp_path, together):
    uri, candidates = server_store
    model_name = _first_champion(uri, candidates)
    result = race(uri, model_name, _racers(candidates), tmp_path, together=together)

    assert result.read_at_once == {BEST, MIDDLE}  # no lock on a server: both read v1
    client = MlflowClient(uri)
    _assert_the_better_model_is_champion(client, model_name, result)
    best, middle = result.decisions[BEST], result.decisions[MIDDLE]
    assert (middle["alias"], middle["previous_champion_version"]) == (CHALLENGER, best["version"])
    # the champion bmr-lr replaced: v1, or cgada's version when cgada had set the alias first
    assert best["previous_champion_version"] in ("1", middle["version"])
    assert "by another retrain" in middle["reason"] and "running at the same time" in middle["reason"]
    if not together:  # it read the alias again before setting it, and found bmr-lr there
        assert f"; v{best['version']} became champion while this retrain was deciding" in middle["reason"]
    description = client.get_model_version(model_name, middle["version"]).description
    assert "registered as `challenger`" in description and "running at the same time" in description
    assert str(client.get_model_version_by_alias(model_name, CHALLENGER).version) == middle["version"]


@pytest.mark.servers
@pytest.mark.slow
def test_two_first_retrains_of_a_new_model_on_a_tracking_server_both_register(server_store, tmp_path):
    uri, candidates = server_store
    model_name = f"race-new-{uuid.uuid4().hex[:8]}"
    result = race(uri, model_name, _racers(candidates), tmp_path, together=True)

    client = MlflowClient(uri)
    _assert_the_better_model_is_champion(client, model_name, result)
    assert result.decisions[MIDDLE]["alias"] == CHALLENGER
    assert len(client.search_registered_models(f"name='{model_name}'")) == 1


def _stopped_before_its_alias(uri: str, model_name: str, candidate: Path, folder: Path, commit: str) -> int:
    """Run a racer that stops right before it sets its alias, and kill it there with SIGKILL; its pid."""
    barrier = folder / f"barrier-{uuid.uuid4().hex[:8]}"
    barrier.mkdir()
    spec = {
        "tracking_uri": uri,
        "model_name": model_name,
        "candidate": str(candidate),
        "rows": ROWS,
        "promotion": PROMOTION,
        "commit": commit,
        "barrier": str(barrier),
        "name": "doomed",
        "hold": "alias",
    }
    process = _racer(spec)
    try:
        reached = (barrier / "doomed.arrived").exists
        _wait_until(reached, {"doomed": process}, "it reached the alias")
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    return process.pid


@pytest.mark.slow
def test_a_version_left_pending_by_a_killed_retrain_is_finished_or_abandoned(local_store, tmp_path):
    """Issue 25: a process killed between creating a version and setting its alias left a description
    saying "registered as champion" with no alias, and the rerun registered an identical copy."""
    uri, candidates = local_store
    client = MlflowClient(uri)
    data = synthetic_retrain_data(rows=ROWS)
    model_name = _first_champion(uri, candidates)

    pid = _stopped_before_its_alias(uri, model_name, candidates[BEST], tmp_path, commit="c0ffee")
    left = client.get_model_version(model_name, "2")
    assert left.tags["cslearn.promotion"] == "pending" and left.aliases == []
    assert "registered as" not in left.description  # it never claims an alias it does not hold
    assert left.description.startswith(f"**{BEST}**: being registered by a retrain (process {pid} on")

    best = pickle.loads(candidates[BEST].read_bytes())
    rerun = register_and_promote(client, model_name, best, data, commit="c0ffee", promotion=PROMOTION)
    assert (rerun.version, rerun.alias, rerun.previous_champion_version) == ("2", CHAMPION, "1")
    assert len(client.search_model_versions(f"name='{model_name}'")) == 2  # no copy registered
    finished = client.get_model_version(model_name, "2")
    assert finished.tags["cslearn.promotion"] == CHAMPION
    assert "registered as `champion`" in finished.description

    pid = _stopped_before_its_alias(uri, model_name, candidates[MIDDLE], tmp_path, commit="c0ffee")
    other = register_and_promote(client, model_name, best, data, commit="decade", promotion=PROMOTION)
    abandoned = client.get_model_version(model_name, "3")
    assert abandoned.tags["cslearn.promotion"] == "abandoned" and abandoned.aliases == []
    assert abandoned.description.startswith(
        f"**{MIDDLE}**: **abandoned**. The retrain that registered v3 (process {pid} on"
    )
    assert "ended before choosing its alias, so it was never compared with the" in abandoned.description
    assert (other.version, other.alias) == ("4", CHALLENGER)  # a tie with the champion keeps it
