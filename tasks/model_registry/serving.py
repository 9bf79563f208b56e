"""The cost-aware model a logged cslearn model serves: decisions on raw rows, with the costs each row implies.

A model logged by :func:`tasks.model_registry.logged_models.log_model` has two flavors over one skops file:

- ``sklearn``: the fitted estimator, for Python users (``tasks.model_registry.load_estimator(uri)``, then
  ``predict(X, cost_matrix=C)``);
- ``python_function`` with this module as its ``loader_module``: :class:`CostAwareModel` (inside
  :class:`ServedModel`), what ``cslearn serve DATASET`` runs, and ``mlflow.pyfunc.load_model(uri)`` and
  ``mlflow models serve -m models:/<name>@champion`` on a folder cslearn logged. It holds the
  estimator, the cost model fitted on the training rows (``cost_model.json``) and the encoding of the
  dataset's raw columns (``encoding.json``, ``tasks.datasets.encoding.RawEncoding``), so a request carries
  the raw columns a user has (``"job": "blue-collar"``, not one-hot columns): they are encoded as the
  training rows were (a level the model never saw sets none of its 0/1 columns, as a missing value does),
  and each row's costs ``[C_FP, C_FN, C_TP, C_TN]`` are derived from the row itself (credit line from income
  and debt ratio, balance, amount; CSDT paper, Tables 4-6) exactly as the holdout's were. A model logged
  without ``encoding.json`` takes the canonical feature columns.

A request may also carry the four cost columns ``C_FP, C_FN, C_TP, C_TN``; they then take precedence over the
derived costs. Bayes minimum risk models decide with the costs (``predict(X, cost_matrix=C)``, CSDT Section
2.3); every other model decides as it was trained, and the costs price its decision.

Outputs, one row per input row: ``decision`` (the predicted label, 1 = positive), ``probability`` (the model's
P(positive); calibrated for ``bmr-*`` and ``*-cal``), ``expected_cost`` (the decision's expected cost under
that probability: ``p C_TP + (1 - p) C_FP`` for a positive decision, ``p C_FN + (1 - p) C_TN`` otherwise) and
the four costs used.

An empty batch gets an empty table. What a server runs is :class:`ServedModel`: a request the model refuses
(a missing column, a negative amount, a value an estimator cannot use; any ``ValueError``) is answered with
HTTP 400 and cslearn's message (MLflow's ``INVALID_PARAMETER_VALUE``), never with the server's traceback.

Nothing here executes code from the artifact: every file is read from inside the model folder
(:mod:`.model_folder`), the estimator by skops with cslearn's allow-list (:mod:`.serialization`).
``cslearn serve`` (:mod:`.model_server`) builds the served model with :func:`load_model_folder` only, after
:func:`check_served_flavor`: it never imports the loader a folder's ``MLmodel`` names. ``mlflow models
serve`` and ``mlflow.pyfunc.load_model`` do import that loader (this module, in a folder cslearn logged) and
put a ``code/`` folder on ``sys.path``: they trust whoever can write to the artifact store.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
from mlflow.exceptions import MlflowException
from mlflow.protos.databricks_pb2 import INTERNAL_ERROR

from algorithms.metrics import COST_COLUMNS
from schemas.cost_matrix import cost_matrix_from_frame
from tasks.cost_models import COST_MODELS, CostModel, checked_cost_matrix
from tasks.datasets.encoding import RawEncoding
from tasks.fitting.evaluate import predict_labels, predict_uses_costs
from tasks.model_registry.model_folder import ModelFolderError, model_file, read_mlmodel
from tasks.model_registry.serialization import load_estimator_file

__all__ = [
    "COST_MODEL_FILE",
    "ENCODING_FILE",
    "OUTPUT_COLUMNS",
    "PICKLE_OPT_IN_VARIABLE",
    "CostAwareModel",
    "ServedModel",
    "check_served_flavor",
    "cost_model_from_state",
    "cost_model_state",
    "load_model_folder",
    "pickle_opt_in",
]

logger = logging.getLogger(__name__)

#: The fitted cost model's file in a logged model's folder (JSON: name, parameters, fitted statistics).
COST_MODEL_FILE = "cost_model.json"

#: The encoding of the raw columns in a logged model's folder (JSON: ``RawEncoding.to_record``).
ENCODING_FILE = "encoding.json"

#: Columns of :meth:`CostAwareModel.predict`'s result.
OUTPUT_COLUMNS = ("decision", "probability", "expected_cost", *COST_COLUMNS)

#: Environment variable with which a model server opts in to loading a cloudpickle artifact.
PICKLE_OPT_IN_VARIABLE = "CSLEARN_ALLOW_PICKLED_MODELS"

#: The positive label of cslearn's datasets (``Dataset.target``: 1 = the minority, positive class).
POSITIVE_LABEL = 1


def cost_model_state(model: CostModel) -> dict:
    """A fitted cost model as JSON-friendly data: registry name, parameters, fitted statistics."""
    fitted = {
        attribute: value.item() if isinstance(value, np.generic) else value
        for attribute, value in sorted(vars(model).items())
        if attribute.endswith("_") and not attribute.startswith("_")
    }
    return {"name": model.name, "params": model.get_params(), "fitted": fitted}


def cost_model_from_state(state: Mapping) -> CostModel:
    """Rebuild the fitted cost model of :func:`cost_model_state`.

    Raises
    ------
    ValueError
        If the name is not in ``tasks.cost_models.COST_MODELS``, a parameter is unknown, or a fitted entry is
        not a fitted statistic (a name ending in ``_`` holding a number).
    """
    name = state.get("name")
    if name not in COST_MODELS:
        raise ValueError(f"unknown cost model {name!r}; registered cost models: {sorted(COST_MODELS)}")
    model = COST_MODELS[name]()
    known = model.get_params()
    unknown = sorted(set(state.get("params", {})) - set(known))
    if unknown:
        raise ValueError(f"{type(model).__name__} has no parameter(s) {unknown}")
    model.set_params(**state.get("params", {}))
    for attribute, value in state.get("fitted", {}).items():
        if not (attribute.isidentifier() and attribute.endswith("_") and not attribute.startswith("_")):
            raise ValueError(f"{attribute!r} is not a fitted statistic of {type(model).__name__}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"fitted statistic {attribute!r} must be a number; got {value!r}")
        setattr(model, attribute, value)
    return model


class CostAwareModel:
    """A fitted estimator and the fitted cost model of its training rows: cost-minimising decisions per row.

    Parameters
    ----------
    estimator : fitted cslearn classifier
        Fitted on a ``pandas.DataFrame`` (its ``feature_names_in_`` are the input columns).
    cost_model : tasks.cost_models.CostModel or None
        Fitted on the training rows; ``None`` when the costs can only come with the request.
    encoding : tasks.datasets.encoding.RawEncoding or None
        The raw columns the model takes and how they become its feature columns; ``None``: it takes the
        feature columns themselves.
    """

    def __init__(self, estimator, cost_model: CostModel | None = None, encoding: RawEncoding | None = None):
        self.estimator = estimator
        self.cost_model = cost_model
        self.feature_names = [str(name) for name in estimator.feature_names_in_]
        self.encoding = encoding.restricted_to(self.feature_names) if encoding is not None else None

    @property
    def input_names(self) -> list[str]:
        """The columns a request carries (besides the optional costs): raw columns, or feature columns."""
        return self.encoding.raw_names if self.encoding is not None else self.feature_names

    def features(self, rows: pd.DataFrame) -> pd.DataFrame:
        """The model's feature columns of ``rows`` (encoded from the raw columns when it has an encoding).

        Raises
        ------
        ValueError
            Naming the missing columns, or the rows whose numeric column is not a finite number.
        """
        if self.encoding is not None:
            return self.encoding.encode(rows)
        missing = [name for name in self.feature_names if name not in rows]
        if missing:
            raise ValueError(f"input lacks feature column(s) {missing}; expected {self.feature_names}")
        return rows[self.feature_names]

    def cost_matrix(self, rows: pd.DataFrame, features: pd.DataFrame | None = None) -> np.ndarray | None:
        """``[C_FP, C_FN, C_TP, C_TN]`` per row: the request's cost columns, else derived by the cost model.

        Returns ``None`` when the request has no cost columns and there is no cost model.

        Raises
        ------
        ValueError
            If only some of the four cost columns are given, or a given or derived cost is NaN, infinite or
            negative (``schemas.validation.DataValidationError`` names the rows), or a column the cost model
            reads is missing.
        """
        given = [column for column in COST_COLUMNS if column in rows and rows[column].notna().any()]
        if given:
            missing = [column for column in COST_COLUMNS if column not in given]
            if missing:
                raise ValueError(
                    f"cost columns {given} given without {missing}: pass all four of {list(COST_COLUMNS)}"
                    " or none (the costs are then derived from each row)"
                )
            return cost_matrix_from_frame(rows[list(COST_COLUMNS)].astype(float))
        if self.cost_model is None:
            return None
        source = features if features is not None else rows
        return checked_cost_matrix(self.cost_model, source, on_unreasonable="report").values

    def predict(self, model_input, params=None) -> pd.DataFrame:
        """Decide every row; see the module docstring for the columns of the result.

        Raises
        ------
        ValueError
            If a feature column is missing, the costs cannot be formed (see :meth:`cost_matrix`), or the
            model decides by costs and there are none.
        """
        rows = pd.DataFrame(model_input)
        features = self.features(rows)
        if rows.empty:  # nothing to decide (estimators refuse 0 samples)
            empty = {column: np.array([], dtype=float) for column in OUTPUT_COLUMNS}
            return pd.DataFrame({**empty, "decision": np.array([], dtype=np.int64)}, index=rows.index)
        costs = self.cost_matrix(rows, features)
        if costs is None and predict_uses_costs(self.estimator):
            raise ValueError(
                f"{type(self.estimator).__name__} decides with each row's costs and this model has no cost"
                f" model: pass the cost columns {list(COST_COLUMNS)}"
            )
        decision = predict_labels(self.estimator, features, costs)
        classes = list(self.estimator.classes_)
        probability = self.estimator.predict_proba(features)[:, classes.index(POSITIVE_LABEL)]
        if costs is None:
            costs = np.full((len(rows), 4), np.nan)
        c_fp, c_fn, c_tp, c_tn = costs.T
        positive = decision == POSITIVE_LABEL
        expected_cost = np.where(
            positive,
            probability * c_tp + (1.0 - probability) * c_fp,
            probability * c_fn + (1.0 - probability) * c_tn,
        )
        result = pd.DataFrame(costs, columns=list(COST_COLUMNS), index=rows.index)
        result.insert(0, "decision", decision)
        result.insert(1, "probability", probability)
        result.insert(2, "expected_cost", expected_cost)
        return result


class ServedModel:
    """What a model server runs (MLflow's pyfunc ``predict``): a :class:`CostAwareModel` whose refusals reach
    the client as cslearn's message.

    MLflow's scoring server answers any other exception raised by ``predict`` with a generic text and the
    server's traceback (its file paths included), cslearn's message buried inside; an ``MlflowException`` is
    answered with its own message and status and no traceback. So a ``ValueError`` (the request is refused)
    becomes ``INVALID_PARAMETER_VALUE`` (HTTP 400) with cslearn's message, and any other error
    ``INTERNAL_ERROR`` (HTTP 500) naming only its type, its traceback written to the server's log.
    """

    def __init__(self, model: CostAwareModel):
        self.model = model

    def predict(self, model_input, params=None) -> pd.DataFrame:
        try:
            return self.model.predict(model_input)
        except ValueError as error:
            raise MlflowException.invalid_parameter_value(str(error)) from None
        except Exception as error:
            logger.exception("the model failed on a request")
            raise MlflowException(
                f"the model failed on this request ({type(error).__name__}); the model server's log has the"
                " details",
                error_code=INTERNAL_ERROR,
            ) from None


def check_served_flavor(mlmodel: Mapping) -> None:
    """Refuse a model folder whose ``MLmodel`` asks for code cslearn never logs: a ``python_function`` loader
    other than this module, or bundled code (``code``, ``model_code_path``) in any flavor.

    Such a folder was not logged by cslearn's retrain, or was edited in the artifact store; ``cslearn serve``
    would not run its loader anyway (it loads with :func:`load_model_folder`), and says so instead of serving
    something other than what the folder claims to be.

    Raises
    ------
    ModelFolderError
        Naming the loader or the code the folder asks for.
    """
    flavors = mlmodel["flavors"]
    pyfunc = flavors.get("python_function")
    loader = pyfunc.get("loader_module") if isinstance(pyfunc, Mapping) else None
    bundled = sorted(
        f"{flavor}.{key}"
        for flavor, settings in flavors.items()
        if isinstance(settings, Mapping)
        for key in ("code", "model_code_path")
        if settings.get(key)
    )
    if loader != __name__ or bundled:
        asks = [f"the loader {loader!r}"] if loader != __name__ else []
        asks += [f"bundled code ({', '.join(bundled)})"] if bundled else []
        raise ModelFolderError(
            f"the model's MLmodel asks for {' and '.join(asks)}, not cslearn's loader {__name__}: it was not"
            " logged by cslearn's retrain, or it was edited in the artifact store. cslearn serves only the"
            " models it logs and never runs code a model folder names; retrain to log a new version"
        )


def load_model_folder(path: Path, *, allow_pickle: bool = False) -> CostAwareModel:
    """Load a downloaded cslearn model folder (its ``MLmodel``, estimator file and cost model).

    The estimator is read as its ``sklearn`` flavor says (``pickled_model``, ``serialization_format``) through
    :func:`.serialization.load_estimator_file` with cslearn's allow-list; every file is read from inside the
    folder (:func:`.model_folder.model_file`); nothing in the folder is imported or put on ``sys.path`` (a
    ``code/`` folder of an older model is ignored).

    Raises
    ------
    tasks.model_registry.model_folder.ModelFolderError
        A file named outside the folder, or a folder that is not an MLflow model with an ``sklearn`` flavor.
    tasks.model_registry.serialization.UntrustedModelError
        A cloudpickle estimator without ``allow_pickle``, or a skops file holding a type outside the list.
    tasks.model_registry.serialization.DamagedModelError
        An estimator file that is missing or not a readable skops archive.
    """
    folder = Path(path)
    flavor = read_mlmodel(folder)["flavors"].get("sklearn")
    if not isinstance(flavor, Mapping):
        raise ModelFolderError("the model's MLmodel has no sklearn flavor: it is not a model cslearn logged")
    estimator = load_estimator_file(
        model_file(folder, flavor.get("pickled_model"), "estimator file"),
        flavor.get("serialization_format", "cloudpickle"),
        allow_pickle=allow_pickle,
    )
    cost_file = model_file(folder, COST_MODEL_FILE, "cost model")
    cost_model = cost_model_from_state(json.loads(cost_file.read_text())) if cost_file.is_file() else None
    encoding_file = model_file(folder, ENCODING_FILE, "encoding")
    encoding = (
        RawEncoding.from_record(json.loads(encoding_file.read_text())) if encoding_file.is_file() else None
    )
    return CostAwareModel(estimator, cost_model, encoding)


def pickle_opt_in() -> bool:
    """Whether this process opted in to loading cloudpickle models (``CSLEARN_ALLOW_PICKLED_MODELS=true``)."""
    return os.environ.get(PICKLE_OPT_IN_VARIABLE, "").strip().lower() in ("1", "true", "yes")


def _load_pyfunc(path, model_config=None) -> ServedModel:
    """MLflow's pyfunc entry point (``loader_module``): the :class:`ServedModel` of a model folder.

    A cloudpickle estimator is loaded only when ``CSLEARN_ALLOW_PICKLED_MODELS=true`` is set.
    """
    return ServedModel(load_model_folder(Path(path), allow_pickle=pickle_opt_in()))
