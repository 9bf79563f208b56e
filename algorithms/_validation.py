"""What every estimator of ``algorithms`` checks and derives the same way in ``fit``.

- :func:`check_sample_weight`: non-negative finite weights, with an error that names the bad rows;
- :func:`encode_binary_target`: two classes, the positive one (``pos_label``, by default the minority)
  coded 1;
- :func:`draw_seed`: a sub-seed from the fit's one random generator (scikit-learn's ``check_random_state``),
  for every seeded step of a fit (a weak learner, a fold split, a sampler).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight

__all__ = ["check_sample_weight", "draw_seed", "encode_binary_target"]

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
        If ``y`` holds one class or more than two ("Only binary classification is supported."), if a class
        has zero total ``sample_weight``, or if ``pos_label`` is not one of the classes.
    """
    check_classification_targets(y)
    y = np.asarray(y)
    classes = np.unique(y)
    if classes.size == 1:
        raise ValueError(f"{estimator_name} needs two classes in y, but y has only one class: {classes[0]!r}")
    if classes.size > 2:
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {type_of_target(y)}: "
            f"y has {classes.size} classes {classes[:10].tolist()}, {estimator_name} needs exactly two"
        )
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
