"""A long prompt's forward that no session waits for any more stops between two layers (models/progressive.py
`alive`; ui/long_runs.py asks whether a page touched it within ABANDON_S): a class typing new paragraphs does not
queue up forwards nobody will read. A tiny Qwen3 folder, the long threshold set to 0."""

from __future__ import annotations

import threading

import pytest

import models
from models import long_trace, progressive

from .tiny import build

pytest.importorskip("transformers")
TEXT = "the pilot is tired and the dog sleeps on the mat for a long time"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("abandon")
    build("qwen3", root / "q", num_hidden_layers=4)
    return root / "q"


@pytest.fixture(autouse=True)
def long_everywhere(monkeypatch):
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)


def test_a_forward_nobody_watches_stops_between_layers(folder):
    model = models.load(folder, precision="float32")
    blocks_run = []
    for i, block in enumerate(model.net.decoder):
        forward = block.forward

        def counted(*args, _i=i, _f=forward, **kwargs):
            blocks_run.append(_i)
            return _f(*args, **kwargs)

        block.forward = counted
    watched = threading.Event()
    watched.set()

    def alive(job):  # the session leaves once layer 1 is drawn
        if len(blocks_run) >= 2:
            watched.clear()
        return watched.is_set()

    ended = []
    job = progressive.Progressive(model, model.source_ids(TEXT)[0], alive=alive, on_done=ended.append)
    assert job.wait(60) and ended == [job]
    assert isinstance(job.error, progressive.Abandoned) and job.trace is None
    assert blocks_run == [0, 1]  # blocks 2 and 3 never ran
    assert job.layer(1).shape[0] == 4  # what was computed can still be read


def test_a_forward_abandoned_while_it_waited_never_starts(folder):
    model = models.load(folder, precision="float32")
    turn = threading.Event()
    job = progressive.Progressive(model, model.source_ids(TEXT)[0], setup=lambda: turn.wait(60), alive=lambda j: False)
    turn.set()
    assert job.wait(60) and isinstance(job.error, progressive.Abandoned) and job.done == 0


def test_a_watched_forward_runs_to_the_end(folder):
    model = models.load(folder, precision="float32")
    job = progressive.Progressive(model, model.source_ids(TEXT)[0], alive=lambda j: True)
    assert job.wait(60) and job.error is None and job.trace is not None and job.done == 4


def test_the_ui_forgets_an_abandoned_forward_and_starts_again(folder, monkeypatch):
    """ui/long_runs: a session that comes back to a prompt whose forward was abandoned gets a new one, and the old
    one's end does not remove the new one."""
    from ui import long_runs

    model = models.load(folder, precision="float32")
    at = ("k",)
    old = progressive.Progressive(model, model.source_ids(TEXT)[0], alive=lambda j: False)
    assert old.wait(60)
    new = progressive.Progressive(model, model.source_ids(TEXT)[0], alive=lambda j: True)
    monkeypatch.setitem(long_runs._RUNNING, at, new)
    monkeypatch.setattr(long_runs._FORWARDS, "release", lambda: None)
    long_runs._kept(at, old)  # the old one ends after the new one took its place
    assert long_runs._RUNNING.get(at) is new
    assert new.wait(60)
    old.seen -= long_runs.ABANDON_S + 1
    assert not long_runs._watched(old)
    new.touch()
    assert long_runs._watched(new)
