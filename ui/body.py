"""The page under the sidebar, drawn as one fragment: a widget on the page (the prompt, a layer, a
toggle) reruns only this, so the sidebar's ~30 elements (language and model pickers, the lesson list)
are not sent and drawn again on every keystroke. A sidebar widget reruns the whole app, as before.

A page may draw a part of itself as a fragment of its own (page_part): the Explorer's prompt box and what the
prompt changes, so an Enter there re-sends 12 elements, not 37 (docs/perf.md, issue 31 §3)."""

from __future__ import annotations

import contextlib
import functools
import logging
import threading

import streamlit as st

from . import classroom, guides, shell, state
from .i18n import t
from .pages import LESSONS
from .slots import fragment

# The URL parameters the sidebar shows: declared in every run of the body (app.py's own lines do not run
# in a fragment's rerun, and ui/url.sync writes exactly the names declared in a run).
SIDEBAR_PARAMS = ("lang", "model", "weights", "precision", "present", "tables", "guide", "gstep")


_LOG = logging.getLogger("attention_lab")
_RUNNING = threading.local()  # .active: this thread is running draw() (a full run or the body's own rerun)


@fragment
def draw(page: st.Page, lesson: bool) -> None:
    """Title, class line, guided step, prompt box and the page itself, then the URL."""
    _RUNNING.active = True
    try:
        _draw(page, lesson)
    finally:
        _RUNNING.active = False


def _draw(page: st.Page, lesson: bool) -> None:
    if guides.page_asked():  # Start / Next / Back / a class's step, clicked on the page: app.py changes pages
        st.rerun()  # the whole app (scope="app"), not this fragment
    state.resend_kept()  # the controls an early stop (an empty prompt) left undrawn come back as they were
    settings = state.current()  # read again: in a fragment's rerun the prompt has changed since app.py ran
    shell.track(*SIDEBAR_PARAMS)
    show = True  # False while a guided step's prediction is unanswered: the figure would give it away
    if lesson:
        st.title(page.title)
        classroom.step_line()  # in a class: the code, the name, "the teacher is on step k"
        show = guides.bar(page.url_path, settings.lang)
        if next(entry for entry in LESSONS if entry.name == page.url_path).prompt is True:
            shell.prompt_box(settings)
            shell.track("prompt")
    if show:
        # st.Page.run() runs a page once per run of app.py; a fragment's rerun runs it again (the same
        # page: a page change is a full run), so the flag st.navigation sets is set again here.
        page._can_be_called = True
        _run_page(page)
    else:
        state.keep_values()  # the page's controls are not drawn in this run
        st.info(t("guides.predict.hidden"), icon=":material/visibility_off:")
    shell.finish_run()  # a page that stops early calls it itself (shell.stop)


def _run_page(page: st.Page) -> None:
    with failure_shown(page.url_path):
        page.run()


@contextlib.contextmanager
def failure_shown(where: str):
    """Should the page (or a part of it) ever fail, a deployment (client.showErrorDetails "none" or "type":
    deploy/streamlit.toml, deploy/replicas.py) shows a student one sentence in the page's language, never the server's
    file paths, and logs the whole error. Development and tests ("full", Streamlit's default) see the traceback as
    before. A page part (a fragment) catches its own: Streamlit would draw a fragment's error itself."""
    try:
        yield
    except Exception:
        if st.get_option("client.showErrorDetails") in ("full", "stacktrace", True):
            raise
        _LOG.exception("page %s failed", where)
        st.error(t("shell.page_failed"), icon=":material/error:")


def page_part(func):
    """A part of a page that reruns alone when a widget in it changes (the Explorer's prompt box and what it
    changes: Enter then re-sends 12 elements, not 37). In a run of the body it just runs. In its own rerun it
    declares the URL parameters of the body's last run and writes the URL itself, as the body does. While a
    guide is open it is a plain part of the body: the guide's live goals above it read the prompt."""

    @functools.wraps(func)
    def part(*args, **kwargs):
        if getattr(_RUNNING, "active", False):
            with failure_shown(func.__qualname__):
                return func(*args, **kwargs)
        names = st.session_state.get("_url_names_last", [])
        shell.track(*names)
        # The new prompt goes to the URL first: the browser re-renders the whole page for a new URL, and does so
        # while this part runs on the server, not after its figure arrives (docs/perf.md). The end of the run
        # writes it again only if something else changed.
        shell.sync_url(names)
        with failure_shown(func.__qualname__):
            func(*args, **kwargs)
        shell.finish_run()  # a part that stops early calls it itself (shell.stop)

    fragment_part = fragment(part)

    @functools.wraps(func)
    def call(*args, **kwargs):
        if st.session_state.get("guide"):
            return func(*args, **kwargs)
        return fragment_part(*args, **kwargs)

    return call
