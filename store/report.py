"""What the teacher sees: the per-step and per-student summary, the CSV export, and forgetting.

The summary is computed in Python from one ordered read of the class's events: with 200 students
and a few events each that is a few thousand rows, and the same code then runs on SQLite and
PostgreSQL. "Latest" means the highest event id, so a revote replaces the earlier answer.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from .schema import classes, events, revealed, students
from .security import csv_cell
from .types import ClassSummary, StepStats, StudentRow


def _rows(conn: Connection, class_id: int):
    q = (
        select(events.c.student_id, events.c.step, events.c.kind, events.c.value, events.c.correct, events.c.at)
        .where(events.c.class_id == class_id)
        .order_by(events.c.id)
    )
    return conn.execute(q).all()


def summary(conn: Connection, class_id: int, stuck_after_s: float, now: datetime, aware: Callable) -> ClassSummary:
    n_steps = conn.execute(select(classes.c.n_steps).where(classes.c.id == class_id)).scalar() or 0
    people = conn.execute(
        select(students.c.id, students.c.name, students.c.joined_at)
        .where(students.c.class_id == class_id)
        .order_by(students.c.id)
    ).all()
    names = {p.id: p.name for p in people}
    last: dict[int, tuple[int, datetime, str]] = {}  # student -> (step, at, kind) of their latest event
    latest: dict[tuple[int, int, str], tuple[str, bool | None]] = {}  # (step, student, kind) -> latest
    hints: Counter[int] = Counter()
    for r in _rows(conn, class_id):
        last[r.student_id] = (r.step, r.at, r.kind)
        latest[(r.step, r.student_id, r.kind)] = (r.value, r.correct)
        if r.kind == "hint":
            hints[r.step] += 1

    steps = {}
    for step in range(n_steps):
        predicts = {s: v for (st, s, k), v in latest.items() if st == step and k == "predict"}
        right = sum(1 for _, ok in predicts.values() if ok)
        wrong = Counter(value for value, ok in predicts.values() if ok is False)
        answered = {s for (st, s, k) in latest if st == step and k in ("predict", "goal", "free")}
        free = [(names[s], v) for (st, s, k), (v, _) in latest.items() if st == step and k == "free" and s in names]
        goals = sum(1 for (st, _s, k) in latest if st == step and k == "goal")
        steps[step] = StepStats(
            answered=len(answered),
            correct=right,
            share_correct=right / len(predicts) if predicts else 0.0,
            wrong=sorted(wrong.items(), key=lambda kv: (-kv[1], kv[0])),
            free=free,
            hints=hints[step],
            goals=goals,
        )

    done = {s for (st, s, k) in latest if st == n_steps - 1 and k != "hint"}
    late = now - timedelta(seconds=stuck_after_s)
    rows = []
    for p in people:
        step, at, _ = last.get(p.id, (None, p.joined_at, ""))
        rows.append(StudentRow(p.name, step, aware(at), p.id not in done and at < late))
    return ClassSummary(rows, steps)


HEADER = ("student", "step", "kind", "value", "correct", "at_utc")


def export_csv(conn: Connection, class_id: int) -> str:
    """Every event, oldest first; steps numbered from 1 as on screen; text cells formula-safe."""
    q = (
        select(students.c.name, events.c.step, events.c.kind, events.c.value, events.c.correct, events.c.at)
        .join(students, students.c.id == events.c.student_id)
        .where(events.c.class_id == class_id)
        .order_by(events.c.id)
    )
    out = io.StringIO()
    w = csv.writer(out)  # "\r\n" rows: a cell holding a lone \r is then quoted too
    w.writerow(HEADER)
    for r in conn.execute(q):
        ok = "" if r.correct is None else int(r.correct)
        row = (r.name, r.step + 1, r.kind, r.value, ok, r.at.isoformat(timespec="seconds"))
        w.writerow([csv_cell(c) for c in row])
    return out.getvalue()


def forget(conn: Connection, class_ids: Sequence[int]) -> None:
    """Delete the classes' answers, names and reveals (children first: foreign keys)."""
    for table in (events, revealed, students):
        conn.execute(delete(table).where(table.c.class_id.in_(list(class_ids))))
