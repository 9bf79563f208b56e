"""``cslearn compare``: run the ``compare`` flow from the command line.

Options map one-to-one onto ``schemas.flow_params.CompareParams``; only the options given are passed, so the
model's defaults (the papers' protocols) apply to the rest. The configuration is checked first against the
on-disk snapshot of the known names and the datasets' class counts (``tasks.config.checks.quick_validate``,
well under a second, before Prefect is even imported): a bad one is explained per option and exits with
status 2. Then Prefect's API is made ready (the configured server, or one temporary server started in the
background while the flow's modules import) and the flow runs. Progress goes to stderr (a bar on a terminal);
the leaderboard and the statistical tests in words (or, with ``--json``, the summary as JSON) go to stdout.
Exit status: 0 when every cell succeeded, 1 when some failed (one line says which and why), Prefect is
unavailable or the MLflow store failed during the run (one line: the store, its error, the cells kept), 2 for
a bad configuration (an MLflow server or Dask scheduler that does not answer included), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from flows.cli._common import json_safe, report_lines
from flows.cli._environment import dask_scheduler_problem
from flows.cli._options import ListOption, add_parser, option_names
from flows.cli._run import RunStopped, run_flow
from tasks.redaction import redact_uri

__all__ = ["cell_count_notice", "describe_failures", "format_outcome", "params_from_args", "register"]

DESCRIPTION = """\
Compare methods on datasets under a protocol: every (dataset, method, repeat, fold) cell is fit and scored,
tracked in MLflow (one parent run, a child run per dataset and method) and kept on disk, so running the same
command again resumes where it stopped. Datasets may be registered ones or your own, ingested from a file
with `cslearn datasets ingest FILE --target COLUMN`.

Lists take spaces or commas: --datasets pima,haberman equals --datasets pima haberman."""

EXAMPLES = """\
  cslearn compare --datasets pima haberman --methods adaboost,adacc1,csdt --folds 5 --repeats 1
  cslearn compare --datasets wisconsin --protocol holdout --repeats 10 --n-estimators 25,50
  cslearn compare --datasets credit-scoring --methods csdt bmr-lr --json > result.json
  cslearn compare --protocol cv --repeats 10 --folds 5 --n-estimators 25,50,100,200   # the AdaCC protocol
  cslearn compare --datasets credit-scoring --methods csdt,dt --protocol tvt --training-set rejection
  cslearn compare --datasets direct-marketing --methods csdt --method-params '{"csdt": {"pruning": null}}'
"""

#: ``CompareParams`` fields set from options of the same name.
_FIELDS = (
    "datasets",
    "methods",
    "protocol",
    "repeats",
    "folds",
    "n_estimators",
    "cost_selection",
    "negative_costs",
    "inner_folds",
    "seed",
    "training_set",
    "experiment",
    "tracking_uri",
    "dask_address",
    "max_workers",
    "cell_store",
    "method_params",
)

#: Failure groups named in the one-line summary before "and N more", and the characters kept of each error
#: (enough for an error that says what to do, e.g. a dataset a Dask worker does not have).
_FAILURES_SHOWN = 3
_ERROR_LENGTH = 400


def register(subparsers) -> None:
    """Add the ``compare`` subcommand."""
    parser = add_parser(
        subparsers,
        "compare",
        help="compare methods on datasets under a protocol, tracked in MLflow (resumable)",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    what = parser.add_argument_group("what to compare")
    what.add_argument(
        "--datasets", action=ListOption, metavar="NAME", help="dataset names (default: wisconsin)"
    )
    what.add_argument(
        "--methods", action=ListOption, metavar="KEY", help="method keys (default: every registered method)"
    )
    what.add_argument(
        "--method-params",
        type=_json_object,
        metavar="JSON",
        help='constructor overrides per method, e.g. \'{"csdt": {"pruning": null}}\'',
    )
    protocol = parser.add_argument_group("protocol")
    protocol.add_argument(
        "--protocol",
        choices=("cv", "holdout", "tvt"),
        help="cv: R x K stratified folds (default); holdout: R 50/50 splits; tvt: train/validation/test",
    )
    protocol.add_argument(
        "--repeats", type=int, metavar="R", help="repetitions (default: 10 for cv, 100 holdout, 1 tvt)"
    )
    protocol.add_argument("--folds", type=int, metavar="K", help="K of the cv protocol (default 5)")
    protocol.add_argument(
        "--n-estimators",
        action=ListOption,
        item=int,
        metavar="T",
        help="ensemble sizes scored from one fit (default 25,50,100,200)",
    )
    protocol.add_argument(
        "--cost-selection",
        choices=("train", "inner-cv", "none"),
        help="how fixed-cost methods choose C-: by training F1 (train, the paper's), inner CV, or none",
    )
    protocol.add_argument(
        "--negative-costs",
        action=ListOption,
        item=float,
        metavar="C",
        help="the C- grid (default 0.1,...,1.0)",
    )
    protocol.add_argument(
        "--inner-folds", type=int, metavar="K", help="folds of --cost-selection inner-cv (3)"
    )
    protocol.add_argument("--seed", type=int, help="root seed of splits and estimators (default 0)")
    protocol.add_argument(
        "--training-set",
        choices=("train", "under", "rejection", "over"),
        help="train on the training split as drawn (default), under-sampled, or cost-proportionately "
        "rejection- or over-sampled (CSDT paper; the last two need example costs)",
    )
    where = parser.add_argument_group("where it runs and is recorded")
    where.add_argument(
        "--experiment", help="MLflow experiment: letters, digits, '.', '_' and '-' (default cslearn-compare)"
    )
    where.add_argument(
        "--tracking-uri",
        help="MLflow tracking URI (default $MLFLOW_TRACKING_URI or the store in $CSLEARN_HOME)",
    )
    where.add_argument(
        "--dask-address", metavar="tcp://HOST:PORT", help="run the cells on this Dask scheduler"
    )
    where.add_argument("--dask-tls-ca-file", metavar="PEM", help="CA certificate of a tls:// Dask cluster")
    where.add_argument("--dask-tls-cert", metavar="PEM", help="this client's certificate for tls:// Dask")
    where.add_argument("--dask-tls-key", metavar="PEM", help="this client's private key for tls:// Dask")
    where.add_argument("--max-workers", type=int, metavar="N", help="cells run at once locally (default 2)")
    where.add_argument(
        "--cell-store",
        metavar="DIR",
        help="folder of resumable cell results in $CSLEARN_HOME, relative to it or absolute (default cells)",
    )
    output = parser.add_argument_group("output")
    output.add_argument(
        "--json", action="store_true", help="print the summary and the MLflow run ids as JSON"
    )
    output.add_argument("--no-progress", action="store_true", help="plain progress lines, no bar")
    parser.set_defaults(handler=run, options=option_names(parser))


def _json_object(text: str) -> dict:
    """A JSON object given on the command line (argparse turns the ``ValueError`` into a usage error)."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


_json_object.__name__ = "JSON object"


def params_from_args(args: argparse.Namespace) -> dict:
    """The raw configuration: every option the user gave, as ``CompareParams`` field names."""
    return {field: getattr(args, field) for field in _FIELDS if getattr(args, field, None) is not None}


def describe_failures(results) -> str | None:
    """One line naming the failed cells, grouped by method and error (``None``: none failed).

    ``results`` is the flow's per-cell results table (``tasks.report.results_frame``).
    """
    cell_ids = ["dataset", "method", "repeat", "fold"]
    failed = results[results["status"] != "ok"].drop_duplicates(cell_ids)
    if failed.empty:
        return None
    groups = failed.fillna({"error": "unknown error"}).groupby(["method", "error"], sort=False)
    parts = []
    for (method, error), group in groups:
        datasets = ", ".join(dict.fromkeys(group["dataset"]))
        cells = f"{len(group)} cell{'s' * (len(group) != 1)}"
        parts.append(f"{method} on {datasets} ({cells}): {error[:_ERROR_LENGTH]}")
    more = len(parts) - _FAILURES_SHOWN
    shown = "; ".join(parts[:_FAILURES_SHOWN]) + (f"; and {more} more" if more > 0 else "")
    return f"{len(failed)} of {len(results.drop_duplicates(cell_ids))} cells failed: {shown}"


def format_outcome(outcome: dict) -> str:
    """The text summary: the leaderboard, the Friedman and post-hoc tests in words, the cells and the run."""
    from tasks.report import compare_methods, describe_comparison, format_leaderboard, leaderboard

    summary = outcome["summary_table"]
    lines = []
    if "opm_mean" in summary and summary["opm_mean"].notna().any():
        comparison = compare_methods(summary, "opm")
        n_datasets = summary["dataset"].nunique()
        lines += [
            f"Leaderboard: ranked by OPM per dataset at the largest T, over {n_datasets} dataset"
            f"{'s' * (n_datasets != 1)}; metrics are means over datasets of the per-dataset fold means",
            format_leaderboard(leaderboard(summary, comparison)),
            "",
            describe_comparison(comparison),
        ]
    else:
        lines.append("No results to rank: no cell succeeded.")
    cells = outcome["cells"]
    reused = " (reused: every cell was already done)" if outcome.get("reused_run") else ""
    lines += [
        "",
        f"cells: {cells['total']} total, {cells['resumed']} resumed, {cells['computed']} computed, "
        f"{cells['failed']} failed",
        f"MLflow parent run {outcome['parent_run_id']}{reused} in {redact_uri(outcome['tracking_uri'])}",
        *report_lines(outcome.get("report"), outcome["parent_run_id"]),
    ]
    return "\n".join(lines)


def _json_document(outcome: dict) -> dict:
    document = {
        key: outcome[key]
        for key in (
            "parent_run_id",
            "experiment_id",
            "tracking_uri",
            "cells",
            "reused_run",
            "child_runs",
            "report",
            "summary",
            "ranks",
        )
    }
    document["tracking_uri"] = redact_uri(outcome["tracking_uri"])
    document["friedman"] = outcome["friedman"]
    results = outcome["results_table"]
    failed = results[results["status"] != "ok"].drop_duplicates(["dataset", "method", "repeat", "fold"])
    document["failed_cells"] = failed[["dataset", "method", "repeat", "fold", "error"]].to_dict(
        orient="records"
    )
    return json_safe(document)


def cell_count_notice(params, *, repeats_given: bool) -> str | None:
    """What a comparison will fit, said before it starts when ``--repeats`` was not given (the papers' 10
    repeats of 5-fold CV are long): the cell count and how to make it smaller; ``None`` otherwise."""
    if repeats_given:
        return None
    from schemas.flow_params import DEFAULT_REPEATS
    from tasks.config.flow_parameters import comparison_size

    cells, words = comparison_size(params)
    per_repeat = cells // params.n_repeats
    return (
        f"{cells:,} cells to fit ({words}: the papers' {DEFAULT_REPEATS[params.protocol]} repeats of "
        f"{params.protocol}, as --repeats was not given); --repeats 1 fits {per_repeat:,}, and fewer "
        "--methods or --datasets fewer still"
    )


def _dask_settings(args: argparse.Namespace) -> contextlib.AbstractContextManager:
    """Dask's configuration for the run: the client's TLS files (``flows.dask_security``), checked against
    ``--dask-address``, and a scheduler that answers there; a ``ValueError`` says what is wrong."""
    tls_files = (args.dask_tls_ca_file, args.dask_tls_cert, args.dask_tls_key)
    if not args.dask_address and not any(tls_files):
        return contextlib.nullcontext()
    from flows.dask_security import check_dask_address, tls_config

    tls = tls_config(*tls_files)
    if not args.dask_address:
        raise ValueError(
            "--dask-tls-ca-file, --dask-tls-cert and --dask-tls-key need --dask-address tls://..."
        )
    check_dask_address(args.dask_address, tls)  # its warning is the flow's to log
    unreachable = dask_scheduler_problem(args.dask_address)
    if unreachable:
        raise ValueError(unreachable)
    if not tls:
        return contextlib.nullcontext()
    import dask

    return dask.config.set(tls)


def run(args: argparse.Namespace) -> int:
    """Check, run the flow, print the outcome; see the module docstring for the exit status."""
    from flows.cli._progress import CellProgressView
    from schemas.flow_params import CompareParams

    try:
        dask_settings = _dask_settings(args)
    except ValueError as error:
        print(f"cslearn compare: {error}", file=sys.stderr)
        return 2
    try:
        with dask_settings:
            outcome = run_flow(
                "compare",
                CompareParams,
                params_from_args(args),
                args.options,
                "flows.compare:run_compare",
                interrupted="the MLflow runs are marked KILLED and finished cells are kept (rerun the same "
                "command to resume)",
                view=lambda: CellProgressView(bar=False if args.no_progress else None),
                announce=lambda params: cell_count_notice(params, repeats_given=args.repeats is not None),
            )
    except RunStopped as ended:
        return ended.status
    if args.json:
        print(json.dumps(_json_document(outcome), indent=2))
    else:
        print(format_outcome(outcome))
    failures = describe_failures(outcome["results_table"])
    if failures:
        print(f"cslearn compare: {failures} (see the FAILED child runs in MLflow)", file=sys.stderr)
        return 1
    return 0
