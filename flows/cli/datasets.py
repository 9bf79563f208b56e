"""``cslearn datasets list | show NAME | ingest NAME... | ingest PATH --target COLUMN``.

``list --json`` prints one JSON object per dataset (its registry description plus whether it is cached);
``ingest --json`` prints rows, features, positives, fingerprint and cache path per dataset. Downloads show a
progress bar on stderr unless ``--no-progress``. Exit code 0 on success, 1 if any dataset failed, 2 on usage
errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from tasks.datasets import DATASETS, HttpOptions, ingest_dataset, ingest_file, resolve_cache_dir
from tasks.datasets.ingest import read_cached


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``datasets`` command group to the ``cslearn`` parser."""
    group = subparsers.add_parser("datasets", help="list, describe and ingest datasets")
    commands = group.add_subparsers(dest="datasets_command", required=True)

    listing = commands.add_parser("list", help="every registered dataset")
    listing.add_argument("--json", action="store_true", help="one JSON object per dataset")
    listing.add_argument("--offline", action="store_true", help="only datasets reachable offline")
    listing.add_argument("--cache-dir", type=Path, default=None)
    listing.set_defaults(handler=list_datasets)

    show = commands.add_parser(
        "show", help="one dataset's source, checksum, filter, minority rule and counts"
    )
    show.add_argument("name")
    show.add_argument("--json", action="store_true")
    show.add_argument("--cache-dir", type=Path, default=None)
    show.set_defaults(handler=show_dataset)

    ingest = commands.add_parser(
        "ingest", help="download, validate and cache datasets (registry names, or one file with --target)"
    )
    ingest.add_argument("names", nargs="+", metavar="NAME|PATH")
    ingest.add_argument(
        "--json", action="store_true", help="print rows, features, positives, fingerprint, path"
    )
    ingest.add_argument("--target", help="label column of a user's CSV/parquet file")
    ingest.add_argument("--positive", help="label value that is positive (default: the rarer of two values)")
    ingest.add_argument(
        "--cost-columns",
        nargs=4,
        metavar=("C_FP", "C_FN", "C_TP", "C_TN"),
        help="columns holding the example-dependent costs, in this order",
    )
    ingest.add_argument("--name", help="cache name of a user's file (default: its stem)")
    ingest.add_argument("--force", action="store_true", help="ingest again even if cached")
    ingest.add_argument("--no-progress", action="store_true", help="no progress bars")
    ingest.add_argument("--timeout", type=float, default=HttpOptions.timeout, help="seconds per network read")
    ingest.add_argument("--retries", type=int, default=HttpOptions.retries)
    ingest.add_argument("--cache-dir", type=Path, default=None)
    ingest.set_defaults(handler=ingest_datasets)


def _cache_status(name: str, cache_dir: Path) -> dict | None:
    metadata = cache_dir / "datasets" / f"{name}.json"
    if not metadata.exists():
        return None
    return json.loads(metadata.read_text())


def list_datasets(args: argparse.Namespace) -> int:
    cache_dir = resolve_cache_dir(args.cache_dir)
    specs = [spec for spec in DATASETS.values() if spec.offline or not args.offline]
    if args.json:
        for spec in specs:
            print(json.dumps({**spec.describe(), "cached": _cache_status(spec.name, cache_dir) is not None}))
        return 0
    print(
        f"{'name':<18} {'offline':<7} {'rows':>8} {'positives':>9}  {'papers':<15} {'cost model':<16} source"
    )
    for spec in specs:
        rows = f"{spec.expected_rows:,}" if spec.expected_rows is not None else "?"
        positives = f"{spec.expected_positives:,}" if spec.expected_positives is not None else "?"
        print(
            f"{spec.name:<18} {'yes' if spec.offline else 'no':<7} {rows:>8} {positives:>9}  "
            f"{','.join(spec.papers):<15} {spec.cost_model or '-':<16} {spec.source.kind}"
        )
    return 0


def _cost_summary(spec, cache_dir: Path) -> dict | None:
    """b_i's summary on the cached data when the cost models exist (descriptive: fitted on all rows)."""
    if spec.cost_model is None:
        return None
    dataset = read_cached(
        spec, cache_dir / "datasets" / f"{spec.name}.parquet", cache_dir / "datasets" / f"{spec.name}.json"
    )
    if dataset is None:
        return None
    from tasks.costs import cost_characteristic_summary, fit_cost_model  # imports Prefect: only when needed

    model = fit_cost_model(spec.cost_model, dataset.features, dataset.target)
    return cost_characteristic_summary(model.cost_matrix(dataset.features))


def show_dataset(args: argparse.Namespace) -> int:
    if args.name not in DATASETS:
        print(f"error: unknown dataset {args.name!r}; known: {', '.join(sorted(DATASETS))}", file=sys.stderr)
        return 2
    cache_dir = resolve_cache_dir(args.cache_dir)
    spec = DATASETS[args.name]
    description = {**spec.describe(), "cache": _cache_status(spec.name, cache_dir)}
    summary = _cost_summary(spec, cache_dir)
    if summary is not None:
        description["cost_characteristic_all_rows"] = summary
    elif spec.cost_model is not None:
        description["cost_characteristic_all_rows"] = (
            f"not computed yet: run `cslearn datasets ingest {spec.name}` first (show never downloads)"
        )
    if args.json:
        print(json.dumps(description, indent=2, default=str))
        return 0
    for key, value in description.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for inner_key, inner_value in value.items():
                print(f"  {inner_key}: {inner_value}")
        else:
            print(f"{key}: {value}")
    return 0


def _report(dataset) -> dict:
    return {
        "name": dataset.name,
        "rows": int(len(dataset.target)),
        "features": int(dataset.features.shape[1]),
        "positives": dataset.n_positives,
        "fingerprint": dataset.fingerprint,
        "path": str(dataset.path),
    }


def ingest_datasets(args: argparse.Namespace) -> int:
    options = HttpOptions(timeout=args.timeout, retries=args.retries)
    progress = not args.no_progress and not args.json
    if args.target is not None:
        if len(args.names) != 1:
            print("error: --target ingests exactly one file", file=sys.stderr)
            return 2
        jobs = [("file", args.names[0])]
    else:
        unknown = [name for name in args.names if name not in DATASETS]
        if unknown:
            hint = "; a file needs --target COLUMN" if any(Path(name).is_file() for name in unknown) else ""
            print(
                f"error: unknown dataset(s) {unknown}{hint}; known: {', '.join(sorted(DATASETS))}",
                file=sys.stderr,
            )
            return 2
        jobs = [("registry", name) for name in args.names]
    failures = 0
    overall = tqdm(
        jobs, desc="datasets", unit="dataset", disable=not progress or len(jobs) < 2, file=sys.stderr
    )
    for kind, name in overall:
        overall.set_postfix_str(name)
        try:
            if kind == "file":
                dataset = ingest_file(
                    name,
                    target=args.target,
                    positive=args.positive,
                    cost_columns=args.cost_columns,
                    name=args.name,
                    cache_dir=args.cache_dir,
                )
            else:
                dataset = ingest_dataset(
                    DATASETS[name],
                    cache_dir=args.cache_dir,
                    options=options,
                    progress=progress,
                    force=args.force,
                )
        except (ValueError, OSError, KeyError) as error:
            failures += 1
            overall.write(f"error: {name}: {error}", file=sys.stderr)
            continue
        report = _report(dataset)
        if args.json:
            print(json.dumps(report))
        else:
            overall.write(
                f"{report['name']}: {report['rows']:,} rows, {report['features']} features, "
                f"{report['positives']:,} positives, fingerprint {report['fingerprint'][:16]}, "
                f"{report['path']}"
            )
    return 1 if failures else 0
