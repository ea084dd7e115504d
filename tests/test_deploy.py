"""The deployment files fit the code: the Docker image copies everything the app imports at run time,
and the shared-deployment Streamlit settings are real Streamlit options (a typo would be ignored)."""

import re
import tomllib
from pathlib import Path

from streamlit import config

ROOT = Path(__file__).resolve().parents[1]


def test_dockerfile_copies_what_the_app_needs():
    copied = {m.group(1) for m in re.finditer(r"^COPY\s+(\S+)", (ROOT / "Dockerfile").read_text(), re.M)}
    needed = {"app.py", "models", "viz", "ui", "lessons", "guides", "deploy/streamlit.toml"}
    assert needed <= copied, needed - copied
    imported = set(re.findall(r"^(?:from|import) (\w+)", (ROOT / "app.py").read_text(), re.M))
    assert {m for m in imported if (ROOT / m).is_dir()} <= copied
    assert "torch==2.13.0" in (ROOT / "Dockerfile").read_text()  # the same pin as requirements.txt
    assert "torch==2.13.0" in (ROOT / "requirements.txt").read_text()


def test_deploy_settings_are_streamlit_options():
    settings = tomllib.loads((ROOT / "deploy" / "streamlit.toml").read_text())
    options = {f"{section}.{name}" for section, values in settings.items() for name in values}
    unknown = options - set(config._config_options_template)
    assert not unknown, unknown
    assert settings["server"]["fileWatcherType"] == "none"
    dev = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert dev["runner"] == settings["runner"]  # the measured GC setting holds in both
    assert dev["server"]["fileWatcherType"] == "none"  # make run: the watcher cost 1-3 s of cold start


def test_every_way_to_start_the_server_limits_malloc_arenas():
    """bench/load.py measured the memory target with MALLOC_ARENA_MAX=2: make run, the image and the
    benchmark (its server start is bench/server_proc.py) must start the app the same way."""
    assert "MALLOC_ARENA_MAX=2 $(VENV)/bin/streamlit run app.py" in (ROOT / "Makefile").read_text()
    assert re.search(r"^ENV [^\n]*(\\\n[^\n]*)*MALLOC_ARENA_MAX=2", (ROOT / "Dockerfile").read_text(), re.M)
    assert 'env.setdefault("MALLOC_ARENA_MAX", "2")' in (ROOT / "bench" / "server_proc.py").read_text()
