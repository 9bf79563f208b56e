# cslearn — `make run` installs and runs the main job; `make test` installs and runs the tests.
# Every target creates and uses the project's own virtual environment (.venv) by itself.

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

# Keep Prefect, MLflow and Dask local and quiet (see ../shared/spec/stack.md).
export PREFECT_HOME ?= $(CURDIR)/.prefect
export PREFECT_SERVER_ANALYTICS_ENABLED := false
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS := 120
export DO_NOT_TRACK := true
export MLFLOW_DISABLE_TELEMETRY := true
export MLFLOW_SERVER_ENABLE_JOB_EXECUTION := false

.PHONY: install run test test-fast bench lint deploy ui

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

lint: install
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check .

test: install lint
	$(PY) -m pytest

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
