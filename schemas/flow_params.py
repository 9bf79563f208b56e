"""Typed, frozen parameters of the flows (pydantic, ``extra="forbid"``): compare, retrain, ingest.

Structural rules (positive counts, sorted ensemble sizes, protocol names, fractions, duplicates) and upper
bounds that keep a run finite (:data:`MAX_REPEATS`, :data:`MAX_FOLDS`, :data:`MAX_ESTIMATORS` rounds,
32-bit seeds, :data:`MAX_CELLS` cells per comparison) are checked by the models themselves. Names that only
the code and the data know are checked when the caller passes them as validation context,
``Model.model_validate(data, context=...)`` with the keys

- ``"methods"``: the method keys (``algorithms.METHODS``), for ``CompareParams.methods`` and
  ``RetrainParams.candidates`` (and the cell count of a comparison of every method);
- ``"method_parameters"``: ``{method: [constructor parameter names]}``, for ``CompareParams.method_params``;
- ``"datasets"``: every usable dataset name, registered or ingested by the user from a file
  (``tasks.datasets.dataset_names``), for ``CompareParams``;
- ``"registered_datasets"``: the built-in datasets (``tasks.datasets.DATASETS``), for ``IngestParams``
  (the ingest flow ingests registered sources; a user's file is ingested with ``cslearn datasets ingest``);
- ``"business_datasets"``: the datasets with example-dependent costs (a cost model or the user's cost
  columns), for ``RetrainParams.dataset``.
- ``"state_home"``: the resolved state folder (``$CSLEARN_HOME``), inside which ``CompareParams.cell_store``
  may then be given as an absolute path;
- ``"cost_parameters"``: each business dataset's cost-model parameter names (none for a dataset with its own
  cost columns), for ``RetrainParams.cost_params``.

The ``Attributes`` sections speak to the person filling in a Prefect deployment's form (they become its
field descriptions, ``tasks.config.flow_parameters``): what a value means and what leaving it empty does.

Names that become paths are checked by the models themselves (:data:`NAME_PATTERN` for experiments,
:data:`RELATIVE_FOLDER_PATTERN` for the cell store, inside the state folder), and their JSON schemas carry the
same patterns, so a Prefect deployment's API refuses a bad value too. A tracking URI carrying credentials is
refused (they belong in MLflow's variables, ``tasks.tracking.credentials``).

An unknown name raises a ``PydanticCustomError`` of type ``unknown_name`` whose context carries the unknown
names, the known ones and the closest known name of each ("did you mean ...?").

``schemas`` sits beside ``algorithms`` in the layer graph and imports neither it nor ``tasks``:
``tasks.config.checks.validate_params`` builds the context, and every flow validates through it first. Every
violation surfaces as a ``pydantic.ValidationError`` before any work starts.
"""

from __future__ import annotations

import re
from difflib import get_close_matches
from pathlib import PurePosixPath
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_REPLAY_CANDIDATES",
    "HOLDOUT_WINDOW_PATTERN",
    "DEFAULT_INGEST_DATASETS",
    "DEFAULT_REPEATS",
    "MAX_CELLS",
    "MAX_ESTIMATORS",
    "MAX_FOLDS",
    "MAX_REPEATS",
    "NAME_PATTERN",
    "RELATIVE_FOLDER_PATTERN",
    "CompareParams",
    "CostParams",
    "IngestParams",
    "LiveRetrainParams",
    "MonitorParams",
    "REPLAY_PERIOD_PATTERN",
    "ReplayParams",
    "RetrainParams",
    "ScoreParams",
]

#: The papers' repeat counts, used when ``repeats`` is not given: 10 x 5-fold CV, 100 holdout splits, one
#: train / validation / test split.
DEFAULT_REPEATS = {"cv": 10, "holdout": 100, "tvt": 1}

#: Candidate methods ``retrain`` tries by default, chosen by savings on the four business datasets
#: (``docs/results/strongest-methods.md``): together they hold every dataset's best method at a bearable fit
#: time (gradient boosting on the expected cost, Bayes minimum risk over histogram gradient boosting,
#: cost-sensitive logistic regression, the cost-sensitive tree, Bayes minimum risk over logistic regression).
DEFAULT_CANDIDATES = ("csboost", "bmr-hgb", "cslogit", "csdt", "bmr-lr")

#: Candidates a replay refits every period by default: the three cheapest of :data:`DEFAULT_CANDIDATES`
#: (about two seconds each on 250,000 card-fraud rows on one core), so dozens of periods stay affordable.
DEFAULT_REPLAY_CANDIDATES = ("cslogit", "csdt", "bmr-lr")

#: A replay period: ``month`` (calendar months, or a dataset's month column) or a duration of its time column.
REPLAY_PERIOD_PATTERN = r"^(month|\d+(\.\d+)?(s|min|h|d|w))$"

#: The business datasets the scheduled retrains need, ingested by default.
DEFAULT_INGEST_DATASETS = ("credit-scoring", "direct-marketing", "card-fraud")

#: A holdout window of ``RetrainParams.holdout_window``: a share of the time range or a duration (the same
#: pattern as ``tasks.model_registry.holdout.HOLDOUT_WINDOW_PATTERN``).
HOLDOUT_WINDOW_PATTERN = r"^(0?\.\d+|\d+(\.\d+)?%|\d+(\.\d+)?(s|min|h|d|w))$"

#: Upper bounds that keep a run finite and its plan in memory. The papers use at most 100 repeats (WOTBoost),
#: 10 folds, T = 200 and about 40,000 cells (WOTBoost's protocol on 13 datasets with every method).
MAX_REPEATS = 1000
MAX_FOLDS = 100
MAX_ESTIMATORS = 10_000
MAX_CELLS = 100_000
#: Seeds are 32-bit (NumPy's and scikit-learn's ``random_state``).
MAX_SEED = 2**32 - 1

PositiveInt = Annotated[int, Field(gt=0)]
EnsembleSize = Annotated[int, Field(gt=0, le=MAX_ESTIMATORS)]
Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]
UnitFraction = Annotated[float, Field(gt=0.0, lt=1.0)]
ScalarParam = bool | int | float | str | None
#: Prefect artifact keys allow lowercase letters, digits and dashes.
ArtifactKey = Annotated[str, Field(pattern=r"^[a-z0-9-]+$")]

#: A name that is safe as one path segment: 1 to 100 letters, digits, '.', '_' and '-', but not '.' or '..'
#: (experiments, whose artifacts live in a folder of that name).
NAME_PATTERN = r"^(?!\.\.?$)[A-Za-z0-9._-]{1,100}$"
#: A folder below a root, given relative to it: up to 16 such names joined by '/'.
_SEGMENT = r"(?!\.\.?(/|$))[A-Za-z0-9._-]{1,100}"
RELATIVE_FOLDER_PATTERN = rf"^{_SEGMENT}(/{_SEGMENT}){{0,15}}$"


def _safe_name(name: str, info: ValidationInfo) -> str:
    """``name`` if it matches :data:`NAME_PATTERN`; else a ``ValueError`` that states the rule."""
    if not re.fullmatch(NAME_PATTERN, name):
        raise ValueError(
            f"{info.field_name} {name!r} is not a safe name: use 1 to 100 letters, digits, '.', '_' and '-' "
            "(no '/', spaces, and not '.' or '..'), e.g. 'cslearn-compare'"
        )
    return name


def _no_credentials(uri: str | None) -> str | None:
    """``uri`` if it carries no user info (``user:password@``); else a ``ValueError`` saying where they go."""
    if uri is not None and "@" in urlsplit(uri).netloc:
        raise ValueError(
            "the tracking URI carries credentials (user:password@), which would be stored with the run; "
            "pass the URI without them and set MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD "
            "(the command line does this for you)"
        )
    return uri


def _folder_under_home(folder: str | None, info: ValidationInfo) -> str | None:
    """``folder`` as a path relative to the state folder, checked (see ``CompareParams.cell_store``).

    With the validation context key ``"state_home"`` (the resolved ``$CSLEARN_HOME``), an absolute path
    inside it is accepted and made relative; without it (a Prefect deployment's API) only relative ones are.
    """
    if folder is None:
        return None
    home = (info.context or {}).get("state_home")
    path = PurePosixPath(folder)
    if path.is_absolute() and home is not None and path.is_relative_to(home) and path != PurePosixPath(home):
        folder = str(path.relative_to(home))
    if not re.fullmatch(RELATIVE_FOLDER_PATTERN, folder):
        where = f" ({home})" if home is not None else ""
        raise ValueError(
            f"{info.field_name} {folder!r} must be a folder inside $CSLEARN_HOME{where}: a path relative to "
            "it (or absolute inside it) of names made of letters, digits, '.', '_' and '-', without '..'"
        )
    return folder


#: An MLflow experiment name (:data:`NAME_PATTERN`); the JSON schema carries the pattern so Prefect's API
#: refuses a bad one too.
ExperimentName = Annotated[
    str, AfterValidator(_safe_name), Field(json_schema_extra={"pattern": NAME_PATTERN, "maxLength": 100})
]
#: A tracking URI without credentials.
TrackingUri = Annotated[str, AfterValidator(_no_credentials)]
#: A folder of the state folder, relative to it (:data:`RELATIVE_FOLDER_PATTERN`).
HomeFolder = Annotated[str, Field(json_schema_extra={"pattern": RELATIVE_FOLDER_PATTERN})]


def _unknown(names, info: ValidationInfo, known_names: str) -> tuple[list, list | None]:
    """The names absent from the context's list ``known_names`` (none when no context was given), and that
    list."""
    known = (info.context or {}).get(known_names)
    if known is None:
        return [], None
    return [name for name in names if name not in known], sorted(known)


def unknown_names_error(
    field: str, unknown: list, known: list, message: str, known_as: str = "known", *, problem: str = "unknown"
) -> PydanticCustomError:
    """An ``unknown_name`` error: ``message``, "did you mean ...?" for near misses, then ``known_as: known``.

    Its context carries ``field``, ``problem`` (``"unknown"``, or what else is wrong with the names),
    ``unknown``, ``known`` and ``suggestions`` (unknown name -> closest known name), so a caller (the command
    line) can word it for its own options.
    """
    suggestions = {
        name: close[0] for name in unknown if (close := get_close_matches(name, known, n=1, cutoff=0.6))
    }
    if len(unknown) == 1 and suggestions:
        hint = f"did you mean {suggestions[unknown[0]]!r}?"
    else:
        hint = "; ".join(f"did you mean {close!r} for {name!r}?" for name, close in suggestions.items())
    return PydanticCustomError(
        "unknown_name",
        "{message}",
        {
            "message": f"{message}{f' ({hint})' if hint else ''}; {known_as}: {known}",
            "field": field,
            "problem": problem,
            "unknown": list(unknown),
            "known": list(known),
            "suggestions": suggestions,
        },
    )


def _known_names(names, info: ValidationInfo, *, known_names: str, known_as: str):
    """``names`` if none repeats and (given a context) each is in the context's list ``known_names``; else a
    ``ValueError`` (repeats) or an ``unknown_name`` error (:func:`unknown_names_error`)."""
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        raise ValueError(f"{info.field_name} lists {duplicated} more than once")
    unknown, known = _unknown(names, info, known_names)
    if unknown:
        raise unknown_names_error(
            info.field_name, unknown, known, f"unknown {info.field_name} {unknown}", known_as
        )
    return names


def _business_dataset_name(name: str, info: ValidationInfo) -> str:
    """``name`` if (given a context) it is a business dataset; else an ``unknown_name`` error."""
    unknown, known = _unknown([name], info, "business_datasets")
    if unknown:
        problem = "is not a business dataset (one with example-dependent costs: a cost model or cost columns)"
        raise unknown_names_error(
            "dataset", unknown, known, f"dataset {name!r} {problem}", "choose one of", problem=problem
        )
    return name


def _bounded_ensemble_sizes(overrides: dict[str, dict]) -> dict[str, dict]:
    """``overrides`` if no ``n_estimators`` in them exceeds :data:`MAX_ESTIMATORS`."""
    for method, params in overrides.items():
        size = params.get("n_estimators")
        if isinstance(size, int | float) and not isinstance(size, bool) and size > MAX_ESTIMATORS:
            raise ValueError(
                f"method_params[{method!r}] sets n_estimators={size}; at most {MAX_ESTIMATORS:,} rounds"
            )
    return overrides


class CompareParams(BaseModel):
    """Parameters of one ``compare`` run: which datasets and methods, under which protocol.

    Attributes
    ----------
    datasets : tuple of str
        Datasets to compare on: built-in ones (``cslearn datasets list``) or your own files ingested with
        ``cslearn datasets ingest``.
    methods : tuple of str or None
        Methods to compare (``cslearn methods list``). Leave empty to compare every method.
    protocol : {"cv", "holdout", "tvt"}
        How each dataset is split: ``cv``, ``repeats`` x ``folds`` stratified cross-validation; ``holdout``,
        ``repeats`` random stratified splits with ``holdout_test_fraction`` of the rows for testing;
        ``tvt``, ``repeats`` train / validation / test splits in the shares ``tvt_fractions``.
    repeats : int or None
        How many times the protocol is repeated with new splits. Leave empty for the papers' count: 10 under
        ``cv``, 100 under ``holdout``, 1 under ``tvt``. The run fits datasets x methods x repeats x folds
        cells: 1 repeat is a quick look, 10 the papers' protocol.
    folds : int
        Folds per repeat under ``cv`` (ignored by the other protocols).
    holdout_test_fraction : float
        Share of the rows in the test split under ``holdout``.
    tvt_fractions : tuple of float
        Shares of the train, validation and test splits under ``tvt`` (summing to 1).
    n_estimators : tuple of int
        Ensemble sizes T scored for boosting methods, all from one fit with the largest T (the AdaCC paper
        uses 25, 50, 100 and 200).
    cost_selection : {"train", "inner-cv", "none"}
        How methods with a fixed cost ratio choose their cost C- of a false positive (with C+ = 1):
        ``train`` keeps the candidate with the best F1 on the training split (the paper's choice),
        ``inner-cv`` the best mean F1 over ``inner_folds`` inner folds, ``none`` keeps each method's
        default. On a dataset with example-dependent costs the candidates are scored by savings, and C-
        scales the negatives' costs instead of taking ``negative_costs``.
    negative_costs : tuple of float
        The candidate values of C- on datasets without example-dependent costs.
    inner_folds : int
        Inner folds of ``cost_selection`` ``inner-cv``.
    seed : int
        Seed of every split and estimator: the same seed gives the same results.
    training_set : {"train", "under", "rejection", "over"}
        What methods are trained on (CSDT paper, Section 6): the training split as drawn, or resampled from
        it by random under-sampling, cost-proportionate rejection sampling or cost-proportionate
        over-sampling (the last two need example-dependent costs). The test split is never resampled.
    experiment : str
        MLflow experiment the runs are logged to: 1 to 100 letters, digits, '.', '_' and '-'.
    tracking_uri : str or None
        MLflow tracking URI, without credentials. Leave empty for ``MLFLOW_TRACKING_URI`` or the local store
        in ``$CSLEARN_HOME``. Not a deployment parameter: a worker uses its own.
    dask_address : str or None
        Address of a running Dask scheduler (``tcp://HOST:PORT``) to fit the cells on. Leave empty to fit
        them on this machine's worker processes.
    max_workers : int
        Cells fitted at once on this machine, each in its own worker process (one per core is best).
    cell_store : str or None
        Folder, inside ``$CSLEARN_HOME``, where finished cells are kept so that a rerun resumes. Leave empty
        for ``cells``.
    method_params : dict
        Settings of methods that replace their defaults, per method, e.g.
        ``{"adacc1": {"formulation": "paper"}}``. Leave empty for the defaults.
    """

    # An error never echoes its input: a refused tracking URI may carry a password.
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    datasets: tuple[str, ...] = Field(default=("wisconsin",), min_length=1)
    methods: tuple[str, ...] | None = None
    protocol: Literal["cv", "holdout", "tvt"] = "cv"
    repeats: Annotated[int, Field(gt=0, le=MAX_REPEATS)] | None = None
    folds: Annotated[int, Field(ge=2, le=MAX_FOLDS)] = 5
    holdout_test_fraction: UnitFraction = 0.5
    tvt_fractions: tuple[UnitFraction, UnitFraction, UnitFraction] = (0.4, 0.3, 0.3)
    n_estimators: tuple[EnsembleSize, ...] = Field(default=(25, 50, 100, 200), min_length=1, max_length=100)
    cost_selection: Literal["train", "inner-cv", "none"] = "train"
    negative_costs: tuple[Annotated[float, Field(gt=0.0, allow_inf_nan=False)], ...] = Field(
        default=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0), min_length=1, max_length=100
    )
    inner_folds: Annotated[int, Field(ge=2, le=MAX_FOLDS)] = 3
    seed: Seed = 0
    training_set: Literal["train", "under", "rejection", "over"] = "train"
    experiment: ExperimentName = "cslearn-compare"
    tracking_uri: TrackingUri | None = None
    dask_address: str | None = None
    max_workers: Annotated[int, Field(gt=0, le=64)] = 2
    cell_store: HomeFolder | None = None
    method_params: dict[str, dict[str, ScalarParam]] = Field(default_factory=dict)

    @field_validator("datasets", "methods")
    @classmethod
    def _no_duplicates(cls, names, info: ValidationInfo):
        if names is None:
            return names
        if not names:
            raise ValueError(f"{info.field_name} must name at least one entry (or be omitted for all)")
        return _known_names(names, info, known_names=info.field_name, known_as="known")

    @field_validator("method_params")
    @classmethod
    def _known_method_params(cls, overrides, info: ValidationInfo):
        context = info.context or {}
        known_methods = context.get("methods")
        if known_methods is not None:
            unknown = sorted(set(overrides) - set(known_methods))
            if unknown:
                raise ValueError(
                    f"method_params names unknown methods {unknown}; known: {sorted(known_methods)}"
                )
        accepted = context.get("method_parameters") or {}
        for method, params in overrides.items():
            if method in accepted:
                stray = sorted(set(params) - set(accepted[method]))
                if stray:
                    raise ValueError(
                        f"method_params[{method!r}] has unknown parameter(s) {stray}; "
                        f"{method} accepts {sorted(accepted[method])}"
                    )
        return _bounded_ensemble_sizes(overrides)

    @field_validator("n_estimators")
    @classmethod
    def _sorted_unique_sizes(cls, sizes):
        if len(set(sizes)) != len(sizes):
            raise ValueError(f"n_estimators has repeated sizes: {list(sizes)}")
        return tuple(sorted(sizes))

    @field_validator("cell_store", mode="before")
    @classmethod
    def _store_under_home(cls, folder, info: ValidationInfo):
        return _folder_under_home(folder, info) if isinstance(folder, str) else folder

    @field_validator("dask_address")
    @classmethod
    def _scheduler_address(cls, address):
        if address is not None and "://" not in address:
            raise ValueError(f"dask_address must look like tcp://HOST:PORT, got {address!r}")
        return address

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo):
        if abs(sum(self.tvt_fractions) - 1.0) > 1e-9:
            raise ValueError(
                f"tvt_fractions must sum to 1, got {list(self.tvt_fractions)} (sum {sum(self.tvt_fractions)})"
            )
        if self.methods is not None and self.method_params:
            stray = sorted(set(self.method_params) - set(self.methods))
            if stray:
                raise ValueError(f"method_params names methods that are not compared: {stray}")
        known_methods = (info.context or {}).get("methods")
        n_methods = len(self.methods) if self.methods is not None else len(known_methods or ())
        n_cells = len(self.datasets) * n_methods * self.n_repeats * self.n_folds
        if n_cells > MAX_CELLS:
            raise ValueError(
                f"the run has {n_cells:,} cells ({len(self.datasets)} datasets x {n_methods} methods x "
                f"{self.n_repeats} repeats x {self.n_folds} folds), more than the {MAX_CELLS:,} one run may "
                "hold; compare fewer methods or datasets, or use fewer repeats or folds"
            )
        return self

    @property
    def n_repeats(self) -> int:
        """The repeat count in force: ``repeats`` or the protocol's paper default."""
        return self.repeats if self.repeats is not None else DEFAULT_REPEATS[self.protocol]

    @property
    def n_folds(self) -> int:
        """Folds per repeat: ``folds`` under ``cv``, one split otherwise."""
        return self.folds if self.protocol == "cv" else 1


#: A cost in the cost model's unit, or a rate: positive and finite.
PositiveAmount = Annotated[float, Field(gt=0.0, allow_inf_nan=False)]
#: A share in (0, 1].
UpToOne = Annotated[float, Field(gt=0.0, le=1.0)]
#: The name of a column of the dataset.
ColumnName = Annotated[str, Field(min_length=1)]


class CostParams(TypedDict, total=False):
    """Parameters of the dataset's cost model that replace the paper's: amounts and rates above 0, shares
    above 0 and up to 1, column names of the dataset; a name no cost model takes is refused."""

    # The cost models' own parameters and bounds (tasks.cost_models, their _parameter_constraints; a test
    # keeps the two in step). The JSON schema carries the bounds and `additionalProperties: false`, so a
    # deployment's API refuses a negative contact_cost or an unknown name before any run; which of them the
    # dataset's cost model takes is checked with the validation context "cost_parameters" (RetrainParams).
    __pydantic_config__ = ConfigDict(extra="forbid")

    # direct marketing
    balance_column: ColumnName
    deposit_fraction: UpToOne
    interest_spread: PositiveAmount
    contact_cost: PositiveAmount
    # card fraud
    amount_column: ColumnName
    alert_cost: PositiveAmount
    # credit scoring (Kaggle's Give Me Some Credit and PAKDD 2009)
    income_column: ColumnName
    debt_ratio_column: ColumnName | None
    income_scale: PositiveAmount
    income_multiple: PositiveAmount
    max_credit_line: PositiveAmount
    monthly_interest_rate: PositiveAmount
    monthly_cost_of_funds: PositiveAmount
    term_months: Annotated[int, Field(ge=1, le=1200)]
    loss_given_default: UpToOne
    clip_false_positive_cost_at_zero: bool


class RetrainParams(BaseModel):
    """Parameters of one ``retrain`` run.

    Attributes
    ----------
    dataset : str
        The dataset to retrain on: one with example-dependent costs (credit scoring, direct marketing, card
        fraud, or your own file ingested with its cost columns).
    candidates : tuple of str
        Methods to fit (``cslearn methods list``); the best by savings on the holdout is registered.
    holdout_fraction : float
        Share of the rows held out to score the candidates and the current champion; for a dataset with a time
        column, the share of its time range that is the most recent window held out, unless the holdout
        window is given.
    holdout_window : str or None
        For a dataset with a time column: the most recent window held out, as a share of the time range
        (``0.2``, ``20%``) or a duration (``6h``, ``30d``, ``2w``; a numeric time column counts in seconds).
        Training uses the rows before it. Ignored for a dataset without a time column.
    promotion_confidence : float
        The new model becomes the champion only when, at this confidence, its savings gain over the champion
        (a paired bootstrap on the holdout's rows) is above the minimum margin.
    min_margin : float
        The savings gain (challenger minus champion, on the same holdout) the lower bound must exceed.
    bootstrap_resamples : int
        Resamples of the holdout's rows in that paired bootstrap.
    max_rows : int or None
        Use at most this many rows, drawn keeping the share of positives (a quicker run). Leave empty to use
        every row.
    seed : int
        Seed of the holdout and of the estimators.
    experiment : str
        MLflow experiment the retrain runs are logged to: 1 to 100 letters, digits, '.', '_' and '-'.
    model_name : str or None
        Name of the model in MLflow's model registry. Leave empty for ``cslearn-`` followed by the dataset's
        name.
    tracking_uri : str or None
        MLflow tracking URI, without credentials. Leave empty for ``MLFLOW_TRACKING_URI`` or the local store
        in ``$CSLEARN_HOME``. Not a deployment parameter: a worker uses its own.
    method_params : dict
        Settings of candidates that replace their defaults, per method, e.g. ``{"csdt": {"max_depth": 5}}``.
        Leave empty for the defaults.
    cost_params : dict
        Parameters of the dataset's cost model that replace the paper's, e.g. ``{"contact_cost": 2.0}``
        for direct marketing (amounts and rates above 0, shares up to 1). Leave empty for the paper's.
    cache_dir : str or None
        Folder of the dataset cache. Leave empty for ``CSLEARN_CACHE`` or the user cache folder. Not a
        deployment parameter: a worker uses its own.
    cost_selection : {"train", "none"}
        ``train``: a candidate with a fixed cost ratio first chooses its cost C- by savings on the training
        rows (as ``compare`` does on business datasets); ``none``: it keeps its own C-.
    """

    # An error never echoes its input: a refused tracking URI may carry a password.
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    dataset: str
    candidates: tuple[str, ...] = Field(default=DEFAULT_CANDIDATES, min_length=1)
    holdout_fraction: UnitFraction = 0.3
    holdout_window: Annotated[str, Field(pattern=HOLDOUT_WINDOW_PATTERN)] | None = None
    promotion_confidence: Annotated[float, Field(ge=0.5, lt=1.0)] = 0.95
    min_margin: Annotated[float, Field(ge=0.0, lt=1.0)] = 0.0
    bootstrap_resamples: Annotated[int, Field(ge=100, le=100_000)] = 1000
    max_rows: Annotated[int, Field(ge=20)] | None = None
    seed: Seed = 0
    experiment: ExperimentName = "cslearn-retrain"
    model_name: Annotated[str, Field(min_length=1, pattern=r"^[\w.\-]+$")] | None = None
    tracking_uri: TrackingUri | None = None
    method_params: dict[str, dict[str, ScalarParam]] = Field(default_factory=dict)
    cost_params: CostParams = Field(default_factory=dict)
    cache_dir: str | None = None
    cost_selection: Literal["train", "none"] = "train"

    @field_validator("dataset")
    @classmethod
    def _business_dataset(cls, name: str, info: ValidationInfo) -> str:
        return _business_dataset_name(name, info)

    @field_validator("candidates")
    @classmethod
    def _registered_methods(cls, candidates: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        return _known_names(candidates, info, known_names="methods", known_as="registered methods")

    @model_validator(mode="after")
    def _overrides_name_candidates(self):
        stray = sorted(set(self.method_params) - set(self.candidates))
        if stray:
            raise ValueError(f"method_params names methods that are not candidates: {stray}")
        _bounded_ensemble_sizes(self.method_params)
        return self

    @model_validator(mode="after")
    def _cost_params_of_the_dataset(self, info: ValidationInfo):
        """``cost_params`` names parameters of the dataset's own cost model (given the context
        ``"cost_parameters"``: dataset -> its cost model's parameter names, none for a dataset with cost
        columns)."""
        known = (info.context or {}).get("cost_parameters", {}).get(self.dataset)
        stray = sorted(set(self.cost_params) - set(known)) if known is not None else []
        if stray and not known:
            raise ValueError(
                f"dataset {self.dataset!r} has its own cost columns, so cost_params {stray} do not apply"
            )
        if stray:
            raise ValueError(
                f"cost_params {stray} are not parameters of {self.dataset}'s cost model, which takes {known}"
            )
        return self

    @property
    def registered_model_name(self) -> str:
        """The name of the dataset's model in the model registry."""
        return self.model_name or f"cslearn-{self.dataset}"

    @property
    def promotion(self) -> dict:
        """How the challenger is judged against the champion (``tasks.model_registry.significance``)."""
        return {
            "confidence": self.promotion_confidence,
            "min_margin": self.min_margin,
            "resamples": self.bootstrap_resamples,
            "seed": self.seed,
        }


class IngestParams(BaseModel):
    """Parameters of one ``ingest`` run.

    Attributes
    ----------
    datasets : tuple of str
        Built-in datasets to download, check and cache (``cslearn datasets list``).
    cache_dir : str or None
        Folder of the dataset cache. Leave empty for ``CSLEARN_CACHE`` or the user cache folder.
    force : bool
        Ingest again even when a valid copy is already cached.
    report_key : str
        Key of the validation report's summary artifact in Prefect (each dataset's table is
        ``<report_key>-<dataset>``): lowercase letters, digits and dashes.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    datasets: tuple[str, ...] = Field(default=DEFAULT_INGEST_DATASETS, min_length=1)
    cache_dir: str | None = None
    force: bool = False
    report_key: ArtifactKey = "dataset-validation"

    @field_validator("datasets")
    @classmethod
    def _registered(cls, names: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        return _known_names(names, info, known_names="registered_datasets", known_as="registered datasets")


def _no_url_credentials(text: str | None) -> str | None:
    """A source or target without credentials: they would be stored with the flow run's parameters."""
    if text is not None and "://" in text and "@" in urlsplit(text).netloc:
        raise ValueError(
            "the URL carries credentials (user:password@), which would be stored with the flow run; pass it"
            " without them and let the driver find them (PGPASSWORD, ~/.pgpass), or use a dataset's bound"
            " source (CSLEARN_SOURCE_URL_<NAME>)"
        )
    return text


#: A score input or output: a path, a glob, or a SQLAlchemy URL without credentials.
Location = Annotated[str, Field(min_length=1), AfterValidator(_no_url_credentials)]


class _AppliesAModel(BaseModel):
    """What scoring and monitoring share: a known dataset, and its model (the champion unless named)."""

    dataset: str
    model_uri: Annotated[str, Field(pattern=r"^models:/.+")] | None = None

    @field_validator("dataset")
    @classmethod
    def _known_dataset(cls, name: str, info: ValidationInfo) -> str:
        return _known_names([name], info, known_names="datasets", known_as="known")[0]

    @property
    def model(self) -> str:
        """The model URI in force."""
        return self.model_uri or f"models:/cslearn-{self.dataset}@champion"


class ScoreParams(_AppliesAModel):
    """Parameters of one ``score`` run: which model decides which rows, and where the decisions go.

    Attributes
    ----------
    dataset : str
        The dataset whose model scores (its registered model ``cslearn-<dataset>``).
    input : str
        The unlabelled rows: a CSV or parquet file, a folder or glob of them (each file a batch), or a
        SQLAlchemy URL with ``input_table`` or ``input_query``.
    output : str
        Where the decisions go: a folder (one parquet file per batch), a parquet or CSV file (every batch,
        one table), or a SQLAlchemy URL with ``output_table``. Scoring a batch again replaces its rows.
    input_table : str or None
        Table of a database input.
    input_query : str or None
        SELECT query of a database input.
    output_table : str or None
        Table of a database output (created on first use).
    model_uri : str or None
        The model: ``models:/<name>@<alias>``, ``models:/<name>/<version>`` or ``models:/m-<id>``; ``None``
        means ``models:/cslearn-<dataset>@champion``.
    newest : bool
        Score only the newest file of a glob (the last by name), as a scheduled run does.
    batch_id : str or None
        The batch's name for a database input (default: the query's digest and the range of its time
        column), or for a single file (default: its name).
    keep_columns : tuple of str
        Input columns copied into the output beside each decision (identifiers to join back on).
    experiment : str
        MLflow experiment of the scoring runs.
    tracking_uri : str or None
        MLflow tracking URI without credentials; ``None`` means ``MLFLOW_TRACKING_URI`` or the store in the
        state folder.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    dataset: str
    input: Location
    output: Location
    input_table: str | None = None
    input_query: str | None = None
    output_table: Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")] | None = None
    model_uri: Annotated[str, Field(pattern=r"^models:/.+")] | None = None
    newest: bool = False
    batch_id: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    keep_columns: tuple[str, ...] = ()
    experiment: ExperimentName = "cslearn-score"
    tracking_uri: TrackingUri | None = None


class MonitorParams(_AppliesAModel):
    """Parameters of one ``monitor`` run: a batch compared with the champion's training data.

    Attributes
    ----------
    dataset : str
        The dataset whose champion is watched.
    input : str or None
        The batch: a CSV or parquet file (the newest of a glob), or a SQLAlchemy URL with ``input_table`` or
        ``input_query``; ``None`` means the dataset's newest accepted batch (a dataset bound to a source),
        whose labels give the realized savings.
    input_table : str or None
        Table of a database input.
    input_query : str or None
        SELECT query of a database input.
    model_uri : str or None
        The model watched; ``None`` means ``models:/cslearn-<dataset>@champion``.
    psi_threshold : float
        A feature whose population stability index reaches this drifted (0.1: moderate, 0.25: significant).
    drifted_features_to_retrain : int
        Start the retrain when at least this many features drifted (0: never on drift).
    savings_drop_to_retrain : float
        Start the retrain when the realized savings fall this far below the champion's holdout savings
        (0: never on savings).
    retrain_deployment : str or None
        The deployment started past a threshold (``<flow>/<deployment>``); ``None`` means
        ``refresh-and-retrain/refresh-retrain`` with this dataset.
    trigger_retrain : bool
        Start that deployment past a threshold (else only say it would).
    experiment : str
        MLflow experiment of the monitoring runs.
    tracking_uri : str or None
        MLflow tracking URI without credentials.
    cache_dir : str or None
        Dataset cache folder.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    dataset: str
    input: Location | None = None
    input_table: str | None = None
    input_query: str | None = None
    model_uri: Annotated[str, Field(pattern=r"^models:/.+")] | None = None
    psi_threshold: Annotated[float, Field(gt=0.0, le=10.0)] = 0.25
    drifted_features_to_retrain: Annotated[int, Field(ge=0)] = 1
    savings_drop_to_retrain: Annotated[float, Field(ge=0.0)] = 0.1
    retrain_deployment: Annotated[str, Field(pattern=r"^[^/]+/[^/]+$")] | None = None
    trigger_retrain: bool = True
    experiment: ExperimentName = "cslearn-monitor"
    tracking_uri: TrackingUri | None = None
    cache_dir: str | None = None

    @property
    def deployment(self) -> str:
        """The retrain deployment in force."""
        return self.retrain_deployment or "refresh-and-retrain/refresh-retrain"


class LiveRetrainParams(RetrainParams):
    """Parameters of one ``refresh-and-retrain`` run: refresh the dataset's source, then retrain on it.

    Attributes
    ----------
    dataset : str
        A business dataset; when bound to a source it is refreshed first (a registered dataset is retrained
        on its snapshot).
    """


class ReplayParams(BaseModel):
    """Parameters of one ``replay`` run: a dataset's history fed period by period through the live loop.

    Attributes
    ----------
    dataset : str
        A dataset with example-dependent costs and an order in time: card fraud (its ``Time`` column),
        direct marketing (the calls in order, by their ``month``), or your own dataset with a time column.
    period : str
        The length of one batch: ``month``, or a duration of the time column (``1h``, ``30min``, ``1d``,
        ``2w``; a numeric time column counts in seconds).
    candidates : tuple of str
        Methods every period's retrain fits (``cslearn methods list``).
    warmup_share : float
        The first champion is trained on the first periods that hold at least this share of the rows (and at
        least one period more than the holdout); the replay starts after them.
    holdout_periods : int
        Every retrain holds out its newest periods, this many, to judge the candidates and the champion.
    max_periods : int or None
        Replay at most this many periods after the warm-up. Leave empty for every period.
    promotion_confidence : float
        A retrain's best candidate becomes the champion only when, at this confidence, its savings gain over
        the champion (a paired bootstrap on the holdout's rows) is above zero.
    bootstrap_resamples : int
        Resamples of the holdout's rows in that paired bootstrap.
    psi_threshold : float
        A feature whose population stability index reaches this drifted (0.1: moderate, 0.25: significant).
    seed : int
        Seed of the holdouts and of the estimators.
    experiment : str
        MLflow experiment of the replay's parent run: 1 to 100 letters, digits, '.', '_' and '-'.
    tracking_uri : str or None
        MLflow tracking URI, without credentials. Leave empty for ``MLFLOW_TRACKING_URI`` or the local store
        in ``$CSLEARN_HOME``. Not a deployment parameter: a worker uses its own.
    cache_dir : str or None
        Folder of the dataset cache. Leave empty for ``CSLEARN_CACHE`` or the user cache folder. Not a
        deployment parameter: a worker uses its own.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    dataset: str
    period: Annotated[str, Field(pattern=REPLAY_PERIOD_PATTERN)]
    candidates: tuple[str, ...] = Field(default=DEFAULT_REPLAY_CANDIDATES, min_length=1)
    warmup_share: UnitFraction = 0.2
    holdout_periods: Annotated[int, Field(ge=1, le=100)] = 3
    max_periods: PositiveInt | None = None
    promotion_confidence: Annotated[float, Field(ge=0.5, lt=1.0)] = 0.95
    bootstrap_resamples: Annotated[int, Field(ge=100, le=100_000)] = 1000
    psi_threshold: Annotated[float, Field(gt=0.0, le=10.0)] = 0.25
    seed: Seed = 0
    experiment: ExperimentName = "cslearn-replay"
    tracking_uri: TrackingUri | None = None
    cache_dir: str | None = None

    @field_validator("dataset")
    @classmethod
    def _business_dataset(cls, name: str, info: ValidationInfo) -> str:
        return _business_dataset_name(name, info)

    @field_validator("candidates")
    @classmethod
    def _registered_methods(cls, candidates: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        return _known_names(candidates, info, known_names="methods", known_as="registered methods")

    @field_validator("period", mode="before")
    @classmethod
    def _period_in_words(cls, period):
        """Say what a period is in words before the pattern check would quote its regular expression."""
        if isinstance(period, str) and not re.match(REPLAY_PERIOD_PATTERN, period):
            raise ValueError(
                f"{period!r} is not a period: use 'month', or a number and a unit of the time column "
                "(s, min, h, d or w), e.g. 1h, 30min, 7d"
            )
        return period
