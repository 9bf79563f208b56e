"""What every estimator of ``algorithms`` checks and derives the same way in ``fit``.

- :func:`check_sample_weight`: non-negative finite weights, with an error that names the bad rows;
- :func:`check_binary_target`: a label on every row, exactly two classes, both carrying weight, or one
  message that says why not;
- :func:`check_feature_magnitude`: finite features within float32's range, or an error naming the column;
- :func:`check_prediction_features`: the features of a prediction, checked against the fit (scikit-learn's
  ``validate_data``) and within the same range, with the message of ``fit``;
- :func:`encode_binary_target`: two classes, the positive one (``pos_label``, by default the minority)
  coded 1;
- :func:`draw_seed`: a sub-seed from the fit's one random generator (scikit-learn's ``check_random_state``),
  for every seeded step of a fit (a weak learner, a fold split, a sampler).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, validate_data

__all__ = [
    "COST_MAGNITUDE_LIMIT",
    "FEATURE_MAGNITUDE_LIMIT",
    "check_binary_target",
    "check_feature_magnitude",
    "check_prediction_features",
    "check_sample_weight",
    "draw_seed",
    "encode_binary_target",
]

#: Largest feature magnitude every estimator accepts: float32's largest finite value (about 3.4e38).
#: scikit-learn's trees (the weak learners of SMOTEBoost and WOTBoost, the baselines' trees, the random
#: forest of ``bmr-rf``) compare features as float32, where a larger finite float64 becomes infinite, and a
#: logistic regression on such values overflows; refusing them up front gives one message for all.
FEATURE_MAGNITUDE_LIMIT = float(np.finfo(np.float32).max)

#: Largest cost every estimator and metric accepts (``algorithms.metrics.check_cost_matrix``): the same
#: bound. Costs are summed over the rows (total cost, savings, class mean regrets) and multiplied by one
#: another and by weights; below 3.4e38 a product of two costs (at most 1.2e77) and a sum over any number of
#: rows stay far inside float64, while a cost of 1e308 overflows to infinity in the first sum and turns what
#: follows into NaN.
COST_MAGNITUDE_LIMIT = FEATURE_MAGNITUDE_LIMIT

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


def check_prediction_features(estimator, X, **validate_options):
    """``X`` validated for a prediction of the fitted ``estimator``, within :data:`FEATURE_MAGNITUDE_LIMIT`.

    scikit-learn's ``validate_data(estimator, X, reset=False, **validate_options)`` checks the number and
    names of the columns against the fit; :func:`check_feature_magnitude` then refuses a value beyond
    float32's range with the message ``fit`` gives (naming ``feature_names_in_`` when the fit saw them), so
    a served row with ``age=1e300`` is refused, not decided.

    Returns
    -------
    ndarray or sparse matrix
        The validated ``X``.
    """
    X = validate_data(estimator, X, reset=False, **validate_options)
    check_feature_magnitude(
        X,
        estimator_name=type(estimator).__name__,
        feature_names=getattr(estimator, "feature_names_in_", None),
    )
    return X


def _missing_label_rows(labels):
    """Positions of the rows of the label array ``labels`` that hold ``None`` (no label)."""
    if labels.dtype != object or labels.ndim == 0:  # no rows (``y=None``): scikit-learn's own check says so
        return np.empty(0, dtype=int)
    return np.flatnonzero([label is None for label in labels.ravel()])


def _check_class_weights(y, classes, sample_weight, estimator_name):
    """Refuse a class whose rows all weigh 0: the model would learn from the other class alone."""
    for label in classes:
        rows = y == label
        if not sample_weight[rows].sum() > 0:
            shown = np.asarray(label).tolist()
            raise ValueError(
                f"{estimator_name} cannot learn from these weights: class {shown!r} has zero total "
                f"sample_weight (all of its {int(rows.sum())} rows weigh 0), so the model would see one "
                f"class only; give rows of class {shown!r} a positive weight, or leave sample_weight out"
            )


def check_binary_target(y, *, estimator_name="the estimator", sample_weight=None):
    """Check that ``y`` is a classification target with exactly two classes; return the sorted classes.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    estimator_name : str
        Named in the error messages.
    sample_weight : array-like of shape (n_samples,), default=None
        Given, each class must carry some weight.

    Raises
    ------
    ValueError
        If a row has no label (``None``, naming the rows), ``y`` is continuous ("Unknown label type"), has
        one class ("needs two classes") or more than two ("Only binary classification is supported. ...
        needs exactly two"), or every row of a class weighs 0 ("cannot learn from these weights"), naming
        the estimator.
    """
    labels = np.asarray(y)
    missing = _missing_label_rows(labels)
    if missing.size:
        raise ValueError(
            f"{estimator_name} needs a label on every row, but y holds None (a missing label) at rows "
            f"{missing[:10].tolist()}{' ...' if missing.size > 10 else ''}; remove those rows or fill in "
            "their labels"
        )
    check_classification_targets(y)
    classes = np.unique(labels)
    if classes.size == 1:
        raise ValueError(
            f"{estimator_name} needs two classes in y, but y has only one class: {classes[0].tolist()!r}"
        )
    if classes.size > 2:
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {type_of_target(y)}: "
            f"y has {classes.size} classes {classes[:10].tolist()}, {estimator_name} needs exactly two"
        )
    if sample_weight is not None:
        _check_class_weights(labels, classes, np.asarray(sample_weight, dtype=float), estimator_name)
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
        If ``y`` does not hold exactly two labelled classes that both carry weight
        (:func:`check_binary_target`), or if ``pos_label`` is not one of the classes.
    """
    classes = check_binary_target(y, estimator_name=estimator_name, sample_weight=sample_weight)
    y = np.asarray(y)
    weights = np.ones(y.shape[0]) if sample_weight is None else sample_weight
    mass = np.array([weights[y == label].sum() for label in classes])
    if pos_label is None:
        pos_label = classes[0] if mass[0] < mass[1] else classes[1]
    elif pos_label not in classes.tolist():
        raise ValueError(f"pos_label={pos_label!r} is not one of the classes {classes.tolist()}")
    return classes, (y == pos_label).astype(np.int64), pos_label
