"""``docs/serving.md``'s commands, pasted after the README's retrain example, work as written.

The README's retrain line runs with a row cap (``--max-rows``: the only change, to keep the test short) in a
throw-away ``CSLEARN_HOME``; then the serving block of ``docs/serving.md`` runs in bash exactly as written,
its port 5001 replaced by a free one. The documented request (``docs/requests/direct-marketing.json``: raw
columns, ``"job": "management"``) must come back as decisions with the costs of each row.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.servers import free_port

pytestmark = [pytest.mark.slow, pytest.mark.servers]

PROJECT = Path(__file__).resolve().parents[2]


def _block(document: str, marker: str) -> str:
    """The first ```bash block of ``document`` that contains ``marker``."""
    for block in re.findall(r"```bash\n(.*?)```", document, flags=re.DOTALL):
        if marker in block:
            return block
    raise AssertionError(f"no bash block with {marker!r}")


def test_the_serving_commands_work_after_the_readme_retrain(tmp_path):
    readme = (PROJECT / "README.md").read_text()
    retrain = next(line for line in readme.splitlines() if "cslearn retrain direct-marketing" in line)
    retrain = retrain.split("#")[0].strip() + " --max-rows 3000"
    serving = _block((PROJECT / "docs" / "serving.md").read_text(), "cslearn serve")
    port = str(free_port())
    script = "\n".join(
        [
            "set -euo pipefail",
            f"cd {PROJECT}",
            retrain,
            serving.replace("5001", port),
            "kill %1",
            "wait || true",
        ]
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("MLFLOW_")}
    env.update(CSLEARN_HOME=str(tmp_path / "home"), HOME=os.environ.get("HOME", str(tmp_path)))
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=1500)
    assert done.returncode == 0, done.stderr[-4000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    predictions = answer["predictions"]
    assert len(predictions) == 2 and set(predictions[0]) == {
        "decision",
        "probability",
        "expected_cost",
        "C_FP",
        "C_FN",
        "C_TP",
        "C_TN",
    }
    assert predictions[0]["C_FN"] == pytest.approx(2143 * 0.20 * 0.02463333)  # the first row's balance
