"""A published Qwen3.5 (Gated DeltaNet linear layers between softmax layers) on the pages.

The Explorer names each layer's kind, draws a softmax layer's weights on 0..1 and a linear layer's implied attention
on a diverging scale (white = 0), and sets one softmax head beside one linear head; pages that pick a layer but
assume every layer is softmax attention say why in one sentence instead of drawing.
"""

from __future__ import annotations

import numpy as np
import pytest

import models
from tests.models.hf.tiny_qwen35 import build_qwen35
from ui import params

from .apptest import array, figures, open_app

PROMPT = "the cat sat on the mat ."


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("qwen35_models")
    build_qwen35(root / "tiny-qwen35")
    return root


@pytest.fixture
def local(models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    return params.local_models()


def titled(at, words):
    return [f for f in figures(at) if words in str(f["layout"]["title"]["text"])]


def test_explorer_draws_a_linear_layer_on_a_diverging_scale(local, models_dir):
    at = open_app("explorer", model="tiny-qwen35", prompt=PROMPT, layer="2", head="3")
    assert not at.exception
    assert any("1 linear · 2 linear · 3 linear · 4 softmax" in c.value for c in at.caption)
    (fig,) = titled(at, "Layer 2 (Gated DeltaNet), value head 3")
    trace = fig["data"][0]
    assert trace["zmin"] == -trace["zmax"]  # white at 0: the sign is the colour
    live = models.load(str(models_dir / "tiny-qwen35"))
    tr = live.run(PROMPT)
    np.testing.assert_allclose(array(trace["z"]), tr.attention["decoder.linear"][1][2], atol=1e-6)
    assert any("need not sum to 1" in c.value for c in at.caption)
    assert titled(at, "Layer 4 (softmax attention), head 1") and titled(at, "Layer 1 (Gated DeltaNet), value head 1")


def test_explorer_draws_a_softmax_layer_by_its_layer_number(local, models_dir):
    at = open_app("explorer", model="tiny-qwen35", prompt=PROMPT, layer="4", head="2")
    (fig,) = titled(at, "Layer 4 (softmax attention), head 2")
    tr = models.load(str(models_dir / "tiny-qwen35")).run(PROMPT)
    np.testing.assert_allclose(array(fig["data"][0]["z"]), tr.attention["decoder.self"][0][1], atol=1e-6)


@pytest.mark.parametrize("page", ["masks", "rank", "softmax", "generate", "heads", "lens"])
def test_pages_that_assume_softmax_layers_say_why(local, page):
    at = open_app(page, model="tiny-qwen35", prompt=PROMPT)
    assert not at.exception
    assert any("Gated DeltaNet" in i.value for i in at.info)
