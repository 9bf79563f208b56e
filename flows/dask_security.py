"""How this process talks to a Dask scheduler safely: TLS settings, and a warning where there are none.

A Dask client unpickles what the cluster sends back (the cells' results), so whoever can talk to the
scheduler's port, or sit between it and this process, can run code here. On one machine the scheduler binds
127.0.0.1 and that is enough. Anywhere else, use TLS with certificates of your own certificate authority:

- ``--dask-address tls://HOST:PORT`` with ``--dask-tls-ca-file``, ``--dask-tls-cert`` and ``--dask-tls-key``
  (PEM files; :func:`tls_config`), which become Dask's own configuration for the run
  (``distributed.comm.tls.*``, ``distributed.comm.require-encryption``), so the client that prefect-dask
  creates (``distributed.security.Security``) uses them. A deployment sets the same configuration through
  Dask's environment variables (``DASK_DISTRIBUTED__COMM__TLS__CA_FILE``, ``..._CLIENT__CERT``,
  ``..._CLIENT__KEY``).
- :func:`check_dask_address` refuses what cannot work or would silently skip TLS (``tls://`` without TLS
  settings, TLS files with a ``tcp://`` address, a file that cannot be read) and returns the warning for a
  ``tcp://`` address that is not a loopback address; :func:`warn_if_insecure` logs it in the flow run.
"""

from __future__ import annotations

import ipaddress
import warnings
from pathlib import Path
from urllib.parse import urlsplit

__all__ = [
    "DaskSecurityError",
    "InsecureDaskWarning",
    "check_dask_address",
    "is_loopback",
    "tls_config",
    "warn_if_insecure",
]

#: Dask configuration keys of the client's TLS settings.
CA_FILE_KEY = "distributed.comm.tls.ca-file"
CERT_KEY = "distributed.comm.tls.client.cert"
KEY_KEY = "distributed.comm.tls.client.key"
REQUIRE_ENCRYPTION_KEY = "distributed.comm.require-encryption"


class DaskSecurityError(ValueError):
    """A Dask address and TLS settings that cannot be used together; the message says what to change."""


class InsecureDaskWarning(UserWarning):
    """A Dask scheduler reached without TLS on an address that is not a loopback address."""


def is_loopback(address: str) -> bool:
    """Whether the host of ``scheme://HOST:PORT`` is this machine only (localhost, 127.0.0.0/8, ::1)."""
    host = urlsplit(address).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve anywhere
        return False


def tls_config(ca_file: str | None, cert: str | None, key: str | None) -> dict[str, object]:
    """Dask configuration for a client with TLS (empty when no file is given).

    Raises
    ------
    DaskSecurityError
        When only some of the three files are given, or one cannot be read.
    """
    given = {"--dask-tls-ca-file": ca_file, "--dask-tls-cert": cert, "--dask-tls-key": key}
    if not any(given.values()):
        return {}
    missing = [option for option, value in given.items() if not value]
    if missing:
        raise DaskSecurityError(
            f"TLS to Dask needs the CA file, this client's certificate and its key; {', '.join(missing)} "
            "missing"
        )
    for option, value in given.items():
        path = Path(value).expanduser()
        if not path.is_file():
            raise DaskSecurityError(f"{option}: {value} is not a readable file")
        try:
            with path.open("rb"):
                pass
        except OSError as error:
            raise DaskSecurityError(f"{option}: {value} cannot be read ({error.strerror})") from None
    return {
        CA_FILE_KEY: str(Path(ca_file).expanduser().resolve()),
        CERT_KEY: str(Path(cert).expanduser().resolve()),
        KEY_KEY: str(Path(key).expanduser().resolve()),
        REQUIRE_ENCRYPTION_KEY: True,
    }


def _configured_tls() -> bool:
    """Whether Dask's own configuration (files, environment) already gives the client TLS settings."""
    import dask

    return bool(dask.config.get(CA_FILE_KEY, None) and dask.config.get(CERT_KEY, None))


def check_dask_address(address: str, tls: dict[str, object]) -> str | None:
    """Check a scheduler address against the TLS settings ``tls`` (:func:`tls_config`).

    Returns
    -------
    str or None
        The warning to show for a ``tcp://`` address that is not a loopback address, else ``None``.

    Raises
    ------
    DaskSecurityError
        ``tls://`` without TLS settings (here or in Dask's configuration), or TLS files with another scheme.
    """
    scheme = urlsplit(address).scheme
    if scheme == "tls":
        if not tls and not _configured_tls():
            raise DaskSecurityError(
                f"{address} asks for TLS but no certificates were given: pass --dask-tls-ca-file, "
                "--dask-tls-cert and --dask-tls-key (PEM files), or set Dask's distributed.comm.tls "
                "configuration"
            )
        return None
    if tls:
        raise DaskSecurityError(
            f"the TLS files are given but {address} is not a tls:// address; use tls://HOST:PORT"
        )
    if is_loopback(address):
        return None
    return (
        f"the Dask scheduler at {address} is reached without TLS: this process unpickles the results the "
        "cluster sends back, so anyone who can reach that address (or the network between) can run code "
        "here. Use tls://HOST:PORT with --dask-tls-ca-file, --dask-tls-cert and --dask-tls-key, or keep the "
        "cluster on 127.0.0.1 (docs/usage.md: Running on a Dask cluster)"
    )


def warn_if_insecure(address: str) -> None:
    """Warn (in the flow run's log, else as a Python warning) when ``address`` is reached without TLS and is
    not a loopback address."""
    message = check_dask_address(address, {})
    if message is None:
        return
    from prefect import get_run_logger
    from prefect.exceptions import MissingContextError

    try:
        get_run_logger().warning(message)
    except MissingContextError:
        warnings.warn(message, InsecureDaskWarning, stacklevel=2)
