# Shared by the reproduction scripts (sourced): environment as `make run` sets it, and `compare_run`.
# State and MLflow: $CSLEARN_HOME (default ~/.local/share/cslearn); finished cells are reused, so a rerun
# resumes. docs/results/ was made with CSLEARN_HOME=.repro/home. Tables and JSON summaries go to $CSLEARN_REPRO_OUT (default .repro/ in the project).
set -euo pipefail

PROJECT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV_BIN="${VENV_BIN:-$PROJECT_DIR/.venv/bin}"
OUT="${CSLEARN_REPRO_OUT:-$PROJECT_DIR/.repro}"
mkdir -p "$OUT"
cd "$PROJECT_DIR"

source "$PROJECT_DIR/scripts/_environment.sh"
# One thread per cell (the comparison runs two cells at once): both cores stay busy, and each cell's recorded
# CPU time (cpu_seconds, what benchmarks/bench_protocol.py projects the full protocols from) is all its work.
export NUMBA_NUM_THREADS="${NUMBA_NUM_THREADS:-1}"
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"

# compare_run NAME [cslearn compare options...]: runs the comparison (niced), keeps its JSON summary in
# $OUT/NAME.json, its wall time and peak memory (GNU time) in $OUT/NAME.time and prints the MLflow parent
# run id. Failed cells do not stop the script (they are listed in
# the summary and the tables show them as missing).
compare_run() {
    local name="$1"
    shift
    nice /usr/bin/time -v -o "$OUT/$name.time" "$VENV_BIN/cslearn" compare "$@" --json --no-progress \
        >"$OUT/$name.json" 2>"$OUT/$name.log" || true
    "$VENV_BIN/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["parent_run_id"])' "$OUT/$name.json"
}

# tables NAME RUN_ID[=LABEL]... -- [results_markdown options]: the paper's tables in $OUT/NAME.md.
tables() {
    local name="$1"
    shift
    "$VENV_BIN/python" scripts/results_markdown.py "$@" | tee "$OUT/$name.md"
}
