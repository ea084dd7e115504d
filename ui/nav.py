"""The sidebar's list of lessons, grouped (ui/pages.py SECTIONS), drawn by the app instead of
st.navigation's flat menu: 19 lessons in one list pushed the language and model pickers below the fold
of a 1366x768 laptop, and a collapsed st.navigation menu adds an English-only "View N more" button."""

from __future__ import annotations

import streamlit as st

from .i18n import t
from .pages import LESSONS, SECTIONS


def draw(box, home: st.Page, pages: dict[str, st.Page], current: str) -> None:
    """Home and the guided lessons, then one expander per group (the current page's open), into `box`
    (the sidebar, below the language and model pickers, which stay above the fold on a laptop)."""
    with box:
        st.divider()
        st.page_link(home, label=t("nav.home"), icon=":material/home:")
        for lesson in LESSONS:
            if not lesson.section:
                st.page_link(pages[lesson.name], label=t(f"nav.{lesson.name}"), icon=lesson.icon)
        for section in SECTIONS:
            members = [lesson for lesson in LESSONS if lesson.section == section]
            with st.expander(t(f"nav.section.{section}"), expanded=any(m.name == current for m in members)):
                for lesson in members:
                    st.page_link(pages[lesson.name], label=t(f"nav.{lesson.name}"), icon=lesson.icon)
