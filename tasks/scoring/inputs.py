"""The batches of a score input: each file of a glob or folder, one file, or the rows of a SQL query.

A batch is named by what identifies it across reruns, so that scoring it again replaces its rows: a file by
its name, a SQL query by ``--batch-id`` or, without one, the digest of the query and the range of its time
column when the dataset has one (the newest rows of a query scheduled every hour form a new batch each
hour).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from tasks.datasets.live_sources import BatchFiles, SqlSource, parse_source, read_table_file

__all__ = ["ScoreBatch", "read_score_batches"]


@dataclass(frozen=True)
class ScoreBatch:
    """One batch to score: its id (idempotency key), the rows, and where they came from."""

    batch_id: str
    frame: pd.DataFrame
    source: str


def read_score_batches(
    text: str,
    *,
    table: str | None = None,
    query: str | None = None,
    newest: bool = False,
    batch_id: str | None = None,
    time_column: str | None = None,
) -> list[ScoreBatch]:
    """The batches of the score input ``text`` (every file of a glob in name order, or only the newest).

    Raises
    ------
    ValueError
        Nothing matches, or a file is unreadable (half written), naming it.
    tasks.datasets.live_sources.SourceUnavailableError
        A database that cannot be reached.
    """
    source = parse_source(text, table=table, query=query)
    if isinstance(source, SqlSource):
        frame = source.read()
        key = hashlib.sha256((source.table or source.query).encode()).hexdigest()[:12]
        if batch_id is None:
            batch_id = f"sql-{key}"
            if time_column is not None and time_column in frame and len(frame):
                batch_id += f"-{frame[time_column].min()}-{frame[time_column].max()}"
        return [ScoreBatch(batch_id, frame, source.shown)]
    paths = source.paths() if isinstance(source, BatchFiles) else [Path(source.path)]
    if not paths:
        raise ValueError(f"no CSV or parquet file matches {text}; nothing to score")
    if newest:
        paths = paths[-1:]
    if batch_id is not None and len(paths) > 1:
        raise ValueError(f"--batch-id names one batch; {text} holds {len(paths)} files (use --newest)")
    batches = []
    for path in paths:
        try:
            frame = read_table_file(path, {})
        except (ValueError, OSError) as error:
            raise ValueError(f"{path.name}: {error} (still being written? nothing was scored)") from error
        batches.append(ScoreBatch(batch_id or path.name, frame, str(path)))
    return batches
