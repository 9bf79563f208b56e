"""The MLflow model registry side of ``retrain``: holdout, candidates, model serialization, promotion.

- :mod:`~tasks.model_registry.holdout`: the deterministic, fingerprint-seeded holdout and the split data
  (``RetrainData``) with both sides' cost matrices;
- :mod:`~tasks.model_registry.candidates`: fit a candidate with the training costs, score it on the holdout,
  log it as a child run with its model; pick the best;
- :mod:`~tasks.model_registry.serialization`: log a fitted estimator as an MLflow model (skops with a trusted
  allow-list, cloudpickle fallback), load a registered version back;
- :mod:`~tasks.model_registry.promotion`: register the best candidate and move ``champion`` only when it beats
  the current champion re-scored on the same holdout (``challenger`` otherwise).
"""

from tasks.model_registry.candidates import (
    CandidateProgress,
    CandidateResult,
    best_candidate,
    fit_and_log_candidate,
    fit_and_log_candidate_task,
    retrain_outcome,
    retrain_parent_run,
)
from tasks.model_registry.holdout import (
    Holdout,
    RetrainData,
    holdout_seed,
    make_holdout,
    prepare_retrain_data,
    prepare_retrain_data_task,
)
from tasks.model_registry.promotion import (
    CHALLENGER,
    CHAMPION,
    RegistryDecision,
    decide_alias,
    register_and_promote,
    register_and_promote_task,
    version_with_alias,
)
from tasks.model_registry.serialization import (
    TRUSTED_MODULE_PREFIXES,
    choose_serialization,
    load_model_version,
    log_sklearn_model,
    model_pip_requirements,
    skops_trusted_types,
)

__all__ = [
    "CHALLENGER",
    "CHAMPION",
    "TRUSTED_MODULE_PREFIXES",
    "CandidateProgress",
    "CandidateResult",
    "Holdout",
    "RegistryDecision",
    "RetrainData",
    "best_candidate",
    "choose_serialization",
    "decide_alias",
    "fit_and_log_candidate",
    "fit_and_log_candidate_task",
    "holdout_seed",
    "load_model_version",
    "log_sklearn_model",
    "make_holdout",
    "model_pip_requirements",
    "prepare_retrain_data",
    "prepare_retrain_data_task",
    "register_and_promote",
    "register_and_promote_task",
    "retrain_outcome",
    "retrain_parent_run",
    "skops_trusted_types",
    "version_with_alias",
]
