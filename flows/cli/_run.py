"""How a subcommand runs a flow: check the configuration in a fraction of a second, make Prefect's API ready
while the flow's modules import, run the flow, and turn each way it can end into words and an exit status.

1. a tracking URI's credentials are moved to MLflow's variables (``tasks.tracking.credentials``), so they are
   never shown, logged or stored; then ``tasks.config.checks.quick_validate`` against the snapshot of known
   names (nothing heavy imported): a bad configuration is explained per option
   (:func:`flows.cli._options.explain_invalid`), exit status 2; so is an MLflow tracking server that does
   not answer (:func:`flows.cli._environment.tracking_server_problem`: seconds, not minutes of retries);
2. :class:`flows.cli._environment.PrefectApi` checks the configured server, or starts the temporary one in
   the background (and, once the flow is done, drains Prefect's queues and stops it);
3. the flow's module is imported (seconds: scikit-learn, MLflow, pandas) while that server starts, and the
   configuration is validated again against the live names (``validate_params``: a user dataset of
   another cache folder, a method registered at run time);
4. the flow runs with SIGTERM ending it like Ctrl-C (``flow_output_guard``), exit status 130 when interrupted;
   an MLflow store that fails during the run (``tasks.tracking.store_errors``) ends it with one line naming
   the store and its error (a comparison adds the cells kept and "rerun to resume"), exit status 1, while
   the SQL and tracebacks MLflow and Prefect log about it stay off the terminal
   (:mod:`flows.cli._store_failures`; Prefect's API, hence its UI, still receives its own lines).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Callable

from flows.cli._common import flow_output_guard
from flows.cli._options import explain_invalid

__all__ = ["RunStopped", "run_flow"]


class RunStopped(Exception):
    """The run stopped without the flow's outcome (bad configuration, no Prefect API, interrupted):
    ``status`` is the exit status; the reason was printed."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


def run_flow(
    command: str,
    model: type,
    raw: dict,
    options: dict[str, str],
    flow: str,
    *,
    interrupted: str,
    view: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext,
    announce: Callable[[object], str | None] | None = None,
) -> dict:
    """Run the flow ``flow`` (``"module:function"``) on the configuration ``raw`` of ``model``; its outcome.

    Parameters
    ----------
    command : str
        The subcommand, for messages (``cslearn <command>: ...``).
    model : type
        The pydantic model of the flow's parameters.
    raw : dict
        The options the user gave, as the model's field names.
    options : dict
        Field name -> the option that sets it, for messages.
    flow : str
        ``"module:function"`` of the flow (imported while Prefect's server starts).
    interrupted : str
        What to say when the run is interrupted.
    view : callable
        A context manager around the flow run (the progress view).
    announce : callable, optional
        ``announce(params)``: a line to print on stderr once the configuration passed its first check,
        before any work (``None`` to print nothing), e.g. how many cells a comparison runs.

    Raises
    ------
    RunStopped
        When the run ended before or instead of the flow's outcome; the reason was printed to stderr.
    """
    from pydantic import ValidationError

    from flows.cli._environment import PrefectApi, PrefectUnavailableError
    from tasks.config.checks import ProtocolError, quick_validate, validate_params
    from tasks.tracking.credentials import use_uri_credentials

    api = PrefectApi()
    if raw.get("tracking_uri") is not None:  # its credentials go to MLflow's variables, never further
        raw = {**raw, "tracking_uri": use_uri_credentials(raw["tracking_uri"])}
    try:
        unreachable = _tracking_server_problem(raw.get("tracking_uri"), options)
        if unreachable:
            print(f"cslearn {command}: {unreachable}", file=sys.stderr)
            raise RunStopped(2)
        params = quick_validate(model, raw)
        message = announce(params) if announce is not None else None
        if message:
            print(f"cslearn {command}: {message}", file=sys.stderr)
        api.start()
        if api.temporary:
            print(
                f"cslearn {command}: starting Prefect's temporary server (PREFECT_API_URL is not set); its "
                f"log: {api.log_path}",
                file=sys.stderr,
            )
        module_name, function_name = flow.split(":")
        function = getattr(importlib.import_module(module_name), function_name)
        # imports Prefect and MLflow, loaded by now with the flow's module
        from flows.cli._store_failures import store_failures_off_the_terminal

        params = validate_params(model, params)
        api.wait()
        with flow_output_guard(), api.settings(), view(), store_failures_off_the_terminal():
            return function(params)
    except (ValidationError, ProtocolError) as error:
        if isinstance(error, ValidationError) and error.title != model.__name__:
            raise  # not the configuration: a failure inside the flow
        explain_invalid(command, error, options)  # a ProtocolError: class counts known once described
        raise RunStopped(2) from None
    except PrefectUnavailableError as error:
        print(f"cslearn {command}: {error}", file=sys.stderr)
        raise RunStopped(1) from None
    except KeyboardInterrupt:
        print(f"cslearn {command}: interrupted; {interrupted}", file=sys.stderr)
        raise RunStopped(130) from None
    except Exception as error:
        failure = _store_failure(error, raw.get("tracking_uri"))
        if failure is None:
            raise
        print(f"cslearn {command}: {failure}", file=sys.stderr)
        raise RunStopped(1) from None
    finally:
        api.close()


def _store_failure(error: Exception, tracking_uri: str | None):
    """``error`` as a ``tasks.tracking.store_errors.TrackingStoreError`` when it is a failure of the run's
    MLflow store (``tracking_uri``, else the default one), else ``None``."""
    if "mlflow" not in sys.modules:  # MLflow was never used: not a failure of its store
        return None
    from tasks.tracking.mlflow_runs import default_tracking_uri
    from tasks.tracking.store_errors import store_failure

    return store_failure(error, tracking_uri or default_tracking_uri())


def _tracking_server_problem(tracking_uri: str | None, options: dict[str, str]) -> str | None:
    """Why the MLflow tracking server the run would use does not answer (``tracking_uri`` as given, else
    ``MLFLOW_TRACKING_URI``); ``None`` when it answers or the store is local. Checked before the snapshot of
    names, which a first run builds: seconds either way."""
    from flows.cli._environment import tracking_server_problem

    if tracking_uri:
        return tracking_server_problem(tracking_uri, options.get("tracking_uri", "tracking_uri"))
    if os.environ.get("MLFLOW_TRACKING_URI"):
        return tracking_server_problem(os.environ["MLFLOW_TRACKING_URI"], "MLFLOW_TRACKING_URI")
    return None
