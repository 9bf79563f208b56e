"""``cslearn datasets list | show NAME | ingest NAME... | ingest SOURCE --target COLUMN | refresh NAME``.

Names are those of :func:`tasks.datasets.dataset_names`: the registered datasets and the user's own (ingested
from a file). ``list --json`` prints one JSON object per dataset (its description, ``kind``, whether it is
cached and any problem with its cache entry); ``ingest --json`` prints rows, features, positives, fingerprint
and cache path per dataset. Downloads show a progress bar on stderr unless ``--no-progress``. A damaged cache
entry is named with what to do, never a traceback. Exit code 0 on success, 1 if any dataset failed or cannot
be described, 2 on usage errors (also options that contradict each other, before any file is read), 130
when interrupted (Ctrl-C or SIGTERM; nothing is left half-written). ``refresh NAME`` reads what is new in a
bound source (``--json``: version, ``added_rows``, ``refused``); exit code 1 when a batch was refused or the
source cannot be read. The data layer is imported by the handlers, not when the parser is built, so
``cslearn --help`` and the other commands start fast.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path

from flows.cli._common import INTERRUPTED_STATUS, interrupts_unwind
from flows.cli._options import ListOption, add_parser

#: Defaults of the data layer, shown in the help (``tests/tasks/datasets/test_cli.py`` keeps them equal to
#: ``HttpOptions`` and ``user_table.DEFAULT_MAX_COLUMNS``).
HELP_DEFAULTS = {"timeout": 30.0, "retries": 3, "max_columns": 10_000}

INGEST_DESCRIPTION = """\
Download, validate and cache registered datasets by name, or ingest your own CSV or parquet file (with
--target) as a dataset that compare and retrain can use like a registered one. A file with example-dependent
costs names its four cost columns with --cost-columns (order C_FP C_FN C_TP C_TN); such a dataset can be
retrained on. A folder or glob of batch files, a SQL table or query (--table / --query with a SQLAlchemy
URL), or a file with --time-column, is bound to the dataset: `cslearn datasets refresh NAME` then reads what
is new (new files; rows past the newest time). A SQL URL's credentials are never stored: give the full URL
again in CSLEARN_SOURCE_URL_<NAME> for refreshes. Lists take spaces or commas."""

INGEST_EXAMPLES = """\
  cslearn datasets ingest pima haberman
  cslearn datasets ingest loans.csv --target default --name loans-2024
  cslearn datasets ingest claims.csv --target fraud --positive yes --cost-columns c_fp,c_fn,c_tp,c_tn
  cslearn datasets ingest export.csv --target y --delimiter semicolon --drop-columns id,created_at
  cslearn datasets ingest 'exports/transactions-*.parquet' --target fraud --time-column ts --name fraud \
      --cost-columns c_fp,c_fn,c_tp,c_tn
  cslearn datasets ingest postgresql://risk@db/loans --table applications --target default \
      --time-column applied_at --cost-model credit-scoring --name loans
"""

REFRESH_DESCRIPTION = """\
Read what is new in the source a dataset is bound to (new batch files; rows past the newest time) and append
every batch that passes the contracts of a first ingest. A batch that fails is set aside and named (file or
query window, column, rows, why); the batches that pass are kept. Exit status 1 when a batch was refused or
the source cannot be read, 0 otherwise (also when there is nothing new)."""


def _delimiter(text: str) -> str:
    from tasks.datasets.user_table import parse_delimiter

    try:
        return parse_delimiter(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``datasets`` command group to the ``cslearn`` parser."""
    group = subparsers.add_parser("datasets", help="list, describe and ingest datasets")
    commands = group.add_subparsers(dest="datasets_command", required=True, metavar="COMMAND")

    listing = add_parser(
        commands,
        "list",
        help="every registered dataset and every user dataset",
        description="List every dataset compare and retrain accept: the registered ones and your own.",
        examples="  cslearn datasets list --offline\n  cslearn datasets list --json\n",
    )
    listing.add_argument("--json", action="store_true", help="one JSON object per dataset")
    listing.add_argument("--offline", action="store_true", help="only datasets reachable offline")
    listing.add_argument("--cache-dir", type=Path, help="dataset cache (default $CSLEARN_CACHE)")
    listing.set_defaults(handler=list_datasets)

    show = add_parser(
        commands,
        "show",
        help="one dataset's source, checksum, filter, minority rule and counts",
        description="Describe one dataset: where it comes from, how it is built, its counts and costs.",
        examples="  cslearn datasets show credit-scoring\n  cslearn datasets show loans-2024 --json\n",
    )
    show.add_argument("name")
    show.add_argument("--json", action="store_true")
    show.add_argument("--cache-dir", type=Path, help="dataset cache (default $CSLEARN_CACHE)")
    show.set_defaults(handler=show_dataset)

    ingest = add_parser(
        commands,
        "ingest",
        help="download, validate and cache datasets (names, or one file with --target)",
        description=INGEST_DESCRIPTION,
        examples=INGEST_EXAMPLES,
    )
    ingest.add_argument("names", nargs="+", metavar="NAME|PATH")
    ingest.add_argument(
        "--json", action="store_true", help="print rows, features, positives, fingerprint, path"
    )
    ingest.add_argument("--target", help="label column of a user's CSV/parquet file")
    ingest.add_argument("--positive", help="label value that is positive (default: the rarer of two values)")
    ingest.add_argument(
        "--cost-columns",
        action=ListOption,
        count=4,
        metavar="COLUMN",
        help="the four columns holding example-dependent costs, in the order C_FP C_FN C_TP C_TN",
    )
    ingest.add_argument(
        "--name", help="name of a user's file dataset (default: its stem; not a registered name)"
    )
    ingest.add_argument(
        "--delimiter",
        type=_delimiter,
        help="CSV delimiter: one character, or comma, semicolon, tab, pipe (default: detected)",
    )
    ingest.add_argument("--encoding", default="utf-8", help="CSV text encoding (default: utf-8)")
    ingest.add_argument(
        "--drop-columns", action=ListOption, default=(), metavar="COLUMN", help="columns left out of features"
    )
    ingest.add_argument(
        "--categorical",
        action=ListOption,
        default=(),
        metavar="COLUMN",
        help="columns one-hot encoded as categories, whatever their type and number of levels",
    )
    ingest.add_argument(
        "--max-columns",
        type=int,
        default=HELP_DEFAULTS["max_columns"],
        help=f"widest file accepted (default {HELP_DEFAULTS['max_columns']:,})",
    )
    ingest.add_argument(
        "--force",
        action="store_true",
        help="ingest again even if cached; for a file: replace a user dataset of that name from another file",
    )
    ingest.add_argument("--no-progress", action="store_true", help="no progress bars")
    ingest.add_argument(
        "--timeout",
        type=float,
        default=HELP_DEFAULTS["timeout"],
        help=f"seconds per network read (default {HELP_DEFAULTS['timeout']:g})",
    )
    ingest.add_argument(
        "--retries",
        type=int,
        default=HELP_DEFAULTS["retries"],
        help=f"download attempts after the first (default {HELP_DEFAULTS['retries']})",
    )
    ingest.add_argument(
        "--time-column", help="column ordering the rows in time (binds the source: refresh reads newer rows)"
    )
    ingest.add_argument("--table", help="table of a database URL source")
    ingest.add_argument("--query", help="SELECT query of a database URL source")
    ingest.add_argument(
        "--cost-model",
        help="derive each row's costs with a built-in cost model (credit-scoring, direct-marketing,"
        " card-fraud,"
        " credit-pakdd) from the row's own columns, instead of --cost-columns",
    )
    ingest.add_argument("--cache-dir", type=Path, help="dataset cache (default $CSLEARN_CACHE)")
    ingest.set_defaults(handler=ingest_datasets)

    refresh = add_parser(
        commands,
        "refresh",
        help="read what is new in a dataset's source and append the batches that pass",
        description=REFRESH_DESCRIPTION,
        examples="  cslearn datasets refresh fraud\n  cslearn datasets refresh loans --json\n",
    )
    refresh.add_argument("name")
    refresh.add_argument("--json", action="store_true", help="print version, added_rows and refused as JSON")
    refresh.add_argument("--cache-dir", type=Path, help="dataset cache (default $CSLEARN_CACHE)")
    refresh.set_defaults(handler=refresh_dataset)


def _count(value) -> str:
    return f"{value:,}" if value is not None else "?"


def list_datasets(args: argparse.Namespace) -> int:
    from tasks.datasets import available_datasets

    entries = [
        entry
        for entry in available_datasets(cache_dir=args.cache_dir).values()
        if not args.offline or entry.spec is None or entry.spec.offline
    ]
    if args.json:
        for entry in entries:
            described = entry.describe()
            cache = described.pop("cache")
            print(json.dumps({**described, "cached": cache is not None}))
        return 0
    print(
        f"{'name':<18} {'offline':<7} {'rows':>8} {'positives':>9}  {'papers':<15} {'cost model':<16} source"
    )
    for entry in entries:
        spec, record = entry.spec, entry.record or {}
        if entry.kind == "user":
            rows, positives = _count(record.get("rows")), _count(record.get("positives"))
            papers, costs = "(user)", "cost columns" if entry.cost_columns else "-"
        else:
            rows, positives = _count(spec.expected_rows), _count(spec.expected_positives)
            papers, costs = ",".join(spec.papers), spec.cost_model or "-"
        offline = "yes" if spec is None or spec.offline else "no"
        source = spec.source.kind if spec is not None else "?"
        print(f"{entry.name:<18} {offline:<7} {rows:>8} {positives:>9}  {papers:<15} {costs:<16} {source}")
    for entry in entries:
        if entry.problem is not None:
            print(f"note: {entry.name}: {entry.problem}", file=sys.stderr)
    return 0


def _cost_summary(spec, cache_dir: Path) -> dict | None:
    """b_i's summary on the cached data when the cost models exist (descriptive: fitted on all rows)."""
    from tasks.datasets import resolve_cache_dir
    from tasks.datasets.ingestion import read_cached

    if spec.cost_model is None:
        return None
    dataset = read_cached(spec, resolve_cache_dir(cache_dir))
    if dataset is None:
        return None
    from tasks.cost_models import cost_characteristic_summary, fit_cost_model  # imports Prefect: lazily

    model = fit_cost_model(spec.cost_model, dataset.features, dataset.target)
    return cost_characteristic_summary(model.cost_matrix(dataset.features))


def _user_cost_summary(name: str, cache_dir: Path) -> dict:
    """b_i's summary of a user dataset's own cost columns (loads, or rebuilds, the dataset)."""
    from tasks.cost_models import cost_characteristic_summary  # imports Prefect: only when needed
    from tasks.datasets import load_dataset

    return cost_characteristic_summary(load_dataset(name, cache_dir=cache_dir).cost_matrix)


def _print_description(description: dict) -> None:
    for key, value in description.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for inner_key, inner_value in value.items():
                print(f"  {inner_key}: {inner_value}")
        else:
            print(f"{key}: {value}")


def show_dataset(args: argparse.Namespace) -> int:
    from tasks.datasets import dataset_entry, resolve_cache_dir

    cache_dir = resolve_cache_dir(args.cache_dir)
    try:
        entry = dataset_entry(args.name, cache_dir=cache_dir)
    except KeyError as error:
        print(f"error: {error.args[0]}", file=sys.stderr)
        return 2
    if entry.spec is None:  # a user dataset whose record is damaged or missing
        print(f"error: {entry.problem}", file=sys.stderr)
        return 1
    description = entry.describe()
    status = 0
    if entry.kind == "user" and entry.cost_columns:
        try:
            description["cost_characteristic_all_rows"] = _user_cost_summary(entry.name, cache_dir)
        except ValueError as error:  # the parquet is damaged and cannot be rebuilt: say which and how
            description["cache_problem"], status = str(error), 1
    elif (summary := _cost_summary(entry.spec, cache_dir)) is not None:
        description["cost_characteristic_all_rows"] = summary
    elif entry.cost_model is not None:
        description["cost_characteristic_all_rows"] = (
            f"not computed yet: run `cslearn datasets ingest {entry.name}` first (show never downloads)"
        )
    if args.json:
        print(json.dumps(description, indent=2, default=str))
    else:
        _print_description(description)
    if status:
        print(f"error: {description['cache_problem']}", file=sys.stderr)
    return status


def _report(dataset) -> dict:
    return {
        "name": dataset.name,
        "rows": int(len(dataset.target)),
        "features": int(dataset.features.shape[1]),
        "positives": dataset.n_positives,
        "fingerprint": dataset.fingerprint,
        "path": str(dataset.path),
    }


def _binds_source(args: argparse.Namespace, source: str) -> bool:
    """Whether ``ingest SOURCE --target`` binds the source (refreshable) rather than reading one file once."""
    return (
        args.time_column is not None
        or args.table is not None
        or args.query is not None
        or "://" in source
        or any(character in source for character in "*?[")
        or Path(source).is_dir()
    )


def _file_options(args: argparse.Namespace):
    """How ``ingest SOURCE --target`` reads the source (``UserFileOptions``), checked: a ``ValueError`` names
    an option that contradicts another (a column in two roles, a repeated cost column)."""
    from tasks.datasets.user_files import UserFileOptions

    return UserFileOptions(
        target=args.target,
        positive=args.positive,
        cost_columns=tuple(args.cost_columns or ()),
        delimiter=args.delimiter,
        encoding=args.encoding,
        drop_columns=tuple(args.drop_columns),
        categorical_columns=tuple(args.categorical),
        max_columns=args.max_columns,
    )


def _bind(source: str, args: argparse.Namespace):
    from tasks.datasets import load_dataset
    from tasks.datasets.live import BindOptions, bind_source
    from tasks.datasets.user_files import default_user_dataset_name

    if args.cost_model is not None:
        from tasks.cost_models import COST_MODELS

        if args.cost_model not in COST_MODELS:
            raise ValueError(f"--cost-model {args.cost_model!r} is not one of {sorted(COST_MODELS)}")
    options = BindOptions(_file_options(args), time_column=args.time_column, cost_model=args.cost_model)
    name = args.name
    if name is None:
        if "://" in source:
            raise ValueError("a database source needs --name NAME")
        name = default_user_dataset_name(Path(source.split("*")[0].rstrip("/") or "dataset"))
    bind_source(
        source,
        options=options,
        name=name,
        table=args.table,
        query=args.query,
        replace=args.force,
        cache_dir=args.cache_dir,
    )
    return load_dataset(name, cache_dir=args.cache_dir)


def _ingest_one(kind: str, name: str, args: argparse.Namespace, options, progress: bool):
    from tasks.datasets import DATASETS, ingest_dataset, ingest_file, load_dataset, reingest_user_dataset

    if kind == "source":
        return _bind(name, args)
    if kind == "file":
        return ingest_file(
            name,
            target=args.target,
            positive=args.positive,
            cost_columns=args.cost_columns,
            name=args.name,
            cache_dir=args.cache_dir,
            delimiter=args.delimiter,
            encoding=args.encoding,
            drop_columns=args.drop_columns,
            categorical_columns=args.categorical,
            max_columns=args.max_columns,
            replace=args.force,
        )
    if kind == "user":
        if args.force:
            return reingest_user_dataset(name, cache_dir=args.cache_dir)
        return load_dataset(name, cache_dir=args.cache_dir)
    return ingest_dataset(
        DATASETS[name], cache_dir=args.cache_dir, options=options, progress=progress, force=args.force
    )


def ingest_datasets(args: argparse.Namespace) -> int:
    """Ingest the named datasets or the one source; exit status 2 on a usage error, 1 when one failed, 130
    when interrupted (Ctrl-C or SIGTERM: what was being written is removed, the datasets done are kept)."""
    try:
        with interrupts_unwind():
            return _ingest_datasets(args)
    except KeyboardInterrupt:
        print(
            "cslearn datasets ingest: interrupted; nothing of the dataset being ingested was written (those "
            "reported above are kept): run the command again to ingest it",
            file=sys.stderr,
        )
        return INTERRUPTED_STATUS


def _ingest_datasets(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from tasks.datasets import DATASETS, HttpOptions, dataset_names
    from tasks.datasets.user_table import delimiter_name

    options = HttpOptions(timeout=args.timeout, retries=args.retries)
    progress = not args.no_progress and not args.json
    if args.target is not None:
        if len(args.names) != 1:
            print("error: --target ingests exactly one file", file=sys.stderr)
            return 2
        if args.target is None and (args.time_column or args.table or args.query):
            print("error: a source needs --target COLUMN", file=sys.stderr)
            return 2
        if args.name is not None:  # a name that is a path could write outside the user-datasets folder
            from tasks.datasets.user_files import check_new_user_dataset_name

            try:
                check_new_user_dataset_name(args.name)
            except ValueError as error:
                print(f"error: --name: {error}", file=sys.stderr)
                return 2
        try:
            _file_options(args)
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        jobs = [("source" if _binds_source(args, args.names[0]) else "file", args.names[0])]
    else:
        names = [
            part.strip()
            for name in args.names
            for part in ([name] if Path(name).is_file() else name.split(","))
            if part.strip()
        ]
        known = dataset_names(cache_dir=args.cache_dir)
        unknown = [name for name in names if name not in known]
        for name in unknown:
            if Path(name).is_file():
                print(f"error: {name} is a file; a file needs --target COLUMN", file=sys.stderr)
                continue
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            print(f"error: unknown dataset {name!r}{hint}", file=sys.stderr)
        if unknown:
            print("(`cslearn datasets list` shows every dataset)", file=sys.stderr)
            return 2
        jobs = [("builtin" if name in DATASETS else "user", name) for name in names]
    failures = 0
    overall = tqdm(
        jobs, desc="datasets", unit="dataset", disable=not progress or len(jobs) < 2, file=sys.stderr
    )
    for kind, name in overall:
        overall.set_postfix_str(name)
        try:
            dataset = _ingest_one(kind, name, args, options, progress)
        except (ValueError, OSError, KeyError, RuntimeError) as error:
            failures += 1
            message = str(error.args[0] if isinstance(error, KeyError) and error.args else error)
            if kind == "source":
                from tasks.redaction import redact_uri

                name = redact_uri(name)
            named = message.startswith((name, Path(name).name))  # the data layer's messages name the file
            overall.write(f"error: {message}" if named else f"error: {name}: {message}", file=sys.stderr)
            continue
        report = _report(dataset)
        if args.json:
            print(json.dumps(report))
            continue
        delimiter = dataset.metadata.get("delimiter")
        read_as = f", read as {delimiter_name(delimiter)}-separated" if delimiter not in (None, ",") else ""
        overall.write(
            f"{report['name']}: {report['rows']:,} rows, {report['features']} features, "
            f"{report['positives']:,} positives, fingerprint {report['fingerprint'][:16]}, "
            f"{report['path']}{read_as}"
        )
    return 1 if failures else 0


def refresh_dataset(args: argparse.Namespace) -> int:
    """Refresh one bound dataset; exit 1 when a batch was refused or the source could not be read."""
    from tasks.datasets.live import SourceUnavailableError
    from tasks.datasets.live import refresh_dataset as refresh

    try:
        result = refresh(args.name, cache_dir=args.cache_dir)
    except KeyError as error:
        print(f"error: {error.args[0]}", file=sys.stderr)
        return 2
    except (ValueError, SourceUnavailableError) as error:
        if args.json:
            print(json.dumps({"name": args.name, "error": str(error), "added_rows": 0, "refused": []}))
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        for item in result.accepted:
            print(f"{result.name}: accepted {item['batch']} ({item['rows']:,} rows)")
        for column, levels in result.new_levels.items():
            print(f"{result.name}: new level(s) of {column!r}: {levels}")
        for item in result.refused:
            print(f"refused: {item['reason']}", file=sys.stderr)
        state = "nothing new" if not result.accepted else f"{result.added_rows:,} row(s) added"
        print(
            f"{result.name}: {state}; version {result.version}, {result.rows:,} rows, fingerprint"
            f" {result.fingerprint[:16]}"
            + (f", {len(result.refused)} batch(es) refused" if result.refused else "")
        )
    return 1 if result.refused else 0
