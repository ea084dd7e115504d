"""The one place a lesson's answers go: a predict answer, a goal reached, a hint opened, a free-text answer.

On one's own they are kept in the session (st.session_state["_answers"]); in a class they are also committed
to the class's database (ui/classroom.py adds that branch here, nothing else changes), and `record` says False
when that failed, so the step box can tell the student their answer was not saved for the teacher.
"""

from __future__ import annotations

import time

import streamlit as st

from . import class_session as classroom

KEY = "_answers"
KINDS = ("predict", "goal", "hint", "free")


def _kept() -> dict[tuple[str, int, str], list[dict]]:
    return st.session_state.setdefault(KEY, {})


def record(guide_id: str, step: int, kind: str, value: str, correct: bool | None) -> bool:
    """Keep one answer (always, in the session); True when it is stored wherever it has to be."""
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r} is not one of {KINDS}")
    _kept().setdefault((guide_id, step, kind), []).append({"value": str(value), "correct": correct, "at": time.time()})
    return classroom.commit(guide_id, step, kind, str(value), correct) is not False  # only once COMMITTED


def mine(guide_id: str, step: int, kind: str) -> list[str]:
    """The viewer's own values for a step, oldest first."""
    return [entry["value"] for entry in _kept().get((guide_id, step, kind), [])]


def revealed(guide_id: str, step: int, predict) -> bool:
    """Whether the viewer may see a predict's answer and the figure. On one's own there is no teacher to wait
    for, so a reveal = "teacher" step is revealed as soon as it is answered too (with a note saying so)."""
    answered = bool(mine(guide_id, step, "predict"))
    if getattr(predict, "reveal", "answer") != "teacher":
        return answered
    by_teacher = classroom.revealed(guide_id, step)  # None on one's own
    return answered if by_teacher is None else answered and by_teacher


def restore(guide_id: str, events) -> None:
    """A rejoining student's own answers from the class's database (store.Event, oldest first) in place of
    what this session kept for that lesson: a refreshed tab, or another replica, finds them again."""
    kept = _kept()
    for key in [k for k in kept if k[0] == guide_id]:
        del kept[key]
    for e in events:
        kept.setdefault((guide_id, e.step, e.kind), []).append(
            {"value": e.value, "correct": e.correct, "at": e.at.timestamp()}
        )
