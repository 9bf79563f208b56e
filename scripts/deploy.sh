#!/usr/bin/env bash
# `make deploy`: a local Prefect server, the process work pool and a worker, all on 127.0.0.1, then every
# deployment of prefect.yaml (`prefect --no-prompt deploy --all`), whose parameter schemas are then closed to
# unknown parameters (`python -m flows.deployment_parameters`).
#
#   bash scripts/deploy.sh          start (or reuse) the server and worker, create the pool, deploy
#   bash scripts/deploy.sh stop     stop the worker and the server this script started
#
# Settings: PREFECT_PORT (default 4200), PREFECT_HOME (default $CSLEARN_HOME/prefect, where `cslearn` and
# `make run` keep Prefect's state too). The environment is the one `make` sets (scripts/_environment.sh), so
# the worker's flows log no download bars. Server and worker run in
# their own process groups (setsid: a plain `cmd &` from a script ignores SIGINT, and Prefect turns SIGTERM
# into SIGINT), their PIDs and logs are kept in $PREFECT_HOME/deploy/ (with deploy.log: what `prefect
# work-pool create` and `prefect deploy` printed).
set -euo pipefail

PROJECT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV_BIN="${VENV_BIN:-$PROJECT_DIR/.venv/bin}"
PORT="${PREFECT_PORT:-4200}"
POOL="cslearn-local"

source "$PROJECT_DIR/scripts/_environment.sh"
export PREFECT_API_URL="http://127.0.0.1:${PORT}/api"
export CSLEARN_PROJECT_DIR="$PROJECT_DIR"   # prefect.yaml's pull step: resolved by `prefect deploy`

STATE_DIR="$PREFECT_HOME/deploy"
mkdir -p "$STATE_DIR"

alive() {  # alive PIDFILE: the process recorded in PIDFILE is running
    [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null
}

stop_group() {  # stop_group NAME: SIGTERM the process group of NAME.pid, SIGKILL after 20 s
    local pidfile="$STATE_DIR/$1.pid"
    if ! alive "$pidfile"; then rm -f "$pidfile"; return 0; fi
    local pid; pid="$(cat "$pidfile")"
    kill -TERM -- "-$pid" 2>/dev/null || true
    for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    rm -f "$pidfile"
    echo "stopped $1 (process group $pid)"
}

healthy() {
    "$VENV_BIN/python" - "$PREFECT_API_URL/health" <<'PY'
import sys, httpx
try:
    sys.exit(0 if httpx.get(sys.argv[1], timeout=2).status_code == 200 else 1)
except httpx.HTTPError:
    sys.exit(1)
PY
}

if [[ "${1:-}" == "stop" ]]; then
    stop_group worker
    stop_group server
    exit 0
fi

cd "$PROJECT_DIR"

if healthy; then
    echo "Prefect server already answering at $PREFECT_API_URL"
else
    echo "starting the Prefect server on 127.0.0.1:$PORT (log: $STATE_DIR/server.log)"
    setsid "$VENV_BIN/prefect" server start --host 127.0.0.1 --port "$PORT" \
        >"$STATE_DIR/server.log" 2>&1 </dev/null &
    echo $! >"$STATE_DIR/server.pid"
    for _ in $(seq 360); do
        healthy && break
        if ! alive "$STATE_DIR/server.pid"; then
            echo "the Prefect server exited; last lines of its log:" >&2
            tail -n 30 "$STATE_DIR/server.log" >&2
            exit 1
        fi
        sleep 0.5
    done
    healthy || { echo "the Prefect server is not healthy after 180 s (log: $STATE_DIR/server.log)" >&2; exit 1; }
fi

# Prefect's own output (which tells to start a worker after each deployment) goes to a log; this script says
# what was deployed, and starts the worker itself.
DEPLOY_LOG="$STATE_DIR/deploy.log"
: >"$DEPLOY_LOG"
run_logged() {  # run_logged WHAT COMMAND...: run COMMAND with its output in $DEPLOY_LOG, its tail if it fails
    local what="$1"; shift
    if ! "$@" >>"$DEPLOY_LOG" 2>&1; then
        echo "$what failed; end of its output ($DEPLOY_LOG):" >&2
        tail -n 30 "$DEPLOY_LOG" >&2
        exit 1
    fi
}

if "$VENV_BIN/prefect" work-pool inspect "$POOL" >/dev/null 2>&1; then
    echo "work pool $POOL exists"
else
    run_logged "creating the work pool" "$VENV_BIN/prefect" work-pool create "$POOL" --type process
    echo "created the process work pool $POOL"
fi

# What the compare deployment fits with its defaults, for its description (resolved by `prefect deploy`).
CSLEARN_COMPARE_DEFAULT_SIZE="$("$VENV_BIN/python" -c 'from tasks.config.flow_parameters import default_comparison_size as size; print(size())')"
export CSLEARN_COMPARE_DEFAULT_SIZE
run_logged "prefect deploy --all" "$VENV_BIN/prefect" --no-prompt deploy --all
grep -o "Deployment '[^']*' successfully [a-z]*" "$DEPLOY_LOG" | sed "s/^Deployment /deployment /" || true
# Prefect's schemas let any extra parameter through (the run then crashes on the worker): close them, so that
# the API refuses an unknown parameter as it refuses a bad value (flows/deployment_parameters.py).
"$VENV_BIN/python" -m flows.deployment_parameters

if alive "$STATE_DIR/worker.pid"; then
    echo "worker already running (PID $(cat "$STATE_DIR/worker.pid"))"
else
    setsid "$VENV_BIN/prefect" worker start --pool "$POOL" >"$STATE_DIR/worker.log" 2>&1 </dev/null &
    echo $! >"$STATE_DIR/worker.pid"
    echo "started a worker on pool $POOL (log: $STATE_DIR/worker.log)"
fi

cat <<MSG

Deployed. Prefect UI: http://127.0.0.1:$PORT
  run one:   PREFECT_API_URL=$PREFECT_API_URL $VENV_BIN/prefect deployment run 'retrain/retrain-direct-marketing' --watch
  list:      PREFECT_API_URL=$PREFECT_API_URL $VENV_BIN/prefect deployment ls
  MLflow UI: make ui
  stop:      bash scripts/deploy.sh stop    (server PID $(cat "$STATE_DIR/server.pid" 2>/dev/null || echo "not ours"), worker PID $(cat "$STATE_DIR/worker.pid"))
MSG
