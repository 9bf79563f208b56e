"""``cslearn runs cleanup [--dry-run] [--json] [--experiment NAME]``: end the MLflow runs a killed process
left RUNNING.

Every run cslearn creates is tagged with the process that owns it (host, pid, start time;
``tasks.tracking.orphan_runs``). A RUNNING run whose owner on this host no longer exists is marked KILLED, and
the logged models it left PENDING are marked FAILED (the flows do the same for their experiment when they
start). Exit status 0, or 2 when ``--experiment`` names no experiment.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

from flows.cli._options import add_parser

__all__ = ["format_orphans", "register"]

DESCRIPTION = """\
Mark KILLED the MLflow runs that a killed cslearn process left RUNNING: runs whose owning process (recorded
in their tags cslearn.owner.host, cslearn.owner.pid and cslearn.owner.started) is gone from this host; the
logged models such a run left PENDING (the process was killed while logging one) are marked FAILED. Runs
started on other hosts, and runs of other tools, are left as they are. `cslearn compare` and `cslearn
retrain` do this for their experiment each time they start."""

EXAMPLES = """\
  cslearn runs cleanup --dry-run
  cslearn runs cleanup --experiment cslearn-compare --json
"""


def register(subparsers) -> None:
    """Add the ``runs`` command group."""
    group = subparsers.add_parser("runs", help="end the MLflow runs a killed process left RUNNING")
    commands = group.add_subparsers(dest="runs_command", required=True, metavar="COMMAND")
    cleanup = add_parser(
        commands,
        "cleanup",
        help="mark KILLED the runs left RUNNING by a process that is gone",
        description=DESCRIPTION,
        examples=EXAMPLES,
    )
    cleanup.add_argument("--dry-run", action="store_true", help="list the runs, change nothing")
    cleanup.add_argument("--json", action="store_true", help="print the runs as a JSON array")
    cleanup.add_argument("--experiment", metavar="NAME", help="only this experiment (default: all)")
    cleanup.add_argument(
        "--tracking-uri",
        help="MLflow tracking URI (default $MLFLOW_TRACKING_URI or the store in $CSLEARN_HOME)",
    )
    cleanup.set_defaults(handler=cleanup_runs)


def format_orphans(orphans, *, dry_run: bool) -> str:
    """One line per run (when it started, experiment, name, id, owner pid), one per logged model it left
    PENDING, and a closing count."""
    lines = []
    for orphan in orphans:
        started = datetime.fromtimestamp(orphan.start_time / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
        lines.append(
            f"{started} UTC  {orphan.experiment}  {orphan.run_name or '-'}  {orphan.run_id}  "
            f"(process {orphan.owner_pid} is gone)"
        )
        lines += [f"  logged model {model_id} left PENDING" for model_id in orphan.pending_models]
    verb = "would be marked" if dry_run else "marked"
    count = len(orphans)
    summary = f"{count} run{'s' * (count != 1)} {verb} KILLED"
    models = sum(len(orphan.pending_models) for orphan in orphans)
    if models:
        summary += f", {models} logged model{'s' * (models != 1)} {verb} FAILED"
    lines.append(summary)
    return "\n".join(lines)


def cleanup_runs(args: argparse.Namespace) -> int:
    from tasks.redaction import redact_uri
    from tasks.tracking.mlflow_runs import default_tracking_uri, tracking_client
    from tasks.tracking.orphan_runs import mark_orphaned_runs

    uri = args.tracking_uri or default_tracking_uri()
    client = tracking_client(uri)
    experiment_ids = None
    if args.experiment is not None:
        experiment = client.get_experiment_by_name(args.experiment)
        if experiment is None:
            shown = redact_uri(uri)
            print(
                f"cslearn runs cleanup: no MLflow experiment {args.experiment!r} in {shown}", file=sys.stderr
            )
            return 2
        experiment_ids = [experiment.experiment_id]
    orphans = mark_orphaned_runs(client, experiment_ids, dry_run=args.dry_run)
    if args.json:
        print(json.dumps([orphan.as_dict() for orphan in orphans], indent=2))
    else:
        print(format_orphans(orphans, dry_run=args.dry_run))
    return 0
