"""``cslearn serve DATASET``: serve a dataset's champion over HTTP, loaded only by cslearn's own loader.

The model (``models:/cslearn-DATASET@champion``, or ``--model URI``) is downloaded, checked and loaded by
:mod:`tasks.model_registry.model_server`: a folder whose ``MLmodel`` asks for another loader or bundled code,
names a file outside itself, or holds a damaged estimator file is refused in one line (exit status 1) before
the server starts. Then MLflow's scoring application answers on ``--host``/``--port`` (``/ping``,
``/invocations``) until Ctrl-C or SIGTERM (exit status 130).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys

from flows.cli._common import INTERRUPTED_STATUS
from flows.cli._options import add_parser

__all__ = ["register"]

DESCRIPTION = """\
Serve a dataset's champion (or --model) over HTTP: POST the raw rows to /invocations and get, per row, the
decision, the probability, the expected cost and the four costs used. The model is loaded by cslearn's own
loader only: its files must be inside its folder, its estimator is read with cslearn's allow-list of trusted
types, and a model folder that asks for another loader or bundled code is refused (mlflow models serve would
run that code). The answers are MLflow's scoring server's; a refused request gets HTTP 400 with the reason."""

EXAMPLES = """\
  cslearn serve direct-marketing                           # http://127.0.0.1:5001/invocations
  cslearn serve credit-scoring --port 8080
  cslearn serve fraud --model models:/cslearn-fraud/3 --tracking-uri http://127.0.0.1:5000
"""

#: The port of ``mlflow models serve``'s documentation examples, kept for ``cslearn serve``.
DEFAULT_PORT = 5001


def register(subparsers) -> None:
    """Add the ``serve`` subcommand."""
    parser = add_parser(
        subparsers,
        "serve",
        help="serve a dataset's champion over HTTP (raw columns in, decisions and costs out)",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    parser.add_argument("dataset", metavar="DATASET", help="the dataset whose champion is served")
    parser.add_argument(
        "--model", dest="model_uri", help="model URI or folder (default models:/cslearn-DATASET@champion)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--tracking-uri", help="MLflow tracking URI (default $MLFLOW_TRACKING_URI or the project store)"
    )
    parser.set_defaults(handler=run)


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"received signal {signum}")


def run(args: argparse.Namespace) -> int:
    """Load and check the model, then serve it until interrupted."""
    from mlflow.exceptions import MlflowException

    from tasks.model_registry.model_server import load_served_model, run_scoring_server
    from tasks.redaction import redact_uri
    from tasks.tracking.credentials import use_uri_credentials
    from tasks.tracking.mlflow_runs import default_tracking_uri

    model_uri = args.model_uri or f"models:/cslearn-{args.dataset}@champion"
    tracking_uri = use_uri_credentials(args.tracking_uri) or default_tracking_uri()
    try:
        model = load_served_model(model_uri, tracking_uri=tracking_uri)
    except (ValueError, OSError) as error:
        print(f"cslearn serve: {model_uri} cannot be served: {error}", file=sys.stderr)
        return 1
    except MlflowException as error:
        print(f"cslearn serve: {model_uri} in {redact_uri(tracking_uri)}: {error.message}", file=sys.stderr)
        return 1
    print(
        f"cslearn serve: {model_uri} at http://{args.host}:{args.port}/invocations (Ctrl-C stops)",
        file=sys.stderr,
    )
    # The server stops only on SIGINT or SIGTERM (uvicorn shuts down, then passes the signal on; a port it
    # cannot bind exits with status 1). SIGTERM then ends like Ctrl-C rather than killing the process.
    signal.signal(signal.SIGTERM, _interrupt)
    with contextlib.suppress(KeyboardInterrupt):
        run_scoring_server(model, host=args.host, port=args.port)
    print("cslearn serve: stopped", file=sys.stderr)
    return INTERRUPTED_STATUS
