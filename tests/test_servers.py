"""The server fixtures start real, healthy servers on 127.0.0.1, and stopping one ends its process group."""

from __future__ import annotations

import os
import socket

import httpx
import pytest

from tests.servers import ServerStartError, launch_mlflow_server

pytestmark = pytest.mark.servers


def test_prefect_server_runs_a_flow_and_records_it(prefect_server):
    from prefect import flow, get_client
    from prefect.client.orchestration import SyncPrefectClient

    assert prefect_server.startswith("http://127.0.0.1:")
    assert os.environ["PREFECT_API_URL"] == prefect_server

    @flow(name="fixture-smoke")
    def add(a: int, b: int) -> int:
        return a + b

    state = add(2, 3, return_state=True)
    assert state.is_completed() and state.result() == 5

    client: SyncPrefectClient = get_client(sync_client=True)
    assert str(client.api_url).rstrip("/") == prefect_server
    # Other tests share the session's server: find this run among its records, by id, with its state.
    recorded = client.read_flow_run(state.state_details.flow_run_id)
    assert client.read_flow(recorded.flow_id).name == "fixture-smoke"
    assert recorded.state.is_completed()
    assert recorded.id in {run.id for run in client.read_flow_runs()}


def test_mlflow_server_stores_runs_through_rest(mlflow_server):
    from mlflow import MlflowClient

    assert mlflow_server.startswith("http://127.0.0.1:")
    client = MlflowClient(tracking_uri=mlflow_server)
    experiment_id = client.create_experiment("fixture-smoke")
    run = client.create_run(experiment_id)
    client.log_metric(run.info.run_id, "savings", 0.25)
    client.set_terminated(run.info.run_id)

    response = httpx.post(
        f"{mlflow_server}/api/2.0/mlflow/runs/search", json={"experiment_ids": [experiment_id]}
    )
    response.raise_for_status()
    (found,) = response.json()["runs"]
    assert found["info"]["run_id"] == run.info.run_id
    assert found["data"]["metrics"] == [
        {"key": "savings", "value": 0.25, "timestamp": found["data"]["metrics"][0]["timestamp"], "step": 0}
    ]


def test_a_server_that_cannot_bind_fails_with_its_log_and_leaves_no_process(tmp_path):
    with socket.socket() as occupied:
        occupied.bind(("127.0.0.1", 0))
        occupied.listen()
        server = launch_mlflow_server(tmp_path, port=occupied.getsockname()[1])
        with pytest.raises(ServerStartError, match="mlflow server exited") as error:
            server.wait_until_healthy(timeout=180)
    assert str(server.log_path) in str(error.value)
    assert "already in use" in server.log_tail(200).lower()
    assert server.process.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.killpg(server.process.pid, 0)  # no member of the server's process group is left
