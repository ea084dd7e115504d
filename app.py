"""Attention Lab entry point: page config, shared sidebar and prompt, navigation, URL sync."""

import streamlit as st

from ui import guides, params, shell, url
from ui.i18n import t
from ui.pages import LESSONS

st.set_page_config(page_title="Attention Lab", page_icon=":material/visibility:", layout="wide")
shell.freeze_gc_once()

with shell.run_slot():  # one of a few script runs at once per process (ui/shell.py: RUN_SLOTS)
    guides.apply_pending()  # a guided lesson's step, before any widget is drawn
    ignored = url.restore_once(params.PARAMS, params.ALIASES)
    settings = shell.sidebar()
    home = st.Page("lessons/home.py", title=t("nav.home"), icon=":material/home:", default=True)
    lessons = {
        lesson.name: st.Page(lesson.path, title=t(f"nav.{lesson.name}"), icon=lesson.icon, url_path=lesson.name)
        for lesson in LESSONS
    }
    # expanded: every page listed; collapsed, Streamlit adds its own English-only "View N more" button
    page = st.navigation([home, *lessons.values()], expanded=True)
    goto = guides.pending_page()  # a guided lesson's Back / Next: its state is applied in the next run
    if goto in lessons:
        st.switch_page(lessons[goto]) if goto != page.url_path else st.rerun()
    shell.track("lang", "model", "weights", "present", "tables", "guide", "gstep")
    shell.notice_ignored(ignored)
    if page.url_path in lessons:
        st.title(page.title)
        guides.bar(page.url_path, settings.lang)
        if next(lesson for lesson in LESSONS if lesson.name == page.url_path).prompt:
            shell.prompt_box(settings)
            shell.track("prompt")
    page.run()
    shell.finish_run()  # a page that stops early calls it itself (shell.stop)
