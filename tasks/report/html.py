"""HTML building blocks of the report: formatted tables with the best values marked, embedded figures, and
the page itself (a jinja2 template; every image is a data URI, so the file reads offline and alone).

A page is a list of :class:`Section` objects, each a list of blocks: :class:`HtmlTable`, :class:`Figure` or
paragraphs of text. :func:`render_page` turns them into one HTML document; :class:`Report` keeps that document
with the PNG of every figure and the tables it shows, and writes them to a folder.
"""

from __future__ import annotations

import base64
import math
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import pandas as pd

from algorithms.metrics import METRICS, lower_is_better, metric_label
from tasks.report.output import write_report_files

__all__ = [
    "Cell",
    "FigureView",
    "HtmlTable",
    "Report",
    "Section",
    "best_marks",
    "format_value",
    "frame_table",
    "render_page",
]

#: Columns that count things (shown as integers).
_COUNTS = frozenset({"position", "wins", "folds", "datasets", "failed", "repeat", "fold", "n_estimators"})


def format_value(name: str, value) -> str:
    """A number as the report shows it: a metric in its format (``algorithms.metrics.METRICS``: costs with
    thousands separators, rates with 3 decimals), counts as integers, ranks with 2 decimals."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "–"
    if isinstance(value, str):
        return value
    if name in _COUNTS:
        return f"{int(value):,}"
    if name in METRICS:
        return format(value, METRICS[name].format)
    if name in ("mean_rank", "rank"):
        return f"{value:.2f}"
    return f"{value:.3f}"


@dataclass(frozen=True)
class Cell:
    """One table cell: its text, CSS classes (``best``, ``second``, ``num``, ``sig``, ...), a tooltip, a
    span."""

    text: str
    css: str = ""
    title: str | None = None
    colspan: int = 1
    detail: str | None = None


@dataclass(frozen=True)
class HtmlTable:
    """A table: header rows, body rows, an id (the anchor), a caption, a note under it and CSS classes of
    the whole block (``exploratory``: greyed, a result no test supports)."""

    id: str
    head: list[list[Cell]]
    body: list[list[Cell]]
    caption: str = ""
    note: str = ""
    row_css: list[str] = field(default_factory=list)
    css: str = ""
    kind: str = "table"


@dataclass(frozen=True)
class FigureView:
    """An embedded figure: PNG bytes shown at half their pixel size (crisp on high-density screens)."""

    name: str
    title: str
    png: bytes
    caption: str = ""
    kind: str = "figure"

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")

    @property
    def size(self) -> tuple[int, int]:
        """Display width and height in CSS pixels (the PNG is rendered at 150 dpi: show it at 2/3)."""
        width, height = struct.unpack(">II", self.png[16:24])
        return round(width * 2 / 3), round(height * 2 / 3)


@dataclass(frozen=True)
class Paragraphs:
    """Plain paragraphs (escaped by the template)."""

    lines: Sequence[str]
    css: str = ""
    kind: str = "text"


@dataclass(frozen=True)
class Section:
    """A titled part of the page with an anchor id, an introduction and blocks."""

    id: str
    title: str
    intro: str = ""
    blocks: Sequence[HtmlTable | FigureView | Paragraphs] = ()


def best_marks(values: pd.Series, *, lower_is_better: bool) -> pd.Series:
    """``"best"`` for the best value (ties share it), ``"second"`` for the runner-up unless it is also the
    worst value, ``""`` otherwise (NaN never wins), as the papers mark their tables in bold and underline."""
    numeric = pd.to_numeric(values, errors="coerce").astype(float)
    marks = pd.Series("", index=values.index, dtype=object)
    present = numeric.dropna()
    if present.nunique() < 2:
        return marks
    order = present.rank(method="dense", ascending=lower_is_better)
    marks[order[order == 1].index] = "best"
    if order.max() > 2:
        marks[order[order == 2].index] = "second"
    return marks


def _mean_std_cell(name: str, mean, std, mark: str) -> Cell:
    detail = None if std is None or pd.isna(std) or pd.isna(mean) else f"± {format_value(name, std)}"
    return Cell(format_value(name, mean), f"num {mark}".strip(), detail=detail)


def frame_table(
    frame: pd.DataFrame,
    *,
    id: str,
    columns: Mapping[str, str],
    measures: Iterable[str] = (),
    caption: str = "",
    note: str = "",
    group_by: str | None = None,
    marks_within: str | None = None,
    marks: Mapping[str, pd.Series] | None = None,
) -> HtmlTable:
    """An :class:`HtmlTable` of ``frame``'s ``columns`` (name -> header text).

    ``measures`` are columns whose best values are marked (direction from ``algorithms.metrics``, ranks
    lower); a measure ``m`` with a ``m_std`` column in ``frame`` shows ``mean ± std``. ``marks_within`` names
    a column whose groups are marked separately (e.g. the dataset of each block); ``group_by`` starts a
    visually separated block whenever that column's value changes and shows it only on the block's first row.
    ``marks`` (measure -> marks per row) replaces the computed ones.
    """
    measures = [name for name in measures if name in columns]
    if marks is None:
        marks = {name: pd.Series("", index=frame.index, dtype=object) for name in measures}
        groups = (
            [frame] if marks_within is None else [part for _, part in frame.groupby(marks_within, sort=False)]
        )
        for name in measures:
            lower = lower_is_better(name) or name in ("mean_rank", "rank")
            for group in groups:
                marks[name].loc[group.index] = best_marks(group[name], lower_is_better=lower)
    head = [
        [Cell(text, "num" if name in measures or name in _COUNTS else "") for name, text in columns.items()]
    ]
    body, row_css, previous = [], [], object()
    for index, record in frame.iterrows():
        row = []
        for name in columns:
            value = record[name]
            if name in measures:
                std = record.get(f"{name}_std")
                row.append(_mean_std_cell(name, value, std, marks[name][index]))
            elif group_by == name and value == previous:
                row.append(Cell(""))
            else:
                row.append(Cell(format_value(name, value), "num" if name in _COUNTS else ""))
        starts_group = group_by is not None and record[group_by] != previous
        row_css.append("group-start" if starts_group and body else "")
        if group_by is not None:
            previous = record[group_by]
        body.append(row)
    return HtmlTable(id=id, head=head, body=body, caption=caption, note=note, row_css=row_css)


def metric_columns(names: Iterable[str]) -> dict[str, str]:
    """Header texts of metric columns."""
    return {name: metric_label(name) for name in names}


_ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("tasks.report", "templates"),
    autoescape=jinja2.select_autoescape(["html", "j2"]),
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


def render_page(
    *,
    title: str,
    subtitle: str,
    facts: Sequence[tuple[str, str]],
    sections: Sequence[Section],
    headline: str = "",
    built_by: str = "cslearn report",
    built_from: str = "from the MLflow run alone",
) -> str:
    """The whole report page: a header with the verdict (``headline``) and key facts, a table of contents,
    then every section; the footer says which command built it (``built_by``) from what (``built_from``)."""
    return _ENVIRONMENT.get_template("report.html.j2").render(
        title=title,
        subtitle=subtitle,
        facts=facts,
        sections=sections,
        headline=headline,
        built_by=built_by,
        built_from=built_from,
    )


@dataclass(frozen=True)
class Report:
    """A rendered report: the HTML document, its figures as PNG and the tables it shows."""

    title: str
    html: str
    figures: dict[str, bytes]
    tables: dict[str, pd.DataFrame]

    def write(self, folder: str | Path) -> Path:
        """Write ``figures/<name>.png`` and then ``report.html`` into ``folder`` (created), each file replaced
        whole and never written through a link (:func:`tasks.report.output.write_report_files`); returns
        the HTML path.

        Raises
        ------
        tasks.report.output.OutputFolderError
            ``folder`` is a file or a link out of where it was named (:func:`.output.check_output_folder`).
        OSError
            A file could not be written.
        """
        return write_report_files(folder, self.html.encode("utf-8"), self.figures)
