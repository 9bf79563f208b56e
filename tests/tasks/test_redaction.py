"""``tasks.redaction.redact_uri``: a URI as it may be shown, without its user info or password parameters."""

from __future__ import annotations

import pytest

from tasks.redaction import is_secret_parameter, redact_uri


@pytest.mark.parametrize(
    ("uri", "shown"),
    [
        (
            "sqlite:////tmp/x/mlflow.db?user=alice&password=s3cret",
            "sqlite:////tmp/x/mlflow.db?user=alice&password=***",
        ),
        (
            "postgresql+psycopg://db:5432/mlflow?sslmode=require&password=s3cret&sslpassword=s3cret",
            "postgresql+psycopg://db:5432/mlflow?sslmode=require&password=***&sslpassword=***",
        ),
        (
            "postgresql://alice:s3cret@db/risk?PassWord=s3cret",
            "postgresql://***@db/risk?PassWord=***",
        ),
        (
            "https://proxy.example.com/mlflow?access_token=s3cret",
            "https://proxy.example.com/mlflow?access_token=***",
        ),
        ("https://proxy.example.com/?api-key=s3cret&x=1", "https://proxy.example.com/?api-key=***&x=1"),
        (
            "https://bucket.s3.amazonaws.com/a?X-Amz-Credential=s3cret&X-Amz-Signature=s3cret&X-Amz-Expires=60",
            "https://bucket.s3.amazonaws.com/a?X-Amz-Credential=***&X-Amz-Signature=***&X-Amz-Expires=60",
        ),
        ("http://127.0.0.1:5000/?pwd=s3cret", "http://127.0.0.1:5000/?pwd=***"),
        (
            "http://127.0.0.1:5000/?pass%77ord=s3cret",
            "http://127.0.0.1:5000/?pass%77ord=***",
        ),  # percent-encoded
    ],
)
def test_user_info_and_password_parameters_are_redacted_and_the_rest_kept_as_written(uri, shown):
    assert redact_uri(uri) == shown
    assert "s3cret" not in redact_uri(uri)


@pytest.mark.parametrize(
    "plain",
    [
        "http://127.0.0.1:5055",
        "sqlite:////tmp/x/mlflow.db",
        "databricks",
        "postgresql://db/risk?sslmode=require&user=alice&connect_timeout=10",
        "http://127.0.0.1:5055/path?q=1&monkey=2",
    ],
)
def test_a_uri_without_credentials_is_unchanged(plain):
    assert redact_uri(plain) == plain


def test_names_that_hold_secrets():
    secret = ["password", "PASSWORD", "db_password", "client_secret", "refresh-token", "apikey", "key", "sig"]
    assert all(is_secret_parameter(name) for name in secret)
    plain = ["user", "sslmode", "host", "dbname", "monkey", "keyspace", "application_name"]
    assert not any(is_secret_parameter(name) for name in plain)


def test_a_sql_source_with_a_password_parameter_is_stored_without_it_and_refresh_asks_for_it(
    tmp_path, monkeypatch
):
    """The data layer records a source's URL through ``redact_uri``; a stored ``password=***`` reads as
    'credentials not stored', as ``***@`` does (sqlite ignores the parameter, so the source is readable)."""
    import numpy as np
    import pandas as pd
    import sqlalchemy

    from tasks.datasets.live import BindOptions, SourceUnavailableError, bind_source, refresh_dataset
    from tasks.datasets.live_sources import credentials_variable
    from tasks.datasets.user_files import UserFileOptions

    url = f"sqlite:///{tmp_path / 'tx.db'}?password=s3cret"
    rows = pd.DataFrame(
        {
            "ts": np.arange(40.0),
            "Amount": np.linspace(1, 90, 40),
            "fraud": np.where(np.arange(40) % 5, "n", "y"),
        }
    )
    rows.to_sql("tx", sqlalchemy.create_engine(url), index=False)
    options = BindOptions(UserFileOptions(target="fraud"), time_column="ts", cost_model="card-fraud")
    cache = tmp_path / "cache"
    bind_source(url, table="tx", options=options, name="tx-pw", cache_dir=cache)

    record = (cache / "datasets" / "user" / "tx-pw.json").read_text()
    assert "s3cret" not in record and f"{tmp_path / 'tx.db'}?password=***" in record
    monkeypatch.delenv(credentials_variable("tx-pw"), raising=False)
    with pytest.raises(
        SourceUnavailableError, match="its credentials are never stored; set CSLEARN_SOURCE_URL_TX_PW"
    ):
        refresh_dataset("tx-pw", cache_dir=cache)
    monkeypatch.setenv(credentials_variable("tx-pw"), url)
    assert refresh_dataset("tx-pw", cache_dir=cache).added_rows == 0
