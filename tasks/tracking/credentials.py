"""Credentials stay in the process: user info in a URI is redacted when shown, moved to MLflow's variables.

A tracking URI such as ``http://alice:s3cret@host:5000`` carries a password. Printed, logged as a parameter,
stored as a flow parameter or in a log line, it would leak to everyone who reads runs, logs or Prefect's
database. So the password never travels with the URI:

- :func:`use_uri_credentials` moves the user info of a URI into ``MLFLOW_TRACKING_USERNAME`` /
  ``MLFLOW_TRACKING_PASSWORD`` (the variables MLflow's HTTP client reads for basic authentication) of this
  process and returns the bare URI, which is what the pipeline uses, shows and stores from then on;
- :func:`redact_uri` (:mod:`tasks.redaction`, shared with the data layer's SQL sources) replaces the user
  info by ``***`` wherever a URI that may still carry it is shown.

The flow parameter models (``schemas.flow_params``) refuse a URI with user info, so one can never reach a
Prefect flow run's parameters.
"""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit, urlunsplit

from tasks.redaction import host_part, redact_uri

__all__ = [
    "PASSWORD_VARIABLE",
    "USERNAME_VARIABLE",
    "redact_uri",
    "use_uri_credentials",
]

#: MLflow's basic-authentication variables.
USERNAME_VARIABLE = "MLFLOW_TRACKING_USERNAME"
PASSWORD_VARIABLE = "MLFLOW_TRACKING_PASSWORD"


def use_uri_credentials(uri: str | None) -> str | None:
    """The bare ``uri``, its user name and password moved into MLflow's variables of this process.

    ``MLFLOW_TRACKING_USERNAME`` and ``MLFLOW_TRACKING_PASSWORD`` are set (percent-decoded) only when the URI
    carries them; a URI without user info (or ``None``) is returned unchanged.
    """
    if uri is None:
        return None
    parts = urlsplit(uri)
    if "@" not in parts.netloc:
        return uri
    if parts.username is not None:
        os.environ[USERNAME_VARIABLE] = unquote(parts.username)
    if parts.password is not None:
        os.environ[PASSWORD_VARIABLE] = unquote(parts.password)
    return urlunsplit(parts._replace(netloc=host_part(parts.netloc)))
