"""A dataset's history in periods: its rows in time order, cut into the batches a replay feeds the loop.

A dataset has an order in time when it has a time column (a dataset bound to a source with
``--time-column``), or when its source documents one (:data:`DOCUMENTED_ORDERS`):

- card fraud (``card-fraud``, ``card-fraud-dedup``): ``Time``, the seconds since the first transaction of two
  days of September 2013 (Dal Pozzolo et al. 2015);
- direct marketing (``direct-marketing``): the calls of UCI bank-full are in the order they were made, from
  May 2008 to November 2010 (Moro, Laureano, Cortez 2011); the ``month`` column gives the month of each call
  but not its year, so a month's index goes up by one each time ``month`` changes in row order, and its date
  is the first of the next calendar month of that name after the previous one (May 2008 first).

``--period`` cuts the time column into batches: a duration (``1h``, ``30min``, ``1d``; seconds for a
numeric column), counted from the first row, or ``month`` (calendar months of a date column, or the month
index above).
Periods without rows are no batch. The rows of each period keep their raw columns (the dataset's encoding
decoded), the label as ``label`` (1 positive, 0 negative), the cost columns when the dataset has its own
costs, and the time column, so that a batch file reads as an export of the source would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from algorithms.metrics import COST_COLUMNS
from tasks.datasets import dataset_entry, load_dataset
from tasks.datasets.encoding import RawEncoding

__all__ = [
    "DOCUMENTED_ORDERS",
    "LABEL_COLUMN",
    "DocumentedOrder",
    "ReplayHistory",
    "load_history",
    "period_seconds",
    "time_order_problem",
]

#: The label column of a batch file (1: positive).
LABEL_COLUMN = "label"

_DURATION_SECONDS = {"s": 1, "min": 60, "h": 3600, "d": 86_400, "w": 604_800}
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


@dataclass(frozen=True)
class DocumentedOrder:
    """The time order a built-in dataset's source documents: which column, and how it reads.

    ``kind`` is ``"seconds"`` (a number of seconds) or ``"month runs"`` (the rows are in time order and a
    month-name column changes with the month; ``first_month`` is the first row's month, ``YYYY-MM``).
    """

    column: str
    kind: str
    citation: str
    first_month: str | None = None


#: Built-in datasets whose rows have a documented order in time (module docstring).
DOCUMENTED_ORDERS = {
    "card-fraud": DocumentedOrder("Time", "seconds", "Dal Pozzolo et al. (2015): two days of September 2013"),
    "card-fraud-dedup": DocumentedOrder(
        "Time", "seconds", "Dal Pozzolo et al. (2015): two days of September 2013"
    ),
    "direct-marketing": DocumentedOrder(
        "month",
        "month runs",
        "Moro, Laureano, Cortez (2011): calls ordered by date, May 2008 to November 2010",
        first_month="2008-05",
    ),
}


@dataclass(frozen=True)
class ReplayHistory:
    """A dataset's rows in time order, each with its period.

    Attributes
    ----------
    dataset : str
        The dataset replayed.
    period : str
        The period (``--period``).
    rows : pandas.DataFrame
        Raw columns, :data:`LABEL_COLUMN`, the cost columns (when the dataset has its own) and
        ``time_column``, in time order.
    time_column : str
        The batch files' time column.
    times : numpy.ndarray
        The time column in seconds (a date: seconds since the epoch), one per row.
    period_index : numpy.ndarray
        The period of each row, ``0 .. n_periods - 1`` in time order (periods without rows skipped).
    labels : tuple of str
        Each period as a person reads it (``+5h``, ``2008-05``, a date).
    own_costs : bool
        The dataset carries its own cost columns (else a cost model derives them).
    cost_model : str or None
        The dataset's cost model.
    order : str
        Where the order comes from, in words.
    """

    dataset: str
    period: str
    rows: pd.DataFrame
    time_column: str
    times: np.ndarray
    period_index: np.ndarray
    labels: tuple[str, ...]
    own_costs: bool
    cost_model: str | None
    order: str

    @property
    def n_periods(self) -> int:
        return len(self.labels)

    def period_rows(self, period: int) -> pd.DataFrame:
        """The rows of one period (raw columns, label, costs, time)."""
        return self.rows[self.period_index == period].reset_index(drop=True)

    def rows_per_period(self) -> np.ndarray:
        return np.bincount(self.period_index, minlength=self.n_periods)

    def warmup_periods(self, share: float, holdout_periods: int) -> int:
        """The periods the first champion trains on: the fewest that hold ``share`` of the rows, and at least
        one more than the holdout.

        Raises
        ------
        ValueError
            If that leaves no period to replay.
        """
        cumulative = np.cumsum(self.rows_per_period())
        by_share = int(np.searchsorted(cumulative, share * cumulative[-1]) + 1)
        warmup = max(by_share, holdout_periods + 1)
        if warmup >= self.n_periods:
            raise ValueError(
                f"{self.dataset} has {self.n_periods} period(s) of {self.period}; a warm-up of {warmup} (the"
                f" periods holding {share:.0%} of the rows, and at least --holdout-periods {holdout_periods}"
                " plus one) leaves none to replay: choose a shorter --period, a smaller --warmup-share or"
                " fewer --holdout-periods"
            )
        return warmup

    def holdout_window(self, through: int, holdout_periods: int) -> str:
        """The retrain's holdout window on the data through period ``through``: its newest ``holdout_periods``
        periods, as a duration of seconds cut halfway between two periods' rows."""
        first_held = through - holdout_periods + 1
        before = self.times[self.period_index == first_held - 1].max()
        after = self.times[self.period_index == first_held].min()
        newest = self.times[self.period_index <= through].max()
        return f"{newest - (before + after) / 2:.3f}s"


def period_seconds(period: str) -> float | None:
    """A duration period in seconds (``None`` for ``month``).

    Raises
    ------
    ValueError
        If ``period`` is neither ``month`` nor a positive duration such as ``1h``.
    """
    if period == "month":
        return None
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(s|min|h|d|w)", period)
    if match is None or float(match[1]) <= 0:
        raise ValueError(
            f"period {period!r} is neither 'month' nor a positive duration such as 30min, 1h, 1d or 2w"
        )
    return float(match[1]) * _DURATION_SECONDS[match[2]]


def _no_order(dataset: str) -> str:
    return (
        f"dataset {dataset!r} has no order in time: it has no time column and its source documents none"
        f" (datasets with one: {', '.join(sorted(DOCUMENTED_ORDERS))}, or your own bound with `cslearn"
        " datasets ingest SOURCE --time-column COLUMN`)"
    )


def _period_problem(kind: str, period: str, dataset: str) -> str | None:
    """Why ``period`` cannot cut a time column of ``kind`` (``None`` when it can)."""
    try:
        duration = period_seconds(period)
    except ValueError as error:
        return str(error)
    if duration is None and kind == "seconds":
        return (
            f"--period month needs dates, and {dataset}'s time column counts seconds: give a duration"
            " (e.g. --period 1h)"
        )
    if duration is not None and kind == "month runs":
        return (
            f"{dataset}'s calls are ordered by month, with no finer time: use --period month, not {period!r}"
        )
    return None


def time_order_problem(dataset_name: str, period: str, *, cache_dir=None) -> str | None:
    """Why ``dataset_name`` cannot be replayed per ``period`` (no order in time, or a period that does not
    fit its time column), read from its record without loading it; ``None`` when it can."""
    documented = DOCUMENTED_ORDERS.get(dataset_name)
    if documented is not None:
        return _period_problem(documented.kind, period, dataset_name)
    record = dataset_entry(dataset_name, cache_dir=cache_dir).record or {}
    if not record.get("time_column"):
        return _no_order(dataset_name)
    kind = "dates" if record.get("time_kind") == "datetime" else "seconds"
    return _period_problem(kind, period, dataset_name)


def _raw_rows(dataset) -> pd.DataFrame:
    record = dataset.metadata.get("feature_encoding")
    encoding = (
        RawEncoding.from_record(record)
        if record
        else RawEncoding.from_feature_names(dataset.features.columns)
    )
    rows = encoding.decode(dataset.features).reset_index(drop=True)
    rows[LABEL_COLUMN] = np.asarray(dataset.target).astype(int)
    if dataset.cost_matrix is not None:
        rows = rows.assign(**dict(zip(COST_COLUMNS, np.asarray(dataset.cost_matrix).T, strict=True)))
    return rows


def _month_dates(months: pd.Series, first_month: str, dataset: str) -> pd.Series:
    """The first day of each row's month: a new month each time the month name changes in row order."""
    names = months.astype("str").str.lower().to_numpy()
    unknown = sorted(set(names) - set(_MONTHS))
    if unknown:
        raise ValueError(f"{dataset}: the month column holds {unknown[:5]}, not month names ({_MONTHS})")
    current = pd.Period(first_month, freq="M")
    if _MONTHS[current.month - 1] != names[0]:
        raise ValueError(f"{dataset}: its first row's month is {names[0]!r}, not {first_month}'s")
    dates = [current]
    for previous, name in zip(names[:-1], names[1:], strict=True):
        if name != previous:
            current += (_MONTHS.index(name) - current.month + 1) % 12 or 12
        dates.append(current)
    return pd.Series([date.to_timestamp() for date in dates], index=months.index).dt.tz_localize("UTC")


def _ordered_times(dataset, rows: pd.DataFrame) -> tuple[pd.DataFrame, str, np.ndarray, str, str]:
    """The rows with their time column, that column's name, the seconds, its kind and the order's source.

    Raises
    ------
    ValueError
        If the dataset has no order in time.
    """
    documented = DOCUMENTED_ORDERS.get(dataset.name)
    if documented is not None and documented.kind == "seconds":
        seconds = rows[documented.column].to_numpy(float)
        return rows, documented.column, seconds, "seconds", documented.citation
    if documented is not None:
        dates = _month_dates(rows[documented.column], documented.first_month, dataset.name)
        column = f"call_{documented.column}"
        rows = rows.assign(**{column: dates})
        seconds = ((dates - pd.Timestamp("1970-01-01", tz="UTC")) / pd.Timedelta(seconds=1)).to_numpy()
        return rows, column, seconds, "month runs", documented.citation
    if dataset.time is None:
        raise ValueError(_no_order(dataset.name))
    column = dataset.metadata.get("time_column") or "time"
    seconds = np.asarray(dataset.time, dtype=float)
    kind = dataset.metadata.get("time_kind") or "number"
    values = pd.to_datetime(seconds, unit="s", utc=True) if kind == "datetime" else seconds
    rows = rows.assign(**{column: values})
    return rows, column, seconds, "dates" if kind == "datetime" else "seconds", f"its time column {column!r}"


def _period_numbers(seconds: np.ndarray, kind: str, period: str, dataset: str) -> tuple[np.ndarray, list]:
    """Each row's period number (in time) and, per number, its label."""
    problem = _period_problem(kind, period, dataset)
    if problem is not None:
        raise ValueError(problem)
    duration = period_seconds(period)
    if duration is None:
        months = pd.to_datetime(seconds, unit="s", utc=True).tz_localize(None).to_period("M")
        numbers = (months.year * 12 + months.month - 1).to_numpy()
        return numbers, {
            number: str(month) for number, month in zip(numbers, months.astype(str), strict=True)
        }
    numbers = np.floor((seconds - seconds.min()) / duration).astype(np.int64)
    if kind == "dates":
        starts = pd.to_datetime(seconds.min() + numbers * duration, unit="s", utc=True)
        return numbers, dict(zip(numbers, (start.isoformat() for start in starts), strict=True))
    amount, unit = re.fullmatch(r"(\d+(?:\.\d+)?)(\w+)", period).groups()
    return numbers, {number: f"+{number * float(amount):g}{unit}" for number in np.unique(numbers)}


def load_history(dataset_name: str, period: str, *, cache_dir=None) -> ReplayHistory:
    """The dataset's rows in time order, cut into periods (module docstring).

    Raises
    ------
    ValueError
        If the dataset has no order in time, its time column goes backwards where the order is documented
        by row position, or ``period`` does not fit its time column.
    """
    dataset = load_dataset(dataset_name, cache_dir=cache_dir)
    rows, column, seconds, kind, order = _ordered_times(dataset, _raw_rows(dataset))
    order_by_time = np.argsort(seconds, kind="stable")
    rows, seconds = rows.iloc[order_by_time].reset_index(drop=True), seconds[order_by_time]
    numbers, labels = _period_numbers(seconds, kind, period, dataset_name)
    present, index = np.unique(numbers, return_inverse=True)
    if present.size < 2:
        raise ValueError(f"{dataset_name} spans a single period of {period}: choose a shorter --period")
    return ReplayHistory(
        dataset=dataset_name,
        period=period,
        rows=rows,
        time_column=column,
        times=seconds,
        period_index=index,
        labels=tuple(labels[number] for number in present),
        own_costs=dataset.cost_matrix is not None,
        cost_model=getattr(dataset.spec, "cost_model", None),
        order=order,
    )
