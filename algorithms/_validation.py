"""What every estimator of ``algorithms`` checks and derives the same way in ``fit``.

- :func:`check_sample_weight`: non-negative finite weights, with an error that names the bad rows;
- :func:`check_binary_target`: exactly two classes, or one message that says why not;
- :func:`check_feature_magnitude`: finite features within float32's range, or an error naming the column;
- :func:`encode_binary_target`: two classes, the positive one (``pos_label``, by default the minority)
  coded 1;
- :func:`draw_seed`: a sub-seed from the fit's one random generator (scikit-learn's ``check_random_state``),
  for every seeded step of a fit (a weak learner, a fold split, a sampler).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight

__all__ = [
    "FEATURE_MAGNITUDE_LIMIT",
    "check_binary_target",
    "check_feature_magnitude",
    "check_sample_weight",
    "draw_seed",
    "encode_binary_target",
]

#: Largest feature magnitude every estimator accepts: float32's largest finite value (about 3.4e38).
#: scikit-learn's trees (the weak learners of SMOTEBoost and WOTBoost, the baselines' trees, the random
#: forest of ``bmr-rf``) compare features as float32, where a larger finite float64 becomes infinite, and a
#: logistic regression on such values overflows; refusing them up front gives one message for all.
FEATURE_MAGNITUDE_LIMIT = float(np.finfo(np.float32).max)

#: Sub-seeds are drawn below this bound, so they fit every library's 32-bit seed.
_SEED_BOUND = np.iinfo(np.int32).max


def draw_seed(random_state):
    """The next sub-seed ``random_state.randint(2**31 - 1)`` of a fit's ``RandomState``, as an ``int``."""
    return int(random_state.randint(_SEED_BOUND))


def check_sample_weight(sample_weight, n_samples):
    """A float copy of ``sample_weight`` (ones when ``None``), checked to be finite and non-negative.

    Raises
    ------
    ValueError
        If the shape does not match ``n_samples`` or some values are negative or not finite (naming the rows).
    """
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
        if sample_weight.shape not in ((n_samples,), ()):
            raise ValueError(
                f"sample_weight has shape {sample_weight.shape} but X and y have {n_samples} samples; "
                f"expected shape ({n_samples},)"
            )
        invalid = ~np.isfinite(sample_weight.astype(float)) | (sample_weight < 0)
        if invalid.any():
            rows = np.flatnonzero(np.broadcast_to(invalid, (n_samples,)))
            raise ValueError(
                f"sample_weight must be finite and non-negative; bad values at rows {rows[:10].tolist()}"
                + (" ..." if rows.size > 10 else "")
            )
    return _check_sample_weight(sample_weight, np.empty((n_samples, 0)), ensure_non_negative=True)


def check_feature_magnitude(X, *, estimator_name="the estimator", feature_names=None):
    """Refuse finite feature values larger in magnitude than :data:`FEATURE_MAGNITUDE_LIMIT`.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Features; an array that is not numeric (strings) is left to the estimator's own validation.
    estimator_name : str
        Named in the error message.
    feature_names : array-like of str, default=None
        Column names (``feature_names_in_``), named in the message when given.

    Raises
    ------
    ValueError
        Naming the first offending column, its largest magnitude and the row where it occurs.
    """
    values = X.tocsc() if sp.issparse(X) else np.asarray(X)
    if not sp.issparse(values) and values.dtype.kind not in "iufc":
        try:
            values = values.astype(np.float64)
        except (TypeError, ValueError):
            return
    if values.ndim != 2 or values.shape[0] == 0:
        return
    data = values.data if sp.issparse(values) else values
    with np.errstate(invalid="ignore"):
        too_large = np.isfinite(data) & (np.abs(data) > FEATURE_MAGNITUDE_LIMIT)
    if not too_large.any():
        return
    if sp.issparse(values):
        column = int(np.searchsorted(values.indptr, np.flatnonzero(too_large)[0], side="right") - 1)
        column_values = values[:, column].toarray().ravel()
    else:
        column = int(np.flatnonzero(too_large.any(axis=0))[0])
        column_values = values[:, column]
    row = int(np.nanargmax(np.where(np.isfinite(column_values), np.abs(column_values), 0.0)))
    name = f"column {column}" + (f" ({feature_names[column]!r})" if feature_names is not None else "")
    raise ValueError(
        f"{estimator_name} cannot use feature values this large: {name} holds {column_values[row]:.6g} at "
        f"row {row}, beyond +-{FEATURE_MAGNITUDE_LIMIT:.3g} (the largest float32: every cslearn estimator "
        "stops there, as decision trees compare features in float32). Rescale or transform the column, "
        "e.g. log or standardise it"
    )


def check_binary_target(y, *, estimator_name="the estimator"):
    """Check that ``y`` is a classification target with exactly two classes; return the sorted classes.

    Raises
    ------
    ValueError
        If ``y`` is continuous ("Unknown label type"), has one class ("needs two classes") or more than two
        ("Only binary classification is supported. ... needs exactly two"), naming the estimator.
    """
    check_classification_targets(y)
    classes = np.unique(np.asarray(y))
    if classes.size == 1:
        raise ValueError(
            f"{estimator_name} needs two classes in y, but y has only one class: {classes[0].tolist()!r}"
        )
    if classes.size > 2:
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {type_of_target(y)}: "
            f"y has {classes.size} classes {classes[:10].tolist()}, {estimator_name} needs exactly two"
        )
    return classes


def encode_binary_target(y, pos_label=None, sample_weight=None, *, estimator_name="the estimator"):
    """Check that ``y`` holds exactly two classes and code it 0/1 with 1 for the positive class.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Two distinct labels of any type.
    pos_label : object, default=None
        The positive class. ``None`` picks the minority class: the class of smaller total ``sample_weight``
        (of fewer samples without weights); a tie picks the larger label, ``classes[1]``.
    sample_weight : ndarray of shape (n_samples,), default=None
        Checked weights (:func:`check_sample_weight`); given, both classes must carry weight.
    estimator_name : str
        Named in the error messages.

    Returns
    -------
    classes : ndarray of shape (2,)
        The sorted labels (scikit-learn's ``classes_``).
    y01 : ndarray of shape (n_samples,) of int64
        1 where ``y == pos_label``.
    pos_label : object
        The positive class that was used.

    Raises
    ------
    ValueError
        If ``y`` does not hold exactly two classes (:func:`check_binary_target`), if a class has zero total
        ``sample_weight``, or if ``pos_label`` is not one of the classes.
    """
    classes = check_binary_target(y, estimator_name=estimator_name)
    y = np.asarray(y)
    weights = np.ones(y.shape[0]) if sample_weight is None else sample_weight
    mass = np.array([weights[y == label].sum() for label in classes])
    if (mass <= 0).any():
        raise ValueError(
            f"{estimator_name} needs both classes to carry weight, but class {classes[mass <= 0][0]!r} has "
            "zero total sample_weight"
        )
    if pos_label is None:
        pos_label = classes[0] if mass[0] < mass[1] else classes[1]
    elif pos_label not in classes.tolist():
        raise ValueError(f"pos_label={pos_label!r} is not one of the classes {classes.tolist()}")
    return classes, (y == pos_label).astype(np.int64), pos_label
