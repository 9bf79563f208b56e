"""Parsers: a source's raw bytes to the raw DataFrame its pandera model checks. No filtering happens here.

Each parser takes the fetched files (member name to bytes) and keyword arguments bound by the dataset's
definition with :func:`functools.partial`. pandas and scipy do the reading; nothing is unpickled (``.npz`` is
loaded with ``allow_pickle=False``).
"""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd

from tasks.datasets.sources import FetchedFiles, read_member_bytes


def read_csv_or_explain(stream, member: str, **options) -> pd.DataFrame:
    """``pandas.read_csv`` whose empty-file and tokenizer errors are ``ValueError``s naming ``member``."""
    try:
        return pd.read_csv(stream, **options)
    except pd.errors.EmptyDataError as error:
        raise ValueError(f"{member} is empty: expected a header line and at least one data row") from error
    except pd.errors.ParserError as error:
        raise ValueError(f"{member} is not valid delimited text: {error}") from error


def read_delimited(
    files: FetchedFiles,
    *,
    member: str,
    separator: str = ",",
    compression: str | None = None,
    column_names: tuple[str, ...] | None = None,
    missing_values: tuple[str, ...] = (),
) -> pd.DataFrame:
    """A delimited text file with a header line (or with ``column_names`` when it has none)."""
    return read_csv_or_explain(
        read_member_bytes(files, member),
        member,
        sep=separator,
        compression=compression,
        header=None if column_names else "infer",
        names=list(column_names) if column_names else None,
        na_values=list(missing_values) or None,
        keep_default_na=True,
        skipinitialspace=True,
    )


def read_keel_headerless(
    files: FetchedFiles, *, member: str, leading_columns: tuple[str, ...] = ()
) -> pd.DataFrame:
    """A KEEL ``raw/*.dat`` file: comma-separated, no header; numeric ``x<i>``, then ``label`` (text).

    ``leading_columns`` names non-numeric columns that come first (abalone's ``Sex``).
    """
    text = read_member_bytes(files, member).read().decode()
    first_line = text.lstrip().split("\n", 1)[0]
    width = first_line.count(",") + 1
    names = list(leading_columns)
    names += [f"x{index}" for index in range(len(names), width - 1)] + ["label"]
    dtypes = {"label": "str", **{column: "str" for column in leading_columns}}
    return read_csv_or_explain(
        io.StringIO(text), member, header=None, names=names, dtype=dtypes, skipinitialspace=True
    )


def read_keel_with_header(files: FetchedFiles, *, member: str) -> pd.DataFrame:
    """A KEEL-format file: ``@attribute`` lines name the columns, ``@data`` starts the rows (all text)."""
    lines = read_member_bytes(files, member).read().decode().splitlines()
    names = [line.split()[1] for line in lines if line.lower().startswith("@attribute")]
    data_start = next(index for index, line in enumerate(lines) if line.strip().lower() == "@data") + 1
    body = "\n".join(line for line in lines[data_start:] if line.strip())
    return read_csv_or_explain(
        io.StringIO(body), member, header=None, names=names, dtype="str", skipinitialspace=True
    )


def read_arff(files: FetchedFiles, *, member: str) -> pd.DataFrame:
    """A dense ARFF file (scipy): numeric attributes as float64, nominal ones decoded to text."""
    from scipy.io import arff

    text = read_member_bytes(files, member).read().decode("utf-8", errors="replace")
    data, _ = arff.loadarff(io.StringIO(text))
    frame = pd.DataFrame(data)
    for name in frame.columns:
        if frame[name].dtype == object:
            frame[name] = frame[name].map(lambda value: value.decode() if isinstance(value, bytes) else value)
            frame[name] = frame[name].astype("str").replace("?", np.nan)
    return frame


def read_adult(
    files: FetchedFiles, *, train_member: str, test_member: str, column_names: tuple[str, ...]
) -> pd.DataFrame:
    """UCI adult: ``adult.data`` then ``adult.test`` (whose first line is a comment) in one frame."""
    parts = []
    for member, skip in ((train_member, 0), (test_member, 1)):
        parts.append(
            read_csv_or_explain(
                read_member_bytes(files, member),
                member,
                header=None,
                names=list(column_names),
                skiprows=skip,
                skipinitialspace=True,
            )
        )
    return pd.concat(parts, ignore_index=True)


def read_communities(files: FetchedFiles, *, member: str, names_member: str) -> pd.DataFrame:
    """UCI communities and crime: headerless ``communities.data``; column names from its ``.names`` file."""
    lines = read_member_bytes(files, names_member).read().decode().splitlines()
    names = [line.split()[1] for line in lines if line.startswith("@attribute")]
    return read_csv_or_explain(
        read_member_bytes(files, member),
        member,
        header=None,
        names=names,
        na_values=["?"],
        dtype={"communityname": "str"},
    )


def read_npz_arrays(files: FetchedFiles, *, member: str) -> pd.DataFrame:
    """An imbalanced-learn benchmark ``.npz`` (``data``, ``label``), loaded without unpickling."""
    with np.load(read_member_bytes(files, member), allow_pickle=False) as arrays:
        data, label = arrays["data"], arrays["label"]
    frame = pd.DataFrame(data, columns=[f"x{index}" for index in range(data.shape[1])])
    frame["label"] = label.astype("int64")
    return frame


def read_sklearn_bundled(files: FetchedFiles, *, loader: str) -> pd.DataFrame:
    """A scikit-learn bundled dataset as one frame (features plus ``target``)."""
    import sklearn.datasets

    return getattr(sklearn.datasets, loader)(as_frame=True).frame


def read_openml_arff(files: FetchedFiles) -> pd.DataFrame:
    """An OpenML download: the ARFF, with the description's default target column renamed ``label``."""
    frame = read_arff(files, member="dataset.arff")
    description = json.loads(files["description.json"])["data_set_description"]
    return frame.rename(columns={description["default_target_attribute"]: "label"})
