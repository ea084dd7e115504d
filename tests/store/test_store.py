"""The Store API on both databases: classes, joins, answers, the summary, the teacher's switches."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest

from store import ClassState, JoinRefused, Store, display_code

from .conftest import count


def test_start_and_find_a_class(store):
    info, token = store.start_class("03-induction", n_steps=4)
    assert info.n_steps == 4 and info.guide_id == "03-induction"
    assert info.expires_at - info.created_at == timedelta(days=30)
    assert store.class_for_teacher(token) == info
    assert store.class_for_teacher(token + "x") is None
    assert store.class_for_code(display_code(info.code).lower()) == info  # "abcd-efgh" as typed
    assert store.class_for_code(" " + info.code[:4] + " " + info.code[4:]) == info
    assert store.class_for_code("ZZZZZZZZ") is None


def test_join_rejoin_finds_the_same_student_and_their_answers(store, db_url):
    info, _ = store.start_class("g", 3)
    ana = store.join(info.code, "Ana")
    store.record(ana, 0, "predict", "1", True)
    # a refresh, or another replica: a new Store on the same database
    other = Store(db_url)
    again = other.join(display_code(info.code), "  ana ")
    assert again == ana
    assert [(e.step, e.kind, e.value, e.correct) for e in other.events_of(again.id)] == [(0, "predict", "1", True)]
    bo = store.join(info.code, "Bo")
    assert bo.id != ana.id and store.events_of(bo.id) == []
    other.dispose()


def test_join_refusals(store):
    info, _ = store.start_class("g", 2)
    for bad in ("", "   ", "x" * 41, "a\x00b", "tab\u200bname"):
        with pytest.raises(JoinRefused) as e:
            store.join(info.code, bad)
        assert e.value.reason == "name"
    with pytest.raises(JoinRefused) as e:
        store.join("ABCD-EFGH", "Ana")
    assert e.value.reason == "unknown"
    store.close_class(info.id)
    with pytest.raises(JoinRefused) as e:
        store.join(info.code, "Ana")
    assert e.value.reason == "closed"


def test_record_returns_after_commit(store, db_url):
    info, _ = store.start_class("g", 2)
    s = store.join(info.code, "Ana")
    for i in range(5):
        ev = store.record(s, 1, "predict", str(i), i == 2)
        assert ev.at.tzinfo is UTC
        # a second engine sees the row as soon as record() returned: it was committed
        assert count(db_url, "SELECT count(*) FROM events") == i + 1
    with pytest.raises(ValueError):
        store.record(s, 2, "predict", "1", True)  # the class has steps 0 and 1
    with pytest.raises(ValueError):
        store.record(s, 0, "vote", "1", True)


def test_summary_counts_the_latest_answer(store):
    info, _ = store.start_class("g", 3)
    ana, bo, cy, di = (store.join(info.code, n) for n in ("Ana", "Bo", "Cy", "Di"))
    store.record(ana, 0, "predict", "1", False)
    store.record(ana, 0, "predict", "2", True)  # revote: only this one counts
    store.record(bo, 0, "predict", "1", False)
    store.record(cy, 0, "predict", "3", False)
    store.record(cy, 0, "predict", "1", False)
    store.record(di, 0, "hint", "1", None)
    store.record(di, 0, "hint", "2", None)
    store.record(di, 1, "goal", "reached", True)
    store.record(bo, 1, "free", "because = softmax", None)
    s = store.summary(info.id).steps
    assert (s[0].answered, s[0].correct, s[0].share_correct) == (3, 1, pytest.approx(1 / 3))
    assert s[0].wrong == [("1", 2)]  # Cy's "3" was replaced by "1"
    assert s[0].hints == 2 and s[0].goals == 0
    assert (s[1].answered, s[1].goals, s[1].free) == (2, 1, [("Bo", "because = softmax")])
    assert s[2].answered == 0 and s[2].share_correct == 0.0


def test_stuck_students(store):
    info, _ = store.start_class("g", 2)
    ana, bo, _cy = (store.join(info.code, n) for n in ("Ana", "Bo", "Cy"))
    store.record(ana, 0, "predict", "1", True)
    store.record(bo, 1, "predict", "1", True)  # Bo answered the last step: finished, never stuck
    now = datetime.now(UTC)
    rows = {r.name: r for r in store.summary(info.id, stuck_after_s=180, now=now).students}
    assert [r.stuck for r in rows.values()] == [False, False, False]
    assert (rows["Ana"].step, rows["Bo"].step, rows["Cy"].step) == (0, 1, None)
    later = {r.name: r for r in store.summary(info.id, stuck_after_s=180, now=now + timedelta(minutes=4)).students}
    assert (later["Ana"].stuck, later["Bo"].stuck, later["Cy"].stuck) == (True, False, True)
    assert later["Ana"].last_at <= now


def test_current_step_and_reveal(store):
    info, _ = store.start_class("g", 4)
    assert store.class_state(info.id) == ClassState(None, frozenset())
    store.set_current_step(info.id, 2)
    store.set_revealed(info.id, 1, True)
    store.set_revealed(info.id, 3, True)
    store.set_revealed(info.id, 3, True)  # twice: still once
    assert store.class_state(info.id).current_step == 2
    assert store.class_state(info.id).revealed == {1, 3}
    store.set_revealed(info.id, 1, False)
    store.set_current_step(info.id, None)
    assert store.class_state(info.id) == ClassState(None, frozenset({3}))


def test_close_class_deletes_names_and_answers(store, db_url):
    info, token = store.start_class("g", 2)
    keep, _ = store.start_class("g", 2)
    s = store.join(info.code, "Ana")
    store.record(s, 0, "free", "secret reason", None)
    store.record(store.join(keep.code, "Bo"), 0, "predict", "1", True)
    store.set_revealed(info.id, 0, True)
    store.close_class(info.id)
    assert count(db_url, f"SELECT count(*) FROM students WHERE class_id = {info.id}") == 0
    assert count(db_url, f"SELECT count(*) FROM events WHERE class_id = {info.id}") == 0
    assert count(db_url, "SELECT count(*) FROM events") == 1  # the other class keeps its answer
    assert store.class_for_code(info.code) is None and store.class_for_teacher(token) is None
    with pytest.raises(JoinRefused):
        store.record(s, 0, "predict", "1", True)


def test_purge_after_the_retention(store, db_url):
    old, _ = store.start_class("g", 2, retention_days=1)
    new, _ = store.start_class("g", 2, retention_days=30)
    for info in (old, new):
        store.record(store.join(info.code, "Ana"), 0, "predict", "1", True)
    assert store.purge_expired() == 0
    assert store.purge_expired(now=datetime.now(UTC) + timedelta(days=2)) == 1
    assert count(db_url, "SELECT count(*) FROM classes") == 1
    assert count(db_url, "SELECT count(*) FROM students") == 1
    assert count(db_url, "SELECT count(*) FROM events") == 1
    assert store.class_for_code(old.code) is None and store.class_for_code(new.code) == new


def test_csv_export_is_text_and_formula_safe(store):
    info, _ = store.start_class("g", 2)
    evil = store.join(info.code, "<script>alert(1)</script>")
    at = store.join(info.code, "@SUM(A1)")
    store.record(evil, 0, "predict", "-0.5", False)  # a number stays a number
    store.record(evil, 0, "free", '=HYPERLINK("http://x")', None)
    store.record(at, 1, "free", "+1 because", None)
    store.record(at, 1, "free", "\tTAB", None)
    store.record(at, 1, "free", "\rCR", None)
    store.record(at, 1, "free", '-minus, "quoted"\nnew line', None)
    rows = list(csv.reader(io.StringIO(store.export_csv(info.id), newline="")))
    assert rows[0] == ["student", "step", "kind", "value", "correct", "at_utc"]
    body = rows[1:]
    assert body[0][:5] == ["<script>alert(1)</script>", "1", "predict", "-0.5", "0"]
    assert body[1][3] == '\'=HYPERLINK("http://x")' and body[1][4] == ""
    assert [r[0] for r in body[2:]] == ["'@SUM(A1)"] * 4
    assert [r[3] for r in body[2:]] == ["'+1 because", "'\tTAB", "'\rCR", '\'-minus, "quoted"\nnew line']
    assert all(r[1] == "2" for r in body[2:])
    for r in body:
        datetime.fromisoformat(r[5])
