"""A class: a teacher starts one for a guided lesson, students join it with a code and a display name, and
their answers go to the database (store/) as well as to this browser tab.

The viewer's class lives in st.session_state[CLASS] (a plain dict: the class id, its code and lesson, and
the student's id and name, or role "teacher"). Nothing here may make a rerun wait on a database that is
down: the store itself answers "unavailable" at once for a while after a failure, class state is read
through a 2-second cache, and every call that fails shows one notice and leaves the lesson working.
"""

from __future__ import annotations

import re
from datetime import datetime

import streamlit as st

from . import guides
from .i18n import md, t

CLASS = "_class"  # the viewer's class (dict), see _remember
TOKEN = "_teach_token"  # the teacher link's secret, read once from the URL (never shown again, never logged)
NEW_LINK = "_teach_link_once"  # the teacher link right after starting a class: shown until the teacher saves it
NOTICE = "_class_notice"  # a strings key shown once on the Guided lessons page
CODE_MAX = 20
NAME_MAX = 40


def _store():
    """The process's store for the configured database (imported late: SQLAlchemy costs the cold start)."""
    import store

    return store.open_store()


def _unavailable():
    import store

    return store.StoreUnavailable


def _url() -> str:
    import store

    return store.database_url()


def down_notice(where=None) -> None:
    (where or st).warning(t("classroom.down"), icon=":material/cloud_off:")


# ----------------------------------------------------------------- the viewer's class


def current() -> dict | None:
    """The viewer's class, resolving a teacher link read earlier if the database answers now."""
    ss = st.session_state
    if CLASS not in ss and TOKEN in ss:
        try:
            info = _store().class_for_teacher(ss[TOKEN])
        except _unavailable():
            return None
        if info is None:
            ss.pop(TOKEN)
            ss[NOTICE] = "classroom.bad_link"
            return None
        _remember(info, "teacher")
    return ss.get(CLASS)


def role() -> str | None:
    c = current()
    return c["role"] if c else None


def _remember(info, role: str, student=None) -> None:
    st.session_state[CLASS] = {
        "role": role,
        "class_id": info.id,
        "code": info.code,
        "guide_id": info.guide_id,
        "n_steps": info.n_steps,
        "created_at": info.created_at,
        "expires_at": info.expires_at,
        "student_id": student.id if student else None,
        "name": student.name if student else None,
    }


def shown_code(code: str) -> str:
    """ABCDEFGH -> ABCD-EFGH, easier to read out to a room."""
    return f"{code[:4]}-{code[4:]}" if len(code) == 8 else code


def normalized(code: str) -> str:
    return re.sub(r"[\s\-]", "", code or "").upper()[:CODE_MAX]


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


@st.cache_data(ttl=2, show_spinner=False, max_entries=2000)
def _class_state(url: str, class_id: int):
    """At most one database read per class every 2 s, however many students rerun."""
    return _store().class_state(class_id)


def class_state():
    """The class's current step and revealed steps (≤ 2 s old), or None outside a class or when the
    database does not answer."""
    c = current()
    if c is None:
        return None
    try:
        return _class_state(_url(), c["class_id"])
    except _unavailable():
        return None


def in_class_for(guide_id: str) -> dict | None:
    c = current()
    return c if c is not None and c["guide_id"] == guide_id else None


def commit(guide_id: str, step: int, kind: str, value: str, correct: bool | None) -> bool | None:
    """The class branch of ui.answers.record: None outside a class (nothing to do), True once the database
    has COMMITTED the answer, False (and a notice) when it could not."""
    c = in_class_for(guide_id)
    if c is None or c["role"] != "student":
        return None
    import store

    try:
        _store().record(store.Student(c["student_id"], c["class_id"], c["name"]), step, kind, value, correct)
    except store.StoreUnavailable:
        st.warning(t("classroom.not_saved"), icon=":material/cloud_off:")
        return False
    except (store.JoinRefused, ValueError):  # closed or expired meanwhile (or a lesson file changed): solo now
        leave()
        st.warning(t("classroom.refused.closed"), icon=":material/info:")
        return None
    return True


def revealed(guide_id: str, step: int) -> bool | None:
    """For a reveal="teacher" step: None outside a class, else whether the teacher has revealed it."""
    c = in_class_for(guide_id)
    if c is None:
        return None
    if c["role"] == "teacher":
        return None  # the teacher walks the lesson as on their own: answer to see
    state = class_state()
    return state is not None and step in state.revealed


# ----------------------------------------------------------------- start and join


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
    """A rejoining student's own answers, back into this tab (oldest first, as ui.answers keeps them)."""
    kept = st.session_state.setdefault("_answers", {})  # ui/answers.py's keeping: (lesson, step, kind) -> entries
    for key in [k for k in kept if k[0] == guide_id]:
        del kept[key]
    for e in events:
        entry = {"value": e.value, "correct": e.correct, "at": e.at.timestamp()}
        kept.setdefault((guide_id, e.step, e.kind), []).append(entry)


def leave() -> None:
    for key in (CLASS, TOKEN, NEW_LINK):
        st.session_state.pop(key, None)


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
                    on_click=go_to_class_step,
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


def go_to_class_step() -> None:
    c = current()
    if c is None:
        return
    state = class_state()
    step = state.current_step if state is not None and state.current_step is not None else 0
    guides.go_to(c["guide_id"], min(max(0, step), c["n_steps"] - 1))


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
            from . import teacher

            teacher.bar_line(c, index)
        else:
            _student_line(c, index)


@st.fragment(run_every=5)
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
        go, key="cl_goto_teacher", icon=":material/forward:", on_click=guides.go_to, args=(c["guide_id"], k)
    ):
        st.rerun()  # the whole app: app.py opens the step's page


def expiry_text(c: dict, lang: str) -> tuple[str, int]:
    """The retention date in the viewer's way of writing dates, and the days it is after the start."""
    expires: datetime = c["expires_at"]
    days = max(0, round((expires - c["created_at"]).total_seconds() / 86400))
    return (expires.strftime("%Y-%m-%d") if lang == "zh" else expires.strftime("%d %B %Y")), days
