"""The MLflow model registry side of ``retrain``, and the cost-aware model a registered version serves.

- :mod:`~tasks.model_registry.holdout`: the deterministic, fingerprint-seeded holdout and the split data
  (``RetrainData``) with both sides' cost matrices and the fitted cost model;
- :mod:`~tasks.model_registry.candidates`: fit a candidate with the training costs, score it on the holdout,
  log it as a child run with its model ``<dataset>-<method>``; pick the best;
- :mod:`~tasks.model_registry.serialization`: skops with an explicit allow-list of trusted types, cloudpickle
  only on opt-in;
- :mod:`~tasks.model_registry.serving`: the cost-aware pyfunc (MLflow's ``loader_module``): decisions on raw
  rows with the costs derived from each row or given with it;
- :mod:`~tasks.model_registry.logged_models`: log a fitted estimator with its cost model as an MLflow model,
  load a logged or registered one back (``load_estimator``, ``load_cost_aware_model``);
- :mod:`~tasks.model_registry.model_folder`: a downloaded model folder read with every file inside it;
- :mod:`~tasks.model_registry.model_server`: ``cslearn serve``, MLflow's scoring application around a model
  loaded by cslearn's loader only;
- :mod:`~tasks.model_registry.significance`: the paired bootstrap on the savings difference that decides
  whether a challenger beats the champion by more than the noise;
- :mod:`~tasks.model_registry.holdout_judge`: registered versions scored on a retrain's holdout, and which of
  two wins (the earlier is the incumbent);
- :mod:`~tasks.model_registry.registry_versions`: versions created ``pending``, then decided; versions a dead
  retrain left pending settled by the next one;
- :mod:`~tasks.model_registry.promotion`: register the best candidate from its logged model and move
  ``champion`` only when it beats the current champion re-scored on the same holdout (``challenger``
  otherwise, and for a model whose savings are not positive; nothing when it repeats the champion), as a
  compare-and-set that two retrains running at once cannot break;
- :mod:`~tasks.model_registry.retrain_answer`: what the retrain answers, on its parent run: best and champion
  savings, the margin, the verdict in one line.

Names are imported on first use (PEP 562), so that a model server importing
:mod:`~tasks.model_registry.serving` does not load Prefect and the training stack.
"""

from __future__ import annotations

import importlib

#: Public name -> submodule that defines it.
_EXPORTS = {
    "CandidateFailure": "candidates",
    "CandidateProgress": "candidates",
    "CandidateResult": "candidates",
    "best_candidate": "candidates",
    "fit_and_log_candidate": "candidates",
    "fit_and_log_candidate_task": "candidates",
    "log_retrain_input": "candidates",
    "log_retrain_input_task": "candidates",
    "NoCandidateError": "candidates",
    "retrain_outcome": "candidates",
    "retrain_parent_run": "candidates",
    "settled_candidate": "candidates",
    "Holdout": "holdout",
    "RetrainData": "holdout",
    "holdout_seed": "holdout",
    "make_holdout": "holdout",
    "prepare_retrain_data": "holdout",
    "prepare_retrain_data_task": "holdout",
    "cslearn_version": "logged_models",
    "load_cost_aware_model": "logged_models",
    "load_estimator": "logged_models",
    "load_model_version": "logged_models",
    "log_model": "logged_models",
    "model_pip_requirements": "logged_models",
    "serving_signature": "logged_models",
    "CHALLENGER": "promotion",
    "CHAMPION": "promotion",
    "MIN_HOLDOUT_POSITIVES": "promotion",
    "UNCHANGED": "promotion",
    "RegistryDecision": "promotion",
    "decide_alias": "promotion",
    "decision_warnings": "promotion",
    "holdout_warning": "promotion",
    "register_and_promote": "promotion",
    "register_and_promote_task": "promotion",
    "version_description": "promotion",
    "version_with_alias": "registry_versions",
    "champion_label": "retrain_answer",
    "log_retrain_answer": "retrain_answer",
    "log_retrain_answer_task": "retrain_answer",
    "registry_verdict": "retrain_answer",
    "SavingsComparison": "significance",
    "paired_savings_bootstrap": "significance",
    "TRUSTED_TYPES": "serialization",
    "UntrustedModelError": "serialization",
    "choose_serialization": "serialization",
    "skops_safe_copy": "serialization",
    "skops_trusted_types": "serialization",
    "CostAwareModel": "serving",
    "cost_model_from_state": "serving",
    "cost_model_state": "serving",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
