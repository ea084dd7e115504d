"""A published model's head map computed in a thread and drawn as it fills (ui/patch_jobs.py, issue 42 §2): the job
gives patch_run the same map patching.heads gives, stops between two layers when cancelled or abandoned, and the page
says a cancelled map with a button that starts it again."""

from __future__ import annotations

import time

import numpy as np

import models
from models import patching
from ui import loaders, params, patch_jobs, patch_loaders, patch_pairs

from .apptest import figures, open_app
from .test_patch import folder  # noqa: F401  (the tiny published models, module scope)

PAIR = patch_pairs.template("repeat", True)  # the toy decoder's repeated span


def _args(model, pair):
    prep = patch_loaders._prepare(model, pair.clean, pair.corrupted, pair.answer, pair.wrong)
    return prep["clean_ids"], prep["corrupted_ids"], prep["answer_id"], prep["wrong_id"]


def test_a_job_gives_patch_run_the_map_heads_gives_and_ends():
    model = models.load("decoder")
    key = ("decoder", "job-test", PAIR.clean, PAIR.corrupted, PAIR.answer, PAIR.wrong)
    job = patch_jobs.job_for(model, key)
    assert job.finished.wait(30) and not job.cancelled and job.error is None
    assert job.done == model.config.n_layers and key not in patch_jobs._JOBS  # ended, and forgotten
    assert patch_loaders.drawn(key)
    kept = patch_loaders._DRAWN.pop(key)
    exact = patching.heads(model, *_args(model, PAIR))
    np.testing.assert_array_equal(kept.patched, exact.patched)
    np.testing.assert_allclose(job.partial, exact.recovered, atol=1e-6)  # the last drawing: the whole map


def test_a_cancelled_job_stops_after_the_layer_it_is_in_and_stays_to_be_said():
    model = models.load("decoder")
    key = ("decoder", "job-cancel", PAIR.clean, PAIR.corrupted, PAIR.answer, PAIR.wrong)
    job = patch_jobs.Job(key, model.config.n_layers)
    job.cancel.set()  # Cancel clicked before the first layer ended
    patch_jobs._JOBS[key] = job
    patch_jobs._run(model, job)
    assert job.cancelled and job.done == 1 and np.isnan(job.partial[1:]).all() and not np.isnan(job.partial[0]).any()
    assert not patch_loaders.drawn(key) and patch_jobs._JOBS[key] is job  # no map for patch_run; said as cancelled
    patch_jobs.forget(key)
    assert key not in patch_jobs._JOBS


def test_a_job_no_page_looks_at_stops():
    job = patch_jobs.Job(("x",), 2)
    assert not job.stop_now()
    job.seen = time.monotonic() - patch_jobs.ABANDON_S - 1
    assert job.stop_now()


def test_the_page_says_a_cancelled_map_and_runs_it_again(local, monkeypatch):
    real = patch_jobs.job_for

    def cancelled(model, key):
        job = patch_jobs.Job(key, model.config.n_layers, cancelled=True)
        job.finished.set()
        return job

    monkeypatch.setattr(patch_jobs, "job_for", cancelled)
    monkeypatch.setattr(loaders, "computed", lambda *a, **k: False)  # as if no earlier test had computed this map
    at = open_app("patch", model="tiny-gpt2", pt_template="names_en")
    assert not at.exception and any("Cancelled" in i.value for i in at.info) and not figures(at)
    monkeypatch.setattr(patch_jobs, "job_for", real)
    at.button(key="pt_again").click().run()
    assert not at.exception and figures(at)  # computed this time (the tiny model within the first wait)
    model = models.load(params.local_models()["tiny-gpt2"].path)
    assert model.config.arch == "decoder"
