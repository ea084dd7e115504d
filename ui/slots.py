"""Which script runs go at once, and who waits (app.py wraps every run in run_slot): a few run slots per
process, a lane of their own for published models, first runs (tabs opened) through ARRIVALS, and a
per-session share of the server (lanes.Budget). The queueing itself is plain threading in ui/lanes.py.
A fragment's reruns of its own do not run app.py: `fragment` (used instead of st.fragment) holds a slot
for them."""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from . import lanes, params
from .i18n import md, t

# How many page scripts this server process runs at once; the others wait their turn. Streamlit
# starts a thread per rerun, and Python runs one thread at a time (the GIL): with 40 sessions,
# 25 threads took turns at the GIL and the kernel spent a third of the CPU switching between them
# (bench/load.py: stime 0.46 of 1.22 cores). Queued here, they wait without costing anything.
RUN_SLOTS = max(1, int(os.environ.get("ATTENTION_LAB_RUN_SLOTS", "2")))
RUNS = lanes.Lane(RUN_SLOTS)
# Runs with a published model ($ATTENTION_LAB_MODELS) take a second or more each: they have their own
# lane, so a class's reruns on the toy models never wait behind them (bench/load.py --model).
HEAVY_SLOTS = max(1, int(os.environ.get("ATTENTION_LAB_HEAVY_SLOTS", "1")))
HEAVY = lanes.Lane(HEAVY_SLOTS)
# A session's first run (a tab opened) takes one of these, then a run slot, but for its first 2 s only
# while no other run goes (Lane.hold(later_for=2.0)): a client opening 100 tabs at once has this many first
# runs going at a time, and the class's reruns go first; after 2 s it waits as a rerun does, so a student
# joining a saturated server is not starved. (A separate lane beside the run slots made a third script
# run at once: the class's p95 rose 4.75x while 100 tabs opened.)
ARRIVAL_SLOTS = max(1, int(os.environ.get("ATTENTION_LAB_ARRIVAL_SLOTS", "1")))
ARRIVALS = lanes.Lane(ARRIVAL_SLOTS)
# ... and they take at most this share of the time (lanes.Pace): 100 tabs opened at once raised a class's
# p95 2.1x when they ran back to back (bench/abuse.py); a class arriving at once waits about twice as long.
ARRIVAL_SHARE = min(1.0, max(0.05, float(os.environ.get("ATTENTION_LAB_ARRIVAL_SHARE", "0.5"))))
ARRIVAL_PACE = lanes.Pace(ARRIVAL_SHARE)
# Each session's share of the server, in CPU seconds of its runs per second (lanes.Budget): a student's
# rerun uses ~30 ms of CPU, a few a second at most; a client firing reruns without pause is held to
# this share (a quarter of one core), whatever it sends; it may first use 12 s of it (3 CPU s) at once.
# Off by default (0): a student typing on a 256-token page runs ~150 ms of CPU every 250 ms, over a quarter
# core, and was slowed 4x after the burst (bench/rerun_speed.py). A flood of reruns is bounded before it
# gets here, by each session's message rate (ui/inbox.py); set this too (e.g. 0.25) on a public server.
SESSION_SHARE = float(os.environ.get("ATTENTION_LAB_SESSION_SHARE", "0"))
BUDGET = lanes.Budget(rate=SESSION_SHARE, burst=12 * SESSION_SHARE) if SESSION_SHARE > 0 else None


def heavy_run() -> bool:
    """Whether this run's model is a published one (read after the URL is restored, before the sidebar)."""
    return st.session_state.get("model") in params.local_models()


@contextlib.contextmanager
def run_slot(where):
    """Hold a slot for a whole script run (released however the run ends: st.stop, st.rerun,
    st.switch_page and errors are exceptions): one of the RUN_SLOTS, or for a published model one of
    the HEAVY_SLOTS, telling in `where` (an st.empty drawn in every run; None: not told) its place in the
    queue meanwhile.
    First, a session over its share of the server (BUDGET) waits; a session's first run takes one of
    the ARRIVAL_SLOTS first, and a run slot only when no rerun waits, so many tabs opened at once never
    delay a class's reruns."""
    share = contextlib.nullcontext()
    if BUDGET is not None:
        share = BUDGET.spend(session_key(), time.sleep, time.monotonic, time.thread_time)
    with share:
        if heavy_run():
            with heavy_slot(where):
                yield
            return
        st.session_state.pop("_queued_since", None)
        if st.session_state.get("_served"):
            with RUNS.hold(time.monotonic()):
                yield
            return
        arrived = st.session_state.setdefault("_arrived", time.monotonic())  # in the order sessions first asked
        with ARRIVALS.hold(arrived), ARRIVAL_PACE.run(time.sleep, time.monotonic), RUNS.hold(arrived, later_for=2.0):
            st.session_state["_served"] = True
            yield


_THIS_RUN = threading.local()  # .in_slot: this thread's fragment rerun already holds a slot


def fragment(func=None, *, run_every=None):
    """st.fragment, but its reruns of its own (a run_every timer, a widget inside it) hold a slot as a whole
    run does (run_slot: the session's share, then a run slot or the heavy lane): Streamlit runs only the
    fragment's function then, not app.py, so without this a client firing fragment reruns ran unbounded
    work beside every queue. Inside a full run the slot is already held by this thread (app.py): the body
    just runs (a Semaphore is not reentrant: taking a second one would deadlock with one slot), as does a
    fragment nested in a fragment rerun. The fragment's identity is its function's (functools.wraps). A
    rerun waiting for a published model's lane shows its place in the queue at the fragment's top, as
    app.py's full runs do at the page's."""

    def decorate(f):
        @functools.wraps(f)
        def body(*args, **kwargs):
            # Where a rerun of its own says its place in a published model's queue (run_slot); drawn in
            # every run, so the fragment's elements keep their places between its runs and full runs.
            # Only where the model is a published one (the model changes in a full run only): one element less
            # on every other rerun (docs/perf.md).
            where = st.empty() if heavy_run() else None
            ctx = get_script_run_ctx()
            if ctx is None or not ctx.fragment_ids_this_run or getattr(_THIS_RUN, "in_slot", False):
                return f(*args, **kwargs)  # a full run (its slot held by app.py), or nested
            _THIS_RUN.in_slot = True
            try:
                with run_slot(where):
                    return f(*args, **kwargs)
            finally:
                _THIS_RUN.in_slot = False

        return st.fragment(body, run_every=run_every)

    return decorate if func is None else decorate(func)


def session_key() -> str:
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else ""


@contextlib.contextmanager
def heavy_slot(where):
    """One of the HEAVY_SLOTS, showing the place in the queue while waiting."""
    # Kept until the run starts: a run interrupted while queued (its student typed again) keeps its place.
    since = st.session_state.setdefault("_queued_since", time.monotonic())
    shown = False

    def notice(place: int) -> None:
        nonlocal shown
        queue_notice(where, place)
        shown = True

    with HEAVY.hold(since, notice if where is not None else None):
        if shown:
            where.empty()  # may raise (a newer run was asked for meanwhile): the place is kept
        st.session_state.pop("_queued_since", None)
        lower_this_thread()
        yield


HEAVY_NICE = 10  # a published model's run yields the CPU to toy-page runs (CFS weight 110 against 1024)


def lower_this_thread() -> None:
    """Run this script thread (Streamlit starts a new one for every run, and with one torch thread the
    forward runs in it) at a lower CPU priority: a separate lane stops toy runs *waiting* for a 1 s
    forward, but only priority stops them *sharing* the cores with it. Linux nice is per thread;
    elsewhere, or where it is not allowed, nothing happens."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HEAVY_NICE)


def queue_notice(where, place: int) -> None:
    """The waiting run's place in the heavy lane (1 = next)."""
    where.info(t("shell.queue", place=place, model=md(st.session_state.get("model")), slots=HEAVY_SLOTS))
