#!/usr/bin/env bash
# `make ui`: serve the MLflow UI on 127.0.0.1 over the tracking store the flows write to.
#
# The store is the one `cslearn` uses, in or outside make: MLFLOW_TRACKING_URI if set, else the sqlite store in
# the state folder, $CSLEARN_HOME/mlflow/mlflow.db (default ~/.local/share/cslearn; tasks.tracking.mlflow_runs and
# tasks.storage). Artifacts are served from beside that store. An http(s) URI is already a server: its
# address is printed instead. The address printed opens MLflow's training layout (tasks/tracking/mlflow_urls.py).
# Settings: MLFLOW_UI_PORT (default 5000). Stop with Ctrl-C.
set -euo pipefail

PROJECT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV_BIN="${VENV_BIN:-$PROJECT_DIR/.venv/bin}"
PORT="${MLFLOW_UI_PORT:-5000}"
export DO_NOT_TRACK=true MLFLOW_DISABLE_TELEMETRY=true MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false

cd "$PROJECT_DIR"
{ read -r STORE; read -r ARTIFACTS; read -r FRONT_PAGE; } < <(MLFLOW_UI_PORT="$PORT" "$VENV_BIN/python" -c '
from tasks.tracking.mlflow_runs import artifact_root, default_tracking_uri
from tasks.tracking.mlflow_urls import mlflow_home_url
store = default_tracking_uri()
root = artifact_root(store)  # None: a server, or a file store that keeps its artifacts inside itself
print(store, root.as_uri() if root else store, mlflow_home_url(store), sep="\n")')

case "$STORE" in
    http://*|https://*)
        echo "MLFLOW_TRACKING_URI is a tracking server already: open $FRONT_PAGE"
        exit 0 ;;
    sqlite:///*)
        mkdir -p "$(dirname "${STORE#sqlite:///}")" ;;
esac
mkdir -p "${ARTIFACTS#file://}"

echo "MLflow UI: $FRONT_PAGE (training layout) over $STORE (Ctrl-C to stop)"
echo "artifacts of new experiments: $ARTIFACTS"
exec "$VENV_BIN/mlflow" server --backend-store-uri "$STORE" --default-artifact-root "$ARTIFACTS" \
    --host 127.0.0.1 --port "$PORT" --workers 1
