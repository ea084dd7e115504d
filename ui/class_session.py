"""The viewer's class, kept in st.session_state: who they are in it (a student with an id and a name, or its
teacher), and the two things the rest of the app asks of it: commit an answer (ui/answers.py's class branch)
and whether the teacher revealed a step. Apart from ui/classroom.py (the forms) so that ui/answers.py can use
it without an import cycle through ui/guides.py.

Nothing here may make a rerun wait on a database that is down: the store answers "unavailable" at once for a
while after a failure, class state is read through a 2-second cache, and a failed call shows one notice and
leaves the lesson working.
"""

from __future__ import annotations

import re
from datetime import datetime

import streamlit as st

from .i18n import t

CLASS = "_class"  # the viewer's class (dict), see _remember
TOKEN = "_teach_token"  # the teacher link's secret, read once from the URL (never shown again, never logged)
NEW_LINK = "_teach_link_once"  # the teacher link right after starting a class: shown until the teacher saves it
NOTICE = "_class_notice"  # a strings key shown once on the Guided lessons page
CODE_MAX = 20


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
        return False  # the step box says so (ui/guide_steps.py), and the answer stays in this tab
    except (store.JoinRefused, ValueError):  # closed or expired meanwhile (or a lesson file changed): solo now
        leave()
        st.toast(t("classroom.refused.closed"), icon=":material/info:")
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


def leave() -> None:
    for key in (CLASS, TOKEN, NEW_LINK):
        st.session_state.pop(key, None)


def app_base() -> str:
    """The app's address as the browser sees it (behind a proxy too), without this page's path: links to
    /guides?join=… and /guides?teach=… are built on it."""
    url = (st.context.url or "").split("?")[0].rstrip("/")
    return url.removesuffix("/guides")


def expiry_text(c: dict, lang: str) -> tuple[str, int]:
    """The retention date in the viewer's way of writing dates, and the days it is after the start."""
    expires: datetime = c["expires_at"]
    days = max(0, round((expires - c["created_at"]).total_seconds() / 86400))
    return (expires.strftime("%Y-%m-%d") if lang == "zh" else expires.strftime("%d %B %Y")), days
