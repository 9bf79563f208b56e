"""Scale-out of compare: cells on a loopback Dask cluster through prefect-dask's DaskTaskRunner."""

from __future__ import annotations

import pytest
from distributed import LocalCluster
from distributed.diagnostics.plugin import SchedulerPlugin

from flows.compare import run_compare
from flows.runners import FitProcessTaskRunner, build_task_runner
from tasks.storage import state_home

pytestmark = pytest.mark.servers


class FinishedTasks(SchedulerPlugin):
    """Records the keys of the tasks the scheduler saw finish."""

    def __init__(self):
        self.keys = []

    def transition(self, key, start, finish, *args, **kwargs):
        if finish == "memory":
            self.keys.append(str(key))


def _params(mlflow_server, tmp_path, name, **changes):
    return {
        "datasets": ["wisconsin"],
        "methods": ["adaboost", "dt"],
        "repeats": 1,
        "folds": 2,
        "n_estimators": [3, 6],
        "tracking_uri": mlflow_server,
        "experiment": f"dask-{tmp_path.name}",
        "cell_store": str(state_home() / "test-cells" / tmp_path.name / name),
        **changes,
    }


def test_runner_choice():
    from prefect.task_runners import ThreadPoolTaskRunner
    from prefect_dask import DaskTaskRunner

    local = build_task_runner(None, 3)
    assert isinstance(local, FitProcessTaskRunner) and local == FitProcessTaskRunner(max_workers=3)
    assert type(build_task_runner(None, 3, processes=False)) is ThreadPoolTaskRunner
    runner = build_task_runner("tcp://127.0.0.1:8786")
    assert isinstance(runner, DaskTaskRunner) and runner.address == "tcp://127.0.0.1:8786"


def test_cells_run_on_a_dask_cluster_with_the_same_results(prefect_server, mlflow_server, tmp_path):
    with LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        finished = FinishedTasks()
        cluster.scheduler.add_plugin(finished)
        on_dask = run_compare(
            _params(mlflow_server, tmp_path, "dask", dask_address=cluster.scheduler_address)
        )
    cell_tasks = [key for key in finished.keys if "run_cell" in key]
    assert len(cell_tasks) == 4, finished.keys
    assert on_dask["cells"] == {"total": 4, "resumed": 0, "computed": 4, "failed": 0}

    on_threads = run_compare(_params(mlflow_server, tmp_path, "threads"))
    assert on_dask["summary"] == on_threads["summary"]  # same seeds, same splits, same numbers
