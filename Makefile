# make demo: the whole cycle offline; make test: the suite. Both build .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
UV_VERSION := 0.13.9
UV := $(BIN)/uv
export PREFECT_SERVER_ANALYTICS_ENABLED ?= false
export DO_NOT_TRACK ?= 1

.PHONY: all browser demo test lint check bench lock clean statuses-model

all: $(STAMP)

# The versions CI tested, from requirements.lock (hashes checked); then the project itself.
$(STAMP): pyproject.toml requirements.lock requirements.overrides
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(UV) pip install --quiet --compile-bytecode --python $(BIN)/python -r requirements.lock \
	  --override requirements.overrides
	$(UV) pip install --quiet --compile-bytecode --python $(BIN)/python --no-deps -e .
	touch $(STAMP)

demo: $(STAMP) browser
	$(BIN)/evidence demo

# A Chromium for `render: browser` sources and their tests: one already there, else
# Playwright's own (it downloads), else the system's chromium when running as root.
browser: $(STAMP)
	@$(BIN)/python -c "from flows.fetching import find_browser; find_browser(None)" 2>/dev/null \
	  || timeout 600 $(BIN)/playwright install chromium >/dev/null 2>&1 \
	  || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	       && apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	          apt-get install -y -qq chromium >/dev/null 2>&1; } \
	  || echo "make: no browser could be installed; browser tests skip (in CI they fail)"

# Four workers on two cores (most of the suite waits on servers, subprocesses and browsers),
# an idle one taking tests from a busy one so that no queue of long tests ends the run alone.
test: $(STAMP) browser
	$(BIN)/python -m pytest -q -n 4 --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# What CI runs: the checks, then the tests.
check: lint test

bench: $(STAMP)
	$(BIN)/python bench/refresh.py --sources 500

# The learned status reader's model, from the labelled pages beside the repository
# (../shared/labels): after a change to the status features or a new batch of labels.
statuses-model: $(STAMP)
	$(BIN)/python bench/train_statuses.py

# After a change to the dependencies in pyproject.toml: pin them again.
lock: $(STAMP)
	$(UV) pip compile pyproject.toml --extra dev --extra dask --python-version 3.11 --generate-hashes \
	  --override requirements.overrides --no-header --quiet -o requirements.lock

clean:
	rm -rf $(VENV) data .pytest_cache .mypy_cache .ruff_cache
