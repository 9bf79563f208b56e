"""Data-level baselines from imbalanced-learn: a resampler and a decision tree in an imblearn ``Pipeline``,
and ``RUSBoostClassifier`` (docs/algorithms.md §5, last item; the WOTBoost paper's comparison methods).

``BASELINE_METHODS`` maps keys to classes that construct with no arguments and follow the table's
contract ``fit(X, y, sample_weight=None, *, cost_matrix=None)``:

- ``"smote-dt"``, ``"adasyn-dt"``, ``"ros-dt"``, ``"rus-dt"``: SMOTE (``k_neighbors=5``), ADASYN
  (``n_neighbors=5``), random over-sampling or random under-sampling to balanced classes, then an unpruned
  CART tree (:class:`ResampledDecisionTree`). SMOTE and ADASYN use at most ``n_c - 1`` neighbours when the
  smallest class has ``n_c <= 5`` samples (and need ``n_c >= 2``); ADASYN that has no sample to generate
  (classes already about balanced, or no minority sample near the majority class) leaves the training set
  as it is instead of failing;
- ``"rusboost"``: imbalanced-learn's RUSBoost (Seiffert et al. 2010) with its defaults (:class:`RUSBoost`).

All of them are cost-blind: ``cost_matrix`` is validated and ignored. The plain decision tree is ``"dt"`` of
the tree family.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from imblearn import FunctionSampler
from imblearn.ensemble import RUSBoostClassifier
from imblearn.over_sampling import ADASYN, SMOTE, RandomOverSampler
from imblearn.pipeline import Pipeline
from imblearn.under_sampling import RandomUnderSampler
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from algorithms._method_table import family_methods
from algorithms._validation import (
    check_binary_target,
    check_feature_magnitude,
    check_prediction_features,
    check_sample_weight,
    draw_seed,
)
from algorithms.metrics import check_cost_matrix

__all__ = [
    "BASELINE_METHODS",
    "ADASYNDecisionTree",
    "RUSBoost",
    "RandomOverSamplingDecisionTree",
    "RandomUnderSamplingDecisionTree",
    "ResampledDecisionTree",
    "SMOTEDecisionTree",
]


def _seeded(template, seed):
    """A clone of ``template`` given ``seed`` as ``random_state`` when it has one."""
    estimator = clone(template)
    if "random_state" in estimator.get_params(deep=False):
        estimator.set_params(random_state=seed)
    return estimator


def resampled_sample_weight(sampler, sample_weight, X, X_resampled, y_resampled):
    """The weight of every row an imblearn sampler returned, from the caller's ``sample_weight``.

    A row the sampler kept or copied carries the weight of its source row (the sampler's
    ``sample_indices_``: random over- and under-sampling). Samplers that do not record their sources
    (SMOTE, ADASYN) return the original rows first and then the synthetic ones; each synthetic row carries
    the mean weight of the original rows of its class.

    Raises
    ------
    ValueError
        When the sampler neither records ``sample_indices_`` nor keeps the original rows first, so the
        weights cannot follow the rows.
    """
    if hasattr(sampler, "sample_indices_"):
        return sample_weight[sampler.sample_indices_]
    n_samples = X.shape[0]
    if X_resampled.shape[0] < n_samples or not np.array_equal(X_resampled[:n_samples], X):
        raise ValueError(
            f"{type(sampler).__name__} neither records sample_indices_ nor returns the original rows first, "
            "so sample_weight cannot follow the resampled rows; fit without sample_weight"
        )
    y_original, y_synthetic = y_resampled[:n_samples], y_resampled[n_samples:]
    synthetic_weight = np.empty(y_synthetic.shape[0])
    for label in np.unique(y_synthetic):
        synthetic_weight[y_synthetic == label] = sample_weight[y_original == label].mean()
    return np.concatenate([sample_weight, synthetic_weight])


class ResampledDecisionTree(ClassifierMixin, BaseEstimator):
    """An imbalanced-learn resampler followed by a decision tree, fitted as an imblearn ``Pipeline``.

    ``fit`` builds ``Pipeline([("sampler", sampler), ("tree", estimator)])`` (fitted as ``pipeline_``):
    the sampler resamples the training set once, the tree learns the resampled set, and prediction skips
    the sampler (imblearn's semantics). Subclasses only choose the default sampler.

    ``sample_weight`` weighs the rows the tree learns: kept or copied rows carry their source row's weight,
    synthetic rows (SMOTE, ADASYN) the mean weight of their class (:func:`resampled_sample_weight`).
    The samplers themselves do not take weights. ``cost_matrix`` is validated and ignored (cost-blind).

    Parameters
    ----------
    sampler : imblearn sampler or None, default=None
        Any object with ``fit_resample``; ``None`` uses the subclass's sampler.
    estimator : classifier or None, default=None
        The tree; ``None`` is ``DecisionTreeClassifier()`` (Gini, unpruned).
    random_state : int, RandomState instance or None, default=None
        Seeds the one generator of ``fit``, from which the sampler's and the tree's seeds are drawn.

    Attributes
    ----------
    pipeline_ : imblearn.pipeline.Pipeline
        The fitted sampler and tree.
    classes_ : ndarray
        Class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.
    """

    _parameter_constraints: dict = {
        "sampler": [HasMethods(["fit_resample"]), None],
        "estimator": [HasMethods(["fit", "predict_proba"]), None],
        "random_state": ["random_state"],
    }

    def __init__(self, sampler=None, *, estimator=None, random_state=None):
        self.sampler = sampler
        self.estimator = estimator
        self.random_state = random_state

    def _default_sampler(self, y, seed):
        """The sampler used when ``sampler=None``, for targets ``y``, seeded with ``seed``."""
        return RandomOverSampler(random_state=seed)

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        """Resample ``X, y`` and fit the tree on the result.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the training rows, passed on to the rows the sampler returns.
        cost_matrix : array-like of shape (n_samples, 4), default=None
            ``[C_FP, C_FN, C_TP, C_TN]``; validated, not used.

        Returns
        -------
        self : object
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_feature_magnitude(
            X, estimator_name=type(self).__name__, feature_names=getattr(self, "feature_names_in_", None)
        )
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, ensure_non_negative=True)
        self.classes_ = check_binary_target(
            y, estimator_name=type(self).__name__, sample_weight=sample_weight
        )
        if cost_matrix is not None:
            check_cost_matrix(cost_matrix, X.shape[0])
        random_state = check_random_state(self.random_state)
        sampler_seed, tree_seed = draw_seed(random_state), draw_seed(random_state)
        if self.sampler is None:
            sampler = self._default_sampler(y, sampler_seed)
        else:
            sampler = _seeded(self.sampler, sampler_seed)
        tree = _seeded(self.estimator if self.estimator is not None else DecisionTreeClassifier(), tree_seed)
        self.pipeline_ = Pipeline([("sampler", sampler), ("tree", tree)])
        if sample_weight is None:
            self.pipeline_.fit(X, y)
            return self
        # imblearn's Pipeline hands fit parameters to the tree unchanged, but the sampler changes the rows:
        # resample here and give the tree the weights of the rows it actually learns
        X_resampled, y_resampled = sampler.fit_resample(X, y)
        weights = resampled_sample_weight(sampler, sample_weight, X, X_resampled, y_resampled)
        tree.fit(X_resampled, y_resampled, sample_weight=weights)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def predict(self, X):
        """The tree's prediction (the sampler is skipped at prediction time)."""
        check_is_fitted(self)
        return self.pipeline_.predict(check_prediction_features(self, X, dtype=np.float64))

    def predict_proba(self, X):
        """The tree's class probabilities (leaf class fractions of the resampled training set)."""
        check_is_fitted(self)
        return self.pipeline_.predict_proba(check_prediction_features(self, X, dtype=np.float64))


def _interpolation_neighbours(y, sampler_name, default=5):
    """``min(default, n_c - 1)`` for the smallest class size ``n_c``; a clear error when ``n_c < 2``."""
    labels, counts = np.unique(y, return_counts=True)
    smallest = int(counts.min())
    if smallest < 2:
        raise ValueError(
            f"{sampler_name} interpolates between samples of the same class, but class "
            f"{labels[counts.argmin()].tolist()!r} has {smallest} sample; it needs at least 2"
        )
    return min(default, smallest - 1)


def adasyn_resample(X, y, *, n_neighbors, random_state):
    """imbalanced-learn's ADASYN (He et al. 2008); the rows unchanged when it has no sample to generate.

    imblearn raises ``ValueError("No samples will be generated ...")`` when the classes are already (about)
    balanced, and ``RuntimeError("Not any neigbours belong to the majority class ...")`` when no minority
    sample has a majority neighbour: ADASYN's density ``r_i`` (the majority share of a sample's neighbours,
    He et al. 2008, step (d)) is then 0 for every sample and its normalisation divides by zero, i.e. no
    sample is hard to learn and ADASYN has nothing to generate. In both cases the tree learns the training
    set as it is. Every other error of ADASYN is raised.
    """
    try:
        return ADASYN(n_neighbors=n_neighbors, random_state=random_state).fit_resample(X, y)
    except ValueError as error:
        if "No samples will be generated" not in str(error):
            raise
        return X, y
    except RuntimeError as error:
        if "Not any neigbours belong to the majority class" not in str(error):
            raise
        return X, y


class SMOTEDecisionTree(ResampledDecisionTree):
    """SMOTE (Chawla et al. 2002; ``k_neighbors=5``, to balanced classes) + decision tree ("SMOTE + DT")."""

    _expected_failed_checks: ClassVar[dict[str, str]] = {
        "check_sample_weight_equivalence_on_dense_data": (
            "SMOTE resamples by counts: repeating a row changes the neighbourhoods and the number of "
            "synthetic rows, which a weight does not"
        ),
    }

    def _default_sampler(self, y, seed):
        return SMOTE(k_neighbors=_interpolation_neighbours(y, "SMOTE"), random_state=seed)


class ADASYNDecisionTree(ResampledDecisionTree):
    """ADASYN (He et al. 2008; ``n_neighbors=5``, to balanced classes) + decision tree ("ADASYN + DT").

    The sampler is imblearn's ``ADASYN`` inside an imblearn ``FunctionSampler`` (:func:`adasyn_resample`),
    so that nothing to generate leaves the training set unchanged.
    """

    _expected_failed_checks: ClassVar[dict[str, str]] = {
        "check_sample_weight_equivalence_on_dense_data": (
            "ADASYN resamples by counts: repeating a row changes the neighbourhoods and the number of "
            "synthetic rows, which a weight does not"
        ),
    }

    def _default_sampler(self, y, seed):
        return FunctionSampler(
            func=adasyn_resample,
            kw_args={"n_neighbors": _interpolation_neighbours(y, "ADASYN"), "random_state": seed},
            validate=False,
        )


class RandomOverSamplingDecisionTree(ResampledDecisionTree):
    """Random over-sampling of the minority class to balanced classes + decision tree."""

    def _default_sampler(self, y, seed):
        return RandomOverSampler(random_state=seed)


class RandomUnderSamplingDecisionTree(ResampledDecisionTree):
    """Random under-sampling of the majority class to balanced classes + decision tree."""

    _expected_failed_checks: ClassVar[dict[str, str]] = {
        "check_sample_weight_equivalence_on_dense_data": (
            "random under-sampling draws rows by count: a repeated row is twice as likely to be kept"
        ),
    }

    def _default_sampler(self, y, seed):
        return RandomUnderSampler(random_state=seed)


class RUSBoost(RUSBoostClassifier):
    """imbalanced-learn's ``RUSBoostClassifier`` with the table's ``fit`` signature.

    Random under-sampling to balanced classes before every AdaBoost round (Seiffert et al. 2010), with
    imbalanced-learn's defaults (50 rounds of depth-1 trees). ``cost_matrix`` is validated and ignored;
    ``sample_weight`` goes to imbalanced-learn. It declares its own ``fit`` metadata (``sample_weight``,
    ``cost_matrix``), so ``set_fit_request`` works in routed pipelines and searches.
    """

    _expected_failed_checks: ClassVar[dict[str, str]] = {
        "check_sample_weight_equivalence_on_dense_data": (
            "each round under-samples rows by count: a repeated row is twice as likely to be kept"
        ),
        "check_sample_weight_equivalence_on_sparse_data": (
            "each round under-samples rows by count: a repeated row is twice as likely to be kept"
        ),
        "check_estimator_sparse_matrix": (
            "on the check's random labels (random_state=0) the first under-sampled round is worse than "
            "random, and imbalanced-learn's AdaBoost refuses to fit"
        ),
        "check_estimator_sparse_array": (
            "on the check's random labels (random_state=0) the first under-sampled round is worse than "
            "random, and imbalanced-learn's AdaBoost refuses to fit"
        ),
    }

    def fit(self, X, y, sample_weight=None, *, cost_matrix=None):
        """Fit RUSBoost; ``cost_matrix`` (n, 4) ``[C_FP, C_FN, C_TP, C_TN]`` is validated, not used.

        ``y`` must hold two classes and ``X`` no value beyond float32's range (the shared checks of
        :mod:`algorithms._validation`); imbalanced-learn validates the rest (``validate_data`` here would
        change the errors scikit-learn's checks expect for object and string arrays).
        """
        n_samples = np.asarray(y).shape[0] if y is not None else 0
        weights = None if sample_weight is None else check_sample_weight(sample_weight, n_samples)
        check_binary_target(y, estimator_name=type(self).__name__, sample_weight=weights)
        check_feature_magnitude(
            X, estimator_name=type(self).__name__, feature_names=getattr(X, "columns", None)
        )
        if cost_matrix is not None:
            check_cost_matrix(cost_matrix, np.shape(y)[0])
        return super().fit(X, y, sample_weight=sample_weight)

    def _check_X(self, X):
        """The features of every prediction (``predict``, ``predict_proba``, ``decision_function`` and
        their staged forms: scikit-learn's boosting validates them all here), within float32's range as in
        ``fit``."""
        return check_prediction_features(
            self, X, accept_sparse=["csr", "csc"], ensure_2d=True, allow_nd=True, dtype=None
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def get_metadata_routing(self):
        """A consumer's routing: ``fit`` takes ``sample_weight`` and ``cost_matrix``; nothing is routed on."""
        return self._get_metadata_request()


#: The data-level baselines' block of the method table (joined into ``algorithms.METHODS`` by the package).
BASELINE_METHODS = family_methods("baselines")
