"""ui/lanes.Lane with real threads: never more than its slots at once, waiters served in order of `since`,
each told its place, and a waiter that gives up (its run interrupted) leaves the queue."""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from ui.lanes import Budget, Lane


def wait_until(cond, timeout=5.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def start(lane: Lane, since: float, log: list, places: dict, release: threading.Event, name: str):
    def run():
        with lane.hold(since, lambda place: places.setdefault(name, []).append(place)):
            log.append(("in", name, lane.running()))
            release.wait(5)
        log.append(("out", name))

    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th


@pytest.mark.parametrize("slots", [1, 2])
def test_at_most_slots_run_and_waiters_go_in_order_of_since(slots):
    lane, log, places = Lane(slots), [], {}
    gates = {n: threading.Event() for n in "abcde"}
    first = [start(lane, i, log, places, gates[n], n) for i, n in enumerate("ab"[:slots])]
    wait_until(lambda: lane.running() == slots)
    # arrive in this order, but their sessions first asked at these times: d, then c, then e
    later = [start(lane, s, log, places, gates[n], n) for n, s in (("c", 20), ("d", 10), ("e", 30))]
    wait_until(lambda: lane.waiting() == 3)
    assert lane.running() == slots
    for name in [*"ab"[:slots], "d", "c", "e"]:  # one after the other: each waiter sees its place change
        gates[name].set()
        wait_until(lambda name=name: ("out", name) in log)
    for th in first + later:
        th.join(5)
    entered = [name for kind, name, *_ in log if kind == "in"]
    assert entered[slots:] == ["d", "c", "e"]
    assert max(n for kind, _, *rest in log if kind == "in" for n in rest) <= slots
    assert places["d"][-1] == 1 and places["e"][-1] == 1  # each heard its place go down to "next"
    assert places["e"][0] == 3 and "a" not in places  # a started at once: no notice


def test_a_later_waiter_goes_after_every_other_whatever_its_since():
    """A tab's first run (later_for > 0) waits while any rerun of an open session waits, even one that
    asked after it: 100 tabs opened at once never delay a class's reruns (ui/slots.run_slot)."""
    lane, order, gate = Lane(1), [], threading.Event()

    def run(name, since, later=False):
        with lane.hold(since, later_for=30.0 if later else 0.0):
            order.append(name)
            gate.wait(5)

    threads = [threading.Thread(target=run, args=("busy", 0), daemon=True)]
    threads[0].start()
    wait_until(lambda: lane.running() == 1)
    for waiting, (name, since, later) in enumerate((("tab1", 1, True), ("tab2", 2, True), ("rerun", 50, False)), 1):
        threads.append(threading.Thread(target=run, args=(name, since, later), daemon=True))
        threads[-1].start()
        wait_until(lambda waiting=waiting: lane.waiting() == waiting)
    gate.set()
    for th in threads:
        th.join(5)
    assert order == ["busy", "rerun", "tab1", "tab2"]


def test_a_waiter_that_gives_up_leaves_the_queue_and_those_behind_move_up():
    lane, log, places = Lane(1), [], {}
    gate = threading.Event()
    holder = start(lane, 0, log, places, gate, "a")
    wait_until(lambda: lane.running() == 1)

    def interrupted(place):
        raise KeyboardInterrupt  # as Streamlit's RerunException reaches a queued run

    failed = []

    def quitter():
        try:
            with lane.hold(1, interrupted):
                pass
        except KeyboardInterrupt:
            failed.append(True)

    th = threading.Thread(target=quitter, daemon=True)
    th.start()
    th.join(5)
    assert failed and lane.waiting() == 0
    b = start(lane, 2, log, places, gate, "b")
    wait_until(lambda: lane.waiting() == 1)
    assert places["b"] == [1]
    gate.set()
    holder.join(5)
    b.join(5)
    assert [name for kind, name, *_ in log if kind == "in"] == ["a", "b"] and lane.running() == 0


def test_an_interrupted_run_comes_back_to_its_place():
    lane, log, places = Lane(1), [], {}
    gates = {n: threading.Event() for n in "abc"}
    holder = start(lane, 0, log, places, gates["a"], "a")
    wait_until(lambda: lane.running() == 1)
    c = start(lane, 5, log, places, gates["c"], "c")
    wait_until(lambda: lane.waiting() == 1)
    b = start(lane, 1, log, places, gates["b"], "b")  # since 1: it first asked before c did
    wait_until(lambda: places.get("c") == [1, 2])  # c moved back a place
    assert places["b"] == [1]
    for name in "abc":
        gates[name].set()
    for th in (holder, b, c):
        th.join(5)
    assert [name for kind, name, *_ in log if kind == "in"] == ["a", "b", "c"]


def test_a_session_over_its_share_waits_and_is_held_to_its_rate():
    """A client firing runs without pause: after its burst, its runs are spaced so that it uses `rate`
    CPU s per s, whatever it asks; another session is never charged for it."""
    budget, clock, used = Budget(rate=0.25, burst=1.0, floor=0.02, cap=1.0), [0.0], [0.0]

    def sleep(s: float) -> None:
        clock[0] += s

    for _ in range(200):  # each run uses 50 ms of CPU and asks for the next at once
        with budget.spend("flood", sleep, lambda: clock[0], lambda: used[0]):
            used[0] += 0.05
    assert used[0] / clock[0] == pytest.approx(0.25, rel=0.15)  # 10 s of CPU took ~40 s: its share
    assert budget.delay("student", clock[0]) == 0  # the others' buckets are their own


def test_a_student_never_waits():
    """Four changes a second at 30 ms of CPU each (more than a typist's live input) stay in budget."""
    budget, clock, waited, used = Budget(rate=0.25, burst=3.0), [0.0], [], [0.0]
    for _ in range(400):
        clock[0] += 0.25
        with budget.spend("student", waited.append, lambda: clock[0], lambda: used[0]):
            used[0] += 0.03
    assert waited == []


def test_runs_are_charged_at_least_the_floor_and_at_most_the_cap():
    budget = Budget(rate=1.0, burst=2.0, floor=0.1, cap=1.0)
    budget.charge("a", 0.0, now=0.0)  # a run interrupted at once still costs its start
    budget.charge("b", 30.0, now=0.0)  # a model's first load: not 30 s of debt
    assert budget.delay("a", 0.0) == 0 and budget._balance["a"][0] == pytest.approx(1.9)
    assert budget._balance["b"][0] == pytest.approx(1.0)
    for _ in range(3):
        budget.charge("c", 1.0, now=0.0)
    assert budget.delay("c", 0.0) == pytest.approx(1.0)  # 1 s of debt at 1 CPU s per s


def test_ended_sessions_are_forgotten():
    budget = Budget(rate=1.0, burst=1.0, keep=10)
    for i in range(11):
        budget.charge(f"s{i}", 0.5, now=0.0)
    budget.charge("late", 0.5, now=5.0)  # the others' buckets are full again by now
    assert set(budget._balance) == {"late"}


def test_a_pace_leaves_the_rest_of_the_time_free():
    """lanes.Pace(0.5): runs of 30 ms started back to back start 60 ms apart, so they take half the time."""
    from ui.lanes import Pace

    pace, now, starts = Pace(0.5), [0.0], []

    def sleep(s):
        now[0] += s

    for _ in range(5):
        with pace.run(sleep, lambda: now[0]):
            starts.append(now[0])
            now[0] += 0.03
    assert [round(b - a, 6) for a, b in itertools.pairwise(starts)] == [0.06] * 4


def test_a_later_waiter_is_not_starved_past_its_patience():
    """On a server never idle, a tab's first run waits its later_for and then goes by its `since`, ahead
    of reruns that asked after it (a student joining a saturated class waits ~2 s, not for ever)."""
    lane, order, stop = Lane(1), [], threading.Event()

    def busy():  # one rerun after another, each asking after the tab did
        while not stop.is_set():
            with lane.hold(time.monotonic() + 100):
                order.append("rerun")
                time.sleep(0.02)

    def tab():
        with lane.hold(time.monotonic(), later_for=0.3):
            order.append("tab")

    workers = [threading.Thread(target=busy, daemon=True) for _ in range(2)]
    for th in workers:
        th.start()
    wait_until(lambda: len(order) > 3)
    t0 = time.monotonic()
    tab_thread = threading.Thread(target=tab, daemon=True)
    tab_thread.start()
    tab_thread.join(5)
    waited = time.monotonic() - t0
    stop.set()
    for th in workers:
        th.join(5)
    assert "tab" in order and 0.25 < waited < 2.0, waited
