"""Long traces (models/core/long_trace.py, issue 30 §3): past LAZY_ATTENTION_BYTES a trace keeps the residual stream and
computes a layer's attention and scores when read. With the budget monkeypatched to 0 a short prompt goes lazy, and
every layer must read as the eager trace's (same model, same prompt): the eager forward's attention and the lazy
forward's fused attention (SDPA) round differently, so later layers agree to ~1e-7, not bit for bit. Then a real
2,048-token trace of a tiny Qwen3 folder, and $ATTENTION_LAB_MAX_TOKENS.
"""

from __future__ import annotations

import importlib
import pickle
import warnings

import numpy as np
import pytest

import models
from models.core import long_trace
from models.published.families.common import DEFAULT_MAX_TOKENS
from ui.trace_cache import nbytes

from .tiny import build
from .tiny_encoders import build_encoder
from .tiny_gemma import build_gemma
from .tiny_qwen35 import build_qwen35
from .tiny_t5 import build_t5

attention = importlib.import_module("models.core.attention")  # the module (models.attention is its function)
pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")
CASES = {
    "qwen3": lambda f: build("qwen3", f),  # per-head q/k norm, GQA
    "llama": lambda f: build("llama", f),
    "gpt_neox": lambda f: build("gpt_neox", f),  # partial rotary, parallel residual
    "gemma3": lambda f: build_gemma("gemma3_text", f),  # sliding layers with their own RoPE base
    "gemma2": lambda f: build_gemma("gemma2", f),  # soft-capped scores: computed eagerly, then dropped
    "t5": lambda f: build_t5(f, "t5"),  # relative bias; encoder self, decoder self and cross
    "bert": lambda f: build("bert", f),  # post-norm encoder
    "albert": lambda f: build_encoder("albert", f),  # one block shared by every layer
    "qwen35": lambda f: build_qwen35(f),  # hybrid: softmax layers lazy, linear layers as before
}
TEXT = "the pilot is tired and the dog sleeps on the mat for a long time"


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    root = tmp_path_factory.mktemp("long")
    out = {}
    for name, make in CASES.items():
        make(root / name)
        out[name] = models.load(root / name, precision="float32")
    return out


def check_equal(lazy, eager, atol):
    """Every key's attention (within atol) and scores layer by layer and whole, and the small parts, as the eager
    trace's."""
    assert set(lazy.attention) == set(eager.attention) and set(lazy.value_norms) == set(eager.value_norms)
    for key, full in eager.attention.items():
        if key == "decoder.linear":  # Qwen3.5's Gated DeltaNet layers: their own lazy container, unchanged
            np.testing.assert_allclose(np.asarray(lazy.attention[key]), np.asarray(full), atol=1e-5)
            continue
        got = lazy.attention[key]
        assert isinstance(got, long_trace.AttentionLayers) and got.shape == full.shape and len(got) == len(full)
        for layer in range(len(full)):
            np.testing.assert_allclose(got[layer], full[layer], atol=atol, rtol=0)
            scores, want = lazy.scores[key][layer], eager.scores[key][layer]
            np.testing.assert_array_equal(np.isneginf(scores), np.isneginf(want))  # the same entries masked
            finite = np.isfinite(want)
            np.testing.assert_allclose(scores[finite], want[finite], atol=10 * atol, rtol=10 * atol)
        np.testing.assert_allclose(np.asarray(got), full, atol=atol, rtol=0)
        np.testing.assert_allclose(got[-1, 0, 2:4], full[-1, 0, 2:4], atol=atol, rtol=0)  # numpy-style indexing
        np.testing.assert_allclose(lazy.norms[key][-1], eager.norms[key][-1], atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(lazy.value_norms[key], eager.value_norms[key], atol=1e-5, rtol=1e-5)
        with pytest.raises(ValueError):  # shared by every session: read-only
            got[0][0, 0, 0] = 1.0
    for key, h in eager.hidden.items():
        np.testing.assert_allclose(lazy.hidden[key], h, atol=max(1e-5, 4 * atol), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(lazy.logits), np.asarray(eager.logits), atol=1e-4, rtol=1e-4)
    assert lazy.layers == eager.layers and lazy.masks.keys() == eager.masks.keys()
    for key in eager.layer_masks:
        np.testing.assert_array_equal(lazy.layer_masks[key], eager.layer_masks[key])


def eager_fused(q, k, v, mask, scale, bias=None):
    """fused_attention()'s output by attention() itself: the lazy forward then rounds as the eager one."""
    return attention.attention(q, k, v, mask, scale, bias)[0]


@pytest.mark.parametrize("name", list(CASES))
def test_lazy_layers_read_as_the_eager_trace(loaded, name, monkeypatch):
    model = loaded[name]
    args = dict(target="the dog" if model.config.arch == "encoder-decoder" else None, pad=2 if name == "llama" else 0)
    eager = model.run(TEXT, **args)
    assert all(isinstance(a, np.ndarray) for k, a in eager.attention.items() if k != "decoder.linear")
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)
    check_equal(model.run(TEXT, **args), eager, atol=3e-5)  # the forward through SDPA: its own rounding
    monkeypatch.setattr(attention, "fused_attention", eager_fused)
    lazy = model.run(TEXT, **args)
    check_equal(lazy, eager, atol=1e-6)  # the recomputed layers themselves: as the eager path, to float rounding
    back = pickle.loads(pickle.dumps(lazy.attention))  # pickles as plain arrays
    key = next(iter(eager.attention))
    np.testing.assert_allclose(back[key], np.asarray(eager.attention[key]), atol=1e-5)


def test_a_small_cache_recomputes_the_same_layer(loaded, monkeypatch):
    model = loaded["gemma3"]
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)
    monkeypatch.setattr(long_trace, "LAYER_CACHE_BYTES", 0)  # one layer kept at a time
    tr = model.run(TEXT)
    att = tr.attention["decoder.self"]
    first = att[0].copy()
    for layer in range(len(att)):
        att[layer]
    assert att._source.cache.total == att[0].nbytes  # only the last layer read is kept
    np.testing.assert_array_equal(att[0], first)


def test_two_thousand_tokens_on_a_qwen3_shape(tmp_path, monkeypatch):
    """The real threshold (no monkeypatch): 2 layers × 4 heads × 2,048² floats is 128 MB, so this trace is lazy;
    it holds the stream, the last layers read and small parts, and layers 0 and L-1 are the eager ones."""
    build("qwen3", tmp_path / "q", max_position_embeddings=4096)
    model = models.load(tmp_path / "q", precision="float32")
    assert model.config.max_len == DEFAULT_MAX_TOKENS
    ids = [100 + i % 1500 for i in range(2048)]
    monkeypatch.setattr(long_trace, "LAYER_CACHE_BYTES", 0)
    tr = model.run_ids(ids)
    att = tr.attention["decoder.self"]
    assert isinstance(att, long_trace.AttentionLayers) and att.shape == (2, 4, 2048, 2048)
    layer_bytes = 4 * 4 * 2048 * 2048  # one layer [H, T, T] float32
    stream = tr.hidden["decoder"].nbytes  # [L+1, T, d] float32
    bound = stream + layer_bytes + tr.logits.nbytes + 8 * 2**20  # + value norms, masks (16 MB of logits: V = 2,048)
    assert nbytes(tr) <= bound  # ui/trace_cache.py's count, before and after reading
    first, last = att[0], att[-1]
    assert nbytes(tr) <= bound and att._source.cache.total == layer_bytes
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 2**40)
    eager = model.run_ids(ids, scores=False)
    np.testing.assert_allclose(first, eager.attention["decoder.self"][0], atol=1e-6, rtol=0)
    np.testing.assert_allclose(last, eager.attention["decoder.self"][-1], atol=1e-6, rtol=0)
    np.testing.assert_allclose(first.sum(-1), 1.0, atol=1e-5)
    assert np.all(np.triu(first[0], 1) == 0)  # causal


def test_bfloat16_long_trace_keeps_a_bfloat16_stream(tmp_path, monkeypatch):
    build("qwen3", tmp_path / "q")
    model = models.load(tmp_path / "q", precision="bfloat16")
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)
    tr = model.run(TEXT)
    eager = None
    hidden = tr.hidden["decoder"]
    assert isinstance(hidden, long_trace.Stream) and hidden.held_bytes * 2 == hidden.nbytes
    assert hidden[1].dtype == np.float32 and np.asarray(hidden).shape == hidden.shape
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 2**40)
    eager = model.run(TEXT)
    np.testing.assert_allclose(np.asarray(hidden), eager.hidden["decoder"], atol=2e-2, rtol=1e-2)
    # each layer from the bfloat16-rounded stream: what bfloat16 matmuls give anyway, within a few 1e-3
    np.testing.assert_allclose(np.asarray(tr.attention["decoder.self"]), eager.attention["decoder.self"], atol=1e-2)


def test_max_tokens_caps_published_models_only(tmp_path, monkeypatch):
    build("qwen3", tmp_path / "q")  # its own context: 128
    build("gpt2", tmp_path / "g")  # n_positions 64: a learned position table, cut when capped
    assert models.load(tmp_path / "q").config.max_len == 128  # never past the model's own context
    monkeypatch.setenv("ATTENTION_LAB_MAX_TOKENS", "40")
    q, g = models.load(tmp_path / "q"), models.load(tmp_path / "g")
    assert q.config.max_len == 40 and g.config.max_len == 40
    long_text = " ".join(["the dog sleeps on the mat"] * 30)
    tr = g.run(long_text)
    assert tr.truncated and len(tr.tokens) == 40
    assert models.load("decoder").config.max_len == 256  # the toy models keep the length they were trained at
    monkeypatch.delenv("ATTENTION_LAB_MAX_TOKENS")
    full = models.load(tmp_path / "g")  # 64 positions: the first 40 rows are the capped model's
    assert full.config.max_len == 64
    np.testing.assert_allclose(full.run_ids(tr.ids).logits, tr.logits, atol=1e-5)


def test_a_long_qwen35_trace_keeps_no_q_and_k_and_recomputes_each_linear_layer(loaded, monkeypatch):
    """Its Gated DeltaNet layers' q, k, g, β are recomputed from the stored stream when a page reads a layer (at
    2,048 tokens Qwen3.5-0.8B's would hold 576 MB): nothing held before a read, the eager trace's Ã after."""
    model = loaded["qwen35"]
    eager = model.run(TEXT).attention["decoder.linear"]
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)
    lazy = model.run(TEXT).attention["decoder.linear"]
    assert eager.nbytes > 4 * np.prod(eager.shape) and lazy.nbytes == 4 * np.prod(lazy.shape)  # q, k, g, β: none
    assert lazy.shape == eager.shape
    for layer in range(len(lazy)):
        np.testing.assert_allclose(lazy[layer], eager[layer], atol=1e-6, rtol=0)
