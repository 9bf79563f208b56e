"""Transitional alias of :mod:`tasks.cost_models` (the package's former name ``tasks/costs/``).

Only ``flows/cli/datasets.py`` and ``benchmarks/bench_tree.py`` still import ``tasks.costs``; their owners
switch them to ``tasks.cost_models`` and delete this module. Nothing else may import it.
"""

from tasks.cost_models import COST_MODELS, cost_characteristic_summary, fit_cost_model

__all__ = ["COST_MODELS", "cost_characteristic_summary", "fit_cost_model"]
