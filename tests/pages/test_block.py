"""Norms & attention scores page: its numbers are models.teaching.norms' and models.teaching.additive's, the
dot-product pattern is
the model's own, it works in Chinese, on other models and on hostile prompts."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models.teaching import additive, norms
from tests.models.hf.tiny import build

from .apptest import HOSTILE_PROMPTS, array, check_hostile, open_app, titled

PROMPT = "the cat sat on the mat ."


def test_the_norm_figures_are_models_norms_on_the_prompt():
    at = open_app("block", prompt=PROMPT)
    c = norms.compare(models.load("decoder"), PROMPT)
    mean = titled(at, "Mean of each token")
    np.testing.assert_allclose(array(mean["data"][0]["y"]), c.before[0], rtol=1e-6)
    np.testing.assert_allclose(array(mean["data"][2]["y"]), c.after["layernorm"][0], atol=1e-9)
    change = titled(at, "normalised vectors when the batch")
    np.testing.assert_allclose(array(change["data"][0]["y"]), c.change_others["batchnorm"], rtol=1e-6)
    assert array(change["data"][0]["y"]).min() > 0
    assert np.all(array(change["data"][2]["y"]) == 0) and np.all(array(change["data"][3]["y"]) == 0)
    assert "“along the sequence”" in "\n".join(m.value for m in at.markdown)


def test_the_gradient_figures_show_post_norm_above_pre_norm_at_the_output():
    at = open_app("block", prompt=PROMPT)
    fig = titled(at, "Gradient norm of each layer")
    pre, post = (array(tr["y"]) for tr in fig["data"] if tr.get("showlegend") is not False)
    assert len(pre) == norms.DEPTH["n_layers"]
    assert post[-1] > 3 * pre[-1] and pre[-1] < 0.5 * pre[0]


def test_the_dot_product_pattern_is_the_models_own_and_the_flops_are_counted():
    at = open_app("block", prompt=PROMPT, layer="2", head="3")
    model = models.load("decoder")
    tr = model.run(PROMPT)
    dot = titled(at, "Scaled dot product")["data"][0]
    np.testing.assert_allclose(array(dot["z"]), tr.attention["decoder.self"][1, 2], atol=1e-5)
    n, dk = len(tr.tokens), model.config.d_head
    f = additive.flops(n, n, dk, dk)
    df = at.table[0].value
    assert str(f.additive) in list(df.iloc[:, 2]) and str(f.dot) in list(df.iloc[:, 1])


def test_chinese():
    at = open_app("block", prompt=PROMPT, lang="zh")
    assert titled(at, "初始化时各层 W2 的梯度范数")
    assert any("沿序列方向" in m.value for m in at.markdown)


@pytest.mark.parametrize("model", ["encoder", "encoder-decoder"])
def test_other_toy_models(model):
    at = open_app("block", prompt="one two three" if model == "encoder-decoder" else PROMPT, model=model)
    assert titled(at, "Additive, random")


@pytest.mark.parametrize("prompt", HOSTILE_PROMPTS)
def test_hostile_prompts(prompt):
    check_hostile("block", prompt)


def test_a_published_model_is_scored(tmp_path, monkeypatch):
    build("gpt2", tmp_path / "tiny-gpt2")
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(tmp_path))
    at = open_app("block", model="tiny-gpt2", prompt="小明 and the cat 🙂")
    assert not at.exception
    assert titled(at, "Additive, random") and titled(at, "Mean of each token")
