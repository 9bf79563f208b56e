"""The metadata record written beside every cached dataset (``datasets/<name>.json``), and its contract.

A record is trusted only after it validates here: a JSON object (not ``[]`` or a string), every field of the
right type, the format version this code writes, and the name it was written under equal to the name it is
read as (a record copied to another name is refused). The data layer treats a record that fails any of these
like an unreadable one (``tasks.datasets.records``).

Format version 1 is the layout since the data layer exists; a record without ``format_version`` was written
before the field was added and has exactly this layout, so it reads as version 1. A user dataset's record
adds how the file was read (``source_path``, ``delimiter``, ``encoding``, ``drop_columns``,
``categorical_columns``, ``max_columns``); records written before those fields existed read with the values
that were then implied (the one key of ``source_checksums``, ``","``, ``"utf-8"``, none, none, the default).

A dataset bound to a source (``cslearn datasets ingest SOURCE ... --time-column COL``) adds its time column,
the encoding of its raw columns (the levels its categorical columns had so far), an optional cost model, and
``live``: the source (a path, a glob, or a SQL URL without its credentials), the version of the accepted
state, the watermark, the files read, the history of accepted states and the batches the last refresh
refused. Every field is optional, so a record written before they existed reads as it did.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "DATASET_NAME_PATTERN",
    "FORMAT_VERSION",
    "DatasetRecord",
    "LiveState",
    "UserDatasetRecord",
]

#: The record layout this code writes and reads.
FORMAT_VERSION = 1

#: A dataset name: lowercase letters, digits, ``-`` and ``_``, starting with a letter or digit, at most 64
#: characters. No ``/``, ``\\``, ``.`` or space, so a name is always one plain file name inside its folder.
DATASET_NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"

Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
Count = Annotated[int, Field(ge=0)]


class DatasetRecord(BaseModel):
    """The record of a registered dataset's cache entry (what ``datasets/<name>.json`` holds)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    format_version: Literal[1] = FORMAT_VERSION
    name: Annotated[str, Field(pattern=DATASET_NAME_PATTERN)]
    fingerprint: Sha256
    rows: Annotated[int, Field(ge=1)]
    features: Annotated[int, Field(ge=1)]
    positives: Count
    definition_digest: Sha256
    source_checksums: dict[str, str | None]
    ingested_at: datetime.datetime = Field(strict=False)

    @model_validator(mode="after")
    def _positives_within_rows(self):
        if self.positives > self.rows:
            raise ValueError(f"positives ({self.positives}) exceed rows ({self.rows})")
        return self


class UserDatasetRecord(DatasetRecord):
    """The record of a user's dataset (``datasets/user/<name>.json``): also how its file was read."""

    target: str
    positive: str | None
    cost_columns: list[str]
    unreasonable_cost_rows: Count | None = None
    source_path: str | None = None
    delimiter: str = ","
    encoding: str = "utf-8"
    drop_columns: list[str] = Field(default_factory=list)
    categorical_columns: list[str] = Field(default_factory=list)
    max_columns: Annotated[int, Field(ge=1)] | None = None
    cost_model: str | None = None
    time_column: str | None = None
    time_kind: Literal["number", "datetime"] | None = None
    feature_encoding: list[dict] | None = None
    live: LiveState | None = None

    @model_validator(mode="after")
    def _user_fields_consistent(self):
        if self.cost_columns and len(self.cost_columns) != 4:
            raise ValueError(f"cost_columns must name 4 columns or none, not {self.cost_columns}")
        if self.cost_model is not None and self.cost_columns:
            raise ValueError("a dataset takes its costs from a cost model or from cost columns, not both")
        if (self.time_column is None) != (self.time_kind is None):
            raise ValueError("time_column and time_kind are given together")
        if self.source_path is None and len(self.source_checksums) != 1:
            raise ValueError("without source_path, source_checksums must hold exactly the source file")
        return self

    @property
    def source(self) -> str:
        """The path of the file the dataset was ingested from."""
        return self.source_path if self.source_path is not None else next(iter(self.source_checksums))


class LiveSource(BaseModel):
    """Where a dataset bound to a source reads its rows: ``file`` (one table), ``files`` (a folder or glob of
    batch files) or ``sql`` (a table or query through a SQLAlchemy URL, stored without credentials)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    kind: Literal["file", "files", "sql"]
    location: str
    table: str | None = None
    query: str | None = None

    @model_validator(mode="after")
    def _sql_has_one_of_table_or_query(self):
        if self.kind == "sql" and (self.table is None) == (self.query is None):
            raise ValueError("a sql source names exactly one of table and query")
        if self.kind != "sql" and (self.table is not None or self.query is not None):
            raise ValueError(f"a {self.kind} source has no table or query")
        if self.kind == "sql" and urlsplit(self.location).password is not None:
            raise ValueError("a sql source's URL is stored without its credentials (user:password@)")
        return self


class AcceptedFile(BaseModel):
    """A batch file taken into the dataset: its sha256 (a later change is refused) and its rows."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    sha256: Sha256
    rows: Count
    version: Annotated[int, Field(ge=1)]


class AcceptedState(BaseModel):
    """One accepted state of the dataset: its version, fingerprint, rows, and the batches it added."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    version: Annotated[int, Field(ge=1)]
    fingerprint: Sha256
    rows: Annotated[int, Field(ge=1)]
    added_rows: Count
    batches: list[str]
    watermark: float | None = None
    at: datetime.datetime = Field(strict=False)


class RefusedBatch(BaseModel):
    """A batch set aside by a refresh: which one (file, or query window) and why (column, rows, check)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    batch: str
    reason: str
    at: datetime.datetime = Field(strict=False)


class LiveState(BaseModel):
    """What a dataset bound to a source has read of it, and every state it accepted."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    source: LiveSource
    version: Annotated[int, Field(ge=1)]
    raw_columns: list[str]
    target_values: list[str] = Field(min_length=2)
    watermark: float | None = None
    watermark_raw: int | float | str | None = None
    watermark_is_datetime: bool = False
    rows_read: Count = 0
    files: dict[str, AcceptedFile] = Field(default_factory=dict)
    history: list[AcceptedState] = Field(min_length=1)
    refused: list[RefusedBatch] = Field(default_factory=list)


UserDatasetRecord.model_rebuild()
