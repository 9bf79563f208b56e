# Sourced by scripts/run.sh and scripts/reproduce/_common.sh: Prefect, MLflow and Dask local and quiet, as the
# Makefile sets them (see docs/environment.md). Expects PROJECT_DIR (and VENV_BIN, default PROJECT_DIR/.venv/bin).
# Prefect's state goes where `cslearn` run by hand puts it: $CSLEARN_HOME/prefect (tasks.storage.prefect_home).
if [[ -z "${PREFECT_HOME:-}" ]]; then
    PREFECT_HOME="$("${VENV_BIN:-$PROJECT_DIR/.venv/bin}/python" -c 'from tasks.storage import prefect_home; print(prefect_home())')"
    export PREFECT_HOME
fi
export PREFECT_SERVER_ANALYTICS_ENABLED=false
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="${PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS:-120}"
export DO_NOT_TRACK=true
export MLFLOW_DISABLE_TELEMETRY=true
export MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false
export MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR=false
