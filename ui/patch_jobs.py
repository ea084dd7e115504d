"""A published model's head map computed in a thread of its own and drawn as it fills (issue 42 §2): every head of a
Qwen2.5-0.5B takes seconds per layer, so the page shows the layers done so far, a progress line and Cancel, instead of
a frozen status box. One job per (model, weights, prompts, words), shared by every session that asks; when it ends, its
map goes to ui/patch_loaders.patch_run (which then runs only the cheaper parts) and the page is drawn whole. A job
no page has looked at for ABANDON_S stops between two layers (the student typed other prompts, or left), as ui/long_runs
stops an abandoned forward. The toy models are computed at once (a few milliseconds) and never come here."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

import models
from models import patching

from . import patch_loaders, slots

POLL_S = 1.0  # how often the progress line looks at the job
FIRST_WAIT_S = 0.5  # a small model's map is done within this: drawn whole, no progress line
ABANDON_S = 10.0
_LOCK = threading.Lock()
_JOBS: dict[tuple, Job] = {}
_ONE_AT_A_TIME = threading.Semaphore(1)  # two classes' maps at once would each take twice as long


@dataclass
class Job:
    key: tuple  # (model name, weights, clean, corrupted, answer, wrong)
    n_layers: int
    done: int = 0  # layers finished
    partial: np.ndarray | None = None  # recovered share so far: NaN in the layers not done
    error: str | None = None
    seen: float = field(default_factory=time.monotonic)  # when a page last looked
    cancel: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)
    cancelled: bool = False

    def stop_now(self) -> bool:
        return self.cancel.is_set() or time.monotonic() - self.seen > ABANDON_S


def job_for(model: models.LiveModel, key: tuple) -> Job:
    """The job for key, started if there is none (or the last one was cancelled and the student asks again)."""
    with _LOCK:
        job = _JOBS.get(key)
        if job is None:
            job = _JOBS[key] = Job(key, model.config.n_layers)
            threading.Thread(target=_run, args=(model, job), daemon=True, name="patch-job").start()
        job.seen = time.monotonic()
        return job


def forget(key: tuple) -> None:
    """A cancelled job, dropped so that the next run starts a new one ("Run again")."""
    with _LOCK:
        _JOBS.pop(key, None)


def _run(model: models.LiveModel, job: Job) -> None:
    """In the job's thread: the map layer by layer; at the end, the map for patch_run."""
    with _ONE_AT_A_TIME:
        slots.lower_this_thread()  # below the class's reruns, as a published model's forwards are
        try:
            clean, corrupted, answer, wrong = job.key[2:]
            prep = patch_loaders._prepare(model, clean, corrupted, answer, wrong)
            args = (prep["clean_ids"], prep["corrupted_ids"], prep["answer_id"], prep["wrong_id"])
            m_clean, m_corr = patching.metrics(model, *args)

            def layer_done(layer: int, patched: np.ndarray) -> None:
                job.partial = patching.recovered_share(patched, m_clean, m_corr)[0]
                job.done = layer + 1

            r = patching.heads(model, *args, on_layer=layer_done, cancel=job.stop_now)
            job.cancelled = r.cancelled
            if not r.cancelled:
                patch_loaders.keep_drawn(job.key, r)
        except Exception as e:  # patch_run computes it again and says what went wrong
            job.error = repr(e)
        finally:
            job.finished.set()
            with _LOCK:
                if not job.cancelled and _JOBS.get(job.key) is job:
                    del _JOBS[job.key]  # its map is with patch_run now; a cancelled one stays, to be said


def wait_or_draw(model: models.LiveModel, key: tuple, draw_partial, cancelled_note) -> bool:
    """True when the map is ready for patch_run; else draws the job's progress (draw_partial(job)) in a part that
    reruns the page when the job ends, or the cancelled note (cancelled_note(key)), and returns False."""
    job = job_for(model, key)
    if job.finished.wait(FIRST_WAIT_S) and not job.cancelled:
        return True
    if job.cancelled:
        cancelled_note(key)
        return False

    @slots.fragment(run_every=POLL_S)
    def progress() -> None:
        job.seen = time.monotonic()
        if job.finished.is_set():
            st.rerun(scope="app")
        draw_partial(job)

    progress()
    return False
