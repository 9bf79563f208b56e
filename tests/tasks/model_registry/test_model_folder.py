"""A logged model folder is read without following it anywhere and without running what it names (issue 25,
part 3): every file stays inside the folder, a damaged estimator file is named in the user's terms, a folder
that asks for another loader or bundled code is refused for serving, an empty batch is an empty table, and a
refused request is MLflow's INVALID_PARAMETER_VALUE carrying cslearn's message.

The folder is a real logged model (``log_model`` into a sqlite MLflow store of the test's own: bmr-lr and the
card-fraud cost model on the synthetic data of ``conftest.py``), copied and then edited as someone who can
write to the artifact store would edit it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from mlflow.exceptions import MlflowException

from algorithms import METHODS
from algorithms.metrics import COST_COLUMNS
from tasks.model_registry import log_model
from tasks.model_registry.model_folder import ModelFolderError
from tasks.model_registry.model_server import served_pyfunc
from tasks.model_registry.serialization import DamagedModelError
from tasks.model_registry.serving import ServedModel, load_model_folder
from tasks.tracking.mlflow_runs import ensure_experiment, tracking_client

PROJECT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def logged_folder(retrain_data, tmp_path_factory) -> Path:
    """The artifact folder of a bmr-lr model logged with its cost model, as the artifact store holds it."""
    root = tmp_path_factory.mktemp("store")
    client = tracking_client(f"sqlite:///{root / 'mlflow.db'}")
    artifacts = (root / "artifacts").as_uri()
    experiment_id = ensure_experiment(client, "model-folder", artifact_location=artifacts)
    run_id = client.create_run(experiment_id).info.run_id
    data = retrain_data
    model = METHODS["bmr-lr"](random_state=0).fit(
        data.train_features, data.train_target, cost_matrix=data.train_costs
    )
    model_id = log_model(
        client,
        experiment_id,
        run_id,
        model,
        data.holdout_features.head(5),
        name="synthetic-bmr-lr",
        cost_model=data.fitted_cost_model,
    )
    location = client.get_logged_model(model_id).artifact_location
    return Path(location.removeprefix("file://"))


@pytest.fixture
def folder(logged_folder, tmp_path) -> Path:
    """A copy of the logged folder that a test may edit."""
    return Path(shutil.copytree(logged_folder, tmp_path / "model"))


def _edit_mlmodel(folder: Path, edit) -> None:
    mlmodel = yaml.safe_load((folder / "MLmodel").read_text())
    edit(mlmodel["flavors"])
    (folder / "MLmodel").write_text(yaml.safe_dump(mlmodel))


def _plant_loader(folder: Path, marker: Path) -> None:
    """A loader module in the folder's ``code/``, named by MLmodel, that leaves ``marker`` when imported."""
    (folder / "code").mkdir()
    (folder / "code" / "planted_loader.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n"
        "from tasks.model_registry.serving import _load_pyfunc\n"  # it would even serve, to go unnoticed
    )

    def plant(flavors):
        flavors["python_function"]["loader_module"] = "planted_loader"
        flavors["python_function"]["code"] = "code"

    _edit_mlmodel(folder, plant)


def test_the_logged_folder_loads_and_serves(folder, retrain_data):
    rows = retrain_data.holdout_features.head(4)
    served = served_pyfunc(folder).predict(rows)
    np.testing.assert_array_equal(served.to_numpy(), load_model_folder(folder).predict(rows).to_numpy())


@pytest.mark.parametrize("named", ["../outside.skops", "/tmp/outside.skops", "link.skops"])
def test_an_estimator_file_outside_the_folder_is_refused(folder, tmp_path, named):
    outside = tmp_path / "outside.skops"
    shutil.move(folder / "model.skops", outside)
    (folder / "link.skops").symlink_to(outside)
    if named.startswith("/"):
        named = str(outside)

    def point_outside(flavors):
        flavors["sklearn"]["pickled_model"] = named

    _edit_mlmodel(folder, point_outside)

    with pytest.raises(ModelFolderError) as refused:
        load_model_folder(folder)
    assert str(refused.value) == (
        f"the model's estimator file {named!r} resolves to {outside}, outside the model folder {folder}: a"
        " model's files must be inside its folder, so it was not loaded"
    )


def test_a_cost_model_that_links_out_of_the_folder_is_refused(folder, tmp_path):
    outside = tmp_path / "cost_model.json"
    shutil.move(folder / "cost_model.json", outside)
    (folder / "cost_model.json").symlink_to(outside)
    with pytest.raises(
        ModelFolderError, match=r"the model's cost model 'cost_model.json' resolves to .*, outside"
    ):
        load_model_folder(folder)


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda path: path.write_bytes(path.read_bytes()[:1000]), "(BadZipFile: File is not a zip file)"),
        (lambda path: path.write_bytes(b""), "(BadZipFile: File is not a zip file)"),
    ],
    ids=["truncated", "empty"],
)
def test_a_damaged_estimator_file_is_named_in_the_users_terms(folder, damage, reason):
    damage(folder / "model.skops")
    with pytest.raises(DamagedModelError) as damaged:
        load_model_folder(folder)
    assert str(damaged.value) == (
        f"the model's estimator file model.skops is damaged: it is not a complete skops archive {reason}, so"
        " the model cannot be loaded; serve or load another version, or retrain to log a new one"
    )


def test_a_missing_estimator_file_is_named(folder):
    (folder / "model.skops").unlink()
    with pytest.raises(DamagedModelError, match=r"estimator file model.skops is missing from its folder"):
        load_model_folder(folder)


def test_a_planted_loader_runs_under_mlflow_but_never_when_cslearn_serves(folder, tmp_path):
    marker = tmp_path / "planted-code-ran"
    _plant_loader(folder, marker)

    with pytest.raises(ModelFolderError) as refused:
        served_pyfunc(folder)
    assert str(refused.value) == (
        "the model's MLmodel asks for the loader 'planted_loader' and bundled code (python_function.code),"
        " not cslearn's loader tasks.model_registry.serving: it was not logged by cslearn's retrain, or it"
        " was edited in the artifact store. cslearn serves only the models it logs and never runs code a"
        " model folder names; retrain to log a new version"
    )
    assert not marker.exists() and "planted_loader" not in sys.modules
    load_model_folder(folder)  # cslearn's in-process loader ignores the pyfunc flavor: nothing runs either
    assert not marker.exists()

    # The plant is real: MLflow's pyfunc loader, which `mlflow models serve` uses, runs it (own process).
    subprocess.run(
        [sys.executable, "-c", f"import mlflow.pyfunc; mlflow.pyfunc.load_model({str(folder)!r})"],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert marker.read_text() == "ran"


def test_cslearns_own_loader_with_bundled_code_is_refused_for_serving(folder):
    def bundle(flavors):
        flavors["sklearn"]["code"] = "code"

    _edit_mlmodel(folder, bundle)
    with pytest.raises(
        ModelFolderError, match=r"asks for bundled code \(sklearn.code\), not cslearn's loader"
    ):
        served_pyfunc(folder)


def test_an_empty_batch_is_an_empty_table(folder, retrain_data):
    empty = retrain_data.holdout_features.head(0)
    for model in (load_model_folder(folder), served_pyfunc(folder)):
        decided = model.predict(empty)
        assert decided.empty and list(decided.columns) == [
            "decision",
            "probability",
            "expected_cost",
            *COST_COLUMNS,
        ]


def test_a_refused_request_is_invalid_parameter_value_with_cslearns_message(folder, retrain_data):
    rows = retrain_data.holdout_features.head(3).assign(Amount=-5.0)
    with pytest.raises(ValueError, match="'Amount'") as in_process:
        load_model_folder(folder).predict(rows)
    with pytest.raises(MlflowException) as served:
        ServedModel(load_model_folder(folder)).predict(rows)
    assert served.value.error_code == "INVALID_PARAMETER_VALUE"
    assert served.value.message == str(in_process.value)
    assert served.value.get_http_status_code() == 400
    assert "stack_trace" not in served.value.serialize_as_json()


def test_an_unexpected_error_is_a_500_naming_only_its_type(folder, retrain_data, caplog):
    model = load_model_folder(folder)
    model.cost_model = object()  # a broken model: deriving the costs raises AttributeError, not a refusal
    with pytest.raises(MlflowException) as served:
        ServedModel(model).predict(retrain_data.holdout_features.head(2))
    assert served.value.get_http_status_code() == 500
    assert served.value.message == (
        "the model failed on this request (AttributeError); the model server's log has the details"
    )
    assert "Traceback" in caplog.text  # the details are in the server's log, not in the answer
