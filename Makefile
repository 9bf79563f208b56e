# cslearn — `make run` installs and runs the main job; `make test` installs and runs the tests.
# Every target creates and uses the project's own virtual environment (.venv) by itself.

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

# Keep Prefect, MLflow and Dask local and quiet (see docs/environment.md). Prefect's state is not set here:
# `cslearn` and the scripts put it in $CSLEARN_HOME/prefect unless PREFECT_HOME is set (tasks/storage.py).
export PREFECT_SERVER_ANALYTICS_ENABLED := false
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS := 120
export DO_NOT_TRACK := true
export MLFLOW_DISABLE_TELEMETRY := true
export MLFLOW_SERVER_ENABLE_JOB_EXECUTION := false
export MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR := false

.PHONY: install browser postgres run test test-fast bench lint deploy ui

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# numba compiles a kernel on its first call in a process (seconds) unless its on-disk cache holds it: compile
# every kernel once at install, and again whenever a module with numba kernels changes.
NUMBA_SOURCES := $(shell grep -rl --include='*.py' '^from numba' algorithms)
NUMBA_STAMP := $(VENV)/.numba-cache-stamp

$(NUMBA_STAMP): $(STAMP) $(NUMBA_SOURCES) scripts/warm_numba_cache.py
	$(PY) scripts/warm_numba_cache.py
	@touch $(NUMBA_STAMP)

install: $(STAMP) $(NUMBA_STAMP)

# The report test reads the HTML report in headless Chromium (Debian's package; its own download cannot work here).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's chromium for the report test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      chromium fonts-dejavu-core >/dev/null; \
	  else \
	    echo "chromium is missing: install it (sudo apt-get install -y chromium) for the report test" >&2; \
	  fi; }

# The SQL-source tests start a real PostgreSQL server (initdb + pg_ctl from Debian's postgresql package).
postgres:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's postgresql for the SQL-source tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      postgresql >/dev/null; \
	  else \
	    echo "postgresql is missing: install it (sudo apt-get install -y postgresql) for the SQL tests" >&2; \
	  fi; }

lint: install
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check .

# Tests that start no server or process run on every core (pytest-xdist); the rest, whose servers, races
# and interrupts are timed, one at a time.
PARALLEL_TESTS := tests/algorithms tests/schemas tests/tasks/cost_models tests/tasks/monitoring \
	tests/tasks/report tests/tasks/scoring

test: install lint browser postgres
	$(PY) -m pytest -n auto $(PARALLEL_TESTS)
	$(PY) -m pytest $(addprefix --ignore=,$(PARALLEL_TESTS))

test-fast: install
	$(PY) -m pytest -m 'not slow'

bench: install
	$(PY) -m benchmarks

run: install
	bash scripts/run.sh

deploy: install
	bash scripts/deploy.sh

ui: install
	bash scripts/ui.sh
