"""What a replay found: one row per period, the verdict over the whole history, its figure and its report.

Each period's row (:func:`period_row`) holds the batch (rows, positives), the champion that decided on it
(version and method), the realized savings of the champion, of the first champion never retrained and of
the model retrained every period, the money each cost, what that period's retrain did (its best candidate,
promoted or not, the paired bootstrap's margin and lower bound), the features that drifted and whether the
monitor would have started a retrain.

The replay's MLflow parent run (experiment ``cslearn-replay``) gets one step per period (step = the period's
index in the history): ``savings/champion``, ``savings/never_retrained``, ``savings/always_retrained``, the
same under ``cost/``, ``champion_version``, ``promoted``, ``drifted_features`` and ``rows``; then the figure
(``figures/replay.png``), the table (``results/replay.csv``), and the report as markdown and HTML
(``replay.md``, ``replay.html``), also the run's description and a Prefect markdown artifact, verdict first.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd
from prefect import get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from schemas.flow_params import ReplayParams
from tasks.cost_models.derive import cost_unit
from tasks.replay.loop import PeriodBatch, ReplaySetup
from tasks.report.figures import figure_png
from tasks.report.html import FigureView, Section, frame_table, render_page
from tasks.tracking.mlflow_runs import ParentRun, log_metrics, log_run_files, log_table, parent_run
from tasks.tracking.prefect_artifacts import artifact_key

__all__ = [
    "MODELS",
    "period_row",
    "publish_replay_task",
    "log_period_task",
    "replay_figure",
    "replay_markdown",
    "replay_parent_run",
    "replay_summary",
]

#: The three models judged on every batch, in the order the tables show them.
MODELS = ("champion", "never retrained", "always retrained")

#: Longest description MLflow keeps for a run.
_DESCRIPTION_CHARACTERS = 8000


def replay_parent_run(params: ReplayParams, setup: ReplaySetup, fingerprint: str):
    """The replay's parent run: ended FINISHED only when every period was replayed."""
    from tasks.config.flow_parameters import logged_params

    return parent_run(
        params.tracking_uri,
        params.experiment,
        run_name=f"replay {params.dataset} per {params.period}",
        purpose="replay",
        fingerprints={setup.dataset: fingerprint},
        tags={
            "cslearn.dataset": params.dataset,
            "cslearn.replay_dataset": setup.dataset,
            "cslearn.model_name": setup.model_name,
        },
        params={**logged_params(params), "warmup_periods": setup.warmup, "periods": len(setup.periods)},
    )


def _number(value) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def period_row(
    batch: PeriodBatch,
    champion: Mapping,
    savings: Mapping[str, Mapping],
    refreshed: Mapping,
    watched: Mapping,
    retrained: Mapping,
    always_method: str,
) -> dict:
    """One period of the replay table (module docstring).

    Raises
    ------
    ValueError
        If the refresh refused the period's batch (a replay's batches pass the contracts of its first one).
    """
    if refreshed["refused"]:
        reasons = "; ".join(item["reason"] for item in refreshed["refused"])
        raise ValueError(f"period {batch.label}: the refresh refused its batch: {reasons}")
    return {
        "period": batch.period,
        "label": batch.label,
        "rows": len(batch.rows),
        "positives": int(batch.rows["label"].sum()),
        "champion_version": champion["version"],
        "champion_method": champion["method"],
        "always_method": always_method,
        **{f"savings/{model}": _number(savings[model]["savings"]) for model in MODELS},
        **{f"cost/{model}": savings[model]["cost"] for model in MODELS},
        "cost/all negative": savings["champion"]["cost_all_negative"],
        "cost/all positive": savings["champion"]["cost_all_positive"],
        "monitor_savings": _number(watched["realized_savings"]),
        "drifted_features": list(watched["drifted_features"]),
        "monitor_would_retrain": bool(watched["retrain"]["reasons"]),
        "retrain_best": retrained["best"],
        "retrain_version": retrained["version"],
        "promoted": retrained["outcome"] == "champion",
        "margin": _number(retrained.get("margin")),
        "lower_bound": _number(retrained.get("lower_bound")),
        "retrain_run_id": retrained["parent_run_id"],
    }


@task(name="log_period", task_run_name="log period {row[period]}", cache_policy=NO_CACHE, retries=2)
def log_period_task(run: ParentRun, row: dict) -> dict:
    """One step of the replay's parent run (step = the period's index); returns the row."""
    from tasks.tracking.mlflow_runs import tracking_client

    metrics = {
        "rows": row["rows"],
        "positives": row["positives"],
        "champion_version": int(row["champion_version"]),
        "promoted": int(row["promoted"]),
        "drifted_features": len(row["drifted_features"]),
        **{
            f"{kind}/{model.replace(' ', '_')}": row[f"{kind}/{model}"]
            for kind in ("savings", "cost")
            for model in MODELS
            if row[f"{kind}/{model}"] is not None
        },
    }
    log_metrics(tracking_client(run.tracking_uri), run.run_id, metrics, step=row["period"])
    get_run_logger().info(
        "Period %s: champion v%s (%s) saved %s, never retrained %s, always retrained %s; the retrain %s.",
        row["label"],
        row["champion_version"],
        row["champion_method"],
        *(_shown(row[f"savings/{model}"]) for model in MODELS),
        f"promoted v{row['retrain_version']} ({row['retrain_best']})"
        if row["promoted"]
        else f"kept the champion (best candidate {row['retrain_best']})",
    )
    return row


def _shown(value: float | None, digits: int = 4) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _signed(value: float | None) -> str:
    """A savings difference with its sign; ``n/a`` when not defined (no champion to compare, or NaN)."""
    return "n/a" if value is None else f"{value:+.4f}"


def _pooled_savings(rows: Sequence[Mapping], model: str) -> float | None:
    """Savings over every replayed row: the trivial decisions' and the model's costs summed over periods."""
    base = min(sum(row["cost/all negative"] for row in rows), sum(row["cost/all positive"] for row in rows))
    return None if base == 0 else (base - sum(row[f"cost/{model}"] for row in rows)) / base


def replay_summary(setup: ReplaySetup, rows: Sequence[Mapping], first_champion: Mapping) -> dict:
    """The replay over its whole history: pooled savings and cost per model, the champion's moves, drift."""
    history = setup.history
    moves = [row for row in rows if row["promoted"]]
    drifted = pd.Series([feature for row in rows for feature in row["drifted_features"]], dtype="str")
    unit = cost_unit(history.cost_model)
    summary = {
        "dataset": history.dataset,
        "period": history.period,
        "order": history.order,
        "replay_dataset": setup.dataset,
        "model_name": setup.model_name,
        "warmup": {
            "periods": setup.warmup,
            "from": history.labels[0],
            "to": history.labels[setup.warmup - 1],
            "rows": int(history.rows_per_period()[: setup.warmup].sum()),
            "champion_version": first_champion["version"],
            "champion_method": first_champion["method"],
        },
        "periods": len(rows),
        "first": rows[0]["label"] if rows else None,
        "last": rows[-1]["label"] if rows else None,
        "unit": unit,
        "savings": {model: _pooled_savings(rows, model) for model in MODELS},
        "cost": {model: sum(row[f"cost/{model}"] for row in rows) for model in MODELS},
        "moves": [
            {"period": row["label"], "version": row["retrain_version"], "method": row["retrain_best"]}
            for row in moves
        ],
        "drift": drifted.value_counts().to_dict(),
        "periods_with_drift": sum(1 for row in rows if row["drifted_features"]),
    }
    summary["verdict"] = replay_verdict(summary)
    return summary


def replay_verdict(summary: Mapping) -> str:
    """The replay in one sentence: how often the champion moved, and what it saved against the baselines."""
    moves = summary["moves"]
    moved = (
        "the champion never moved"
        if not moves
        else f"the champion moved {len(moves)} time{'s' * (len(moves) > 1)} ("
        + ", ".join(f"after {move['period']} to v{move['version']} {move['method']}" for move in moves)
        + ")"
    )
    savings, cost, unit = summary["savings"], summary["cost"], summary["unit"]
    return (
        f"Over {summary['periods']} periods of {summary['period']} of {summary['dataset']}"
        f" ({summary['first']} to {summary['last']}), {moved}; it realized savings of"
        f" {_shown(savings['champion'])} ({cost['champion']:,.0f} {unit} of costs), against"
        f" {_shown(savings['never retrained'])} ({cost['never retrained']:,.0f} {unit}) never retrained and"
        f" {_shown(savings['always retrained'])} ({cost['always retrained']:,.0f} {unit}) retrained every"
        " period."
    )


def _table_frame(rows: Sequence[Mapping]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "period": [row["label"] for row in rows],
            "rows": [row["rows"] for row in rows],
            "positives": [row["positives"] for row in rows],
            "champion": [f"v{row['champion_version']} {row['champion_method']}" for row in rows],
            **{model: [_shown(row[f"savings/{model}"]) for row in rows] for model in MODELS},
            "retrain": [
                f"{'promoted' if row['promoted'] else 'kept'} (v{row['retrain_version']}"
                f" {row['retrain_best']})"
                for row in rows
            ],
            "margin [lower bound]": [
                f"{_signed(row['margin'])} [{_signed(row['lower_bound'])}]" for row in rows
            ],
            "drifted features": [", ".join(row["drifted_features"]) or "none" for row in rows],
        }
    )


def replay_markdown(summary: Mapping, rows: Sequence[Mapping]) -> str:
    """The report: the verdict, how the replay was set up, the totals, then the table of periods."""
    warmup = summary["warmup"]
    totals = "\n".join(
        f"| {model} | {_shown(summary['savings'][model])} | {summary['cost'][model]:,.0f} |"
        for model in MODELS
    )
    drift = ", ".join(f"{feature} ({count})" for feature, count in summary["drift"].items()) or "none"
    frame = _table_frame(rows)
    header = "| " + " | ".join(frame.columns) + " |\n|" + "---|" * len(frame.columns)
    body = "\n".join("| " + " | ".join(str(value) for value in values) + " |" for values in frame.values)
    return (
        f"**{summary['verdict']}**\n\n"
        f"{summary['dataset']} in time order ({summary['order']}), cut into periods of {summary['period']}."
        f" The first champion, v{warmup['champion_version']} ({warmup['champion_method']}), was trained on"
        f" the {warmup['periods']} warm-up periods {warmup['from']} to {warmup['to']}"
        f" ({warmup['rows']:,} rows)."
        " Each later period was scored by the champion of its time, then its labels arrived: refresh,"
        " monitor, and a retrain promoted by the paired bootstrap. *Never retrained* is the first champion"
        " frozen; *always retrained* is each retrain's best method refit on every row so far and used"
        " whatever the bootstrap said.\n\n"
        f"| model | savings over the replay | cost ({summary['unit']}) |\n|---|---|---|\n{totals}\n\n"
        f"Features that drifted (PSI >= threshold), with the number of periods: {drift}.\n\n"
        f"{header}\n{body}\n"
    )


def replay_page(summary: Mapping, rows: Sequence[Mapping], png: bytes) -> str:
    """The replay as the project's self-contained HTML report: the verdict in the header, the figure and
    the totals, then the table of periods."""
    totals = pd.DataFrame(
        {
            "model": list(MODELS),
            "savings": [_shown(summary["savings"][model]) for model in MODELS],
            "cost": [f"{summary['cost'][model]:,.0f}" for model in MODELS],
        }
    )
    periods = _table_frame(rows)
    periods[["rows", "positives"]] = periods[["rows", "positives"]].map("{:,}".format)
    sections = [
        Section(
            id="savings",
            title="Savings per period",
            intro=f"Order: {summary['order']}.",
            blocks=[
                FigureView("replay", "savings per period and drifted features", png),
                frame_table(
                    totals,
                    id="totals",
                    columns={
                        "model": "model",
                        "savings": "savings over the replay",
                        "cost": f"cost ({summary['unit']})",
                    },
                ),
            ],
        ),
        Section(
            id="periods",
            title="Periods",
            blocks=[frame_table(periods, id="period-table", columns={name: name for name in periods})],
        ),
    ]
    return render_page(
        title=f"replay of {summary['dataset']} per {summary['period']}",
        subtitle="the live loop on the dataset's history: score, refresh, monitor, retrain",
        facts=[("dataset", summary["dataset"]), ("period", summary["period"]), ("periods", str(len(rows)))],
        sections=sections,
        headline=summary["verdict"],
        built_by="cslearn replay",
        built_from="at the end of the replay",
    )


def replay_figure(rows: Sequence[Mapping], summary: Mapping) -> bytes:
    """Savings per period of the three models with the champion's moves marked, and the drifted features."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(11, 6), dpi=100)
    lines, bars = figure.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": (3, 1)})
    positions = list(range(len(rows)))
    styles = {
        "champion": ("#1f77b4", "o"),
        "never retrained": ("#7f7f7f", "s"),
        "always retrained": ("#ff7f0e", "^"),
    }
    for model, (color, marker) in styles.items():
        values = [math.nan if row[f"savings/{model}"] is None else row[f"savings/{model}"] for row in rows]
        lines.plot(positions, values, color=color, marker=marker, markersize=4, label=model)
    for position, row in zip(positions, rows, strict=True):
        if row["promoted"]:  # the retrain after this period moved the champion
            lines.axvline(position + 0.5, color="#2ca02c", linestyle="--", linewidth=1)
    lines.axhline(0, color="black", linewidth=0.5)
    lines.set_ylabel("realized savings")
    lines.set_title(summary["verdict"], fontsize=8, wrap=True)
    lines.legend(loc="lower left", fontsize=8)
    bars.bar(positions, [len(row["drifted_features"]) for row in rows], color="#c0392b")
    bars.set_ylabel("drifted features")
    step = max(1, len(rows) // 16)
    bars.set_xticks(positions[::step], [row["label"] for row in rows][::step], rotation=45, fontsize=7)
    bars.set_xlabel("period (green dashes: the champion moved after it)")
    figure.tight_layout()
    return figure_png(figure, dpi=100, tight=False)


@task(name="publish_replay", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=5)
def publish_replay_task(
    run: ParentRun, setup: ReplaySetup, rows: list[dict], first_champion: Mapping
) -> dict:
    """The summary, the figure, the table and the report on the parent run, and the Prefect artifact."""
    from tasks.tracking.mlflow_runs import tracking_client

    summary = replay_summary(setup, rows, first_champion)
    markdown = replay_markdown(summary, rows)
    client = tracking_client(run.tracking_uri)
    figure = replay_figure(rows, summary)
    log_run_files(
        client,
        run.run_id,
        {
            "figures/replay.png": figure,
            "replay.md": markdown.encode(),
            "replay.html": replay_page(summary, rows, figure).encode(),
        },
    )
    log_table(client, run.run_id, pd.DataFrame(rows).astype({"drifted_features": "str"}), "replay")
    client.set_tag(run.run_id, "mlflow.note.content", markdown[:_DESCRIPTION_CHARACTERS])
    client.set_tag(run.run_id, "cslearn.replay.verdict", summary["verdict"][:5000])
    create_markdown_artifact(
        key=artifact_key("replay", setup.history.dataset, setup.history.period.replace(".", "p")),
        markdown=markdown,
        description=f"replay of {setup.history.dataset} per {setup.history.period}",
    )
    get_run_logger().info("%s", summary["verdict"])
    return {**summary, "run_id": run.run_id, "table": rows}
