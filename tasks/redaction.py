"""A URI as it may be shown or stored: without the user info (``user:password@``) it may carry.

Tracking URIs (``tasks.tracking.credentials``) and the SQL URLs of dataset sources (``tasks.datasets``) both
pass through :func:`redact_uri` before they are printed, logged or written to a record; it sits below both
rooms so that each uses the one function.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

__all__ = ["host_part", "redact_uri"]


def host_part(netloc: str) -> str:
    """``netloc`` without its user info (``user:password@``)."""
    return netloc.rpartition("@")[2]


def redact_uri(uri: str) -> str:
    """``uri`` with its user info (``user:password@``) replaced by ``***@``; unchanged when it has none."""
    parts = urlsplit(uri)
    if "@" not in parts.netloc:
        return uri
    return urlunsplit(parts._replace(netloc=f"***@{host_part(parts.netloc)}"))
