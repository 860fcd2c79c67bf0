# The two commands: `make run` serves the app, `make test` runs the whole suite.
# Both install what is missing first (a virtual environment in .venv).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test install clean

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py ensure_admin
	$(PY) manage.py prepare_model
	$(PY) manage.py prepare_ocr
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

test: install
	scripts/test-deps.sh
	$(PY) -m pytest $(PYTEST_ARGS)

install: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt requirements-models.txt scripts/bootstrap.sh scripts/install-llama.sh
	PYTHON=$(PYTHON) VENV=$(VENV) scripts/bootstrap.sh
	touch $(STAMP)

clean:
	rm -rf $(VENV)
