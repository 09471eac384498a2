# The two commands a fresh machine needs: `make serve` and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1:8000
# The browser tests drive this Chromium (Debian's package); Playwright never downloads one.
CHROMIUM ?= /usr/bin/chromium
# Diagrams are rendered with Debian's Graphviz (python -m tools.site.diagrams); the tests check them.
DOT ?= /usr/bin/dot
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test lint build clean diagrams

# (Re)install when the venv is missing or pyproject.toml changed.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[docs,dev,xref]"
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/mkdocs serve --dev-addr $(HOST)

build: $(STAMP)
	$(BIN)/mkdocs build --strict

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m tools.deadcode
	$(BIN)/python -m tools.i18n docs
	$(BIN)/python -m tools.site.diagrams --check
	$(BIN)/python -m tools.site.layout --check
	$(BIN)/python -m tools.xref check --offline

# Installed only when missing (a fresh Debian 12 needs `apt-get update` first).
$(CHROMIUM):
	$(SUDO) apt-get update
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

$(DOT):
	$(SUDO) apt-get update
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y graphviz

# docs/diagrams/<name>.<lang>.dot -> docs/assets/diagrams/<name>.<lang>.svg (commit both).
diagrams: $(STAMP) $(DOT)
	DOT=$(DOT) $(BIN)/python -m tools.site.diagrams

test: lint $(CHROMIUM) $(DOT)
	MINIKUBELET_BROWSER_TESTS=require CHROMIUM=$(CHROMIUM) \
	MINIKUBELET_DIAGRAM_TESTS=require DOT=$(DOT) $(BIN)/python -m pytest

clean:
	rm -rf site .pytest_cache .ruff_cache
