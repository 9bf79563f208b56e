"""Sources a dataset reads again: one file, a folder or glob of batch files, a SQL table or query.

:func:`parse_source` turns what a user types (``loans.csv``, ``exports/transactions-*.parquet``,
``exports/``, ``postgresql://alice@db.internal/risk`` with a table or a query) into one of

- :class:`FileTable`: one CSV or parquet file that grows (new rows are those past the time watermark);
- :class:`BatchFiles`: a glob (a folder means every ``*.csv`` / ``*.parquet`` in it); each new file is a
  batch, read in name order;
- :class:`SqlSource`: a table or a query through a SQLAlchemy URL (``postgresql://...``, ``sqlite:///...``),
  read with SQLAlchemy and pandas; new rows are those past the watermark of the time column.

Credentials never leave the process: the record keeps the URL through :func:`tasks.redaction.redact_uri`
(``postgresql://***@host/db``). When it had user info, the full URL is read back from the environment
variable :func:`credentials_variable` (``CSLEARN_SOURCE_URL_LOANS`` for the dataset ``loans``), which must
name the same database; a URL without user info (a driver that finds its own credentials, e.g. libpq's
``PGPASSWORD`` or ``~/.pgpass``; sqlite) is used as recorded. A source that cannot be reached raises
:class:`SourceUnavailableError` naming the source (redacted) and the driver's reason; nothing is changed.
"""

from __future__ import annotations

import datetime
import glob
import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pandas as pd

from tasks.datasets.cache import sha256_file
from tasks.datasets.user_table import is_parquet, read_user_table
from tasks.redaction import REDACTED, redact_uri

__all__ = [
    "BatchFiles",
    "FileTable",
    "RawBatch",
    "SourceUnavailableError",
    "SqlSource",
    "credentials_variable",
    "parse_source",
]

_TABLE_SUFFIXES = (".csv", ".parquet", ".pq", ".tsv", ".txt")
_SQL_SCHEMES = re.compile(r"^[a-z][a-z0-9+]*://", re.IGNORECASE)


class SourceUnavailableError(RuntimeError):
    """The source cannot be read at all (database unreachable, folder gone): nothing was changed."""


@dataclass(frozen=True)
class RawBatch:
    """A batch as read from a source: its label (file name or query window), the rows or why they could not
    be read, and a batch file's sha256."""

    label: str
    frame: pd.DataFrame | None
    problem: str | None = None
    sha256: str | None = None


def credentials_variable(name: str) -> str:
    """The environment variable holding the full URL (with credentials) of dataset ``name``'s SQL source."""
    return "CSLEARN_SOURCE_URL_" + re.sub(r"[^A-Z0-9]", "_", name.upper())


def read_table_file(path: Path, options: dict) -> pd.DataFrame:
    """A user's CSV or parquet file read exactly as a first ingest reads it (``read_user_table``)."""
    text_options = {} if is_parquet(path.name) else options
    return read_user_table({path.name: path.read_bytes()}, member=path.name, **text_options)


@dataclass(frozen=True)
class FileTable:
    """One CSV or parquet file that grows."""

    path: Path
    kind = "file"

    def describe(self) -> dict:
        return {"kind": self.kind, "location": str(self.path)}

    def read(self, options: dict) -> pd.DataFrame:
        """The whole file; a missing file is :class:`SourceUnavailableError`."""
        if not self.path.is_file():
            raise SourceUnavailableError(f"source file {self.path} is not there (moved, or not written yet?)")
        return read_table_file(self.path, options)


@dataclass(frozen=True)
class BatchFiles:
    """A folder or glob of batch files (CSV or parquet), each one batch, taken in name order."""

    pattern: str
    kind = "files"

    def describe(self) -> dict:
        return {"kind": self.kind, "location": self.pattern}

    def paths(self) -> list[Path]:
        """The matching files, sorted by name (hidden files and temporary ``*.tmp`` files are skipped)."""
        matches = [Path(path) for path in glob.glob(self.pattern)]
        return sorted(
            path
            for path in matches
            if path.is_file() and not path.name.startswith(".") and path.suffix.lower() in _TABLE_SUFFIXES
        )

    def label(self, path: Path) -> str:
        return path.name

    def read_new(self, accepted: dict[str, str], options: dict) -> list[RawBatch]:
        """Every file not accepted yet, or accepted but changed since (the latter only named, never read)."""
        root = Path(self.pattern).parent if any(c in self.pattern for c in "*?[") else Path(self.pattern)
        if not root.is_dir():
            raise SourceUnavailableError(f"source folder {root} is not there (unmounted, or moved?)")
        batches = []
        for path in self.paths():
            label = self.label(path)
            try:
                digest = sha256_file(path)
            except OSError as error:
                batches.append(RawBatch(label, None, f"cannot be read ({error})"))
                continue
            if label in accepted:
                if accepted[label] != digest:
                    batches.append(
                        RawBatch(
                            label,
                            None,
                            f"changed since it was accepted (sha256 {accepted[label][:12]}... is now"
                            f" {digest[:12]}...); an accepted batch is never read twice: put new rows in a"
                            " new file, or ingest the source again with --force to rebuild the dataset",
                            digest,
                        )
                    )
                continue
            try:
                frame = read_table_file(path, options)
            except (ValueError, OSError) as error:
                hint = " (still being written?)" if is_parquet(path.name) else ""
                batches.append(RawBatch(label, None, f"{error}{hint}", digest))
                continue
            batches.append(RawBatch(label, frame, None, digest))
        return batches


def _quote(engine, name: str) -> str:
    return engine.dialect.identifier_preparer.quote(name)


@dataclass(frozen=True)
class SqlSource:
    """A table or a query read through a SQLAlchemy URL; ``url`` may carry credentials (never stored)."""

    url: str
    table: str | None = None
    query: str | None = None
    kind = "sql"

    def describe(self) -> dict:
        return {"kind": self.kind, "location": redact_uri(self.url), "table": self.table, "query": self.query}

    @property
    def shown(self) -> str:
        what = f"table {self.table}" if self.table is not None else "query"
        return f"{redact_uri(self.url)} ({what})"

    def _engine(self):
        import sqlalchemy

        try:
            return sqlalchemy.create_engine(self.url)
        except (sqlalchemy.exc.ArgumentError, sqlalchemy.exc.NoSuchModuleError, ImportError) as error:
            raise ValueError(f"{redact_uri(self.url)} is not a usable SQLAlchemy URL: {error}") from error

    def _selection(self, engine) -> str:
        if self.table is not None:
            return f"SELECT * FROM {_quote(engine, self.table)}"
        return self.query.strip().rstrip(";")

    def read(self, *, time_column: str | None = None, after=None) -> pd.DataFrame:
        """The rows (those with ``time_column > after`` when both are given).

        Raises
        ------
        SourceUnavailableError
            The database cannot be reached or refuses the connection.
        ValueError
            The query fails (a syntax error, a missing table or column), naming the source.
        """
        import sqlalchemy

        engine = self._engine()
        statement = f"SELECT * FROM ({self._selection(engine)}) AS cslearn_source"
        parameters = {}
        if time_column is not None and after is not None:
            statement += f" WHERE {_quote(engine, time_column)} > :watermark"
            parameters["watermark"] = after
        try:
            with engine.connect() as connection:
                return pd.read_sql(sqlalchemy.text(statement), connection, params=parameters)
        except sqlalchemy.exc.OperationalError as error:
            if _is_connection_failure(error):
                raise SourceUnavailableError(
                    f"cannot reach the database of {self.shown}: {_first_line(error)}; nothing was read or"
                    " changed (is the server up, and the URL's host and port right?)"
                ) from error
            raise ValueError(f"{self.shown}: the query failed: {_first_line(error)}") from error
        except sqlalchemy.exc.DBAPIError as error:
            raise ValueError(f"{self.shown}: the query failed: {_first_line(error)}") from error
        finally:
            engine.dispose()

    def count_through(self, time_column: str, watermark) -> int:
        """How many rows have ``time_column <= watermark`` now (a later count above the recorded one means
        rows arrived in the past: the time column went backwards)."""
        import sqlalchemy

        engine = self._engine()
        statement = (
            f"SELECT COUNT(*) FROM ({self._selection(engine)}) AS cslearn_source"
            f" WHERE {_quote(engine, time_column)} <= :watermark"
        )
        try:
            with engine.connect() as connection:
                return int(connection.execute(sqlalchemy.text(statement), {"watermark": watermark}).scalar())
        except sqlalchemy.exc.OperationalError as error:
            if _is_connection_failure(error):
                raise SourceUnavailableError(
                    f"cannot reach the database of {self.shown}: {_first_line(error)}; nothing was changed"
                ) from error
            raise ValueError(f"{self.shown}: the query failed: {_first_line(error)}") from error
        finally:
            engine.dispose()


_CONNECTION_WORDS = (
    "connection",
    "connect",
    "could not translate host",
    "unable to open database",
    "timeout",
)


def _is_connection_failure(error) -> bool:
    text = str(getattr(error, "orig", error)).lower()
    return any(word in text for word in _CONNECTION_WORDS)


def _first_line(error) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return redact_password(text.splitlines()[0] if text else type(error).__name__)


def redact_password(text: str) -> str:
    """``text`` with any ``scheme://user:password@`` in it redacted (drivers echo URLs in their errors)."""
    return re.sub(r"([a-z][a-z0-9+]*://)[^/@\s]+@", r"\1***@", text, flags=re.IGNORECASE)


def parse_source(text: str, *, table: str | None = None, query: str | None = None):
    """The source ``text`` names: a SQLAlchemy URL (with ``table`` or ``query``), a glob or folder of batch
    files, or one file.

    Raises
    ------
    ValueError
        A URL without exactly one of ``table`` / ``query``, or ``table`` / ``query`` given for files.
    FileNotFoundError
        A file that does not exist (a glob or folder may still be empty).
    """
    if _SQL_SCHEMES.match(text) and not text.lower().startswith("file://"):
        if (table is None) == (query is None):
            raise ValueError(
                f"{redact_uri(text)} is a database: pass --table TABLE or --query 'SELECT ...' (exactly one)"
            )
        return SqlSource(text, table=table, query=query)
    if table is not None or query is not None:
        raise ValueError("--table and --query apply to a database URL (postgresql://..., sqlite:///...)")
    path = Path(text).expanduser()
    if any(character in text for character in "*?["):
        return BatchFiles(str(path.absolute()))
    if path.is_dir():
        return BatchFiles(str(path.absolute() / "*"))
    if not path.exists():
        raise FileNotFoundError(
            f"no such file or folder: {path} (a folder or glob of batch files may be empty, a file must"
            " exist)"
        )
    return FileTable(path.absolute())


def source_from_record(record: dict, name: str):
    """The source of a live record (its ``live.source``), with the credentials the environment gives.

    Raises
    ------
    SourceUnavailableError
        The recorded URL had credentials and :func:`credentials_variable` is not set, or names another
        database than the recorded one.
    """
    source = record["live"]["source"]
    if source["kind"] == "file":
        return FileTable(Path(source["location"]))
    if source["kind"] == "files":
        return BatchFiles(source["location"])
    url = source["location"]
    if REDACTED in url:  # stored without its credentials (user info or a password parameter)
        variable = credentials_variable(name)
        given = os.environ.get(variable)
        if not given:
            raise SourceUnavailableError(
                f"the source of {name!r} is {url}: its credentials are never stored; set {variable} to the"
                " full URL (with user and password) in the environment of this command or worker"
            )
        if _same_database(given, url) is False:
            raise SourceUnavailableError(
                f"{variable} names {redact_uri(given)}, not the recorded source {url}; fix the variable, or"
                " ingest the new source with --force"
            )
        url = given
    return SqlSource(url, table=source.get("table"), query=source.get("query"))


def _same_database(given: str, recorded: str) -> bool:
    a, b = urlsplit(redact_uri(given)), urlsplit(recorded)
    return (a.scheme, a.hostname, a.port, a.path) == (b.scheme, b.hostname, b.port, b.path)


def window_label(source, after, until) -> str:
    """How a refresh names the rows it read from a one-file or SQL source: ``<source> rows with time in
    (after, until]``."""
    where = source.shown if isinstance(source, SqlSource) else Path(source.path).name
    low = "the start" if after is None else _shown_time(after)
    return f"{where}: time in ({low}, {_shown_time(until)}]"


def _shown_time(value) -> str:
    if isinstance(value, datetime.datetime | pd.Timestamp):
        return value.isoformat()
    return f"{value:g}" if isinstance(value, float) else str(value)
