# Needs only Python 3.11+ and make: the first run creates .venv and installs requirements.txt.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# touched after a successful install; requirements.txt newer than it means reinstall
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# the listening socket's queue: a short one drops a burst's extra connections,
# whose visitors then wait a second for their retry
BACKLOG ?= 1024
# the browser tests drive Debian's chromium (apt-get install chromium)
CHROMIUM := /usr/bin/chromium

# The native search core: rebuilt when its sources change (pip rebuilds a local path on
# every request, hence a stamp of its own). Without g++ it is skipped with a warning and
# the engine searches in Python; under CI=true a core that does not build is a failure.
NATIVE := game/engine/native
NATIVE_SOURCES := $(NATIVE)/setup.py $(NATIVE)/pyproject.toml \
	$(wildcard $(NATIVE)/src/*.cpp $(NATIVE)/src/*.hpp)
NATIVE_STAMP := $(VENV)/.native-installed
# the ASan/UBSan copy of the core, apart from the fast one the venv imports
SANITIZE_DIR := build/sanitize-core
NATIVE_MISSING = echo "WARNING: the native search core did not build; searching in Python"; \
	if [ "$$CI" = "true" ]; then exit 1; fi

.PHONY: run test test-suite test-browser test-faults lint install clean sanitize

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# requirements.txt builds the core too; if only the core fails, the rest is installed alone
$(STAMP): requirements.txt | $(BIN)/python
	@export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1; \
	if $(BIN)/python -m pip install --disable-pip-version-check -r requirements.txt; then \
		touch $(NATIVE_STAMP); \
	else \
		$(NATIVE_MISSING); \
		grep -v '^\./$(NATIVE)$$' requirements.txt > $(VENV)/requirements-python-only.txt; \
		$(BIN)/python -m pip install --disable-pip-version-check \
			-r $(VENV)/requirements-python-only.txt || exit 1; \
	fi
	touch $(STAMP)

$(NATIVE_STAMP): $(NATIVE_SOURCES) | $(STAMP)
	@if $(BIN)/python -m pip install --disable-pip-version-check --no-deps ./$(NATIVE); then \
		touch $(NATIVE_STAMP); \
	else \
		$(NATIVE_MISSING); \
	fi

install: $(STAMP) $(NATIVE_STAMP)

# The task queue's worker (round reviews) runs beside the server under a supervisor
# (smearsite.server.supervise) that the server keeps running (--worker): the worker is
# started again whenever it dies, the supervisor whenever it dies, and both stop with the
# server, never left running alone.
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_positions learn/fixtures/starter_positions.jsonl
	$(BIN)/python manage.py load_positions learn/fixtures/starter_family_positions.jsonl
	$(BIN)/python manage.py ladder_results load
	$(BIN)/python -m smearsite.server.serve --host $(HOST) --port $(PORT) --backlog $(BACKLOG) \
		--worker "$(BIN)/python manage.py review_worker --interval 1"

# The tests run on TEST_WORKERS processes (pytest-xdist; 0 runs them in this one), a test
# file to a worker: a file's tests may share what its fixtures start. The browser tests
# run in a pytest of their own (the sync Playwright API keeps an event loop running,
# which the asyncio tests must not share). Without chromium they are skipped, loudly;
# under CI=true a missing chromium is a failure. Exit status 5 (no test collected) fails
# too: both selections are meant to hold tests.
TEST_WORKERS ?= 2
PYTEST := $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile
# a browser test waits on chromium and its server about half the time: a third worker
# keeps two cores busy (measured: 4.6 minutes against 6.2 with two)
BROWSER_WORKERS ?= 3

test: test-suite test-browser

# SUITE_ARGS: more pytest arguments (.ci/run's PostgreSQL pass leaves out the pure tests)
SUITE_ARGS ?=

test-suite: install
	@$(PYTEST) -m "not browser and not faults" $(SUITE_ARGS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "FAILED: no non-browser test was collected"; fi; \
	exit $$status

test-browser: install
	@if [ -x $(CHROMIUM) ]; then \
		$(BIN)/pytest -n $(BROWSER_WORKERS) --dist loadfile -m browser -p no:cacheprovider; \
		status=$$?; \
		if [ $$status -eq 5 ]; then echo "FAILED: no browser test was collected"; fi; \
		exit $$status; \
	elif [ "$$CI" = "true" ]; then \
		echo "FAILED browser tests: $(CHROMIUM) not found (apt-get install chromium)"; \
		exit 1; \
	else \
		echo "SKIPPED browser tests: $(CHROMIUM) not found (apt-get install chromium)"; \
	fi

# The fault-injection suite (issue 53): a Redis of its own on a spare port, a PostgreSQL
# database of its own (DATABASE_URL's server, else 127.0.0.1:5432), two servers, and
# Redis killed (back after 5 s, and down 60 s), the database's connections terminated, a
# server killed: about two minutes.
# Skipped loudly without redis-server or PostgreSQL (a failure under CI=true).
test-faults: install
	@$(BIN)/pytest -p no:xdist -m faults tests/faults -p no:cacheprovider -rs

# The differential tests against a copy of the core built with AddressSanitizer and UBSan
# (CPython leaks by design, so leak checks are off; any sanitizer report fails the run).
# libstdc++ is preloaded after libasan so that ASan can intercept C++ throws; -s lets a
# sanitizer report reach the log (pytest would capture it, and the process then aborts).
sanitize: install
	SMEAR_NATIVE_SANITIZE=1 $(BIN)/python -m pip install --disable-pip-version-check \
		--no-deps --upgrade --target $(SANITIZE_DIR) ./$(NATIVE)
	export PYTHONPATH=$(SANITIZE_DIR) \
		LD_PRELOAD="$$(g++ -print-file-name=libasan.so) $$(g++ -print-file-name=libstdc++.so)" \
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1; \
	$(BIN)/python -c "import smear_native as m, sys; sys.exit('sanitize' not in m.__file__)" \
		&& $(BIN)/pytest tests/game/engine/test_native.py -q -s -p no:cacheprovider

# ruff, then the layer contracts in pyproject.toml ([tool.importlinter]: the engine imports
# no Django, the bots no live play, apps only downward); no cache folder is left behind
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

clean:
	rm -rf $(VENV) staticfiles .pytest_cache artifacts build $(NATIVE)/build $(NATIVE)/*.egg-info
