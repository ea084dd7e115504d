"""A long prompt on a published model drawn while its forward runs (issue 30 §3): the Explorer's first heatmap in a
second or two instead of after the whole 13 s+ forward.

trace_or_partial returns the cached Trace when there is one; for a long decoder prompt whose trace is not cached
yet it starts (once per prompt, shared by every session) a models.core.progressive.Progressive, which runs the ordinary
forward in a thread of its own, and returns it: the page draws the layer it shows as soon as that layer's input is
computed (one layer's recompute), with a progress line that reruns the page when the layer or the whole trace is
ready. When the forward ends, its Trace goes into the trace cache under the key ui/loaders.trace would use, so the
next run reads it from there: the forward runs once, continued, never from scratch.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable

import streamlit as st

import models
from models.core.progressive import Abandoned, Progressive, eligible, forward_flops

from . import slots, trace_cache
from .i18n import t
from .loaders import _slim, get_model, trace

POLL_S = 1.0  # how often the progress line looks at the forward
LAYER_WAIT_S = 2.0  # how long a run waits for the layer it shows before saying it comes later (layer 1: ~0 s)
# A long prompt runs this way when its forward computes more than this many GFLOP (ATTENTION_LAB_PROGRESSIVE_GFLOP;
# progressive.forward_flops): about a second on one of this machine's cores. A smaller one (a tiny test model) is
# computed whole. Not the 64-token forward measured at load times n / 64: at 2,048 tokens the n² attention makes
# Qwen3-0.6B's forward 10x that (bench/browser_long.py). 0: every long decoder prompt of a published model.
PROGRESSIVE_GFLOP = float(os.environ.get("ATTENTION_LAB_PROGRESSIVE_GFLOP", "100"))
# A forward no session has asked about for this long stops between two layers (a student typed another prompt or left
# the page): a page waiting for it asks on every run and every POLL_S, so 10 s is ten missed polls.
ABANDON_S = float(os.environ.get("ATTENTION_LAB_ABANDON_S", "10"))
_LOCK = threading.Lock()
_RUNNING: dict[tuple, Progressive] = {}  # trace cache key -> the forward running for it
# Forwards computing at once: as many as the published models' lane has slots (a page's own forward held one before);
# the others wait in their threads, their pages at "0 of L" meanwhile.
_FORWARDS = threading.Semaphore(slots.HEAVY_SLOTS)


def trace_or_partial(name: str, weights: str, text: str, target: str | None = None) -> models.Trace | Progressive:
    """ui/loaders.trace(name, weights, text, target), or the Progressive computing it (a long decoder prompt of a
    published model, not cached yet)."""
    at = trace.key(name, weights, text, target)
    if at is None or target is not None or at in trace_cache.TRACES:
        return trace(name, weights, text, target)
    model = get_model(name, weights)
    ids, truncated = model.source_ids(text)
    if not eligible(model, len(ids)) or forward_flops(model, len(ids)) < PROGRESSIVE_GFLOP * 1e9:
        return trace(name, weights, text, target)
    with _LOCK:
        job = _RUNNING.get(at)
        if job is not None and isinstance(job.error, Abandoned):  # stopped before this session came back: again
            job = None
        if job is None and at not in trace_cache.TRACES:
            kept = functools.partial(_kept, at)
            job = Progressive(model, ids, truncated, setup=_start, on_done=kept, alive=_watched)
            _RUNNING[at] = job
        if job is not None:
            job.touch()
    if job is None or job.finished:
        if job is not None:
            job.wait()  # its trace is in the cache once the thread has ended (_kept)
        return trace(name, weights, text, target)
    return job


def _start() -> None:
    """In the forward's thread, first: its turn, at a published model's lower CPU priority (ui/slots.py)."""
    _FORWARDS.acquire()
    slots.lower_this_thread()


def _watched(job: Progressive) -> bool:
    """Whether a session asked about this forward within ABANDON_S."""
    return time.monotonic() - job.seen < ABANDON_S


def _kept(at: tuple, job: Progressive) -> None:
    """In the forward's thread, at its end: the trace into the cache, then the job forgotten."""
    _FORWARDS.release()
    if job.trace is not None:
        trace_cache.TRACES.get(at, lambda: _slim(job.trace))
    with _LOCK:
        if _RUNNING.get(at) is job:  # (an abandoned one may have been replaced already)
            del _RUNNING[at]


def draw_partial(job: Progressive, view: str, agg: str, norm: bool, layer: int, figure: Callable[[], object]) -> None:
    """While the forward runs: the progress line, and figure() when the view needs only the layer shown and that
    layer is ready (else a line saying when it comes). The views that read every layer (the grid, rollout, the
    value-weighted norms, the sinks) wait for the whole trace."""
    one_layer = not norm and (view == "lines" or (view == "heatmap" and agg in ("head", "mean")))
    ready = one_layer and job.ready(layer, LAYER_WAIT_S)
    _progress(job, None if ready or not one_layer else layer)
    if ready:
        figure()
    elif one_layer:
        st.caption(t("explorer_long.layer_wait", layer=layer + 1))
    else:
        st.caption(t("explorer_long.view_wait"))


def _progress(job: Progressive, layer: int | None) -> None:
    """The line "computing layers k/L…", redrawn every POLL_S; the whole page reruns once the forward is done, or
    once the layer it waits for (layer) is ready."""

    @slots.fragment(run_every=POLL_S)
    def line() -> None:
        job.touch()
        if job.finished or (layer is not None and job.ready(layer)):
            st.rerun(scope="app")
        done = job.done
        st.progress(done / job.n_layers, text=t("explorer_long.computing", k=done, n=job.n_layers))

    line()
