# Two commands a newcomer needs: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test docs lint bench bench-compiled bench-parameters bench-gamesmanone bench-gamesmanone-queries bench-tiers bench-tiers-huge bench-dobutsu bench-dask bench-morris bench-contest bench-search bench-play peers clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --quiet -e '.[test,openspiel]'
	touch $(VENV)/.installed $@

demo: $(VENV)/.installed
	$(BIN)/perfectplay solve tictactoe

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy --strict src/perfectplay src/perfectplay_entry

# The tests on every core (pytest-xdist), a test file to a worker: a file's compiled games
# and module fixtures are made once.
test: lint
	$(BIN)/python -m pytest -n auto --maxprocesses 4 --dist loadfile

# The documentation site (MkDocs, Material theme) from docs/ into site/; a warning fails it.
docs: $(VENV)/.installed-test
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

bench: $(VENV)/.installed
	$(BIN)/python bench/speed.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/play.py

# A compiled game (examples/connect_four.py) beside the built-in's hand-ranked tiers and
# beside the plain protocol.
bench-compiled: $(VENV)/.installed
	$(BIN)/python bench/compiled.py

bench-parameters: $(VENV)/.installed
	$(BIN)/python bench/parameters.py

# Compiled games beside GamesmanOne's C on its own games (GamesmanOne built by
# bench/gamesmanone.sh from a checkout prepared by hand).
bench-gamesmanone: $(VENV)/.installed
	$(BIN)/python bench/gamesmanone.py

# GamesmanOne's query against perfectplay, position by position (exits 1 on a difference).
bench-gamesmanone-queries: $(VENV)/.installed
	$(BIN)/python bench/gamesmanone_queries.py

bench-tiers: $(VENV)/.installed
	$(BIN)/python bench/tiers.py

bench-tiers-huge: $(VENV)/.installed
	$(BIN)/python bench/tiers.py --huge --dir $(or $(DIR),/tmp/perfectplay-bench)

bench-dobutsu: $(VENV)/.installed
	$(BIN)/python bench/dobutsu.py

bench-dask: $(VENV)/.installed-test
	$(BIN)/python bench/on_dask.py

bench-morris: $(VENV)/.installed-test
	$(BIN)/python bench/morris.py

bench-contest: $(VENV)/.installed
	$(BIN)/python bench/contest.py

# Compiled search on 7x6 Connect Four beside its C reference (gcc), per band of positions.
bench-search: $(VENV)/.installed
	$(BIN)/python bench/search.py

# play on 7x6 Connect Four: perfectplay's answer times by ply, against random replies.
bench-play: $(VENV)/.installed
	$(BIN)/python bench/play.py

# OpenSpiel and easyAI side by side, in a virtualenv of their own (the project does not
# depend on them).
peers:
	test -x .venv-peers/bin/python || $(PYTHON) -m venv .venv-peers
	.venv-peers/bin/python -m pip install --quiet --quiet open_spiel cvxpy easyAI -e .
	.venv-peers/bin/python bench/peers.py

clean:
	rm -rf $(VENV) .venv-peers build src/*.egg-info
