"""Download buttons that still deliver on a busy server (issue 31 §2).

The Explorer's downloads are made on click (st.download_button with data= a function): the browser sends
the button's placeholder id, the server runs the function, stores the file and answers its URL, then the
browser fetches `/media/<id>`. Streamlit's MediaFileManager keeps that file referenced by no session,
so the orphan collection at the end of ANY session's script run marks it and the next one deletes it:
two runs ending on the replica between the answer and the GET, and the student gets a 404. Under a
class's load (about 10 runs a second per replica) that took 100-200 ms: 9 of 184 downloads failed.
Likewise a placeholder the session's newer run replaced is dropped at the next run's end, so a click
sent just before the browser saw the new button (or held by ui/inbox.py behind a rerun) found nothing.

`install` keeps both alive for a short grace: a generated file for FILE_GRACE_S, the last
KEEP_PER_SESSION placeholders of a session for CLICK_GRACE_S. They are referenced by a pseudo-session
in the manager's own table, so Streamlit's collection skips them, and are released (collected as usual)
when their time is up or a cap is reached. A button drawn disabled still revokes its function at once
(Streamlit's remove_deferred drops it regardless of references).
"""

from __future__ import annotations

import collections
import functools
import time
from pathlib import PurePosixPath

import numpy as np
import streamlit as st
from streamlit.runtime.media_file_manager import MediaFileManager

import viz

from .i18n import t

FILE_GRACE_S = 60.0  # a browser fetches the URL at once; a loaded replica took up to 0.8 s
CLICK_GRACE_S = 30.0  # a click in flight while the session reruns
KEEP_PER_SESSION = 4  # two buttons, this run's and the one before
MAX_FILES = 64  # generated files kept at once per process; the oldest is released first
HOLDER = "attention-lab:downloads"  # the pseudo-session whose references keep them

_deadlines: dict[str, float] = {}  # file id (generated or placeholder) -> when it is released
_by_session: dict[str, collections.deque] = collections.defaultdict(collections.deque)
_files: collections.deque = collections.deque()  # generated file ids, oldest first
_original: dict[str, object] = {}
clock = time.monotonic  # the tests move it on


def array_buttons(shown: np.ndarray, q_tokens: list[str], k_tokens: list[str], what: str) -> None:
    """JSON (and, for one matrix, CSV) of the array drawn, made when a button is clicked (data= a function), not in
    every rerun: the browser then has no new file to fetch after each keystroke either (docs/perf.md). Each button
    keeps the array of its own run: a click gives the matrix the student saw, even while a newer run is on its way
    (install, below, keeps a session's last buttons' functions a while for that)."""
    row = st.container(horizontal=True)  # one row without columns: fewer elements re-sent
    as_json = functools.partial(viz.attention_json, shown, q_tokens, k_tokens, what)
    row.download_button(t("explorer.download.json"), as_json, "attention.json", "application/json")
    if np.ndim(shown) == 2:
        as_csv = functools.partial(viz.attention_csv, shown, q_tokens, k_tokens)
        row.download_button(t("explorer.download.csv"), as_csv, "attention.csv", "text/csv")


def _hold(mgr: MediaFileManager, file_id: str, grace: float, now: float) -> None:
    """Reference `file_id` from HOLDER until now + grace. Caller holds mgr._lock."""
    _deadlines[file_id] = max(_deadlines.get(file_id, 0.0), now + grace)
    mgr._files_by_session_and_coord[HOLDER][file_id] = file_id


def _release(mgr: MediaFileManager, file_id: str) -> None:
    """Drop HOLDER's reference: the next collection treats the file as Streamlit would. Caller holds mgr._lock."""
    _deadlines.pop(file_id, None)
    held = mgr._files_by_session_and_coord.get(HOLDER)
    if held is not None:
        held.pop(file_id, None)


def install() -> None:
    """Wrap the media file manager's deferred downloads once per process (app.py calls this on every run)."""
    if _original:
        return
    _original.update(add=MediaFileManager.add_deferred, execute=MediaFileManager.execute_deferred,
                     collect=MediaFileManager.remove_orphaned_files)  # fmt: skip
    add, execute, collect = _original["add"], _original["execute"], _original["collect"]

    def add_deferred(self, data_callable, mimetype, coordinates, file_name=None, *, element_id=""):
        file_id = add(self, data_callable, mimetype, coordinates, file_name, element_id=element_id)
        with self._lock:
            entry = self._deferred_callables.get(file_id)
            recent = _by_session[entry["session_id"] if entry else ""]
            recent.append(file_id)
            _hold(self, file_id, CLICK_GRACE_S, clock())
            while len(recent) > KEEP_PER_SESSION:  # older placeholders: Streamlit's usual lifetime
                _release(self, recent.popleft())
        return file_id

    def execute_deferred(self, file_id):
        url = execute(self, file_id)
        stored = PurePosixPath(url.split("?")[0]).name.split(".")[0]  # MemoryMediaFileStorage: /media/<id>.<ext>
        with self._lock:
            if stored in self._file_metadata:
                if stored in _files:
                    _files.remove(stored)
                _files.append(stored)
                _hold(self, stored, FILE_GRACE_S, clock())
                while len(_files) > MAX_FILES:
                    _release(self, _files.popleft())
        return url

    def remove_orphaned_files(self):
        now = clock()
        with self._lock:
            for file_id in [f for f, deadline in _deadlines.items() if deadline <= now]:
                _release(self, file_id)
                if file_id in _files:
                    _files.remove(file_id)
            for session_id in [s for s, ids in _by_session.items() if not any(i in _deadlines for i in ids)]:
                del _by_session[session_id]
        return collect(self)

    MediaFileManager.add_deferred = add_deferred
    MediaFileManager.execute_deferred = execute_deferred
    MediaFileManager.remove_orphaned_files = remove_orphaned_files
