"""Saving and loading fitted estimators without running code from the artifact store.

A model is written with skops, whose loader builds objects only from an allow-list of types instead of
unpickling them. :data:`TRUSTED_TYPES` is that allow-list, reviewed type by type: every registered estimator
of :data:`algorithms.METHODS`, the parts they are built from (cslearn's stump and tree nodes, the
imbalanced-learn samplers of the baselines, the scikit-learn helpers skops does not trust by default), and
nothing else. Loading passes THIS list to skops, never the list stored beside the model, so an artifact cannot
widen what it is trusted with.

scikit-learn >= 1.9 keeps the estimator itself as the ``owner`` of the metadata requests set on it
(``set_fit_request``); the cycle estimator -> ``_metadata_request`` -> ``owner`` -> estimator sends skops
into a ``RecursionError`` (Bayes minimum risk builds its default pipelines with such requests).
:func:`skops_safe_copy` gives skops a copy in which each owner is its display name, the form scikit-learn
used before 1.9 and still accepts (the owner is only used in messages).

cloudpickle runs arbitrary code when loaded. A model is written with it only when the caller opts in
(``allow_pickle=True``) and skops cannot represent the model; such an artifact is refused at load time with
:class:`UntrustedModelError` unless the caller opts in again. A file that is not a readable skops archive
(truncated, edited, missing) is :class:`DamagedModelError`, named in the user's terms.
"""

from __future__ import annotations

import copy
import zipfile
import zlib
from pathlib import Path

import skops.io
from imblearn import FunctionSampler
from imblearn.over_sampling import SMOTE, RandomOverSampler
from imblearn.pipeline import Pipeline as ImbalancedPipeline
from imblearn.under_sampling import RandomUnderSampler
from sklearn.calibration import _CalibratedClassifier, _SigmoidCalibration
from sklearn.ensemble._hist_gradient_boosting.predictor import TreePredictor
from sklearn.metrics._dist_metrics import EuclideanDistance64
from sklearn.model_selection import StratifiedKFold
from sklearn.neighbors import KDTree
from sklearn.tree._tree import Tree
from sklearn.utils._metadata_requests import (
    MetadataRequest,
    MetadataRouter,
    MethodMetadataRequest,
    _routing_repr,
)
from skops.io.exceptions import UntrustedTypesFoundException

from algorithms import METHODS
from algorithms.baselines import adasyn_resample
from algorithms.boosting._stump import DecisionStump
from algorithms.ensemble import EnsembleMemberTree
from algorithms.tree import CostSensitiveDecisionTreeClassifier
from algorithms.tree._nodes import NodeArrays

__all__ = [
    "ALLOW_PICKLE_HINT",
    "TRUSTED_TYPES",
    "DamagedModelError",
    "UntrustedModelError",
    "choose_serialization",
    "load_estimator_file",
    "skops_safe_copy",
    "skops_trusted_types",
    "type_name",
]


def type_name(kind) -> str:
    """``module.name`` of a type or function, as skops names it."""
    return f"{kind.__module__}.{kind.__name__}"


#: Types (and the one function) beyond skops' own defaults that a cslearn model may hold. Each was reviewed:
#: a skops file of a registered method holds nothing else. A new weak learner or helper type must be added
#: here on purpose (``tests/tasks/model_registry/test_serialization.py`` round-trips every method).
TRUSTED_TYPES: frozenset[str] = frozenset(
    type_name(kind)
    for kind in (
        *METHODS.values(),  # every registered estimator class
        DecisionStump,  # the boosting methods' weak learner
        NodeArrays,  # the cost-sensitive tree's node arrays
        EnsembleMemberTree,  # a member of the cost-sensitive tree ensembles (csforest, ...)
        CostSensitiveDecisionTreeClassifier,  # the tree inside each member
        TreePredictor,  # HistGradientBoosting's fitted trees (bmr-hgb)
        adasyn_resample,  # the function the ADASYN baseline's FunctionSampler calls
        ImbalancedPipeline,
        FunctionSampler,
        SMOTE,
        RandomOverSampler,
        RandomUnderSampler,
        _CalibratedClassifier,  # CalibratedClassifierCV's fitted folds
        _SigmoidCalibration,
        StratifiedKFold,  # the calibration folds kept as a parameter
        Tree,  # scikit-learn's fitted tree structure
        KDTree,  # SMOTE's neighbour search
        EuclideanDistance64,
        MetadataRequest,  # routing requests set by set_fit_request
        MethodMetadataRequest,
    )
)

#: How a caller opts in to loading a cloudpickle artifact, quoted in every refusal.
ALLOW_PICKLE_HINT = (
    "If you trust whoever can write to the artifact store, opt in with allow_pickle=True (Python) or"
    " CSLEARN_ALLOW_PICKLED_MODELS=true (the served pyfunc); better, retrain so that the model is logged"
    " with skops."
)


class UntrustedModelError(ValueError):
    """A model artifact that would need code or types outside :data:`TRUSTED_TYPES` to load."""


class DamagedModelError(ValueError):
    """A model's estimator file that is missing or not a readable skops archive."""


#: What skops raises on a file that is not a complete skops archive (its zip or its schema.json is damaged).
_DAMAGED_ARCHIVE_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, TypeError)


def skops_safe_copy(model):
    """A deep copy of ``model`` in which every metadata-request owner is its name instead of the estimator.

    scikit-learn >= 1.9 stores the estimator itself as the owner of the requests set on it, a reference cycle
    skops cannot follow (``RecursionError``); the owner is only shown in routing messages, and a name is
    what scikit-learn stored before 1.9. Routing requests themselves are kept.
    """
    duplicate = copy.deepcopy(model)
    pending, seen = [duplicate], set()
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, MetadataRequest | MethodMetadataRequest | MetadataRouter):
            if not isinstance(item.owner, str):
                item.owner = _routing_repr(item.owner)
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
        elif hasattr(item, "__dict__") and not isinstance(item, type):
            pending.extend(vars(item).values())
    return duplicate


def skops_trusted_types(model) -> list[str]:
    """The types of ``model`` skops does not trust by default; every one of them is in :data:`TRUSTED_TYPES`.

    ``model`` should come from :func:`skops_safe_copy`.

    Raises
    ------
    UntrustedModelError
        If the model holds a type outside the allow-list (it would need a human to review it).
    """
    untrusted = skops.io.get_untrusted_types(data=skops.io.dumps(model))
    foreign = sorted(set(untrusted) - TRUSTED_TYPES)
    if foreign:
        raise UntrustedModelError(
            f"{type(model).__name__} holds types outside cslearn's skops allow-list"
            f" (tasks.model_registry.serialization.TRUSTED_TYPES): {foreign}"
        )
    return sorted(untrusted)


def choose_serialization(model, *, allow_pickle: bool = False) -> tuple[str, object, list[str] | None, str]:
    """How to write ``model``: ``(format, object to write, skops trusted types, why not skops)``.

    skops whenever it can represent the model with the allow-list (the object written is
    :func:`skops_safe_copy` of the model); cloudpickle only when it cannot AND ``allow_pickle`` is true.

    Raises
    ------
    UntrustedModelError
        If skops cannot represent the model and ``allow_pickle`` is false; the message says why.
    """
    try:
        safe = skops_safe_copy(model)
        return "skops", safe, skops_trusted_types(safe), ""
    except Exception as error:  # skops raises TypeError, RecursionError and others on unsupported objects
        reason = f"{type(error).__name__}: {error}"
    if not allow_pickle:
        raise UntrustedModelError(
            f"skops cannot save {type(model).__name__} with cslearn's allow-list ({reason}); a cloudpickle"
            " artifact would run code when loaded, so it is written only with allow_pickle=True"
        )
    return "cloudpickle", model, None, reason


def load_estimator_file(path: Path, serialization_format: str, *, allow_pickle: bool = False):
    """Load an estimator file written by :func:`choose_serialization`'s format, trusting only the allow-list.

    Raises
    ------
    UntrustedModelError
        A skops file holding a type outside :data:`TRUSTED_TYPES`, or a cloudpickle (or any other) file
        without ``allow_pickle``.
    DamagedModelError
        A skops file that is missing, truncated or otherwise not a readable skops archive.
    """
    if serialization_format == "skops":
        try:
            return skops.io.load(path, trusted=sorted(TRUSTED_TYPES))
        except UntrustedTypesFoundException as error:
            raise UntrustedModelError(
                f"{path.name} holds types outside cslearn's skops allow-list and was not loaded: {error}"
            ) from error
        except FileNotFoundError:
            raise DamagedModelError(
                f"the model's estimator file {path.name} is missing from its folder, so the model cannot be"
                " loaded; serve or load another version, or retrain to log a new one"
            ) from None
        except _DAMAGED_ARCHIVE_ERRORS as error:
            raise DamagedModelError(
                f"the model's estimator file {path.name} is damaged: it is not a complete skops archive"
                f" ({type(error).__name__}: {error}), so the model cannot be loaded; serve or load another"
                " version, or retrain to log a new one"
            ) from error
    if not allow_pickle:
        raise UntrustedModelError(
            f"{path.name} is serialized with {serialization_format}, which runs arbitrary code when loaded;"
            f" refused. {ALLOW_PICKLE_HINT}"
        )
    import cloudpickle

    with path.open("rb") as handle:
        return cloudpickle.load(handle)
