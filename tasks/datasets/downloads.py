"""Download one HTTP(S) file into the cache: timeout, retries with exponential backoff, checksum, progress.

Transport errors, timeouts and HTTP 5xx/429 answers are retried; other 4xx answers and checksum mismatches are
not (retrying cannot fix them). The file is streamed to a temporary file and renamed into place only once its
checksum is verified, so an interrupted or corrupt download never leaves a cache entry behind.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from tasks.datasets.cache import ChecksumError
from tasks.storage import atomic_path

logger = logging.getLogger(__name__)

_RETRIED_STATUS = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True)
class HttpOptions:
    """How downloads behave. ``timeout`` (s) bounds connecting and each read: a stalled server times out."""

    timeout: float = 30.0
    retries: int = 3
    backoff: float = 1.0  # seconds before the first retry; doubles after each failed attempt


#: The defaults (30 s timeout, 3 retries, 1 s first backoff).
DEFAULT_HTTP_OPTIONS = HttpOptions()


class DownloadError(OSError):
    """A download failed after every retry; the message names the URL, the attempts and the last failure."""


def download_file(
    url: str,
    destination: Path,
    *,
    expected_sha256: str | None = None,
    expected_md5: str | None = None,
    options: HttpOptions = DEFAULT_HTTP_OPTIONS,
    progress: bool = False,
) -> str:
    """Fetch ``url`` to ``destination`` atomically; return the file's sha256.

    Parameters
    ----------
    url : str
    destination : pathlib.Path
    expected_sha256, expected_md5 : str, optional
        Checked before the file is renamed into place; a mismatch raises :class:`ChecksumError`.
    options : HttpOptions
    progress : bool
        Show a tqdm progress bar (on stderr).
    """
    import httpx  # imported on first download: it costs about a second of start-up

    attempts = options.retries + 1
    last_failure = ""
    for attempt in range(1, attempts + 1):
        try:
            return _download_once(url, destination, expected_sha256, expected_md5, options.timeout, progress)
        except httpx.TimeoutException as error:
            last_failure = f"timed out after {options.timeout:g} s ({type(error).__name__})"
        except httpx.TransportError as error:
            last_failure = f"{type(error).__name__}: {error}"
        except httpx.HTTPStatusError as error:
            status = error.response.status_code
            if status not in _RETRIED_STATUS:
                raise DownloadError(f"GET {url} answered HTTP {status}; not retried") from error
            last_failure = f"HTTP {status}"
        if attempt < attempts:
            delay = options.backoff * 2 ** (attempt - 1)
            logger.warning(
                "GET %s failed (%s); retry %d/%d in %.1f s", url, last_failure, attempt, attempts - 1, delay
            )
            time.sleep(delay)
    raise DownloadError(f"GET {url} failed after {attempts} attempt(s): {last_failure}")


def _download_once(url, destination, expected_sha256, expected_md5, timeout, progress) -> str:
    import httpx
    from tqdm import tqdm

    sha256, md5 = hashlib.sha256(), hashlib.md5(usedforsecurity=False)
    with atomic_path(destination) as temporary, open(temporary, "wb") as stream:
        with httpx.stream("GET", url, timeout=timeout, follow_redirects=True) as response:
            response.raise_for_status()
            total = int(response.headers.get("content-length", 0)) or None
            with tqdm(
                total=total, unit="B", unit_scale=True, desc=destination.name, disable=not progress
            ) as bar:
                for chunk in response.iter_bytes():
                    stream.write(chunk)
                    sha256.update(chunk)
                    md5.update(chunk)
                    bar.update(len(chunk))
        stream.close()
        if expected_sha256 is not None and sha256.hexdigest() != expected_sha256:
            raise ChecksumError(
                f"sha256 mismatch for {url}: expected {expected_sha256}, got {sha256.hexdigest()}; "
                "nothing was cached"
            )
        if expected_md5 is not None and md5.hexdigest() != expected_md5:
            raise ChecksumError(
                f"md5 mismatch for {url}: expected {expected_md5}, got {md5.hexdigest()}; nothing was cached"
            )
    return sha256.hexdigest()
