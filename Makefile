# Needs only Python 3.11+ and make: the first run creates .venv and installs requirements.txt.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# touched after a successful install; requirements.txt newer than it means reinstall
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# the browser tests drive Debian's chromium (apt-get install chromium)
CHROMIUM := /usr/bin/chromium

.PHONY: run test lint install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
		$(BIN)/python -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_positions learn/fixtures/starter_positions.jsonl
	$(BIN)/daphne -b $(HOST) -p $(PORT) smearsite.asgi:application

# The browser tests run in a pytest of their own (the sync Playwright API keeps an event
# loop running, which the asyncio tests must not share). Without chromium they are
# skipped, loudly; under CI=true a missing chromium is a failure. Exit status 5 (no
# test collected) fails too: both selections are meant to hold tests.
test: $(STAMP)
	@$(BIN)/pytest -m "not browser"; status=$$?; \
	if [ $$status -eq 5 ]; then echo "FAILED: no non-browser test was collected"; fi; \
	exit $$status
	@if [ -x $(CHROMIUM) ]; then \
		$(BIN)/pytest -m browser -p no:cacheprovider; status=$$?; \
		if [ $$status -eq 5 ]; then echo "FAILED: no browser test was collected"; fi; \
		exit $$status; \
	elif [ "$$CI" = "true" ]; then \
		echo "FAILED browser tests: $(CHROMIUM) not found (apt-get install chromium)"; \
		exit 1; \
	else \
		echo "SKIPPED browser tests: $(CHROMIUM) not found (apt-get install chromium)"; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) staticfiles .pytest_cache artifacts
