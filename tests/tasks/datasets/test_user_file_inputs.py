"""A user's file is read as written or refused with words (issue 11, point 8); nothing is cached on refusal.

Each hostile input is a real file on disk ingested through :func:`tasks.datasets.ingest_file` (or the CLI);
the assertions are on the message a user reads and on the cache staying empty.
"""

from __future__ import annotations

import io
import os

import numpy as np
import pandas as pd
import pytest

from tasks.datasets import ingest_file
from tasks.datasets.user_table import inspect_csv_header
from tests.tasks.datasets.conftest import cached_dataset_files, run_cli

GOOD = "a,b,y\n1,2,no\n3,4,yes\n5,6,no\n7,8,no\n"


def write(directory, name: str, content: str | bytes):
    path = directory / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def refused(path, cache_dir, match: str, **options) -> str:
    """Ingest ``path``, expect a ``ValueError`` matching ``match``, check nothing was cached."""
    with pytest.raises(ValueError, match=match) as raised:
        ingest_file(path, target=options.pop("target", "y"), cache_dir=cache_dir, **options)
    assert cached_dataset_files(cache_dir) == []
    return str(raised.value)


# --- numbers with stray strings, identifiers, categorical allowance ------------------------------------


def test_stray_string_in_a_numeric_column_names_column_row_and_value(cache_dir, tmp_path):
    path = write(tmp_path, "stray.csv", "a,b,y\n1,2,no\nx,4,yes\n4,6,no\n6,8,no\n")
    message = refused(path, cache_dir, "stray.csv: 1 column")
    assert (
        "column 'a' holds numbers, but 1 of its 4 values are not numbers: 'x' at row 1. Correct or remove "
        "those rows, leave the column out (--drop-columns a), or encode it as categorical (--categorical a)"
    ) in message


def test_every_refused_column_is_listed_in_one_message(cache_dir, tmp_path):
    rows = "".join(
        f"{index},{'n/a?' if index == 3 else index},id{index},{'yes' if index % 4 else 'no'}\n"
        for index in range(150)
    )
    path = write(tmp_path, "two.csv", "a,b,customer,y\n" + rows)
    message = refused(path, cache_dir, "two.csv: 2 column")
    assert "column 'b' holds numbers, but 1 of its 150 values are not numbers: 'n/a?' at row 3" in message
    assert "column 'customer' is text with 150 distinct values (e.g. 'id0', 'id1', 'id2')" in message


def test_decimal_commas_are_named(cache_dir, tmp_path):
    path = write(tmp_path, "euro.csv", "a;b;y\n1,5;2;no\n2,25;3;yes\n3,0;4;no\n")
    message = refused(path, cache_dir, "euro.csv: 1 column")
    assert "column 'a' holds numbers, but 3 of its 3 values are not numbers: '1,5' at row 0" in message
    assert "values such as '1,5' use a decimal comma: write '1.5'" in message


def test_a_mostly_text_column_stays_categorical(cache_dir, tmp_path):
    path = write(tmp_path, "grades.csv", "grade,y\nA,no\nB,yes\n1,no\nA,no\n")
    dataset = ingest_file(path, target="y", cache_dir=cache_dir)
    assert dataset.features.columns.tolist() == ["grade=1", "grade=A", "grade=B"]


def test_high_cardinality_identifier_is_refused_with_the_ways_to_proceed(cache_dir, tmp_path):
    rows = "".join(f"c{index:05d},{index % 7},{'yes' if index % 5 == 0 else 'no'}\n" for index in range(2000))
    path = write(tmp_path, "ids.csv", "id,a,y\n" + rows)
    message = refused(path, cache_dir, "ids.csv: 1 column")
    assert (
        "column 'id' is text with 2,000 distinct values (e.g. 'c00000', 'c00001', 'c00002'); one-hot "
        "encoding would turn it into 2,000 feature columns (more than 100 are refused). If it identifies "
        "rows, leave it out (--drop-columns id); if it is a categorical feature, allow its levels "
        "(--categorical id)"
    ) in message
    dropped = ingest_file(path, target="y", drop_columns=["id"], cache_dir=cache_dir)
    assert dropped.features.columns.tolist() == ["a"] and dropped.metadata["drop_columns"] == ["id"]
    allowed = ingest_file(path, target="y", categorical_columns=["id"], name="ids-kept", cache_dir=cache_dir)
    assert allowed.features.shape == (2000, 2001)


def test_categorical_encodes_a_numeric_column_as_levels(cache_dir, tmp_path):
    path = write(tmp_path, "codes.csv", "code,size,y\n10,1.5,no\n20,2.5,yes\n10,3.5,no\n30,,no\n")
    dataset = ingest_file(
        path, target="y", categorical_columns=["code"], cache_dir=cache_dir, drop_columns=["size"]
    )
    assert dataset.features.columns.tolist() == ["code=10", "code=20", "code=30"]
    assert dataset.features.to_numpy().tolist() == [[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]]


def test_listed_columns_must_exist_and_not_overlap(cache_dir, tmp_path):
    path = write(tmp_path, "good.csv", GOOD)
    refused(
        path,
        cache_dir,
        r"--drop-columns names \['zz'\], which good.csv does not have; its columns: "
        r"\['a', 'b', 'y'\]",
        drop_columns=["zz"],
    )
    refused(
        path,
        cache_dir,
        "column 'a' is named both as --drop-columns and in --categorical",
        drop_columns=["a"],
        categorical_columns=["a"],
    )
    refused(
        path, cache_dir, "column 'y' is named both as the target and in --drop-columns", drop_columns=["y"]
    )


# --- header: duplicate and unnamed columns --------------------------------------------------------------


def test_duplicate_column_names_are_refused_not_renamed(cache_dir, tmp_path):
    path = write(tmp_path, "dup.csv", "a,b,a,y\n1,2,3,no\n3,4,5,yes\n5,6,7,no\n")
    refused(
        path,
        cache_dir,
        r"dup.csv: the header repeats column names \('a' at columns \[1, 3\]\); column "
        "names must be unique",
    )


def test_duplicate_column_names_in_parquet_are_refused(cache_dir, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "dup.parquet"
    pq.write_table(pa.table([[1, 2], [3, 4], ["no", "yes"]], names=["a", "a", "y"]), path)
    refused(path, cache_dir, r"dup.parquet: the header repeats column names \('a' at columns \[1, 2\]\)")


def test_an_unnamed_column_is_refused(cache_dir, tmp_path):
    path = write(tmp_path, "indexed.csv", ",a,y\n0,1,no\n1,3,yes\n2,5,no\n")
    refused(
        path,
        cache_dir,
        r"indexed.csv: column\(s\) \[1\] of the header have no name; name them, or "
        "remove them .an index written by pandas' to_csv without index=False.",
    )


# --- delimiter ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("separator", "shown"), [(";", "';'"), ("\t", "tab"), ("|", "'|'")])
def test_delimiter_is_detected_recorded_and_reported(cache_dir, tmp_path, capsys, separator, shown):
    path = write(tmp_path, "other.csv", GOOD.replace(",", separator))
    assert run_cli(["datasets", "ingest", str(path), "--target", "y"]) == 0
    assert capsys.readouterr().out.strip().endswith(f"read as {shown}-separated")
    dataset = ingest_file(path, target="y", cache_dir=cache_dir)
    assert dataset.features.columns.tolist() == ["a", "b"] and dataset.n_positives == 1
    assert dataset.metadata["delimiter"] == separator


def test_a_given_delimiter_that_the_header_lacks_is_named(cache_dir, tmp_path):
    path = write(tmp_path, "semi.csv", GOOD.replace(",", ";"))
    refused(
        path,
        cache_dir,
        "semi.csv: its header line has no ',' but splits on ';' into 3 columns; pass --delimiter ';'",
        delimiter=",",
    )
    assert ingest_file(path, target="y", delimiter=";", cache_dir=cache_dir).features.shape == (4, 2)


def test_delimiter_flag_accepts_names(cache_dir, tmp_path, capsys):
    path = write(tmp_path, "tabs.txt", GOOD.replace(",", "\t"))
    assert run_cli(["datasets", "ingest", str(path), "--target", "y", "--delimiter", "tab", "--json"]) == 0
    assert '"features": 2' in capsys.readouterr().out
    with pytest.raises(SystemExit):
        run_cli(["datasets", "ingest", str(path), "--target", "y", "--delimiter", "ab"])
    assert "--delimiter takes one character or one of ['comma', 'pipe', 'semicolon', 'tab']" in (
        capsys.readouterr().err
    )


def test_an_ambiguous_delimiter_is_refused(cache_dir, tmp_path):
    path = write(tmp_path, "both.csv", "a,b;c,y\n1,2;3,no\n1;2,3,yes\n")
    refused(
        path,
        cache_dir,
        "both.csv: cannot tell its delimiter: the header line gives 3 columns on ',', "
        "2 columns on ';'; pass --delimiter",
    )


def test_the_consistent_delimiter_wins_when_the_header_splits_on_two(cache_dir, tmp_path):
    path = write(tmp_path, "rate.csv", "rate;%,b,y\n1,2,no\n3,4,yes\n5,6,no\n")
    dataset = ingest_file(path, target="y", cache_dir=cache_dir)
    assert dataset.features.columns.tolist() == ["rate;%", "b"]


# --- encoding -----------------------------------------------------------------------------------------


def test_non_utf8_bytes_name_file_line_column_and_encoding(cache_dir, tmp_path):
    path = write(tmp_path, "latin.csv", "a,b,y\n1,x,no\n3,caf\xe9,yes\n5,y,no\n".encode("latin-1"))
    refused(
        path,
        cache_dir,
        r"latin.csv is not valid utf-8 text: byte\(s\) e9 at line 3, column 6 \(byte "
        r"offset 18\) cannot be decoded \(invalid continuation byte\); pass the file's encoding with "
        "--encoding, e.g. --encoding latin-1",
    )
    dataset = ingest_file(path, target="y", encoding="latin-1", cache_dir=cache_dir)
    assert "b=café" in dataset.features.columns and dataset.metadata["encoding"] == "latin-1"


def test_unknown_encoding_and_utf8_byte_order_mark(cache_dir, tmp_path):
    path = write(tmp_path, "bom.csv", b"\xef\xbb\xbf" + GOOD.encode())
    refused(path, cache_dir, "unknown encoding 'klingon'", encoding="klingon")
    assert ingest_file(path, target="y", cache_dir=cache_dir).features.columns.tolist() == ["a", "b"]


# --- lines with another field count ---------------------------------------------------------------------


def test_ragged_lines_are_named_not_filled_or_turned_into_an_index(cache_dir, tmp_path):
    path = write(tmp_path, "ragged.csv", "a,b,y\n1,2,3,no\n3,4,yes\n5,no\n7,8,no\n")
    refused(
        path,
        cache_dir,
        r"ragged.csv: 2 of 4 data line\(s\) do not have the header's 3 ','-separated "
        r"fields \(line 2 has 4, line 4 has 2\); every line needs exactly 3 fields",
    )


def test_a_trailing_delimiter_on_every_line_is_named(cache_dir, tmp_path):
    path = write(tmp_path, "trailing.csv", "a,b,y\n1,2,no,\n3,4,yes,\n")
    refused(path, cache_dir, r"trailing.csv: 2 of 2 data line\(s\) .* a trailing delimiter")


def test_quoted_values_may_hold_the_delimiter_and_line_breaks(cache_dir, tmp_path):
    ragged = write(tmp_path, "quoted_ragged.csv", 'note,a,y\n"x, y",1,no\n"two\nlines",2\n"z",3,no\n')
    refused(ragged, cache_dir, r"quoted_ragged.csv: 1 of 3 data line\(s\) .*fields \(line 4 has 2\)")
    path = write(tmp_path, "quoted.csv", 'note,a,y\n"x, y",1,no\n"two\nlines",2,yes\n"z",3,no\n')
    dataset = ingest_file(path, target="y", cache_dir=cache_dir)
    assert dataset.features.columns.tolist() == ["note=two\nlines", "note=x, y", "note=z", "a"]


@pytest.mark.parametrize("separator", [",", ";"])
def test_blank_lines_are_skipped_as_before(cache_dir, tmp_path, separator):
    text = "\n\n" + GOOD.replace("3,4,yes\n", "3,4,yes\n\n").replace(",", separator)
    path = write(tmp_path, "blank.csv", text)
    assert ingest_file(path, target="y", cache_dir=cache_dir).features.shape == (4, 2)


# --- width --------------------------------------------------------------------------------------------


class CountingStream(io.BytesIO):
    """A byte stream that remembers how many bytes were read from it."""

    bytes_read = 0

    def read(self, size=-1):
        chunk = super().read(size)
        self.bytes_read += len(chunk)
        return chunk


def test_a_million_column_header_stops_reading_early(cache_dir, tmp_path):
    header = ",".join(f"c{index}" for index in range(1_000_000)) + ",y\n"
    body = ",".join("1" for _ in range(1_000_001)) + "\n"
    stream = CountingStream((header + body).encode())
    with pytest.raises(
        ValueError,
        match=r"wide.csv: its header line has more than 10,000 ','-separated "
        r"columns \(reading stopped after 65,536 bytes, 10,950 columns\); at most 10,000 are "
        r"accepted: pass --max-columns N",
    ):
        inspect_csv_header(stream, "wide.csv")
    assert stream.bytes_read == 65_536  # of about 9 MB
    path = write(tmp_path, "wide.csv", header + body)
    refused(path, cache_dir, "wide.csv: its header line has more than 10,000")


def test_max_columns_is_a_cap_the_user_can_raise(cache_dir, tmp_path):
    header = ",".join(f"c{index}" for index in range(30)) + ",y\n"
    rows = "".join(
        ",".join(str(value) for value in range(30)) + f",{label}\n" for label in ("no", "yes", "no")
    )
    path = write(tmp_path, "thirty.csv", header + rows)
    refused(
        path, cache_dir, "thirty.csv: its header line has more than 20 ','-separated columns", max_columns=20
    )
    assert ingest_file(path, target="y", max_columns=31, cache_dir=cache_dir).features.shape == (3, 30)


def test_a_million_field_first_data_line_is_named(cache_dir, tmp_path):
    path = write(tmp_path, "widerow.csv", "a,b,y\n" + ",".join("1" for _ in range(1_000_000)) + "\n1,2,no\n")
    refused(
        path,
        cache_dir,
        r"widerow.csv: 1 of 2 data line\(s\) do not have the header's 3 ','-separated "
        r"fields \(line 2 has 1,000,000\)",
    )


def test_a_too_wide_parquet_is_refused_from_its_footer(cache_dir, tmp_path):
    path = tmp_path / "wide.parquet"
    pd.DataFrame(np.zeros((2, 40)), columns=[f"c{index}" for index in range(40)]).assign(
        y=["a", "b"]
    ).to_parquet(path)
    refused(path, cache_dir, "wide.parquet has 41 columns; at most 30 are accepted", max_columns=30)


# --- the target -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("positive", [None, "no"])
def test_a_one_class_target_is_said_in_words(cache_dir, tmp_path, positive):
    path = write(tmp_path, "oneclass.csv", "a,b,y\n1,2,no\n3,4,no\n5,6,no\n")
    message = refused(
        path, cache_dir, "oneclass.csv: target column 'y' holds one value only", positive=positive
    )
    assert message == (
        "oneclass.csv: target column 'y' holds one value only ('no' in all 3 rows); a classifier needs rows "
        "of both classes"
    )


# --- what the path is -----------------------------------------------------------------------------------


def test_a_directory_is_named_as_such(cache_dir, tmp_path):
    folder = tmp_path / "exports"
    folder.mkdir()
    refused(
        folder,
        cache_dir,
        f"{folder} is a directory, not a regular file: expected a CSV or parquet file; "
        "pass the CSV or parquet file inside it",
    )


def test_dev_null_is_named_as_a_device(cache_dir):
    refused("/dev/null", cache_dir, "/dev/null is a character device, not a regular file")


def test_a_named_pipe_is_refused_without_blocking(cache_dir, tmp_path):
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    refused(pipe, cache_dir, "pipe.csv is a named pipe, not a regular file")


def test_a_missing_file_and_a_dangling_symlink(cache_dir, tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file: .*missing.csv$"):
        ingest_file(tmp_path / "missing.csv", target="y", cache_dir=cache_dir)
    (tmp_path / "dangling.csv").symlink_to(tmp_path / "gone.csv")
    with pytest.raises(
        FileNotFoundError, match=r"no such file: .*dangling.csv \(a symlink to the missing .*gone"
    ):
        ingest_file(tmp_path / "dangling.csv", target="y", cache_dir=cache_dir)
    assert cached_dataset_files(cache_dir) == []


def test_a_symlink_to_a_valid_csv_is_followed(cache_dir, tmp_path):
    real = write(tmp_path, "real.csv", GOOD)
    (tmp_path / "latest.csv").symlink_to(real)
    dataset = ingest_file(tmp_path / "latest.csv", target="y", cache_dir=cache_dir)
    assert dataset.name == "latest" and dataset.features.shape == (4, 2)
    assert dataset.metadata["source_path"] == str(tmp_path / "latest.csv")
    assert dataset.fingerprint == ingest_file(real, target="y", cache_dir=cache_dir).fingerprint


def test_cli_prints_each_refusal_once_without_a_traceback(cache_dir, tmp_path, capsys):
    path = write(tmp_path, "dup.csv", "a,a,y\n1,2,no\n")
    assert run_cli(["datasets", "ingest", str(path), "--target", "y"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: dup.csv: the header repeats column names") and "Traceback" not in error
