# Needs only Python 3.11+ and make: the first run creates .venv and installs requirements.txt.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# touched after a successful install; requirements.txt newer than it means reinstall
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/daphne -b $(HOST) -p $(PORT) smearsite.asgi:application

test: $(STAMP)
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
