"""``cslearn serve``: a logged cslearn model behind MLflow's scoring server, loaded only by cslearn's loader.

``mlflow models serve`` loads a model the way its folder's ``MLmodel`` says: it imports the
``loader_module`` named there and puts the folder's ``code/`` on ``sys.path``, so whoever can write to the
artifact store chooses the code the server runs, and cslearn's skops allow-list never gets a say. Here the
model is downloaded into a private temporary folder, :func:`.serving.check_served_flavor` refuses a folder
that asks for any loader or code but cslearn's, :func:`.serving.load_model_folder` reads it (every file
inside the folder, the estimator by skops with the allow-list), and MLflow's ``PyFuncModel`` is built around
that :class:`.serving.ServedModel` directly: no loader a folder names is imported. MLflow's own scoring
application (``mlflow.pyfunc.scoring_server``: ``/ping``, ``/health``, ``/version``, ``/invocations`` with
the same request formats, signature enforcement and answers as ``mlflow models serve``) then runs under
uvicorn.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from mlflow.models import Model
from mlflow.pyfunc import PyFuncModel

from tasks.model_registry.logged_models import download_model
from tasks.model_registry.model_folder import MLMODEL_FILE, model_file, read_mlmodel
from tasks.model_registry.serving import ServedModel, check_served_flavor, load_model_folder, pickle_opt_in

__all__ = ["load_served_model", "run_scoring_server", "served_pyfunc"]


def served_pyfunc(folder: Path, *, allow_pickle: bool = False) -> PyFuncModel:
    """The ``PyFuncModel`` of a downloaded model folder, built from :func:`.serving.load_model_folder`.

    Raises
    ------
    tasks.model_registry.model_folder.ModelFolderError
        A folder that asks for another loader or bundled code, or names a file outside itself.
    tasks.model_registry.serialization.UntrustedModelError
        As :func:`.serving.load_model_folder`.
    tasks.model_registry.serialization.DamagedModelError
        As :func:`.serving.load_model_folder`.
    """
    folder = Path(folder)
    check_served_flavor(read_mlmodel(folder))
    served = ServedModel(load_model_folder(folder, allow_pickle=allow_pickle))
    metadata = Model.load(str(model_file(folder, MLMODEL_FILE, "metadata file")))
    return PyFuncModel(model_meta=metadata, model_impl=served)


def load_served_model(model_uri: str, *, tracking_uri: str | None = None) -> PyFuncModel:
    """Download ``model_uri`` (``models:/<name>@<alias>``, ``models:/<name>/<version>``, ``models:/m-<id>``
    or a local folder) into a temporary folder and load it with :func:`served_pyfunc`; a cloudpickle
    estimator only with ``CSLEARN_ALLOW_PICKLED_MODELS=true``.

    Raises
    ------
    ValueError
        The model cannot be served as it is (see :func:`served_pyfunc`).
    mlflow.exceptions.MlflowException
        The model or its alias does not exist, or the tracking server cannot be reached.
    """
    with tempfile.TemporaryDirectory(prefix="cslearn-serve-") as parent:
        folder = download_model(model_uri, tracking_uri, parent)
        return served_pyfunc(folder, allow_pickle=pickle_opt_in())


def run_scoring_server(model: PyFuncModel, *, host: str, port: int) -> None:
    """Serve ``model`` with MLflow's scoring application on ``host:port`` until interrupted (uvicorn)."""
    import uvicorn
    from mlflow.pyfunc import scoring_server

    uvicorn.run(scoring_server.init(model), host=host, port=port, log_level="info")
