"""A URI as it may be shown or stored: without the credentials it may carry.

A URI carries credentials in two places: its user info (``http://alice:s3cret@host``) and its query, in the
form libpq, SQLAlchemy and some proxies accept (``postgresql://host/db?user=alice&password=s3cret``,
``...?access_token=...``, a signed URL's ``X-Amz-Signature``). Tracking URIs (``tasks.tracking.credentials``,
the command line's output) and the SQL URLs of dataset sources (``tasks.datasets``) both pass through
:func:`redact_uri` before they are printed, logged or written to a record; it sits below both rooms so
that each uses the one function.
"""

from __future__ import annotations

from urllib.parse import unquote_plus, urlsplit

__all__ = ["REDACTED", "SECRET_PARAMETER_WORDS", "host_part", "is_secret_parameter", "redact_uri"]

#: What stands in for a credential that is not shown.
REDACTED = "***"

#: A query parameter whose name (lower case, ``-`` read as ``_``) contains one of these holds a secret:
#: ``password`` (libpq, SQLAlchemy), ``sslpassword``, ``client_secret``, ``access_token``, ``api_key``,
#: ``X-Amz-Signature``, ``X-Amz-Credential``, ``X-Amz-Security-Token``, ...
SECRET_PARAMETER_WORDS = (
    "password", "passwd", "passphrase", "secret", "token", "signature", "credential", "api_key", "apikey",
)  # fmt: skip

#: Query parameter names that are secrets by themselves (too short to look for inside other names).
_SECRET_PARAMETER_NAMES = frozenset({"pwd", "pass", "key", "sig", "auth", "authorization", "session"})


def host_part(netloc: str) -> str:
    """``netloc`` without its user info (``user:password@``)."""
    return netloc.rpartition("@")[2]


def is_secret_parameter(name: str) -> bool:
    """Whether a query parameter called ``name`` (percent-encoded or not) holds a credential."""
    normal = unquote_plus(name).strip().lower().replace("-", "_")
    return normal in _SECRET_PARAMETER_NAMES or any(word in normal for word in SECRET_PARAMETER_WORDS)


def _redacted_query(query: str) -> str:
    """``query`` with the value of every credential parameter replaced by ``***``, the rest as written."""
    pieces = []
    for piece in query.split("&"):
        name, equals, _ = piece.partition("=")
        pieces.append(f"{name}={REDACTED}" if equals and is_secret_parameter(name) else piece)
    return "&".join(pieces)


def redact_uri(uri: str) -> str:
    """``uri`` with its user info replaced by ``***@`` and the value of every credential-like query parameter
    (:func:`is_secret_parameter`) by ``***``; unchanged when it carries neither.

    >>> redact_uri("postgresql://alice:s3cret@db:5432/risk?sslmode=require&password=x")
    'postgresql://***@db:5432/risk?sslmode=require&password=***'
    """
    parts = urlsplit(uri)
    shown = uri  # edited as text: urlunsplit would drop the empty host of sqlite:////path
    if "@" in parts.netloc:
        shown = shown.replace(f"//{parts.netloc}", f"//{REDACTED}@{host_part(parts.netloc)}", 1)
    if parts.query:
        head, _, rest = shown.partition("?")
        query, hash_mark, fragment = rest.partition("#")
        shown = f"{head}?{_redacted_query(query)}{hash_mark}{fragment}"
    return shown
