"""Batch scoring: the champion (or any logged cslearn model) applied to batches of unlabelled rows.

- :mod:`~tasks.scoring.inputs`: the batches of a score input (a file, a glob, a SQL query), each named;
- :mod:`~tasks.scoring.decisions`: one batch through the model's input contract and the served model's
  table (decision, probability, expected cost, the four costs), rows that break the contract set aside with
  the reason;
- :mod:`~tasks.scoring.outputs`: the table written atomically and idempotently per batch (a folder, a
  parquet / CSV file, or a SQL table);
- :mod:`~tasks.scoring.scoring_runs`: the MLflow run and Prefect tasks of a scoring flow.
"""
