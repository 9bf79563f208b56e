"""A downloaded model folder read without following it anywhere: every file it names stays inside it.

A logged model is a folder (``MLmodel``, the estimator file, ``cost_model.json``, ``encoding.json``, ...)
that anyone who can write to the artifact store can edit. Its ``MLmodel`` names the estimator file
(``flavors.sklearn.pickled_model``); a name such as ``../outside.skops``, an absolute path, or a symbolic link
in the folder would make a loader read a file from elsewhere on the machine. :func:`model_file` resolves a
name inside the folder and refuses one that leaves it (:func:`tasks.storage.inside`), and
:func:`read_mlmodel` reads ``MLmodel`` itself that way, as YAML data only.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from tasks.storage import inside

__all__ = ["MLMODEL_FILE", "ModelFolderError", "model_file", "read_mlmodel"]

#: The metadata file of an MLflow model folder.
MLMODEL_FILE = "MLmodel"


class ModelFolderError(ValueError):
    """A model folder that cannot be loaded as it is: a file outside it, a missing file, a foreign loader."""


def model_file(folder: Path, name: str, what: str) -> Path:
    """The file ``name`` of the model ``folder`` (symbolic links resolved), checked to stay inside it.

    Raises
    ------
    ModelFolderError
        When ``name`` is not a string, or resolves outside ``folder`` (``..``, an absolute path, a link).
    """
    if not isinstance(name, str) or not name:
        raise ModelFolderError(f"the model's MLmodel names its {what} as {name!r}, which is not a file name")
    try:
        return inside(folder, name)
    except ValueError:
        raise ModelFolderError(
            f"the model's {what} {name!r} resolves to {(Path(folder) / name).resolve()}, outside the model"
            f" folder {Path(folder).resolve()}: a model's files must be inside its folder, so it was not"
            " loaded"
        ) from None


def read_mlmodel(folder: Path) -> dict:
    """The ``MLmodel`` of ``folder`` as data (YAML, no objects built), read from inside the folder.

    Raises
    ------
    ModelFolderError
        When ``MLmodel`` is missing, outside the folder, or not a YAML mapping with ``flavors``.
    """
    path = model_file(folder, MLMODEL_FILE, "metadata file")
    try:
        mlmodel = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise ModelFolderError(f"{folder} has no {MLMODEL_FILE}: it is not an MLflow model folder") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise ModelFolderError(f"the model's {MLMODEL_FILE} cannot be read: {error}") from None
    if not isinstance(mlmodel, dict) or not isinstance(mlmodel.get("flavors"), dict):
        raise ModelFolderError(f"the model's {MLMODEL_FILE} lists no flavors: it is not an MLflow model")
    return mlmodel
