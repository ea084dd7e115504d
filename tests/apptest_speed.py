"""Two things Streamlit's AppTest does on every run that its real server does once, undone for the test process
(installed by tests/conftest.py; issue 41). Neither changes what a script run does or draws.

- Each AppTest run makes new `ScriptCache`s, so app.py and the page's script were read, parsed, rewritten for
  "magic" and compiled again on every run: a quarter of the CPU of the page walks (tests/pages/test_page_walk.py,
  1,260 runs; py-spy). One cache per process here, as the server keeps one per runtime, and a script whose file
  changed (its size or modification time) is compiled again.
- Each run's end was waited for by waking every millisecond to look (`require_widgets_deltas`), which took the
  interpreter's lock from the script's own thread a thousand times a second (9% of the walks' samples). Here the
  wait ends on the runner's own shutdown event; past the timeout, Streamlit's code stops the run and says so.
"""

from __future__ import annotations

import os
import threading

from streamlit.runtime.scriptrunner import ScriptRunnerEvent
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import app_test, local_script_runner


class SharedScriptCache(ScriptCache):
    """One bytecode cache for every AppTest run of the process, keyed by the file's path, size and mtime."""

    def __init__(self) -> None:
        super().__init__()
        self._stamps: dict[str, tuple[int, int]] = {}

    def get_bytecode(self, script_path: str):
        path = os.path.abspath(script_path)
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            if self._stamps.get(path) != stamp:
                self._cache.pop(path, None)
                self._stamps[path] = stamp
        return super().get_bytecode(path)


_SCRIPTS = SharedScriptCache()
_poll_for_the_end = local_script_runner.require_widgets_deltas


def _wait_for_the_end(runner, timeout: float = 3) -> None:
    done = threading.Event()

    def on_event(sender, event, **kwargs) -> None:
        if event == ScriptRunnerEvent.SHUTDOWN:
            done.set()

    runner.on_event.connect(on_event, weak=False)
    try:
        if runner.script_stopped() or done.wait(timeout):
            return
    finally:
        runner.on_event.disconnect(on_event)
    _poll_for_the_end(runner, 0)  # past the timeout: Streamlit's own code stops the run and raises its error


def install() -> None:
    app_test.ScriptCache = local_script_runner.ScriptCache = lambda: _SCRIPTS
    local_script_runner.require_widgets_deltas = _wait_for_the_end
