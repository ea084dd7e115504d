"""A class: a teacher starts one for a guided lesson on the Guided lessons page, students join it with a
code and a display name, and a student's step bar shows the class and the teacher's step. The viewer's class
itself (session state, commit, reveal) is ui/class_session.py; the teacher's view is ui/teacher.py, which this
module imports (never the other way: ui/teacher.py reads the class through ui/class_session.py).
"""

from __future__ import annotations

import streamlit as st

from . import answers, guides, slots, teacher
from .class_session import (  # noqa: F401  the class's names, for the pages and ui/teacher.py
    CLASS,
    CODE_MAX,
    NEW_LINK,
    NOTICE,
    TOKEN,
    _class_state,
    _remember,
    _store,
    _unavailable,
    _url,
    class_state,
    commit,
    current,
    down_notice,
    in_class_for,
    leave,
    normalized,
    revealed,
    role,
    shown_code,
)
from .i18n import md, t

NAME_MAX = 40


def read_link() -> None:
    """Called by app.py before the URL is restored: ?teach=TOKEN (kept in session_state, then resolved) and
    ?join=CODE (pre-fills the join form) are taken out of the address bar, so neither is reported as an
    unknown parameter and the teacher's secret does not stay on screen or in the browser's history."""
    qp = st.query_params
    token, code = qp.get("teach"), qp.get("join")
    if token is not None:
        del qp["teach"]
        st.session_state.pop(CLASS, None)  # a teacher link opens that class, whatever this tab was in
        st.session_state[TOKEN] = token[:200]
        current()
    if code is not None:
        del qp["join"]
        st.session_state["cj_code"] = shown_code(normalized(code))


def start(guide) -> None:
    """on_click of "Start a class": the class, the viewer as its teacher, its teacher link shown once."""
    try:
        info, token = _store().start_class(guide.id, len(guide.steps))
    except _unavailable():
        st.session_state[NOTICE] = "classroom.down"
        return
    st.session_state[TOKEN] = token
    st.session_state[NEW_LINK] = token
    _remember(info, "teacher")


def _join() -> None:
    """on_click of Join: the same code and name find the same student again, with their answers."""
    import store

    ss = st.session_state
    code, name = normalized(ss.get("cj_code", "")), (ss.get("cj_name") or "").strip()[:NAME_MAX]
    try:
        student = _store().join(code, name, address=st.context.ip_address or "")
        info = _store().class_for_code(code)
        events = _store().events_of(student.id)
        state = _store().class_state(student.class_id)
    except store.JoinRefused as e:
        ss[NOTICE] = f"classroom.refused.{e.reason}"
        return
    except store.StoreUnavailable:
        ss[NOTICE] = "classroom.down"
        return
    if info is None:
        ss[NOTICE] = "classroom.refused.unknown"
        return
    ss.pop(TOKEN, None)
    _remember(info, "student", student)
    _restore(info.guide_id, events)
    if info.guide_id in guides.current_guides()[0]:
        step = state.current_step if state.current_step is not None else 0
        guides.go_to(info.guide_id, min(max(0, step), info.n_steps - 1))


def _restore(guide_id: str, events) -> None:
    answers.restore(guide_id, events)


def show_notice() -> None:
    key = st.session_state.pop(NOTICE, None)
    if key == "classroom.down":
        down_notice()
    elif key == "classroom.closed":
        st.success(t(key), icon=":material/check:")
    elif key:
        st.error(t(key), icon=":material/error:")


def join_form(available: dict, code: str) -> None:
    """The Guided lessons page's class section for a student (or anyone not teaching)."""
    c = current()
    with st.container(border=True):
        if c is not None and c["role"] == "student":
            st.markdown(t("classroom.joined", code=shown_code(c["code"]), name=md(c["name"])))
            b1, b2 = st.columns(2)
            if c["guide_id"] in available:
                b1.button(
                    t("classroom.to_lesson"),
                    key="cl_to_lesson",
                    type="primary",
                    icon=":material/login:",
                    on_click=teacher.go_to_class_step,
                    width="stretch",
                )
            b2.button(t("classroom.leave"), key="cl_leave", on_click=leave, icon=":material/logout:", width="stretch")
            return
        st.subheader(t("classroom.join_title"))
        a, b, go = st.columns([2, 2, 1], vertical_alignment="bottom")
        a.text_input(
            t("classroom.code"),
            key="cj_code",
            max_chars=CODE_MAX,
            placeholder="ABCD-EFGH",
            help=t("classroom.code_help"),
        )
        b.text_input(t("classroom.name"), key="cj_name", max_chars=NAME_MAX, help=t("classroom.name_help"))
        go.button(t("classroom.go"), key="cj_go", type="primary", on_click=_join, width="stretch")


# ----------------------------------------------------------------- the step bar's class line


def step_line() -> None:
    """One line above the step bar (app.py): the class and the student's name, and an offer to jump to the
    teacher's step when the class was moved (refreshed every few seconds on its own)."""
    guide_id = st.session_state.get("guide")
    c = in_class_for(guide_id) if guide_id else None
    if c is None:
        return
    index = st.session_state.get("gstep") or 0
    with st.container():
        if c["role"] == "teacher":
            teacher.bar_line(c, index)
        else:
            _student_line(c, index)


@slots.fragment(run_every=5)
def _student_line(c: dict, index: int) -> None:
    st.caption(t("classroom.line_student", code=shown_code(c["code"]), name=md(c["name"])))
    state = class_state()
    if state is None:  # in a class, so the database did not answer
        down_notice()
        return
    k = state.current_step
    moved = k is not None and k != index and 0 <= k < c["n_steps"]
    go = t("classroom.teacher_on", k=(k or 0) + 1)
    if moved and st.button(
        go,
        key="cl_goto_teacher",
        type="primary",
        icon=":material/forward:",
        on_click=guides.go_to,
        args=(c["guide_id"], k),
    ):
        st.rerun()  # the whole app: app.py opens the step's page
