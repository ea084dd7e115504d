"""The teacher's view of a class (the teacher link's Guided lessons page): how many answered each step, the
share correct, the most common wrong answers, the free answers grouped, who is stuck; refreshed every few
seconds by a fragment. A projector view shows the same counts without any name.

Names and free answers are students' text: they reach the page only through md() or a dataframe cell.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

from . import class_session, guides, slots
from .class_session import CLASS, NEW_LINK, class_state, current, shown_code
from .i18n import md, t

REFRESH_S = 3
STUCK_AFTER_S = 180

# Static CSS (never user text). The join code and the counts are read from the back of a room: large, and the
# four counts side by side even in presentation mode (which stacks columns and sets every paragraph's size,
# the metrics' values too, to that of body text).
COUNTS_CSS = """<style>
.st-key-ct_code h1 { font-size: 3rem !important; letter-spacing: 0.06em; }
.st-key-ct_counts [data-testid="stHorizontalBlock"] { flex-direction: row; flex-wrap: wrap; }
.st-key-ct_counts [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {
  width: auto !important; flex: 1 1 0 !important; min-width: 7rem; }
.st-key-ct_counts [data-testid="stMetricValue"] :is(div, p) { font-size: 2.5rem !important; line-height: 1.2; }
</style>"""
PROJECTOR_CSS = """<style>
.st-key-ct_code h1 { font-size: clamp(2rem, 9vw, 5rem) !important; white-space: nowrap; }
.st-key-ct_counts [data-testid="stMetricLabel"] :is(div, p) { font-size: clamp(0.9rem, 2.2vw, 1.4rem) !important; }
.st-key-ct_counts [data-testid="stMetricValue"] :is(div, p) { font-size: clamp(1.6rem, 6vw, 4.5rem) !important; }
</style>"""


def _store():
    return class_session._store()


@st.cache_data(ttl=2, show_spinner=False, max_entries=200)
def _summary(url: str, class_id: int):
    """The step bar's count for the teacher: one read per class every 2 s at most."""
    return _store().summary(class_id, stuck_after_s=STUCK_AFTER_S)


def _bring(class_id: int, step: int) -> None:
    try:
        _store().set_current_step(class_id, step)
    except class_session._unavailable():
        st.session_state[class_session.NOTICE] = "classroom.down"
    class_session._class_state.clear()  # this teacher's next read sees it at once


def _reveal(class_id: int, step: int) -> None:
    try:
        _store().set_revealed(class_id, step, bool(st.session_state.get(f"ct_reveal_{step}")))
    except class_session._unavailable():
        st.session_state[class_session.NOTICE] = "classroom.down"
    class_session._class_state.clear()


def _close(class_id: int) -> None:
    try:
        _store().close_class(class_id)
    except class_session._unavailable():
        st.session_state[class_session.NOTICE] = "classroom.down"
        return
    class_session.leave()
    st.session_state.pop("ct_closing", None)
    st.session_state[class_session.NOTICE] = "classroom.closed"


def _csv(class_id: int) -> str:
    """The CSV, generated only when the button is pressed (the store makes its text cells formula-safe)."""
    try:
        return _store().export_csv(class_id)
    except class_session._unavailable():
        return ""


def _step_title(guide, i: int, lang: str) -> str:
    if guide is None or i >= len(guide.steps):
        return t("classroom.step", k=i + 1, title="")
    return t("classroom.step", k=i + 1, title=guides.localized(guide.steps[i].title, lang))


def _predict(guide, i: int):
    if guide is None or i >= len(guide.steps):
        return None
    return getattr(guide.steps[i], "predict", None)


def answer_label(predict, value: str, lang: str) -> str:
    """A stored answer as the students saw it: the choice's text, or the number typed (as plain text)."""
    choices = getattr(predict, "choices", None) or ()
    try:
        index = int(value)
    except ValueError:
        return md(value)
    if choices and 0 <= index < len(choices):
        return guides.localized(choices[index], lang)
    return md(value)


def grouped(free: list[tuple[str, str]]) -> list[tuple[str, int, list[str]]]:
    """Free answers with the same words (case and spaces aside) as one row: text, how many, who."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for name, text in free:
        groups[" ".join(text.lower().split())].append((name, text))
    rows = [(items[0][1], len(items), [n for n, _ in items]) for items in groups.values()]
    return sorted(rows, key=lambda r: -r[1])


def view(guide, lang: str) -> None:
    """The whole teacher's view, above the lesson list. `guide` may be None (its file was removed)."""
    c = class_session.current()
    title = guides.localized(guide.title, lang) if guide else c["guide_id"]
    with st.container(border=True):
        st.subheader(t("classroom.view_title", title=title))
        projector = st.toggle(t("classroom.projector"), key="ct_projector")
        st.html(COUNTS_CSS + (PROJECTOR_CSS if projector else ""))
        left, right = st.columns([1, 2])
        left.caption(t("classroom.code_big"))
        left.container(key="ct_code").markdown(f"# {shown_code(c['code'])}")  # the store's alphabet only
        base = class_session.app_base()
        right.caption(t("classroom.student_link"))
        right.code(f"{base}/guides?join={c['code']}", language=None)
        if not projector:
            _links_and_retention(c, base, lang)
        if guide is not None:  # the teacher's own screen follows the lesson too (the step bar then counts)
            st.button(t("classroom.walk"), key="ct_walk", type="primary", icon=":material/play_arrow:",
                      on_click=go_to_class_step)  # fmt: skip
        _live(c, guide, lang, projector)
        if not projector:
            _download_and_close(c)


def _links_and_retention(c: dict, base: str, lang: str) -> None:
    token = st.session_state.get(NEW_LINK)
    if token:  # only right after starting: the one time the secret is on screen
        st.warning(t("classroom.teacher_link"), icon=":material/key:")
        st.code(f"{base}/guides?teach={token}", language=None)
        st.button(t("classroom.saved_link"), key="ct_saved", on_click=st.session_state.pop, args=(NEW_LINK, None))
    date, days = class_session.expiry_text(c, lang)
    st.caption(t("classroom.retention", date=date, days=days))


@slots.fragment(run_every=REFRESH_S)
def _live(c: dict, guide, lang: str, projector: bool) -> None:
    if CLASS not in st.session_state:  # closed meanwhile
        return
    try:
        summary = _store().summary(c["class_id"], stuck_after_s=STUCK_AFTER_S)
        state = _store().class_state(c["class_id"])
    except class_session._unavailable():
        class_session.down_notice()
        return
    n_steps, students = c["n_steps"], summary.students
    here = state.current_step
    st.markdown(t("classroom.n_students", n=len(students)))
    if "ct_step" not in st.session_state or st.session_state["ct_step"] not in range(n_steps):
        st.session_state["ct_step"] = here if here is not None and 0 <= here < n_steps else 0
    mark = " ◀ " + t("classroom.here")
    step = st.selectbox(
        t("classroom.pick_step"),
        list(range(n_steps)),
        key="ct_step",
        format_func=lambda i: _step_title(guide, i, lang) + (mark if i == here else ""),
    )
    _step_detail(c, guide, lang, projector, summary, state, step, len(students))
    _overview(guide, lang, summary, n_steps, len(students))
    if projector:
        return
    stuck = [row.name for row in students if row.stuck]
    st.markdown(f"**{t('classroom.stuck', min=STUCK_AFTER_S // 60)}**")
    st.markdown(", ".join(md(n) for n in stuck) if stuck else t("classroom.none_stuck"))
    if students:
        st.markdown(f"**{t('classroom.students')}**")
        st.dataframe(
            {
                t("classroom.col_name"): [r.name for r in students],
                t("classroom.col_step"): [(r.step + 1) if r.step is not None else None for r in students],
                t("classroom.col_last"): [local_time(r.last_at) for r in students],
                t("classroom.col_stuck"): [bool(r.stuck) for r in students],
            },
            hide_index=True,
            width="stretch",
            key="ct_students",
        )


def local_time(at) -> str:
    """A stored (UTC) time in the teacher's browser's time zone: the clock on the classroom wall."""
    if at is None:
        return ""
    try:
        zone = ZoneInfo(st.context.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = UTC
    return at.astimezone(zone).strftime("%H:%M:%S")


def _step_detail(c, guide, lang, projector, summary, state, i: int, n_students: int) -> None:
    stats = summary.steps.get(i)
    predict = _predict(guide, i)
    answered = stats.answered if stats else 0
    a, b, h, g = st.container(key="ct_counts").columns(4)
    a.metric(t("classroom.answered"), f"{answered} / {n_students}")
    b.metric(t("classroom.correct"), f"{stats.share_correct:.0%}" if stats and predict and stats.answered else "–")
    h.metric(t("classroom.hints"), stats.hints if stats else 0)
    g.metric(t("classroom.goals"), stats.goals if stats else 0)
    if stats and stats.wrong:
        st.markdown(f"**{t('classroom.wrong')}**")
        st.markdown(
            "\n".join(
                f"- {t('classroom.wrong_row', answer=answer_label(predict, v, lang), n=n)}" for v, n in stats.wrong[:5]
            )
        )
    if stats and stats.free:
        st.markdown(f"**{t('classroom.free')}** ({len(stats.free)})")
        if not projector:
            rows = grouped(stats.free)
            st.dataframe(
                {
                    t("classroom.col_answer"): [r[0] for r in rows],
                    t("classroom.col_n"): [r[1] for r in rows],
                    t("classroom.col_name"): [", ".join(r[2]) for r in rows],
                },
                hide_index=True,
                width="stretch",
                key="ct_free",
            )
    if projector:
        return
    left, right = st.columns(2)
    left.button(
        t("classroom.bring_here"),
        key="ct_bring",
        icon=":material/group:",
        on_click=_bring,
        args=(c["class_id"], i),
        disabled=state.current_step == i,
        width="stretch",
    )
    if predict is not None and getattr(predict, "reveal", "answer") == "teacher":
        key = f"ct_reveal_{i}"
        st.session_state.setdefault(key, i in state.revealed)
        right.toggle(t("classroom.reveal"), key=key, on_change=_reveal, args=(c["class_id"], i))


def _overview(guide, lang, summary, n_steps: int, n_students: int) -> None:
    """Every step at a glance (counts only: fit for the projector too)."""
    rows = [summary.steps.get(i) for i in range(n_steps)]
    st.markdown(f"**{t('classroom.overview')}**")  # a heading of its own: it is not the free answers above it
    st.dataframe(
        {
            t("classroom.col_step"): [_step_title(guide, i, lang) for i in range(n_steps)],
            t("classroom.answered"): [f"{s.answered if s else 0} / {n_students}" for s in rows],
            t("classroom.correct"): [
                f"{s.share_correct:.0%}" if s and s.answered and _predict(guide, i) else "–" for i, s in enumerate(rows)
            ],
            t("classroom.hints"): [s.hints if s else 0 for s in rows],
            t("classroom.goals"): [s.goals if s else 0 for s in rows],
        },
        hide_index=True,
        width="stretch",
        key="ct_overview",
    )


def _download_and_close(c: dict) -> None:
    left, right = st.columns(2)
    left.download_button(
        t("classroom.csv"),
        data=lambda: _csv(c["class_id"]),
        file_name=f"class-{c['code']}.csv",
        mime="text/csv",
        key="ct_csv",
        on_click="ignore",
        icon=":material/download:",
    )
    if not st.session_state.get("ct_closing"):
        right.button(
            t("classroom.close"),
            key="ct_close",
            icon=":material/delete:",
            on_click=st.session_state.__setitem__,
            args=("ct_closing", True),
        )
        return
    st.warning(t("classroom.close_confirm"), icon=":material/warning:")
    yes, no = st.columns(2)
    yes.button(t("classroom.close_yes"), key="ct_close_yes", type="primary", on_click=_close, args=(c["class_id"],))
    no.button(
        t("classroom.close_no"), key="ct_close_no", on_click=st.session_state.__setitem__, args=("ct_closing", False)
    )


def bar_line(c: dict, index: int) -> None:
    """The teacher's line in the step bar while walking the lesson: how many answered this step, and
    "bring everyone to this step"."""
    try:
        summary = _summary(class_session._url(), c["class_id"])
    except class_session._unavailable():
        class_session.down_notice()
        return
    stats = summary.steps.get(index)
    line, bring, back = st.columns([3, 2, 1], vertical_alignment="center")
    line.caption(
        t(
            "classroom.line_teacher",
            code=shown_code(c["code"]),
            answered=stats.answered if stats else 0,
            students=len(summary.students),
        )
    )
    bring.button(
        t("classroom.bring_here"),
        key="ct_bring_bar",
        icon=":material/group:",
        on_click=_bring,
        args=(c["class_id"], index),
        width="stretch",
    )
    back.button(
        t("classroom.open_view"),
        key="ct_view",
        on_click=st.session_state.__setitem__,
        args=("_goto", "guides"),
        width="stretch",
    )


def go_to_class_step() -> None:
    c = current()
    if c is None:
        return
    state = class_state()
    step = state.current_step if state is not None and state.current_step is not None else 0
    guides.go_to(c["guide_id"], min(max(0, step), c["n_steps"] - 1))
