"""The fast patching path (layers before l run once, a layer's heads batched, two unembedding rows) equals the naive
loop (one whole forward with [T, V] logits per head) on every decoder family the app loads: float32 within 1e-5,
bfloat16 within 0.02 of the recovered map. Tiny random checkpoints built with transformers' classes (tests/models/hf).
"""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pytest
import torch

import models
from models import attribution, patching
from models.inspection.patch_hooks import Capture, Cells, metric, pair, stream_of

from .hf.test_families_moe import build_mixtral
from .hf.tiny import build
from .hf.tiny_decoders import build as build_decoder
from .hf.tiny_gemma import build_gemma
from .hf.tiny_granite import build_granite
from .hf.tiny_qwen35 import build_qwen35

pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")

# name -> builder(folder): every decoder family models.load reads (the toy decoder is the shipped one)
FAMILIES = {
    "gpt2": partial(build, "gpt2"),
    "gpt1": partial(build_decoder, "openai-gpt"),
    "llama": partial(build, "llama"),
    "qwen2": partial(build, "qwen2"),
    "mistral": partial(build, "mistral", sliding_window=4),
    "qwen3": partial(build, "qwen3"),
    "pythia": partial(build, "gpt_neox"),
    "phi": partial(build_decoder, "phi"),
    "smollm3": partial(build_decoder, "smollm3"),
    "olmo2": partial(build_decoder, "olmo2"),
    "gemma2": partial(build_gemma, "gemma2"),
    "gemma3": partial(build_gemma, "gemma3_text"),
    "mixtral": partial(build_mixtral, k=2),
    "granite": partial(build_granite, k=2),
    "qwen35": build_qwen35,
}
PROMPT = [300 + (7 * i) % 97 for i in range(12)]


def corrupt(ids: list[int], at: int = 8, new: int = 1000) -> list[int]:
    out = list(ids)
    out[at] = new
    return out


def answer_pair(model, clean, corrupted) -> tuple[int, int]:
    """The tokens the corruption moves most: the answer gains most on the clean prompt, the wrong one on the
    corrupted prompt, so the two prompts disagree about them."""
    lc, lx = (np.asarray(model.run_ids(ids).logits, np.float64)[-1] for ids in (clean, corrupted))
    return int((lc - lx).argmax()), int((lx - lc).argmax())


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("patching-families")
    for name, make in FAMILIES.items():
        make(folder=root / name)
    return root


@pytest.fixture(scope="module")
def toy():
    return models.load("decoder")


def load(folders, name, precision="float32"):
    return models.load(folders / name, precision=precision)


@pytest.mark.parametrize("name", ["toy", *FAMILIES])
def test_fast_equals_the_naive_loop_in_float32(folders, toy, name):
    model = toy if name == "toy" else load(folders, name)
    corrupted = corrupt(PROMPT)
    a, w = answer_pair(model, PROMPT, corrupted)
    fast = patching.heads(model, PROMPT, corrupted, a, w)
    slow = patching.naive_heads(model, PROMPT, corrupted, a, w)
    assert fast.patched.shape == (model.config.n_layers, max(model.config.n_heads, model.config.linear_value_heads))
    assert fast.disagree and np.isfinite(fast.patched).all()
    np.testing.assert_allclose(fast.patched, slow.patched, atol=1e-5, rtol=0)
    assert (fast.clean, fast.corrupted) == pytest.approx((slow.clean, slow.corrupted), abs=1e-5)
    assert np.abs(fast.patched - fast.corrupted).max() > 1e-3  # the patches do something on these weights


@pytest.mark.parametrize("name", ["llama", "gemma2", "olmo2", "qwen35"])
def test_fast_equals_the_naive_loop_for_the_other_maps(folders, name):
    """k and v per K/V head, by position, the residual stream, noising: the same machinery, the same numbers."""
    model = load(folders, name)
    corrupted = corrupt(PROMPT)
    a, w = answer_pair(model, PROMPT, corrupted)
    for kw in (dict(what="k"), dict(what="pattern", by_position=True), dict(mode="noise", what="v")):
        fast, slow = (patching.heads(model, PROMPT, corrupted, a, w, fast=f, **kw) for f in (True, False))
        np.testing.assert_allclose(fast.patched, slow.patched, atol=1e-5, rtol=0, equal_nan=True)
    kv = patching.heads(model, PROMPT, corrupted, a, w, what="k")
    assert kv.patched.shape[1] == model.config.kv_heads
    fast, slow = (patching.residual(model, PROMPT, corrupted, a, w, fast=f) for f in (True, False))
    np.testing.assert_allclose(fast.patched, slow.patched, atol=1e-5, rtol=0)


@pytest.mark.parametrize("name", ["gpt2", "llama", "gemma2", "mixtral", "qwen35"])
def test_fast_equals_the_naive_loop_in_bfloat16(folders, name):
    model = load(folders, name, "bfloat16")
    assert models.core.precision.running(model.net) == "bfloat16"
    corrupted = corrupt(PROMPT)
    a, w = answer_pair(model, PROMPT, corrupted)
    fast = patching.heads(model, PROMPT, corrupted, a, w)
    slow = patching.naive_heads(model, PROMPT, corrupted, a, w)
    assert fast.disagree
    np.testing.assert_allclose(fast.recovered, slow.recovered, atol=0.02, rtol=0)


def test_qwen35_linear_layers_patch_value_heads_and_skip_the_rest(folders):
    """A Gated DeltaNet layer's "out" is each value head's output before out_proj; it has no softmax pattern or q/k/v
    heads of that kind, so those rows are NaN and the result lists the linear layers."""
    model = load(folders, "qwen35")
    linear = [i for i, kind in enumerate(model.config.layer_types) if kind == "linear_attention"]
    corrupted = corrupt(PROMPT)
    a, w = answer_pair(model, PROMPT, corrupted)
    out = patching.heads(model, PROMPT, corrupted, a, w)
    assert list(out.linear_layers) == linear and np.isfinite(out.patched).all()
    pattern = patching.heads(model, PROMPT, corrupted, a, w, what="pattern")
    assert np.isnan(pattern.patched[linear]).all()
    assert np.isfinite(np.delete(pattern.patched, linear, axis=0)).all()
    est = patching.estimate(model, PROMPT, corrupted, a, w)
    assert np.isfinite(est.effect).all()


def test_qwen35_estimate_is_the_gradient_through_linear_layers(folders):
    """Attribution patching's backward goes through the Gated DeltaNet layers: on a linear layer's value head and on a
    softmax head, the finite difference (metric(z_corr + ε(z_clean − z_corr)) − metric(z_corr))/ε approaches it."""
    model = load(folders, "qwen35")
    model.net.double()
    corrupted = corrupt(PROMPT)
    a, w = answer_pair(model, PROMPT, corrupted)
    est = patching.estimate(model, PROMPT, corrupted, a, w).effect
    s, clean, _ = pair(model, PROMPT, corrupted)
    with torch.no_grad():
        caps = [Capture(s, ["z"]) for _ in range(2)]
        stream_of(s, clean, caps[0])
        base = float(metric(s, stream_of(s, corrupted, caps[1])[-1][:, -1], a, w)[0])
        for layer in (s.linear[0], next(i for i in range(s.n_layers) if i not in s.linear)):
            z1, z0 = caps[0].acts["z"][layer], caps[1].acts["z"][layer]
            x = stream_of(s, corrupted, Cells(s.attn[layer], "z", z0 + 1e-6 * (z1 - z0), [1]))[-1]
            fd = (float(metric(s, x[:, -1], a, w)[0]) - base) / 1e-6
            assert fd == pytest.approx(est[layer, 1], abs=1e-4 * max(1.0, abs(est[layer, 1])))


@pytest.mark.parametrize("name", [n for n in FAMILIES if n != "gpt1"])
def test_direct_attribution_adds_up_on_every_pre_norm_family(folders, name):
    """Parts sum to the metric the forward pass computed (float64), with each family's norms, biases, post-norms
    (OLMo 2, Gemma), residual scale and logit divisor (Granite), MoE blocks and linear layers."""
    model = load(folders, name)
    model.net.double()
    corrupted = corrupt(PROMPT)
    a, w = answer_pair(model, PROMPT, corrupted)
    d = attribution.direct(model, PROMPT, a, w)
    assert d.heads.sum() + d.rest == pytest.approx(d.total, abs=1e-9)
    assert d.total == pytest.approx(d.model_metric, abs=1e-5)
    assert d.softcapped == (name == "gemma2")
    if d.softcapped:  # the logit before the cap is attributed; the capped one differs on these wide weights
        assert abs(d.capped_metric - d.model_metric) > 1e-3
    assert np.abs(d.heads).max() > 1e-4


def test_gpt1_is_patched_but_not_attributed(folders):
    """Post-norm: patching works (the map is still exact), direct attribution refuses with a reason."""
    model = load(folders, "gpt1")
    with pytest.raises(ValueError, match="pre-norm"):
        attribution.direct(model, PROMPT, 5, 6)
