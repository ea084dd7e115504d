"""A run lane: at most N page scripts in it at once; the others wait their turn, in order, knowing their place.

Plain threading (no Streamlit), so its order and the places it reports are tested with threads
(tests/test_lanes.py); ui/slots.run_slot puts a run in a lane and shows the place.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Callable, Iterator

POLL_S = 1.0  # a waiter looks again at least this often (a notify is what normally wakes it)


class Lane:
    """`slots` runs at once. Waiters are served in the order of `since` (when their session first asked):
    a run interrupted while waiting (its student typed again: Streamlit starts a new run) comes back
    with the same `since`, so it keeps its place instead of going to the back of the queue."""

    def __init__(self, slots: int):
        self.slots = max(1, slots)
        self._cond = threading.Condition()
        self._running = 0
        self._waiting: list[tuple[bool, float, int]] = []  # (later, since, ticket), sorted: the first is next
        self._tickets = itertools.count()

    def waiting(self) -> int:
        with self._cond:
            return len(self._waiting)

    def running(self) -> int:
        with self._cond:
            return self._running

    @contextlib.contextmanager
    def hold(self, since: float, on_wait: Callable[[int], None] | None = None, later_for: float = 0.0,
             ) -> Iterator[None]:  # fmt: skip
        """One slot for the body. While waiting, on_wait(place) is called (1 = next) each time the
        place changes, outside the lock; if it raises, this run leaves the queue and the error goes on.
        `later_for` seconds: for that long served after every waiter without it, whatever its `since`, and
        only while nothing else runs; then as any waiter, by its `since` (a tab's first run: after the
        reruns of the sessions already open, but never starved by a busy server)."""
        me = (later_for > 0, since, next(self._tickets))
        promote_at = time.monotonic() + later_for
        with self._cond:
            self._waiting.append(me)
            self._waiting.sort()
            self._cond.notify_all()  # an earlier `since` moves those behind it back a place
        shown = None
        try:
            while True:
                with self._cond:
                    if me[0] and time.monotonic() >= promote_at:  # waited long enough: an ordinary waiter now
                        self._waiting[self._waiting.index(me)] = me = (False, *me[1:])
                        self._waiting.sort()
                    free = self._running == 0 if me[0] else self._running < self.slots
                    if self._waiting[0] == me and free:
                        self._waiting.pop(0)
                        self._running += 1
                        self._cond.notify_all()  # with a slot still free, the next waiter may start too
                        break
                    place = self._waiting.index(me) + 1
                    if place == shown or on_wait is None:
                        self._cond.wait(min(POLL_S, max(0.01, promote_at - time.monotonic())) if me[0] else POLL_S)
                        continue
                shown = place
                on_wait(place)
        except BaseException:
            with self._cond:
                if me in self._waiting:
                    self._waiting.remove(me)
                    self._cond.notify_all()  # those behind move up
            raise
        try:
            yield
        finally:
            with self._cond:
                self._running -= 1
                self._cond.notify_all()


class Pace:
    """Runs through one lane take at most `share` of the time: after a run of d seconds the next may start
    d (1/share - 1) seconds after it ended. Tabs' first runs go through it: 100 opened at once take about
    twice as long to all appear, and the reruns of the sessions already open find the CPU free half the time."""

    def __init__(self, share: float):
        self.share, self._next = share, 0.0
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def run(self, sleep: Callable[[float], None], clock: Callable[[], float]) -> Iterator[None]:
        with self._lock:
            wait = self._next - clock()
        if wait > 0:
            sleep(wait)
        start = clock()
        try:
            yield
        finally:
            end = clock()
            with self._lock:
                self._next = end + (end - start) * (1 / self.share - 1)


class Budget:
    """Each session's share of the server, in CPU seconds its runs used: a bucket that fills at `rate`
    (CPU s per s) up to `burst`. A session whose balance is below zero waits before its next run
    (ui/slots.run_slot), holding no slot; meanwhile Streamlit folds its newer requests into one rerun.
    So a client firing reruns without pause is served at its share, never by taking every slot,
    and a student (a run of ~30 ms CPU on a change, a few changes a second at most) never waits.

    Every run is charged at least `floor` (a run interrupted at once used little CPU but a start),
    and at most `cap` (a model's first load is the server's work once, not the session's debt)."""

    def __init__(self, rate: float, burst: float, floor: float = 0.02, cap: float = 1.0, keep: int = 2000):
        self.rate, self.burst, self.floor, self.cap, self.keep = rate, burst, floor, cap, keep
        self._lock = threading.Lock()
        self._balance: dict[str, tuple[float, float]] = {}  # session -> (CPU s left, when it was computed)

    def _now(self, key: str, now: float) -> float:
        left, then = self._balance.get(key, (self.burst, now))
        return min(self.burst, left + (now - then) * self.rate)

    def delay(self, key: str, now: float) -> float:
        """Seconds until this session's balance is back to zero (0: it may run now)."""
        with self._lock:
            return max(0.0, -self._now(key, now) / self.rate)

    def charge(self, key: str, cpu_s: float, now: float) -> None:
        with self._lock:
            self._balance[key] = (self._now(key, now) - min(self.cap, max(self.floor, cpu_s)), now)
            if len(self._balance) > self.keep:  # sessions that ended: drop those whose bucket is full again
                self._balance = {k: v for k, v in self._balance.items() if self._now(k, now) < self.burst}

    @contextlib.contextmanager
    def spend(self, key: str, sleep: Callable[[float], None], clock: Callable[[], float],
              cpu: Callable[[], float]) -> Iterator[None]:  # fmt: skip
        """Wait (sleep) until the session may run, then charge the body's CPU time (cpu(): this thread's)."""
        if (wait := self.delay(key, clock())) > 0:
            sleep(wait)
        start = cpu()
        try:
            yield
        finally:
            self.charge(key, cpu() - start, clock())
