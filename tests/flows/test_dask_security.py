"""Dask without TLS only on loopback (else a warning), TLS files checked, a real TLS cluster end to end."""

from __future__ import annotations

import json
import warnings

import pytest
from distributed import LocalCluster
from distributed.security import Security

from flows.cli import main
from flows.dask_security import (
    DaskSecurityError,
    InsecureDaskWarning,
    check_dask_address,
    is_loopback,
    tls_config,
    warn_if_insecure,
)
from flows.runners import build_task_runner
from tasks.storage import state_home


@pytest.fixture
def pem_files(tmp_path):
    """A CA certificate, a certificate and its key (one temporary authority), as PEM files."""
    security = Security.temporary()
    files = {}
    for name, content in (
        ("ca", security.tls_ca_file),
        ("cert", security.tls_client_cert),
        ("key", security.tls_client_key),
    ):
        files[name] = tmp_path / f"{name}.pem"
        files[name].write_text(content)
    return security, files


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("tcp://127.0.0.1:8786", True),
        ("tcp://127.5.0.2:8786", True),
        ("tcp://localhost:8786", True),
        ("tcp://[::1]:8786", True),
        ("tcp://10.0.0.5:8786", False),
        ("tcp://0.0.0.0:8786", False),
        ("tcp://scheduler.example.org:8786", False),
    ],
)
def test_loopback_addresses(address, loopback):
    assert is_loopback(address) is loopback
    warning = check_dask_address(address, {})
    if loopback:
        assert warning is None
    else:
        assert "without TLS" in warning and "unpickles the results" in warning and "tls://" in warning


def test_tls_settings_are_all_or_nothing_and_match_the_scheme(pem_files, tmp_path):
    _, files = pem_files
    assert tls_config(None, None, None) == {}
    with pytest.raises(DaskSecurityError, match="--dask-tls-key missing"):
        tls_config(str(files["ca"]), str(files["cert"]), None)
    with pytest.raises(DaskSecurityError, match=r"--dask-tls-cert: .*nope.pem is not a readable file"):
        tls_config(str(files["ca"]), str(tmp_path / "nope.pem"), str(files["key"]))
    config = tls_config(str(files["ca"]), str(files["cert"]), str(files["key"]))
    assert config["distributed.comm.tls.ca-file"] == str(files["ca"])
    assert config["distributed.comm.require-encryption"] is True
    assert check_dask_address("tls://10.0.0.5:8786", config) is None
    with pytest.raises(DaskSecurityError, match="no certificates were given"):
        check_dask_address("tls://10.0.0.5:8786", {})
    with pytest.raises(DaskSecurityError, match="not a tls:// address"):
        check_dask_address("tcp://10.0.0.5:8786", config)


def test_the_runner_warns_about_a_remote_address_without_tls():
    with pytest.warns(InsecureDaskWarning, match="unpickles the results"):
        build_task_runner("tcp://10.0.0.5:8786")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_if_insecure("tcp://127.0.0.1:8786")
    with pytest.raises(DaskSecurityError):
        build_task_runner("tls://10.0.0.5:8786")


def test_cli_refuses_tls_without_certificates(pem_files, capsys, tmp_path):
    _, files = pem_files
    tls = ["--dask-tls-ca-file", str(files["ca"]), "--dask-tls-cert", str(files["cert"])]
    tls += ["--dask-tls-key", str(files["key"])]
    for arguments, message in (
        (["--dask-address", "tls://127.0.0.1:8786"], "asks for TLS but no certificates were given"),
        (["--dask-address", "tcp://127.0.0.1:8786", *tls], "not a tls:// address"),
        (tls, "need --dask-address tls://"),
        (tls[:2], "--dask-tls-cert, --dask-tls-key missing"),
    ):
        cells = str(state_home() / "test-cells" / tmp_path.name)
        status = main(["compare", *arguments, "--cell-store", cells])
        assert status == 2
        assert message in capsys.readouterr().err
    assert not (state_home() / "test-cells" / tmp_path.name).exists()


@pytest.mark.servers
def test_compare_on_a_tls_cluster(pem_files, prefect_server, mlflow_server, tmp_path, capsys):
    security, files = pem_files
    with LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tls",
        host="127.0.0.1",
        dashboard_address=None,
        security=security,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://127.0.0.1:")
        arguments = [
            "compare", "--datasets", "wisconsin", "--methods", "dt", "--folds", "2", "--repeats", "1",
            "--tracking-uri", mlflow_server, "--experiment", f"tls-{tmp_path.name}",
            "--cell-store", str(state_home() / "test-cells" / tmp_path.name),
            "--dask-address", address, "--json",
        ]  # fmt: skip
        assert main(arguments) == 2  # no certificates: refused before any work
        assert "no certificates were given" in capsys.readouterr().err
        tls = ["--dask-tls-ca-file", str(files["ca"]), "--dask-tls-cert", str(files["cert"])]
        status = main([*arguments, *tls, "--dask-tls-key", str(files["key"])])
        executed = sum(worker.state.executed_count for worker in cluster.workers.values())
    captured = capsys.readouterr()
    assert status == 0, captured.err[-3000:]
    assert json.loads(captured.out)["cells"] == {"total": 2, "resumed": 0, "computed": 2, "failed": 0}
    assert executed >= 2  # the cells ran on the TLS cluster's worker
