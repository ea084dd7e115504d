"""models/core/progressive.py (issue 30 §3): a long prompt's layer l is readable as soon as the forward has computed
layer
l's input, and it is the finished trace's layer l bit for bit (float32 and bfloat16); the forward goes on in its own
thread and ends with the same Trace as LiveModel.run_ids. A forward that no session waits for any more stops between
two layers (`alive`; ui/long_runs.py asks whether a page touched it within ABANDON_S): a class typing new paragraphs
does not queue up forwards nobody will read. A tiny Qwen3 folder, the long threshold set to 0."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import models
from models.core import long_trace, progressive

from .tiny import build

pytest.importorskip("transformers")
TEXT = "the pilot is tired and the dog sleeps on the mat for a long time"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("progressive")
    build("qwen3", root / "q", num_hidden_layers=3)
    return root / "q"


@pytest.fixture(autouse=True)
def long_everywhere(monkeypatch):
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_each_layer_is_the_finished_traces_bit_for_bit(folder, dtype):
    model = models.load(folder, precision=dtype)
    ids, _ = model.source_ids(TEXT)
    assert progressive.eligible(model, len(ids))
    job = progressive.Progressive(model, ids)
    partial = [job.attention["decoder.self"][layer] for layer in range(3)]  # read while (or after) it runs
    assert job.wait(60) and job.error is None
    full = model.run_ids(ids)  # a separate, ordinary run of the same ids
    for layer in range(3):
        np.testing.assert_array_equal(partial[layer], full.attention["decoder.self"][layer])
        np.testing.assert_array_equal(job.trace.attention["decoder.self"][layer], full.attention["decoder.self"][layer])
        np.testing.assert_array_equal(job.layer(layer, "scores"), full.scores["decoder.self"][layer])
    np.testing.assert_array_equal(np.asarray(job.trace.hidden["decoder"]), np.asarray(full.hidden["decoder"]))
    np.testing.assert_array_equal(job.trace.value_norms["decoder.self"], full.value_norms["decoder.self"])
    np.testing.assert_array_equal(np.asarray(job.trace.logits[-1]), np.asarray(full.logits[-1]))
    assert job.trace.tokens == full.tokens == job.tokens and job.done == 3
    np.testing.assert_allclose(partial[0].sum(-1), 1.0, atol=1e-5)


def test_the_first_layer_comes_before_the_forward_ends(folder):
    """The last block is held until the first layer has been read: layer 0 cannot have waited for it."""
    model = models.load(folder, precision="float32")
    last = model.net.decoder[-1]
    go, reached = threading.Event(), threading.Event()
    forward = last.forward

    def held(*args, **kwargs):
        reached.set()
        assert go.wait(60)
        return forward(*args, **kwargs)

    last.forward = held
    seen = []
    job = progressive.Progressive(model, model.source_ids(TEXT)[0], on_done=lambda j: seen.append(j.trace))
    try:
        assert reached.wait(60)
        first = job.layer(0)
        assert job.trace is None and job.done == 2 and not job.finished  # the last block has not run
        assert first.shape == (4, len(job.ids), len(job.ids)) and not first.flags.writeable
    finally:
        go.set()
    assert job.wait(60) and seen == [job.trace] and job.done == 3
    np.testing.assert_array_equal(first, job.trace.attention["decoder.self"][0])


def test_an_error_in_the_forward_reaches_the_reader(folder):
    model = models.load(folder, precision="float32")

    def broken(*args, **kwargs):
        raise RuntimeError("out of memory")

    model.net.decoder[1].forward = broken
    job = progressive.Progressive(model, model.source_ids(TEXT)[0])
    with pytest.raises(RuntimeError, match="out of memory"):
        job.layer(2)
    assert job.wait(60) and job.trace is None and isinstance(job.error, RuntimeError)
    np.testing.assert_allclose(job.layer(0).sum(-1), 1.0, atol=1e-5)  # the layers before it are still there


def test_short_prompts_and_other_architectures_are_not_progressive(folder, monkeypatch, tmp_path):
    model = models.load(folder, precision="float32")
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 2**40)
    assert not progressive.eligible(model, 2048)
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)
    build("bert", tmp_path / "b")
    assert not progressive.eligible(models.load(tmp_path / "b"), 10)  # an encoder: its forward is short


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
    assert blocks_run == [0, 1]  # block 2 never ran
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
    assert job.wait(60) and job.error is None and job.trace is not None and job.done == 3


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
