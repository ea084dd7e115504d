# `make run` and `make test` work on a fresh machine with Python 3.11 and the package registries.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test lint weights bench clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

setup: $(STAMP)

run: setup  ## serve the app on http://localhost:8501 with the shipped models
	$(VENV)/bin/streamlit run app.py --server.port 8501 --server.headless true --browser.gatherUsageStats false

test: setup  ## lint, then every test
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

weights: setup  ## retrain the tokenizer and the three shipped models (about 15 min on 2 cores)
	$(PY) -m models.train

bench: setup  ## speed tables (not tests)
	$(PY) bench/model_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
