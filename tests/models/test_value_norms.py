"""Trace.norms = α_ij‖f_h(x_j)‖ (Kobayashi et al. 2020), checked against the same product computed by hand
from the weights: pre-norm with GQA and biases, post-norm, cross-attention, a published Qwen2 folder (against
transformers' own forward), and the memory claim (no second [L, H, T, T] array on the trace)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import torch

import models
from models.config import ModelConfig

TEXT = "the cats that the dog sees are happy ."


def _norm(x: np.ndarray, sd: dict, prefix: str, cfg: ModelConfig) -> np.ndarray:
    """The block's norm, written out from its state_dict tensors."""
    w = sd[f"{prefix}.weight"].numpy().astype(np.float64)
    if cfg.norm == "layernorm":
        eps = cfg.norm_eps or 1e-5
        centred = x - x.mean(-1, keepdims=True)
        return centred / np.sqrt((centred**2).mean(-1, keepdims=True) + eps) * w + sd[f"{prefix}.bias"].numpy()
    eps = cfg.norm_eps or 1e-6
    return x / np.sqrt((x**2).mean(-1, keepdims=True) + eps) * w


def _by_hand(x: np.ndarray, sd: dict, attn: str, cfg: ModelConfig) -> np.ndarray:
    """‖(x W_V + b_V)[group of h] · W_O[:, h·dh:(h+1)·dh]ᵀ‖ for every head h and row of x -> [H, T]."""
    w_v, w_o = sd[f"{attn}.v.weight"].numpy().astype(np.float64), sd[f"{attn}.o.weight"].numpy().astype(np.float64)
    v = x @ w_v.T + (sd[f"{attn}.v.bias"].numpy() if f"{attn}.v.bias" in sd else 0.0)  # (T, Hkv·dh)
    dh, group = cfg.d_head, cfg.n_heads // cfg.kv_heads
    out = []
    for h in range(cfg.n_heads):
        g = h // group  # the KV head query head h reads (repeat_interleave order)
        f = v[:, g * dh : (g + 1) * dh] @ w_o[:, h * dh : (h + 1) * dh].T  # (T, d_model)
        out.append(np.linalg.norm(f, axis=-1))
    return np.stack(out)


def _expected(tr, model, key: str) -> np.ndarray:
    cfg, sd = model.config, model.net.state_dict()
    stack, part = key.split(".")
    hidden = tr.hidden[stack].astype(np.float64)
    out = []
    for layer in range(cfg.n_layers):
        block = f"{stack}.{layer}"
        if part == "cross":  # the encoder's output through its final norm (post-norm: none)
            x = tr.hidden["encoder"][-1].astype(np.float64)
            if cfg.norm_position == "pre":
                x = _norm(x, sd, "enc_norm", cfg)
        else:
            x = hidden[layer]  # the attention sublayer's input: the residual stream, normed first in pre-norm
            if cfg.norm_position == "pre":
                x = _norm(x, sd, f"{block}.norm_self", cfg)
        out.append(_by_hand(x, sd, f"{block}.{part}_attn", cfg))
    return tr.attention[key] * np.stack(out)[:, :, None, :]


def _check(tr, model, key: str) -> None:
    got = tr.norms[key]
    assert got.shape == tr.attention[key].shape
    expected = _expected(tr, model, key)
    np.testing.assert_allclose(got, expected, rtol=2e-4, atol=1e-6 * np.abs(expected).max())


def test_pre_norm_decoder_with_gqa_and_value_bias():
    cfg = ModelConfig(arch="decoder", n_heads=4, n_kv_heads=2, norm="rmsnorm", positional="rope", bias=True, seed=3)
    model = models.build(cfg)
    with torch.no_grad():  # biases start at 0: give them values, so b_V counts
        for name, p in model.net.named_parameters():
            if name.endswith("bias"):
                p.copy_(torch.randn(p.shape, generator=torch.Generator().manual_seed(len(name))) * 0.3)
    tr = model.run(TEXT)
    assert list(tr.norms) == list(tr.attention) == ["decoder.self"]
    _check(tr, model, "decoder.self")
    # GQA: heads 0 and 1 share a KV head but not a slice of W_O, so their value norms differ
    assert not np.allclose(tr.value_norms["decoder.self"][:, 0], tr.value_norms["decoder.self"][:, 1])


def test_post_norm_encoder():
    model = models.load("encoder")
    assert model.config.norm_position == "post"
    tr = model.run(TEXT)
    _check(tr, model, "encoder.self")


def test_encoder_decoder_self_and_cross_attention():
    model = models.load("encoder-decoder")
    tr = model.run("1234", target="one thousand two hundred thirty four")
    assert set(tr.norms) == {"encoder.self", "decoder.self", "decoder.cross"}
    for key in tr.norms:
        _check(tr, model, key)
    assert tr.value_norms["decoder.cross"].shape[-1] == len(tr.tokens)  # keys = the source tokens


def test_pre_norm_encoder_cross_attention_reads_the_normed_memory():
    cfg = ModelConfig(arch="encoder-decoder", norm_position="pre", n_heads=4, n_kv_heads=1, seed=5)
    model = models.build(cfg)
    tr = model.run("1234", target="one")
    for key in tr.norms:
        _check(tr, model, key)


@pytest.mark.parametrize("kind", ["qwen2", "bert"])
def test_published_folder_against_transformers(tmp_path, kind):
    """The oracle is transformers' own module: its hidden states, norms, v_proj / value and o_proj / dense."""
    from .hf.tiny import build

    hf = build(kind, tmp_path / kind)
    model = models.load(tmp_path / kind)
    tr = model.run(TEXT)
    key = "decoder.self" if kind == "qwen2" else "encoder.self"
    with torch.no_grad():
        out = hf(torch.tensor([tr.ids]), output_hidden_states=True, output_attentions=True)
        layers = hf.model.layers if kind == "qwen2" else hf.bert.encoder.layer
        expected = []
        for i, layer in enumerate(layers):
            h = out.hidden_states[i]
            if kind == "qwen2":  # pre-norm, GQA, biased q/k/v
                v, w_o = layer.self_attn.v_proj(layer.input_layernorm(h))[0], layer.self_attn.o_proj.weight
            else:  # post-norm: the raw residual stream
                v, w_o = layer.attention.self.value(h)[0], layer.attention.output.dense.weight
            n_heads = out.attentions[i].shape[1]
            dh = w_o.shape[1] // n_heads
            group = n_heads * dh // v.shape[-1]
            norms = [
                (v[:, (h_ // group) * dh : (h_ // group + 1) * dh] @ w_o[:, h_ * dh : (h_ + 1) * dh].T).norm(dim=-1)
                for h_ in range(n_heads)
            ]
            expected.append(out.attentions[i][0] * torch.stack(norms)[:, None, :])
    if kind == "qwen2":
        assert model.config.kv_heads < model.config.n_heads and model.config.qkv_bias
    np.testing.assert_allclose(tr.norms[key], torch.stack(expected).numpy(), rtol=1e-3, atol=1e-5)


def test_trace_stores_no_second_square_array():
    """Only [L, H, Tk] is added: the pickled trace (what st.cache_data stores) grows by L·H·Tk floats."""
    model = models.load("decoder")
    tr = model.run(TEXT)
    L, H, T, _ = tr.attention["decoder.self"].shape
    assert tr.value_norms["decoder.self"].shape == (L, H, T)
    import dataclasses

    without = dataclasses.replace(tr, value_norms={})
    grown = len(pickle.dumps(tr)) - len(pickle.dumps(without))
    assert grown < L * H * T * 4 + 400  # float32 [L, H, T] plus pickle framing, far below [L, H, T, T]
    back = pickle.loads(pickle.dumps(tr))
    np.testing.assert_array_equal(back.norms["decoder.self"], tr.norms["decoder.self"])
    fields = [f.name for f in dataclasses.fields(tr)]
    assert "norms" not in fields  # derived on access, never stored


def test_norm_share_of_a_sink_by_hand():
    """Three queries each put 0.8 on [SEP] (value norm 0.1) and 0.2 on "cat" (value norm 2): 80% of the
    weight, but 0.08 / (0.08 + 0.4) = 1/6 of the output norm."""
    from models.analysis import attention_sinks, sink_shares

    tokens = ["[CLS]", "cat", "[SEP]"]
    a = np.zeros((1, 1, 3, 3))
    a[0, 0, :, 2], a[0, 0, :, 1] = 0.8, 0.2
    norms = np.array([[[1.0, 2.0, 0.1]]])
    (sink,) = attention_sinks(a, tokens, value_norms=norms)
    assert sink["token"] == "[SEP]" and sink["weight"] == pytest.approx(0.8)
    assert sink["norm_share"] == pytest.approx(0.08 / 0.48)
    assert sink_shares(a, tokens)["end"][0, 0] == pytest.approx(0.8)
    assert sink_shares(a, tokens, value_norms=norms)["end"][0, 0] == pytest.approx(0.08 / 0.48)
    # equal value norms: the norm share is the weight share
    ones = np.ones_like(norms)
    assert attention_sinks(a, tokens, value_norms=ones)[0]["norm_share"] == pytest.approx(0.8)
    for group, share in sink_shares(a, tokens, value_norms=ones).items():
        np.testing.assert_allclose(share, sink_shares(a, tokens)[group])


def test_norm_shares_equal_trace_norms_on_the_encoder():
    """The share computed from value_norms equals Σ over the sink of tr.norms ÷ Σ over all keys, mean over rows 1..."""
    from models.analysis import attention_sinks, sink_shares

    tr = models.load("encoder").run(TEXT)
    a, vn, n = tr.attention["encoder.self"], tr.value_norms["encoder.self"], tr.norms["encoder.self"]
    by_hand = (n / n.sum(-1, keepdims=True))[:, :, 1:, :].mean(axis=2)  # [L, H, T]
    sinks = attention_sinks(a, tr.tokens, value_norms=vn)
    for s in sinks:
        assert s["norm_share"] == pytest.approx(by_hand[s["layer"], s["head"], s["key"]])
    end = [i for i, tok in enumerate(tr.tokens) if tok == "[SEP]"]
    np.testing.assert_allclose(sink_shares(a, tr.tokens, value_norms=vn)["end"], by_hand[..., end].sum(-1), rtol=1e-5)


def test_the_explorers_matrices_are_the_weights_their_mean_and_their_rollout():
    """attention_stats.aggregated, the Explorer's one matrix (moved out of the page, issue 40): one head's weights or
    value-weighted rows, the layer's head mean, the rollout of every layer's head mean."""
    from models.inspection.attention_stats import aggregated, attention_rollout, value_weighted

    g = np.random.default_rng(0)
    att = g.dirichlet(np.ones(5), size=(2, 3, 5)).astype(np.float32)  # [L, H, Tq, Tk], rows sum to 1
    norms = g.uniform(0.5, 2.0, size=(2, 3, 5)).astype(np.float32)
    np.testing.assert_array_equal(aggregated(att, norms, False, "head", 1, 2), att[1, 2])
    weighted = value_weighted(att[1, 2], norms[1, 2]).astype(np.float32)
    np.testing.assert_array_equal(aggregated(att, norms, True, "head", 1, 2), weighted)
    np.testing.assert_array_equal(aggregated(att, norms, False, "mean", 1, 0), att[1].mean(0))
    rollout = attention_rollout(np.stack([att[n].astype(np.float64).mean(0) for n in range(2)])[:, None])
    np.testing.assert_array_equal(aggregated(att, norms, False, "rollout", 0, 0), rollout)
    np.testing.assert_allclose(aggregated(att, norms, True, "rollout", 0, 0).sum(-1), 1.0, atol=1e-6)
