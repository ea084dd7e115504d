"""A database that is down, 40 students answering at once, and schema versions, on both databases."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import text

from bench.pg_cluster import free_port
from store import SchemaTooNew, Store, StoreUnavailable
from store.engine import make_engine
from store.schema import VERSION, migrate

from .conftest import count


def _fails_fast(store: Store, limit_s: float) -> float:
    t0 = time.perf_counter()
    with pytest.raises(StoreUnavailable):
        store.class_for_code("ABCDEFGH")
    elapsed = time.perf_counter() - t0
    assert elapsed < limit_s
    return elapsed


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://u:pw@127.0.0.1:{port}/x",  # a closed port: refused at once
        "postgresql://u:pw@10.255.255.1:5432/x",  # nobody answers: the 3 s connect timeout
        "sqlite:////proc/no-such-dir/classes.sqlite3",  # a folder that cannot be created
    ],
)
def test_unreachable_database_fails_fast_then_cools_down(url):
    store = Store(url.format(port=free_port()))
    _fails_fast(store, 4.0)
    assert _fails_fast(store, 0.05) < 0.05  # the cool-down answers without trying again
    with pytest.raises(StoreUnavailable, match="next try in") as e:
        store.join("ABCDEFGH", "Ana")
    assert str(e.value).count("next try") == 1


def test_postgres_going_down_and_coming_back(pg):
    url = pg.new_database("down_and_up")
    store = Store(url, cool_down_s=0.5)
    info, _ = store.start_class("g", 2)
    s = store.join(info.code, "Ana")
    store.record(s, 0, "predict", "1", True)
    pg.stop()
    try:
        t0 = time.perf_counter()
        with pytest.raises(StoreUnavailable):
            store.record(s, 0, "predict", "2", True)  # never acknowledged
        assert time.perf_counter() - t0 < 3.0
        t0 = time.perf_counter()
        with pytest.raises(StoreUnavailable):
            store.summary(info.id)
        assert time.perf_counter() - t0 < 0.05
    finally:
        pg.start()
    time.sleep(0.6)
    store.record(s, 0, "predict", "3", False)  # back after the cool-down, on a fresh connection
    assert [e.value for e in store.events_of(s.id)] == ["1", "3"]
    store.dispose()


def test_forty_students_recording_at_once(store, db_url):
    info, _ = store.start_class("g", 5)
    students = [store.join(info.code, f"student {i}") for i in range(40)]
    acked, errors, times = [], [], []
    go = threading.Barrier(len(students))

    def answer(s):
        go.wait()
        for step in range(5):
            t0 = time.perf_counter()
            try:
                store.record(s, step, "predict", str(step % 3), step % 2 == 0)
            except Exception as e:  # counted, and the test fails below
                errors.append(repr(e))
            else:
                acked.append((s.id, step))
                times.append(time.perf_counter() - t0)

    threads = [threading.Thread(target=answer, args=(s,)) for s in students]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(acked) == 200 == count(db_url, "SELECT count(*) FROM events")
    summary = store.summary(info.id)
    assert all(summary.steps[k].answered == 40 for k in range(5))
    times.sort()
    p50, p95 = times[100] * 1e3, times[190] * 1e3
    print(f"{db_url.split(':')[0]}: 200 records by 40 threads, p50 {p50:.1f} ms, p95 {p95:.1f} ms")


def test_an_older_database_is_migrated(db_url):
    engine = make_engine(db_url)
    with engine.connect() as conn:
        conn.execution_options(write=True)
        with conn.begin():
            migrate(conn, upto=1)  # the first release's schema, with a class in it
            conn.execute(
                text(
                    "INSERT INTO classes (id, code, guide_id, n_steps, token_hash, created_at, expires_at)"
                    " VALUES (7, 'ABCDEFGH', 'old', 2, :h, '2030-01-01 00:00:00', '2030-02-01 00:00:00')"
                ),
                {"h": "0" * 64},
            )
            conn.execute(text("INSERT INTO students (id, class_id, name, name_key, joined_at)"
                              " VALUES (1, 7, 'Ana', 'ana', '2030-01-01 00:00:00')"))  # fmt: skip
    engine.dispose()
    assert count(db_url, "SELECT version FROM schema_version") == 1
    store = Store(db_url)
    assert store.class_state(7).current_step is None  # the column version 2 added
    store.set_current_step(7, 1)
    store.set_revealed(7, 0, True)
    assert store.class_state(7).revealed == {0}
    assert store.summary(7, now=None).students[0].name == "Ana"  # the old rows survived
    assert count(db_url, "SELECT version FROM schema_version") == VERSION == 2
    assert count(db_url, "SELECT count(*) FROM schema_version") == 1
    store.dispose()
    again = Store(db_url)  # a second start migrates nothing
    assert again.class_state(7).current_step == 1
    again.dispose()


def test_a_newer_database_is_refused(store, db_url):
    store.start_class("g", 1)
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE schema_version SET version = 99"))
    engine.dispose()
    newer = Store(db_url)
    with pytest.raises(SchemaTooNew, match="schema version 99, newer than this app's 2"):
        newer.class_for_code("ABCDEFGH")
    with pytest.raises(StoreUnavailable):  # and the page sees it as "unavailable", at once
        newer.class_for_code("ABCDEFGH")
    newer.dispose()


def test_the_same_name_joining_from_many_replicas_at_once(store, db_url):
    info, _ = store.start_class("g", 1)
    replicas = [Store(db_url) for _ in range(4)]  # separate pools: no in-process lock shared
    got, errors, go = [], [], threading.Barrier(12)

    def join(r):
        go.wait()
        try:
            got.append(r.join(info.code, "Ana").id)
        except Exception as e:
            errors.append(repr(e))

    threads = [threading.Thread(target=join, args=(replicas[i % 4],)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(got) == 12 and len(set(got)) == 1
    assert count(db_url, "SELECT count(*) FROM students") == 1
    for r in replicas:
        r.dispose()
