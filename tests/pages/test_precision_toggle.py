"""The sidebar's per-session precision switch (issue 30, ui/precision_ui.py, ui/precision_keys.py) and the Softmax
page's bfloat16 section (lessons/softmax_bf16.py), on a tiny published Qwen2 folder and on the shipped MiniLM.

The switch puts the precision into the weights key of every loader: a session's figures are the model's in its
precision, each precision is one cache entry shared by the sessions that pick it, and float32 is what
models.load(folder, precision="float32") computes. Folder names of their own: the model cache is keyed by name."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models.core import precision
from models.inspection import precision_gap
from tests.models.hf.tiny import build
from ui import loaders, params, precision_keys, trace_cache

from .apptest import array, figures, heatmaps, open_app, titled

NAME = "p30-qwen2"
PROMPT = "the cat sat on the mat because it was tired"


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("p30-models")
    build("qwen2", root / NAME)
    return root


@pytest.fixture
def local(models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))  # tests/conftest.py: ATTENTION_LAB_PRECISION=float32
    return params.local_models()


def direct(folder, dtype: str) -> models.LiveModel:
    return models.load(folder, precision=dtype)


def test_the_switch_changes_what_the_session_runs(local):
    at = open_app("explorer", model=NAME, prompt=PROMPT)
    assert at.segmented_control(key="precision").value == "float32"  # $ATTENTION_LAB_PRECISION
    shown_f32 = array(heatmaps(at)[0]["z"])
    at.segmented_control(key="precision").set_value("bfloat16").run()
    assert not at.exception
    shown_bf16 = array(heatmaps(at)[0]["z"])
    caption = " ".join(c.value for c in at.sidebar.caption)
    assert "**bfloat16**" in caption and "chosen for this session" in caption
    assert at.query_params["precision"] == ["bfloat16"] or at.query_params["precision"] == "bfloat16"
    # the model behind the page is the bfloat16 one, and the figure is its attention, not float32's
    model = loaders.get_model(NAME, "trained@bfloat16")
    assert precision.running(model.net) == "bfloat16"
    f32 = direct(local[NAME].path, "float32").run(PROMPT).attention["decoder.self"][0, 0]
    b16 = direct(local[NAME].path, "bfloat16").run(PROMPT).attention["decoder.self"][0, 0]
    n = shown_f32.shape[0]
    np.testing.assert_allclose(shown_f32, f32[:n, :n], atol=1e-6)
    np.testing.assert_allclose(shown_bf16, b16[:n, :n], atol=1e-6)
    assert np.abs(f32 - b16).max() > 1e-4  # the two really differ, so the comparison above tells them apart


def test_two_precisions_are_two_entries_and_float32_is_the_loaders(local):
    f32_key, b16_key = (precision_keys.key(NAME, "trained", d) for d in ("float32", "bfloat16"))
    assert (f32_key, b16_key) == ("trained", "trained@bfloat16")  # the process runs float32 (tests/conftest.py)
    a, b = loaders.get_model(NAME, f32_key), loaders.get_model(NAME, b16_key)
    assert a is not b and a is loaders.get_model(NAME, f32_key)  # one load per precision, shared
    assert (precision.running(a.net), precision.running(b.net)) == ("float32", "bfloat16")
    ta, tb = loaders.trace(NAME, f32_key, PROMPT), loaders.trace(NAME, b16_key, PROMPT)
    cached = [k for k in trace_cache.TRACES.order() if k[0] == "trace" and k[1] == str(local[NAME].path)]
    weights = {dict(k[2])["weights"] for k in cached if dict(k[2])["text"] == PROMPT}
    assert weights == {"trained", "trained@bfloat16"}
    want = direct(local[NAME].path, "float32").run(PROMPT).attention["decoder.self"]
    np.testing.assert_array_equal(ta.attention["decoder.self"], want)
    assert not np.array_equal(tb.attention["decoder.self"], want)


def test_a_toy_model_ignores_the_precision(local):
    assert precision_keys.key("decoder", "trained", "bfloat16") == "trained"
    assert loaders.get_model("decoder", "trained@bfloat16") is loaders.get_model("decoder", "trained")
    at = open_app("explorer", model="decoder")
    assert "precision" not in [w.key for w in at.segmented_control]  # the switch is for published models only


def test_a_hidden_switch_keeps_its_value(local):
    at = open_app("explorer", model=NAME, precision="bfloat16")
    assert at.segmented_control(key="precision").value == "bfloat16"
    at.selectbox(key="model").set_value("decoder").run()
    at.selectbox(key="model").set_value(NAME).run()
    assert not at.exception
    assert at.segmented_control(key="precision").value == "bfloat16"


@pytest.mark.parametrize("bad", ["banana", "BFLOAT16", "", "float64"])
def test_a_bad_url_value_falls_back(local, bad):
    at = open_app(model=NAME, precision=bad)  # the home page: the notice shows on the link's first run
    assert at.segmented_control(key="precision").value == "float32"
    assert any("precision=" in w.value for w in at.warning)  # "ignored parameters" notice, no traceback
    at.switch_page("lessons/explorer.py").run()
    assert not at.exception and heatmaps(at)
    assert "precision" not in at.query_params  # the default is left out of the link


def _section_lines(at) -> tuple[np.ndarray, np.ndarray]:
    fig = titled(at, "float32 vs bfloat16 matmuls, per layer")
    return array(fig["data"][0]["y"]), array(fig["data"][1]["y"])


def test_the_softmax_section_measures_a_published_model(local):
    loaded = all(loaders.computed(loaders.get_model, NAME, k) for k in ("trained", "trained@bfloat16"))
    at = open_app("softmax", model=NAME, prompt=PROMPT)
    drawn = any("per layer" in str(f["layout"].get("title")) for f in figures(at))
    assert drawn == loaded  # a second copy in memory only when asked for (or already there, from another session)
    if not loaded:
        at.toggle(key="bf16_run").set_value(True).run()
    assert not at.exception
    top, mean = _section_lines(at)
    want = precision_gap.compare(direct(local[NAME].path, "float32"), direct(local[NAME].path, "bfloat16"), PROMPT)
    np.testing.assert_allclose(top, want["layer_max"], rtol=1e-6)
    np.testing.assert_allclose(mean, want["layer_mean"], rtol=1e-6)
    text = "\n".join(m.value for m in at.markdown)
    assert f"**{want['layer_max'].max():.2g}**" in text
    same = sum(x == y for x, y in zip(want["argmax_f32"], want["argmax_bf16"], strict=True))
    assert f"{same} of {len(want['tokens'])} agree" in text


def test_the_max_per_layer_is_the_attention_difference():
    """precision_gap against the arithmetic itself, on the shipped MiniLM (what the section runs for a toy model)."""
    f32, b16 = models.load("minilm", precision="float32"), models.load("minilm", precision="bfloat16")
    a = f32.run(PROMPT).attention["encoder.self"].astype(np.float64)
    b = b16.run(PROMPT).attention["encoder.self"].astype(np.float64)
    res = precision_gap.compare(f32, b16, PROMPT)
    np.testing.assert_array_equal(res["layer_max"], np.abs(b - a).max(axis=(1, 2, 3)))
    assert 0 < res["layer_max"].max() < 0.1  # bfloat16 matmuls move weights, by about ε = 2^-7, not more
    assert not res["predicts"]  # MiniLM ships no head: no tokens to compare


def test_the_softmax_section_runs_minilm_for_a_toy_model():
    at = open_app("softmax", model="decoder", prompt=PROMPT)
    assert not any("per layer" in str(f["layout"].get("title")) for f in figures(at))  # two forwards only when asked
    at.toggle(key="bf16_run").set_value(True).run()
    top, _ = _section_lines(at)
    assert top.shape == (6,) and (top > 0).all()  # MiniLM-L6: six layers, every one moved
    assert any("MiniLM" in c.value for c in at.caption)
