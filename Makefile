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
# The Chinese PDF needs a CJK font (Debian's Noto CJK); Chromium finds it through fontconfig.
CJK_FONT ?= /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test lint build clean diagrams fetch oracle pdf

# (Re)install when the venv is missing or pyproject.toml changed.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[docs,dev,xref,book]"
	touch $(STAMP)

# The Go panes need the mapped Go files of v1.21.3: fetched once into .cache/xref (verified),
# or read from K8S_SRC. Offline, one line says so and the site shows links instead.
fetch: $(STAMP)
	@$(BIN)/python -m tools.xref fetch --offline-ok || echo "make: the site will show links where the Go could not be fetched"

serve: fetch
	$(BIN)/mkdocs serve --dev-addr $(HOST)

build: fetch
	$(BIN)/mkdocs build --strict

# The site as one PDF per language, printed by Chromium from the build in site/:
# site/pdf/minikubelet-en.pdf and site/zh/pdf/minikubelet-zh.pdf (the home pages link them).
pdf: build $(CHROMIUM) $(CJK_FONT)
	CHROMIUM=$(CHROMIUM) $(BIN)/python -m tools.site.book --site site

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m tools.typecheck
	$(BIN)/lint-imports
	$(BIN)/python -m tools.deadcode
	$(BIN)/python -m tools.i18n docs
	$(BIN)/python -m tools.site.diagrams --check
	$(BIN)/python -m tools.site.layout --check
	$(BIN)/python -m walkthrough.vscode --check
	$(BIN)/python -m tools.xref check --offline

# The goldens of tests/oracle/ from real kubelet v1.21.4 (Go 1.19 and the fetched kubeedge tree;
# without them one line says what is missing). Scratch in .cache/oracle or $$ORACLE_WORK.
oracle: $(STAMP)
	@bash tools/oracle/build.sh
	@$(BIN)/python -m tools.oracle goldens $${ORACLE_WORK:-.cache/oracle}/bin/oracle

# Installed only when missing (a fresh Debian 12 needs `apt-get update` first).
$(CHROMIUM):
	$(SUDO) apt-get update
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

$(DOT):
	$(SUDO) apt-get update
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y graphviz

$(CJK_FONT):
	$(SUDO) apt-get update
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-cjk

# docs/diagrams/<name>.<lang>.dot -> docs/assets/diagrams/<name>.<lang>.svg (commit both).
diagrams: $(STAMP) $(DOT)
	DOT=$(DOT) $(BIN)/python -m tools.site.diagrams

test: lint $(CHROMIUM) $(DOT)
	MINIKUBELET_BROWSER_TESTS=require CHROMIUM=$(CHROMIUM) \
	MINIKUBELET_DIAGRAM_TESTS=require DOT=$(DOT) $(BIN)/python -m pytest

clean:
	rm -rf site .pytest_cache .ruff_cache
