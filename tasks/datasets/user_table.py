"""Read a user's own table (CSV or parquet) exactly as written, or refuse it with the reason.

pandas guesses where a file is ambiguous: it renames a repeated column ``a`` to ``a.1``, turns the extra
leading fields of a too-long first data line into an index, fills a short line with missing values, names an
unnamed column ``Unnamed: 2``, and parses a ``;``-separated file as one column. Here each of those is an error
naming the file and the lines, and the delimiter is detected (or given) and reported.

Order of work for a CSV file (each step stops early on failure):

1. :func:`inspect_csv_header` reads the header line in chunks and stops as soon as it holds more than
   ``max_columns`` fields (a 10^6-column line is refused after its first ``max_columns`` fields, before the
   rest of the file is read), then detects the delimiter among :data:`CANDIDATE_DELIMITERS` from the header
   and the lines after it (or checks the one given).
2. :func:`decode_text` decodes the bytes (default UTF-8, a byte-order mark is ignored); an undecodable byte
   is reported with its line, column, byte offset and the encoding tried.
3. :func:`check_column_names`: the header names are non-empty and unique; :func:`check_csv_lines`: every
   line has exactly as many fields as the header.
4. pandas parses the bytes with that delimiter and encoding (column types inferred as before).

A parquet file's column count and names are read from its footer before its data.

Messages count ``line N`` over the file's lines from 1 (the header is line 1), as editors show them.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections import Counter
from typing import BinaryIO

import pandas as pd
import pyarrow.parquet as pq

from tasks.datasets.parsers import read_csv_or_explain
from tasks.datasets.sources import FetchedFiles, read_member_bytes

#: Delimiters tried, in this order, when none is given.
CANDIDATE_DELIMITERS = (",", ";", "\t", "|")

#: Names accepted for a delimiter on the command line (besides the character itself).
DELIMITER_NAMES = {"comma": ",", "semicolon": ";", "tab": "\t", "pipe": "|"}

#: Default cap on a user table's width (columns in the header); raise it with ``max_columns``.
DEFAULT_MAX_COLUMNS = 10_000

#: Lines after the header that delimiter detection looks at, and the bytes it reads for them at most.
SAMPLE_LINES = 20
SAMPLE_BYTES = 1 << 16

_CHUNK_BYTES = 1 << 16
_SAMPLES_SHOWN = 5


def is_parquet(member: str) -> bool:
    """Whether a user's file is read as parquet (by its name) rather than as delimited text."""
    return member.lower().endswith((".parquet", ".pq"))


def delimiter_name(delimiter: str) -> str:
    """``tab`` for a tab, else the quoted character: how messages and commands name a delimiter."""
    return "tab" if delimiter == "\t" else repr(delimiter)


def parse_delimiter(text: str) -> str:
    """A delimiter from the command line: one character, ``\\t``, or a name of :data:`DELIMITER_NAMES`."""
    text = DELIMITER_NAMES.get(text.lower(), "\t" if text == "\\t" else text)
    if len(text) != 1 or text in '\r\n"':
        raise ValueError(f"--delimiter takes one character or one of {sorted(DELIMITER_NAMES)}, not {text!r}")
    return text


def _codec(encoding: str) -> str:
    try:
        name = codecs.lookup(encoding).name
    except LookupError as error:
        raise ValueError(
            f"unknown encoding {encoding!r}: use a Python codec name such as 'utf-8', 'latin-1' or 'cp1252'"
        ) from error
    return "utf-8-sig" if name == "utf-8" else name  # a UTF-8 byte-order mark is not part of the header


def _header_and_sample(stream: BinaryIO, member: str, delimiters, max_columns: int) -> tuple[bytes, bytes]:
    """The header line (the first non-blank one) and up to :data:`SAMPLE_BYTES` after it.

    Reads in chunks and refuses the file as soon as the header holds more than ``max_columns`` fields.
    """
    header = bytearray()
    counts = Counter()
    pending = b""
    while chunk := pending or stream.read(_CHUNK_BYTES):
        pending = b""
        end = chunk.find(b"\n")
        part = chunk if end < 0 else chunk[: end + 1]
        header += part
        for delimiter in delimiters:
            counts[delimiter] += part.count(delimiter.encode())
        widest, separators = counts.most_common(1)[0] if counts else (",", 0)
        if separators + 1 > max_columns:
            raise ValueError(
                f"{member}: its header line has more than {max_columns:,} {delimiter_name(widest)}-separated "
                f"columns (reading stopped after {len(header):,} bytes, {separators + 1:,} columns); at most "
                f"{max_columns:,} are accepted: pass --max-columns N (max_columns=N) to allow wider tables"
            )
        if end >= 0:
            rest = chunk[end + 1 :]
            if not header.strip():  # a blank line before the header: skipped, as pandas skips it
                header.clear()
                counts.clear()
                pending = rest
                continue
            return bytes(header), rest + stream.read(max(0, SAMPLE_BYTES - len(rest)))
    return bytes(header), b""


def resolve_delimiter(header: str, lines: list[str], member: str, requested: str | None) -> str:
    """The delimiter of a CSV given its header and the first lines after it.

    With ``requested``, it is kept unless the header does not split on it but does on another candidate
    (then the message names that one). Without, the candidate the header splits on is taken; when the
    header splits on several, the one that splits every sample line into as many fields as the header;
    when still ambiguous, the message lists the candidates. A header that splits on none is one column.
    """

    def width(text: str, delimiter: str) -> int:
        return len(next(csv.reader([text], delimiter=delimiter), []))

    widths = {delimiter: width(header, delimiter) for delimiter in CANDIDATE_DELIMITERS}
    splitting = [delimiter for delimiter in CANDIDATE_DELIMITERS if widths[delimiter] > 1]
    if requested is not None:
        if width(header, requested) == 1 and splitting:
            other = splitting[0]
            raise ValueError(
                f"{member}: its header line has no {delimiter_name(requested)} but splits on "
                f"{delimiter_name(other)} into {widths[other]} columns; pass --delimiter "
                f"{'tab' if other == chr(9) else other!r} (or leave --delimiter out to detect it)"
            )
        return requested
    if len(splitting) <= 1:
        return splitting[0] if splitting else ","
    consistent = [
        delimiter
        for delimiter in splitting
        if all(width(line, delimiter) == widths[delimiter] for line in lines if line.strip())
    ]
    if len(consistent) == 1:
        return consistent[0]
    options = ", ".join(f"{widths[d]} columns on {delimiter_name(d)}" for d in (consistent or splitting))
    raise ValueError(
        f"{member}: cannot tell its delimiter: the header line gives {options}; pass --delimiter "
        "(e.g. --delimiter ';' or --delimiter tab)"
    )


def inspect_csv_header(
    stream: BinaryIO,
    member: str,
    *,
    delimiter: str | None = None,
    encoding: str = "utf-8",
    max_columns: int = DEFAULT_MAX_COLUMNS,
) -> str:
    """Check the header's width (reading it in chunks, stopping early) and return the file's delimiter.

    Raises
    ------
    ValueError
        The header line has more than ``max_columns`` fields, the encoding is unknown, or the delimiter is
        ambiguous or contradicts the header; the message names the file.
    """
    codec = _codec(encoding)
    delimiters = (delimiter,) if delimiter is not None else CANDIDATE_DELIMITERS
    header_bytes, sample_bytes = _header_and_sample(stream, member, delimiters, max_columns)
    header = header_bytes.decode(codec, errors="replace").rstrip("\r\n")
    if len(sample_bytes) >= SAMPLE_BYTES:  # the last line may be cut: keep the complete ones
        sample_bytes = sample_bytes[: sample_bytes.rfind(b"\n") + 1]
    lines = sample_bytes.decode(codec, errors="replace").splitlines()[:SAMPLE_LINES]
    return resolve_delimiter(header, lines, member, delimiter)


def decode_text(data: bytes, member: str, encoding: str = "utf-8") -> str:
    """``data`` decoded with ``encoding``; an undecodable byte is reported with its line and column.

    Raises
    ------
    ValueError
        Naming the file, the encoding, the line, column and byte offset of the first undecodable byte(s).
    """
    try:
        return data.decode(_codec(encoding))
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, error.start) + 1
        where = "the header line" if line == 1 else f"line {line:,}"
        raise ValueError(
            f"{member} is not valid {encoding} text: byte(s) {data[error.start : error.end].hex(' ')} at "
            f"{where}, column {error.start - line_start + 1:,} (byte offset {error.start:,}) cannot be "
            f"decoded ({error.reason}); pass the file's encoding with --encoding, e.g. --encoding latin-1, "
            "or --encoding cp1252 for a file saved by Excel on Windows"
        ) from error


def check_column_names(names: list[str], member: str, max_columns: int = DEFAULT_MAX_COLUMNS) -> None:
    """Refuse a table wider than ``max_columns``, unnamed columns and repeated column names.

    Raises
    ------
    ValueError
        Naming the file and the offending columns by name and position (counted from 1).
    """
    if len(names) > max_columns:
        raise ValueError(
            f"{member} has {len(names):,} columns; at most {max_columns:,} are accepted: pass "
            "--max-columns N (max_columns=N) to allow wider tables"
        )
    unnamed = [position for position, name in enumerate(names, start=1) if not str(name).strip()]
    if unnamed:
        raise ValueError(
            f"{member}: column(s) {unnamed[:_SAMPLES_SHOWN]} of the header have no name; name them, or "
            "remove them (an index written by pandas' to_csv without index=False?)"
        )
    positions: dict[str, list[int]] = {}
    for position, name in enumerate(names, start=1):
        positions.setdefault(str(name), []).append(position)
    repeated = {name: where for name, where in positions.items() if len(where) > 1}
    if repeated:
        described = "; ".join(f"{name!r} at columns {where}" for name, where in list(repeated.items())[:5])
        raise ValueError(
            f"{member}: the header repeats column names ({described}); column names must be unique "
            "(rename or remove the repeats)"
        )


def _wrong_field_counts(text: str, delimiter: str) -> tuple[int, int, list[tuple[int, int]]]:
    """``(header width, data lines, [(line number, field count) of each line of another width])``.

    Blank lines are skipped, as pandas skips them. Without a quote character in the text a line's field
    count is its delimiter count plus one (counted in C by ``str.count``, about 5x faster than the ``csv``
    module); with quotes the ``csv`` module parses the fields (a quoted value may hold the delimiter or a
    line break).
    """
    if '"' not in text:
        lines = text.split("\n")
        counts = [line.count(delimiter) + 1 for line in lines]
        first = next((index for index, line in enumerate(lines) if line.strip()), len(lines))
        width = counts[first] if first < len(lines) else 0
        body = range(first + 1, len(lines))
        wrong = [
            (index + 1, counts[index]) for index in body if counts[index] != width and lines[index].strip()
        ]
        data_lines = sum(1 for index in body if lines[index].strip()) if wrong else len(body)
        return width, data_lines, wrong
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = ((reader.line_num, len(row)) for row in reader if len(row) > 1 or (row and row[0].strip()))
    try:
        _, width = next(rows, (0, 0))
        counted = list(rows)
    except csv.Error as error:
        raise ValueError(f"not valid delimited text at line {reader.line_num:,}: {error}") from error
    return width, len(counted), [(line, fields) for line, fields in counted if fields != width]


def check_csv_lines(text: str, member: str, delimiter: str) -> None:
    """Every line of ``text`` has exactly as many fields as its header (blank lines skipped, as pandas does).

    Raises
    ------
    ValueError
        Naming the file, the lines with another field count (up to five, and how many in all) and the
        header's width; or the line at which the text stops being valid delimited text.
    """
    try:
        width, lines, wrong = _wrong_field_counts(text, delimiter)
    except ValueError as error:
        raise ValueError(f"{member} is {error}") from error
    if wrong:
        shown = ", ".join(f"line {line:,} has {fields:,}" for line, fields in wrong[:_SAMPLES_SHOWN])
        raise ValueError(
            f"{member}: {len(wrong):,} of {lines:,} data line(s) do not have the header's {width:,} "
            f"{delimiter_name(delimiter)}-separated fields ({shown}); every line needs exactly "
            f"{width:,} fields: a missing or extra value, a trailing delimiter, or an unquoted "
            "delimiter inside a value?"
        )


def _unreadable_parquet(member: str, error: Exception) -> ValueError:
    return ValueError(f"{member} is not a readable parquet file: {error}")


def _read_parquet(data: bytes, member: str, max_columns: int) -> pd.DataFrame:
    try:  # the footer first: width and names are checked before any data is read
        schema = pq.ParquetFile(io.BytesIO(data)).schema_arrow
    except (OSError, ValueError) as error:  # pyarrow: ArrowInvalid is a ValueError, IO errors OSError
        raise _unreadable_parquet(member, error) from error
    index_columns = [
        name for name in (schema.pandas_metadata or {}).get("index_columns", []) if isinstance(name, str)
    ]
    check_column_names([name for name in schema.names if name not in index_columns], member, max_columns)
    try:
        return pd.read_parquet(io.BytesIO(data))
    except (OSError, ValueError) as error:
        raise _unreadable_parquet(member, error) from error


def read_user_table(
    files: FetchedFiles,
    *,
    member: str,
    delimiter: str | None = None,
    encoding: str = "utf-8",
    max_columns: int = DEFAULT_MAX_COLUMNS,
) -> pd.DataFrame:
    """A user's own file: parquet if the name ends in ``.parquet``/``.pq``, else delimited text with a header.

    ``delimiter=None`` detects it (:func:`resolve_delimiter`); ``encoding`` and ``delimiter`` do not apply to
    parquet.

    Raises
    ------
    ValueError
        If the file is empty, has a header but no data row, is not valid text in ``encoding``, has an
        unnamed or repeated column, a line with another field count than the header, more than
        ``max_columns`` columns, or is not a readable parquet file; the message names the file.
    """
    data = read_member_bytes(files, member).getvalue()
    if is_parquet(member):
        frame = _read_parquet(data, member, max_columns)
    else:
        if delimiter is None:
            delimiter = inspect_csv_header(
                io.BytesIO(data), member, encoding=encoding, max_columns=max_columns
            )
        text = decode_text(data, member, encoding)
        header_line = text.lstrip("\r\n").partition("\n")[0].rstrip("\r")
        if not header_line:
            raise ValueError(f"{member} is empty: expected a header line and at least one data row")
        check_column_names(next(csv.reader([header_line], delimiter=delimiter)), member, max_columns)
        check_csv_lines(text, member, delimiter)
        frame = read_csv_or_explain(
            io.BytesIO(data), member, sep=delimiter, encoding=_codec(encoding), index_col=False
        )
    if frame.empty:
        raise ValueError(
            f"{member} has no data rows (columns: {list(frame.columns)[:20]}); expected at least one row"
        )
    return frame
