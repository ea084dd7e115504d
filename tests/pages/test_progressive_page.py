"""The Explorer on a long prompt whose forward is still running (ui/long_runs.py), in the real app (AppTest): the
tiny 2,048-position Qwen3 with the progressive threshold at 0 and its long forward held after the embedding. The page
draws the layer shown and the progress line, not the views and parts that need every layer; once the forward ends the
next run reads the cached trace: the same picture, the downloads, no progress line."""

from __future__ import annotations

import threading
import time

import pytest

from models.core.transformer import Transformer
from tests.long_prompts import ENGLISH, NAME
from tests.pages.apptest import figures, open_app
from ui import long_runs, trace_cache
from ui.i18n import t


@pytest.fixture()
def held(long_env, monkeypatch):
    """The app on the tiny model, every long forward held after its embedding until the event is set."""
    monkeypatch.setattr(long_runs, "PROGRESSIVE_GFLOP", 0.0)
    trace_cache.TRACES.clear()
    go, steps = threading.Event(), Transformer.steps

    def steps_held(self, *args, **kwargs):
        for i, item in enumerate(steps(self, *args, **kwargs)):
            if i == 1 and kwargs.get("need_weights") is False:  # a long trace's forward (the page's own: not)
                assert go.wait(120)
            yield item

    monkeypatch.setattr(Transformer, "steps", steps_held)
    yield go
    go.set()
    trace_cache.TRACES.clear()


def picture(at) -> str:
    (fig,) = [f for f in figures(at) if f["data"] and f["data"][0].get("type") == "image"]
    return fig["data"][0]["source"]


def test_the_layer_shown_is_drawn_before_the_forward_ends(held):
    at = open_app("explorer", model=NAME, prompt=ENGLISH)
    first = picture(at)
    assert first.startswith("data:image/png;base64,")
    (bar,) = at.get("progress")
    assert bar.proto.text == t("explorer_long.computing", k=0, n=2)  # the embedding only: layer 1's input
    assert not at.get("download_button")  # the downloads, sinks and the rest wait for the whole trace
    assert t("explorer_long.sinks_layer") not in [c.value for c in at.caption]

    at.session_state["layer"] = 1  # the second layer's input is not computed: said, not waited for
    at.run()
    assert not at.exception and not [f for f in figures(at) if f["data"][0].get("type") == "image"]
    assert t("explorer_long.layer_wait", layer=2) in [c.value for c in at.caption]

    held.set()
    deadline = time.monotonic() + 120
    while long_runs._RUNNING and time.monotonic() < deadline:
        time.sleep(0.1)
    at.session_state["layer"] = 0
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert picture(at) == first  # the partial layer is the finished trace's
    assert at.get("download_button") and not at.get("progress")
    assert t("explorer_long.sinks_layer") in [c.value for c in at.caption]
