"""Fixtures for the browser tests: the real app on a free port, and Debian's Chromium driven by Playwright.

Chromium comes from the system (`make setup` installs Debian's package); Playwright's own
browser download is never used.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]  # the project (app.py, .venv)
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
START_TIMEOUT_S = 60
# `make test` runs the suite on several pytest-xdist workers sharing the machine's cores, so a page can take a few
# seconds longer to answer than alone: an expectation waits up to 15 s (Playwright's default is 5 s) before it
# fails. What it expects is unchanged.
EXPECT_TIMEOUT_MS = 15_000
expect.set_options(timeout=EXPECT_TIMEOUT_MS)


def _python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.read().decode().strip() == "ok":
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer 'ok' within {timeout:.0f} s")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (`apt-get install chromium`; `make setup` does)")
    return str(CHROMIUM)


@contextlib.contextmanager
def serve(log_dir: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run `streamlit run app.py` on a free port (with `env` added to this process's environment);
    yield its base URL; stop it (and its group) after."""
    port = _free_port()
    log_path = log_dir / "server.log"
    cmd = [_python(), "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.headless", "true",
           "--browser.gatherUsageStats", "false"]  # fmt: skip
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                env={**os.environ, **(env or {})})  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            _wait_healthy(f"{base}/_stcore/health", proc, START_TIMEOUT_S)
        except (RuntimeError, TimeoutError) as e:
            pytest.fail(f"{e}\n--- server log ---\n{log_path.read_text(errors='replace')[-3000:]}")
        yield base
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # the group: streamlit and anything it started
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


@contextlib.contextmanager
def new_page(browser, base_url: str, width: int = 1280, height: int = 900):
    """A page in a fresh browser context, so a fresh Streamlit session."""
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height})
    context.set_default_timeout(20_000)
    try:
        yield context.new_page()
    finally:
        context.close()


# A script run is over (fragment runs too): the app's own state, and its status widget gone. Streamlit shows the widget
# only 0.5 s into a run, so waiting for it alone could go on while a run was still drawing the page.
# Waits poll it every 100 ms (polling=100), not every frame: a frame-polled wait keeps Chromium drawing frames
# (0.13-0.22 CPU s per 5 s of waiting on an idle page, against 0.02), CPU the app and the other worker need.
IDLE_JS = """() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-testid=stStatusWidget]')"""
# The sidebar's expanders at rest for 3 frames in a row (sidebar_at_rest). Streamlit's expander folds and unfolds
# in a 0.5 s animation of its <details>'s height (an inline height, cleared when the animation's finish event is
# handled; at its end the starting height shows again until then). A link clicked meanwhile could move between the
# mouse's down and up (Playwright checks the target of the first event only): the click went to a common ancestor
# and the page did not change (issue 41, tests/e2e/test_sidebar_walk.py: 1 walk in 3 with the other core busy).
SIDEBAR_AT_REST_JS = """() => {
    const moving = [...document.querySelectorAll('[data-testid=stSidebar] details')]
        .some(d => d.style.height || d.getAnimations().length);
    window.__sidebarAtRest = moving ? 0 : (window.__sidebarAtRest || 0) + 1;
    return window.__sidebarAtRest >= 3;
}"""


def sidebar_at_rest(page) -> None:
    """Wait until no expander in the sidebar is folding or unfolding (SIDEBAR_AT_REST_JS, polled once a frame):
    before clicking in the sidebar after a page change or after opening a group."""
    page.evaluate("() => { window.__sidebarAtRest = 0; }")
    page.wait_for_function(SIDEBAR_AT_REST_JS, timeout=EXPECT_TIMEOUT_MS)


_SHARED: dict[tuple[int, str, str], object] = {}


@contextlib.contextmanager
def shared_page(browser, base_url: str, width: int = 1280, height: int = 900, kind: str = ""):
    """A new tab, so a new Streamlit session (a session is one websocket, not one context), in one context per
    browser and server kept for the run: Streamlit's and plotly.js's bundles then come from the context's HTTP
    cache, already compiled, instead of being fetched and compiled again for every test (0.5-0.9 s of CPU a page
    on 2 cores). For tests that need nothing of a context of their own (cookies, colour scheme, storage); `kind`
    keeps apart tests that could leave something in a context's storage for the next (presentation mode)."""
    key = (id(browser), base_url, kind)
    context = _SHARED.get(key)
    if context is None:
        context = _SHARED[key] = browser.new_context(base_url=base_url)
        context.set_default_timeout(20_000)
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    try:
        yield page
    finally:
        page.close()


@pytest.fixture(scope="session")
def app_url(chromium_path: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("streamlit")) as base:
        yield base


@pytest.fixture(scope="session")
def browser(chromium_path: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser, app_url: str):
    """A new tab (so a fresh Streamlit session) per test, in the server's shared context (shared_page)."""
    with shared_page(browser, app_url) as pg:
        yield pg


PAGE_CHANGE_JS = "p => { history.pushState({}, '', p); dispatchEvent(new PopStateEvent('popstate')); }"
# The page's run has ended with its title drawn and the last page's elements gone. Not "a run started, then ended":
# a part still running on the last page (the Explorer's later layers) left no state change to see (issue 41).
DRAWN_JS = """title => [...document.querySelectorAll('[data-testid=stMain] h1')]
        .some(h => h.textContent.trim() === title)
    && document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-stale=true]')"""


@pytest.fixture(scope="module")
def tabs(browser, app_url: str):
    """tabs(key, width, height, kind) -> (page, fresh): one tab (one Streamlit session) per key, e.g. a language or a
    presentation size, kept for a module's tests that visit page after page (visit). A fresh tab cost 1.7 s more per
    page than the app's own page change (2.5 s against 0.8 s on 2 cores: the browser sets Streamlit's app up again),
    and the first-figure tests opened 76 (issue 41)."""
    open_tabs: dict[tuple, object] = {}
    with contextlib.ExitStack() as stack:

        def tab(key: tuple, width: int, height: int, kind: str = "") -> tuple[object, bool]:
            fresh = key not in open_tabs
            if fresh:
                open_tabs[key] = stack.enter_context(shared_page(browser, app_url, width, height, kind=kind))
            return open_tabs[key], fresh

        yield tab


def visit(page, path: str, fresh: bool, title: str, timeout_ms: int = 120_000) -> None:
    """A fresh tab opens the address; an open one changes page the way the browser's Back and Forward do (the
    session keeps ?lang= and ?present= from its first page). Then waits until the page titled `title` has drawn."""
    if fresh:
        page.goto(path)
    else:
        page.evaluate(PAGE_CHANGE_JS, path.split("?")[0])
    drawn(page, title, timeout_ms)


def drawn(page, title: str, timeout_ms: int = 120_000) -> None:
    """Wait until the page titled `title` has drawn (DRAWN_JS): after a page change, whichever way it was made. Not
    "no run" alone, which is still true from the last page until the new page's run starts (~150 ms after a click):
    a test that waited for that typed into the last page's prompt box as the page changed (issue 41)."""
    page.wait_for_function(DRAWN_JS, arg=title, polling=100, timeout=timeout_ms)
