"""The project's layout as the tools read it: every module named in configuration exists, no two modules share
a basename, and every room of ``tasks/`` has its place in the import layers."""

from __future__ import annotations

import importlib.util
import tomllib
from collections import defaultdict
from pathlib import Path

import yaml

PROJECT = Path(__file__).resolve().parents[1]
SOURCE_PACKAGES = ("algorithms", "schemas", "tasks", "flows", "benchmarks", "scripts")


def _pyproject() -> dict:
    return tomllib.loads((PROJECT / "pyproject.toml").read_text())


def _modules_named_in_pyproject() -> set[str]:
    config = _pyproject()
    named = {target.split(":")[0] for target in config["project"]["scripts"].values()}
    named |= set(config["tool"]["setuptools"]["package-data"])
    for contract in config["tool"]["importlinter"]["contracts"]:
        named |= set(contract.get("source_modules", ())) | set(contract.get("modules", ()))
        named |= {
            module for module in contract.get("forbidden_modules", ()) if module.split(".")[0] == "tasks"
        }
        for container in contract.get("containers", ()):
            for layer in contract["layers"]:
                named |= {f"{container}.{part.strip()}" for part in layer.split("|")}
    return named


def test_every_module_that_configuration_names_exists():
    missing = sorted(name for name in _modules_named_in_pyproject() if importlib.util.find_spec(name) is None)
    assert not missing, f"pyproject.toml names modules that do not exist: {missing}"


def test_every_deployment_entrypoint_is_a_flow_that_exists():
    deployments = yaml.safe_load((PROJECT / "prefect.yaml").read_text())["deployments"]
    for deployment in deployments:
        path, function = deployment["entrypoint"].split(":")
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert callable(getattr(module, function, None)), deployment["entrypoint"]


def test_no_two_modules_share_a_basename():
    """``flows/cli/<command>.py`` may share the name of the flow it runs (``flows/<command>.py``)."""
    by_name = defaultdict(list)
    for package in SOURCE_PACKAGES:
        for path in (PROJECT / package).rglob("*.py"):
            if path.name not in ("__init__.py", "__main__.py"):
                by_name[path.name].append(path.relative_to(PROJECT).as_posix())
    shared = {}
    for name, paths in by_name.items():
        flows = {path for path in paths if path in (f"flows/{name}", f"flows/cli/{name}")}
        if len(paths) > 1 and not (len(paths) == 2 and len(flows) == 2):
            shared[name] = paths
    assert not shared, f"modules sharing a basename: {shared}"


def test_every_room_of_tasks_has_its_layer_and_a_contract_of_its_own():
    rooms = {path.parent.name for path in (PROJECT / "tasks").glob("*/__init__.py")}
    rooms |= {path.stem for path in (PROJECT / "tasks").glob("*.py") if path.stem != "__init__"}
    contracts = _pyproject()["tool"]["importlinter"]["contracts"]
    [layers] = [contract["layers"] for contract in contracts if contract.get("containers") == ["tasks"]]
    layered = {part.strip() for layer in layers for part in layer.split("|")}
    assert layered == rooms
    own = {
        module.split(".")[1]
        for contract in contracts
        for module in (*contract.get("source_modules", ()), *contract.get("modules", ()))
        if module.startswith("tasks.")
    }
    assert rooms - {"storage"} <= own, f"rooms without a contract of their own: {sorted(rooms - own)}"
