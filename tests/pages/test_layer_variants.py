"""Published decoders whose layers differ (tiny random, built by transformers): the Positional page names SmolLM3's
NoPE layers (1-based) and Gemma 3's two RoPE bases per layer, as the loaded config has them; the Softmax page's
soft-capping section (Gemma 2) draws cap·tanh(s/cap) and the picked head's scores before and after the cap."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models.inspection.softcap import head_scores, softcap
from tests.models.hf.tiny_decoders import build
from tests.models.hf.tiny_gemma import build_gemma

from .apptest import array, figures, markdown_text, open_app, table, titled

pytest.importorskip("transformers")
PROMPT = "the cats that the dog sees are happy . the dog is tired ."


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("layers")
    build("smollm3", root / "tiny-smollm3")
    build_gemma("gemma2", root / "tiny-gemma2")
    build_gemma("gemma3_text", root / "tiny-gemma3")
    return root


def _layer_table(at) -> dict[str, list]:
    for i in range(len(at.table)):
        t = table(at, i)
        if any(h in t for h in ("layer", "层")):
            return t
    raise AssertionError("no layer table")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_positional_names_smollm3s_nope_layers(local, lang):
    at = open_app("positional", model="tiny-smollm3", lang=lang)
    cfg = models.load(str(local / "tiny-smollm3")).config
    assert cfg.nope_layers == (3,)  # 4 layers, one in every 4 without RoPE
    text = markdown_text(at)
    one = {"en": "Layer **4** (counted from 1, one in every 4) uses **no position at all**",  # one layer: no "1 in all"
           "zh": "第 **4** 层（从 1 开始计数，即每 4 层中一层）**完全不用位置信息**"}  # fmt: skip
    assert one[lang] in text and "1 in all" not in text and "共 1 层" not in text
    assert "Kazemnejad" in text
    col = list(_layer_table(at).values())
    assert col[0] == [1, 2, 3, 4]
    theta = f"RoPE, θ = {cfg.rope_base:,.0f}"
    assert col[2] == [theta, theta, theta, "none (NoPE)" if lang == "en" else "无（NoPE）"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_positional_gives_gemma3s_two_rope_bases_per_layer(local, lang):
    at = open_app("positional", model="tiny-gemma3", lang=lang)
    cfg = models.load(str(local / "tiny-gemma3")).config
    text = markdown_text(at)
    assert "10,000" in text and "1,000,000" in text and ("**1, 2, 3, 4, 5**" in text) and "**6**" in text
    col = list(_layer_table(at).values())
    assert col[2] == [f"RoPE, θ = {cfg.layer_rope_base(i):,.0f}" for i in range(cfg.n_layers)]
    assert col[2][0] == "RoPE, θ = 10,000" and col[2][-1] == "RoPE, θ = 1,000,000"
    assert col[1][0] == ("sliding window of 5" if lang == "en" else "滑动窗口 5")


def test_other_models_show_no_layer_table(local):
    at = open_app("positional", model="tiny-gemma2")
    assert "Position layer by layer" not in markdown_text(at) and not any(
        "θ" in str(table(at, i)) for i in range(len(at.table))
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_softcap_section_draws_the_heads_scores_before_and_after(local, lang):
    at = open_app("softmax", model="tiny-gemma2", prompt=PROMPT, lang=lang, layer="2", head="3")
    assert not at.exception
    model = models.load(str(local / "tiny-gemma2"))
    cap = model.config.attn_softcap
    tr = model.run(PROMPT)
    before, after = head_scores(model, tr, 1, 2)
    seen = np.isfinite(after)
    np.testing.assert_allclose(softcap(before[seen], cap), after[seen], atol=1e-4)  # trace.scores are the capped ones
    fig = titled(at, "cap·tanh(s/cap)")
    curve, _, points = fig["data"]
    np.testing.assert_allclose(array(curve["y"]), cap * np.tanh(array(curve["x"]) / cap), atol=1e-9)
    np.testing.assert_allclose(array(points["x"]), before[seen], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(array(points["y"]), after[seen], rtol=1e-6, atol=1e-6)
    assert np.abs(before[seen]).max() > cap  # the tiny model's scores reach past the cap: the points bend
    text = markdown_text(at)
    assert f"{before[seen].max():.2f}" in text and f"{after[seen].max():.2f}" in text
    assert ("Soft-capping" if lang == "en" else "软上限") in [h.value for h in at.header][-2]  # then bfloat16
    assert "Gemma Team 2024" in " ".join(c.value for c in at.caption)


def test_no_softcap_section_without_a_cap(local):
    at = open_app("softmax", model="tiny-smollm3", prompt=PROMPT)
    assert not any("cap·tanh" in str(f["layout"].get("title")) for f in figures(at))


def test_gemma3s_model_without_positions_has_no_sliding_window_either(local):
    """The Positional page's shuffle test: a model with no positional encoding must be permutation-equivariant
    under a bidirectional mask, and a sliding window is position too (it made Gemma 3's 'no PE' outputs move
    by ~9 under a shuffle): the variant's sliding layers become full ones."""
    from ui import loaders

    assert "sliding_attention" in loaders.get_model("tiny-gemma3").config.layer_types
    flat = loaders.get_variant("tiny-gemma3", "none")
    assert flat.config.positional == "none" and "sliding_attention" not in flat.config.layer_types
    ids = list(range(120, 132))
    perm = np.random.default_rng(0).permutation(len(ids))
    a = flat.run_ids(ids, mask="bidirectional").hidden["decoder"][-1]
    b = flat.run_ids([ids[i] for i in perm], mask="bidirectional").hidden["decoder"][-1]
    np.testing.assert_allclose(b, a[perm], atol=1e-4)
