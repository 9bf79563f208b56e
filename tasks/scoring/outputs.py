"""Where decisions go, written atomically and idempotently per batch: scoring a batch again replaces its rows.

- a folder (``scores/``, an existing directory or a path ending in ``/``): one parquet file per batch,
  ``<folder>/<batch>.parquet``, written through a temporary file and renamed;
- a parquet or CSV file: every batch's rows in one table; the batch's previous rows are dropped and the new
  ones appended, and the whole file is replaced atomically;
- a SQL table (a SQLAlchemy URL with ``table``): in one transaction, the batch's rows are deleted and the new
  ones inserted (the table is created on first use), so a reader sees the old rows or the new, never both.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from tasks.datasets.live_sources import SqlSource, parse_source
from tasks.redaction import redact_uri
from tasks.storage import atomic_path

__all__ = ["describe_target", "write_decisions"]

_URL = re.compile(r"^[a-z][a-z0-9+]*://", re.IGNORECASE)


def describe_target(text: str, table: str | None = None) -> str:
    """The output as shown and logged (a URL without credentials)."""
    return f"{redact_uri(text)} (table {table})" if _URL.match(text) else str(Path(text).absolute())


def _safe_file_name(batch_id: str) -> str:
    """A batch's file name in an output folder: its id, without a table file's suffix, in safe characters."""
    stem = Path(batch_id).stem if Path(batch_id).suffix.lower() in (".csv", ".parquet", ".pq") else batch_id
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._") or "batch"


def _write_table_file(path: Path, frame: pd.DataFrame) -> None:
    with atomic_path(path) as temporary:
        if path.suffix.lower() == ".csv":
            frame.to_csv(temporary, index=False)
        else:
            frame.to_parquet(temporary, index=False)


def _read_table_file(path: Path) -> pd.DataFrame:
    return pd.read_csv(path) if path.suffix.lower() == ".csv" else pd.read_parquet(path)


def write_decisions(table: pd.DataFrame, text: str, batch_id: str, *, output_table: str | None = None) -> str:
    """Write one batch's decisions to the output ``text``, replacing any earlier rows of ``batch_id``.

    Returns where they went (a file path, or the table shown with its URL redacted).

    Raises
    ------
    ValueError
        A database URL without ``output_table``, or a file that is neither parquet nor CSV.
    """
    if _URL.match(text):
        if output_table is None:
            raise ValueError(f"{redact_uri(text)} is a database: pass --output-table TABLE")
        source = parse_source(text, table=output_table)
        return _write_sql(table, source, batch_id)
    path = Path(text).expanduser()
    if text.endswith("/") or path.is_dir():
        target = path / f"{_safe_file_name(batch_id)}.parquet"
        _write_table_file(target, table)
        return str(target.absolute())
    if path.suffix.lower() not in (".parquet", ".pq", ".csv"):
        raise ValueError(f"--output {text}: a folder, a .parquet or .csv file, or a database URL")
    frame = table
    if path.exists():
        previous = _read_table_file(path)
        previous = previous[previous["batch"].astype("str") != batch_id]
        frame = pd.concat([previous, table], ignore_index=True)
    _write_table_file(path, frame)
    return str(path.absolute())


def _write_sql(table: pd.DataFrame, source: SqlSource, batch_id: str) -> str:
    import sqlalchemy

    engine = source._engine()
    try:
        with engine.begin() as connection:  # one transaction: delete then insert, or neither
            if sqlalchemy.inspect(connection).has_table(source.table):
                quoted = engine.dialect.identifier_preparer.quote(source.table)
                connection.execute(
                    sqlalchemy.text(f"DELETE FROM {quoted} WHERE batch = :batch"), {"batch": batch_id}
                )
            table.to_sql(source.table, connection, if_exists="append", index=False)
    finally:
        engine.dispose()
    return source.shown
