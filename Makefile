# Quotient — the two commands: `make run` (service + demo data) and `make test` (whole suite).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# Tests and CI run on PostgreSQL and Redis (started by deploy/scripts/services-up.sh).
PORT   ?= 8000

TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/quotient
TEST_BROKER_URL   ?= redis://127.0.0.1:6379/14
# The suite's parallel processes (pytest-xdist): one a core, at most 8 (each has its own
# test database, cache keys and broker database: quotient/settings/test.py); 0: one process.
# The 25 slowest tests are listed at the end: the suite is kept under 20 minutes.
TEST_PROCESSES    ?= auto

.PHONY: install run test lint bench bench-quick services messages clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## make run: the service with demo data on the embedded default (SQLite, tasks in-process)
run: install
	DEBUG=1 $(PY) manage.py upgrade_legacy_layout
	DEBUG=1 $(PY) manage.py migrate --noinput
	@# Astronomy's demo matches (a few seconds of endgame analysis each) are seeded
	@# while the site already serves; their progress lines follow the server's.
	DEBUG=1 $(PY) manage.py seed_demo --if-empty --later astronomy
	@# REQUIRE_2FA=0: the demo's admin/admin logs in without an authenticator app;
	@# WEBHOOK_ALLOW_PRIVATE=1: webhooks may go to a local test server
	DEBUG=1 REQUIRE_2FA=0 WEBHOOK_ALLOW_PRIVATE=1 $(PY) manage.py runserver 127.0.0.1:$(PORT)

## make test: PostgreSQL + Redis + a real Celery worker, then the whole suite and the linters
test: install services
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	  $(PY) -m pytest --numprocesses $(TEST_PROCESSES) --maxprocesses 8 --dist worksteal --durations 25
	$(MAKE) lint

## make lint: the style guide as a gate (ruff, formatting, types, the one-way app graph, migrations)
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --strict scoring/engine ratings/engine tournaments/engine federation/months.py
	$(VENV)/bin/lint-imports
	DJANGO_SETTINGS_MODULE=quotient.settings.test DATABASE_URL=$(TEST_DATABASE_URL) \
	  $(PY) manage.py makemigrations --check --dry-run

services:
	bash deploy/scripts/system-packages.sh
	bash deploy/scripts/services-up.sh

## make bench: every benchmark in bench/ (figures for the README and closing notes)
bench: install
	for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

bench-quick: install
	for script in bench/*.py; do echo "== $$script"; $(PY) $$script --quick || exit 1; done

messages: install
	DEBUG=1 $(PY) manage.py makemessages -l fr -l de --ignore '.venv/*' --ignore 'var/*'
	DEBUG=1 $(PY) manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) var/*.sqlite3 .pytest_cache .ruff_cache .hypothesis
