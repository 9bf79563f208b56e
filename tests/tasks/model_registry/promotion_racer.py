"""One retrain's promotion in a process of its own, held at points a test controls (``test_promotion_races``).

``python -m tests.tasks.model_registry.promotion_racer SPEC`` reads a JSON ``SPEC``: ``tracking_uri``,
``model_name``, ``candidate`` (a pickled ``CandidateResult`` already logged in that store), ``rows`` (of
:func:`~tests.tasks.model_registry.conftest.synthetic_retrain_data`, the data it was fitted on),
``promotion``, ``commit``, ``barrier`` (a folder) and ``name``. It calls the real
:func:`tasks.model_registry.promotion.register_and_promote` and prints the decision as JSON on its last line.

Barrier: MLflow's ``MlflowClient.get_model_version_by_alias`` is wrapped so that the process, right after it
first reads the ``champion`` alias, creates ``<barrier>/<name>.arrived`` and waits until the test creates
``<barrier>/<name>.go``. With ``"hold": "alias"`` it instead stops for good right before it first sets an
alias (``<name>.arrived`` says so), so that the test can kill it there. ``<name>.ready`` is created once
everything is imported and the store is open, just before the promotion starts.
"""

from __future__ import annotations

import json
import pickle
import sys
import time
from pathlib import Path

from mlflow import MlflowClient

from tasks.model_registry.promotion import register_and_promote
from tasks.tracking.mlflow_runs import tracking_client
from tests.tasks.model_registry.conftest import synthetic_retrain_data

#: Seconds a held process waits for the test before giving up.
HOLD_SECONDS = 300.0


def _wait_for(path: Path) -> None:
    deadline = time.monotonic() + HOLD_SECONDS
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the test never created {path}")
        time.sleep(0.02)


def hold_after_first_champion_read(barrier: Path, name: str) -> None:
    """Wait at the barrier right after the first read of the ``champion`` alias (found or not)."""
    read = MlflowClient.get_model_version_by_alias
    held = []

    def read_then_wait(self, model_name, alias):
        try:
            return read(self, model_name, alias)
        finally:
            if alias == "champion" and not held:
                held.append(True)
                (barrier / f"{name}.arrived").touch()
                _wait_for(barrier / f"{name}.go")

    MlflowClient.get_model_version_by_alias = read_then_wait


def stop_before_first_alias(barrier: Path, name: str) -> None:
    """Stop for good right before the first alias is set: the version exists, its alias does not."""

    def stop(self, model_name, alias, version):
        (barrier / f"{name}.arrived").touch()
        time.sleep(HOLD_SECONDS)
        raise TimeoutError("the test never killed this process")

    MlflowClient.set_registered_model_alias = stop


def main(spec: dict) -> None:
    barrier, name = Path(spec["barrier"]), spec["name"]
    candidate = pickle.loads(Path(spec["candidate"]).read_bytes())
    data = synthetic_retrain_data(rows=spec["rows"])
    client = tracking_client(spec["tracking_uri"])
    if spec.get("hold") == "alias":
        stop_before_first_alias(barrier, name)
    else:
        hold_after_first_champion_read(barrier, name)
    (barrier / f"{name}.ready").touch()
    decision = register_and_promote(
        client,
        spec["model_name"],
        candidate,
        data,
        commit=spec.get("commit"),
        promotion=spec.get("promotion"),
    )
    print(json.dumps(decision.as_dict()))


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
