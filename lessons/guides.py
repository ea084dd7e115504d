"""Guided lessons: pick one and the class walks through its steps; each step opens a page preset."""

import streamlit as st

from ui import classroom, guides, state, teacher
from ui.i18n import md, t

settings = state.current()
code = settings.lang
available, problems = guides.current_guides()
classroom.show_notice()
teaching = classroom.current()
if teaching is not None and teaching["role"] == "teacher":  # the class first; the other lessons folded away
    teacher.view(available.get(teaching["guide_id"]), code)
    lessons = st.expander(t("classroom.lessons"))
else:
    classroom.join_form(available, code)
    lessons = st.container()
with lessons:
    st.markdown(t("guides.intro"))
    st.caption(t("classroom.intro"))
    for problem in problems:  # a broken file names itself and its line; the others still load
        st.error(t("guides.problem", problem=md(problem)))
    if not available:
        st.info(t("guides.none"))
    for guide in available.values():
        with st.container(border=True):
            st.subheader(guides.localized(guide.title, code))
            if guide.summary:
                st.markdown(guides.localized(guide.summary, code))
            st.caption(t("guides.steps", n=len(guide.steps), pages=", ".join(
                dict.fromkeys(t(f"nav.{s.page}") for s in guide.steps))))  # fmt: skip
            solo, together = st.columns(2)
            solo.button(t("guides.start"), key=f"start_{guide.id}", type="primary", icon=":material/play_arrow:",
                        on_click=guides.go_to, args=(guide.id, 0), width="stretch")  # fmt: skip
            together.button(t("classroom.start"), key=f"cs_start_{guide.id}", icon=":material/groups:",
                            on_click=classroom.start, args=(guide,), width="stretch")  # fmt: skip
with st.expander(t("guides.write_title")):
    st.markdown(t("guides.write", env=guides.GUIDES_ENV))
    plain, checked, closing = guides.examples()  # from the format's own docstring: they cannot drift from the parser
    st.code(plain, language="toml")
    st.markdown(t("guides.write_checked"))
    st.code(checked, language="toml")
    st.markdown(t("guides.write_checks"))
    st.markdown(t("guides.write_closing"))
    st.code(closing, language="toml")
