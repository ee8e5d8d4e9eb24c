# make demo: the whole cycle offline; make test: the suite. Both build .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
export PREFECT_SERVER_ANALYTICS_ENABLED ?= false
export DO_NOT_TRACK ?= 1

.PHONY: all demo test lint bench clean

all: $(STAMP)

# pip 23 installs trafilatura without lxml_html_clean; uv (or a current pip) does it right.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip uv
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[dev]' \
	  || $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/evidence demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check flows extractors warehouse tests bench
	$(BIN)/ruff format --check flows extractors warehouse tests bench

bench: $(STAMP)
	$(BIN)/python bench/refresh.py --sources 500

clean:
	rm -rf $(VENV) data .pytest_cache
