# Sourced by scripts/run.sh and scripts/reproduce/_common.sh: Prefect, MLflow and Dask local and quiet, as the
# Makefile sets them (see docs/environment.md). Expects PROJECT_DIR.
export PREFECT_HOME="${PREFECT_HOME:-$PROJECT_DIR/.prefect}"
export PREFECT_SERVER_ANALYTICS_ENABLED=false
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="${PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS:-120}"
export DO_NOT_TRACK=true
export MLFLOW_DISABLE_TELEMETRY=true
export MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false
export MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR=false
