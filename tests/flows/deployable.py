"""A deployable variant of the ``retrain`` flow for ``test_deploy.py``: the same flow and retries, 1 s apart.

The scheduled retrain waits two minutes between attempts; a test of its retries on a real worker uses this
entrypoint (``tests/flows/deployable.py:quickly_retried_retrain``) so that three attempts take seconds.
"""

from __future__ import annotations

from flows.retrain import retrain

quickly_retried_retrain = retrain.with_options(retry_delay_seconds=1)
