"""The one attention function, the masks, and what a Trace records about them."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models
from models.core.attention import MultiHeadAttention, attention, reference_attention

B, H, TQ, TK, DH = 2, 4, 7, 7, 8
SCALES = [DH**-0.5, 1.0, 0.1, 3.0]


def qkv(seed: int, h: int = H, h_kv: int = H, tq: int = TQ, tk: int = TK) -> tuple[torch.Tensor, ...]:
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(B, h, tq, DH, generator=g)
    k = torch.randn(B, h_kv, tk, DH, generator=g)
    v = torch.randn(B, h_kv, tk, DH, generator=g)
    return q, k, v


def random_padding(seed: int, tk: int = TK) -> torch.Tensor:
    """(B, 1, 1, Tk) padding mask with key 0 always real, so no row is fully masked (SDPA gives NaN there)."""
    g = torch.Generator().manual_seed(seed)
    real = torch.rand(B, tk, generator=g) < 0.6
    real[:, 0] = True
    return models.padding(real)


MASKS = {
    "none": lambda: None,
    "causal": lambda: models.causal(TQ),
    "bidirectional": lambda: models.bidirectional(TQ),
    "prefix": lambda: models.prefix(TQ, 3),
    "padding": lambda: random_padding(1),
    "causal+padding": lambda: models.causal(TQ) & random_padding(2),
}

ARCHS = ("encoder", "decoder", "encoder-decoder")


# ---------------------------------------------------------------- against PyTorch's SDPA


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("mask_name", MASKS)
def test_attention_matches_sdpa(mask_name, scale):
    q, k, v = qkv(seed=list(MASKS).index(mask_name))
    mask = MASKS[mask_name]()
    out, weights, scores = attention(q, k, v, mask, scale)
    ref = reference_attention(q, k, v, mask, scale)
    torch.testing.assert_close(out, ref, atol=1e-5, rtol=0)
    # the returned weights are the ones that produced the output
    torch.testing.assert_close(weights @ v, out, atol=1e-6, rtol=0)
    # and the scores are the scaled dot products (where not masked)
    raw = (q @ k.transpose(-2, -1)) * scale
    allowed = torch.ones_like(raw, dtype=torch.bool) if mask is None else mask.expand_as(raw)
    torch.testing.assert_close(scores[allowed], raw[allowed], atol=1e-5, rtol=0)
    assert torch.isneginf(scores[~allowed]).all()


def test_padding_mask_shape_and_meaning():
    real = torch.tensor([[True, True, False], [True, False, False]])
    m = models.padding(real)
    assert m.shape == (2, 1, 1, 3) and m.dtype == torch.bool
    q, k, v = qkv(0, tq=4, tk=3)
    _, w, _ = attention(q, k, v, m, 1.0)
    assert (w[0, :, :, 2] == 0).all() and (w[1, :, :, 1:] == 0).all()
    torch.testing.assert_close(w[1, :, :, 0], torch.ones(H, 4))  # only one real key: all weight on it


@pytest.mark.parametrize("mask_name", ["none", "causal", "prefix", "padding"])
@pytest.mark.parametrize("scale", [DH**-0.5, 2.0])
def test_gqa_equals_sdpa_on_repeated_kv(mask_name, scale):
    q, k, v = qkv(seed=5, h=8, h_kv=2)
    mask = MASKS[mask_name]()
    out, weights, _ = attention(q, k, v, mask, scale)
    k_rep, v_rep = k.repeat_interleave(4, dim=1), v.repeat_interleave(4, dim=1)
    ref = reference_attention(q, k_rep, v_rep, mask, scale)
    torch.testing.assert_close(out, ref, atol=1e-5, rtol=0)
    # query heads 0-3 share K/V head 0, heads 4-7 share head 1 (Llama's repeat_kv grouping)
    _, w_group0, _ = attention(q[:, :4], k[:, :1], v[:, :1], mask, scale)
    torch.testing.assert_close(weights[:, :4], w_group0, atol=1e-6, rtol=0)


def test_mha_module_with_explicit_kv_heads_equals_default(small_cfg):
    x = torch.randn(1, 6, 32, generator=torch.Generator().manual_seed(3))
    outs = []
    for n_kv in (None, 4):
        torch.manual_seed(11)
        mha = MultiHeadAttention(small_cfg(n_kv_heads=n_kv), rope=True)
        outs.append(mha(x, x, models.causal(6), 0.5, torch.arange(6))[:3])
    for a, b in zip(*outs, strict=True):
        assert torch.equal(a, b)


@pytest.mark.parametrize("arch", ARCHS)
def test_model_with_n_kv_heads_equal_n_heads_equals_mha(small_model, arch):
    text = "the cats that the dog sees are happy"
    a = small_model(arch, n_kv_heads=None).run(text, target="one two")
    b = small_model(arch, n_kv_heads=4).run(text, target="one two")
    np.testing.assert_array_equal(a.logits, b.logits)
    for key in a.attention:
        np.testing.assert_array_equal(a.attention[key], b.attention[key])


def test_gqa_model_really_shares_kv(small_model):
    """MQA (1 K/V head) differs from MHA: otherwise the option would be a no-op."""
    text = "the cats that the dog sees are happy"
    a = small_model(n_kv_heads=None).run(text)
    b = small_model(n_kv_heads=1).run(text)
    assert not np.allclose(a.logits, b.logits)


# ---------------------------------------------------------------- properties of a Trace


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("mask", [None, "causal", "bidirectional", "prefix"])
def test_trace_rows_sum_to_one_and_masked_entries_are_zero(small_model, arch, mask):
    m = small_model(arch, n_kv_heads=2)
    tr = m.run("the cat that the dogs see is happy", target="nine", mask=mask, prefix_len=4)
    expected = {"encoder": {"encoder.self"}, "decoder": {"decoder.self"}}.get(
        arch, {"encoder.self", "decoder.self", "decoder.cross"}
    )
    assert set(tr.attention) == set(tr.scores) == set(tr.masks) == expected
    for key, w in tr.attention.items():
        allowed = tr.masks[key]
        n_layers, n_heads, tq, tk = w.shape
        assert (n_layers, n_heads) == (2, 4) and allowed.shape == (tq, tk)
        assert w.dtype == np.float32 and np.isfinite(w).all()
        np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-5, err_msg=key)
        assert (w[..., ~allowed] == 0).all(), key
        assert (w[..., allowed] > 0).all(), key  # softmax of finite scores is strictly positive
        s = tr.scores[key]
        assert s.shape == w.shape
        assert np.array_equal(np.isneginf(s), np.broadcast_to(~allowed, s.shape)), key
        assert np.isfinite(s[..., allowed]).all(), key


def test_trace_records_the_mask_that_was_applied(small_model):
    m = small_model("decoder")
    tr = m.run("the cat sees", mask="prefix", prefix_len=3)
    n = len(tr.tokens)
    np.testing.assert_array_equal(tr.masks["decoder.self"], models.prefix(n, 3).numpy())
    assert tr.mask == "prefix" and tr.prefix_len == 3
    tr = small_model("encoder-decoder").run("12", target="twelve")
    np.testing.assert_array_equal(tr.masks["encoder.self"], np.ones((len(tr.ids),) * 2, bool))
    np.testing.assert_array_equal(tr.masks["decoder.self"], models.causal(len(tr.target_ids)).numpy())
    assert tr.masks["decoder.cross"].shape == (len(tr.target_ids), len(tr.ids))


def test_trace_scale_defaults_to_inverse_sqrt_d_head(small_model):
    m = small_model()
    assert m.run("a b").attn_scale == pytest.approx(1 / np.sqrt(8))
    assert m.run("a b", attn_scale=0.7).attn_scale == pytest.approx(0.7)
    with pytest.raises(ValueError, match="attn_scale"):
        m.run("a b", attn_scale=0.0)


@pytest.mark.parametrize("arch", ARCHS)
def test_scale_override_multiplies_layer0_scores(small_model, arch):
    """Layer 0's q and k do not depend on the scale, so its scores are exactly linear in it."""
    m = small_model(arch, positional="rope")
    key = "encoder.self" if arch != "decoder" else "decoder.self"
    default = m.run("the cat sees the dog", target="one").scores[key][0]
    tripled = m.run("the cat sees the dog", target="one", attn_scale=3 * m.config.scale).scores[key][0]
    finite = np.isfinite(default)
    np.testing.assert_allclose(tripled[finite], 3 * default[finite], rtol=1e-5, atol=1e-7)
    assert np.array_equal(np.isfinite(tripled), finite)


# ---------------------------------------------------------------- fully masked rows


def test_fully_masked_row_gives_zero_weights_not_nan():
    q, k, v = qkv(0)
    mask = models.causal(TQ).clone()
    mask[2] = False  # query 2 may attend to nothing
    out, w, scores = attention(q, k, v, mask, DH**-0.5)
    assert not torch.isnan(w).any() and not torch.isnan(out).any()
    assert (w[:, :, 2] == 0).all() and (out[:, :, 2] == 0).all()
    assert torch.isneginf(scores[:, :, 2]).all()
    # the other rows are untouched
    torch.testing.assert_close(w[:, :, 3].sum(-1), torch.ones(B, H))


def test_all_keys_padded_gives_zero_weights_not_nan():
    q, k, v = qkv(0)
    real = torch.ones(B, TK, dtype=torch.bool)
    real[1] = False
    out, w, _ = attention(q, k, v, models.padding(real), 1.0)
    assert not torch.isnan(out).any()
    assert (w[1] == 0).all() and (out[1] == 0).all()
    torch.testing.assert_close(w[0].sum(-1), torch.ones(H, TQ))


# ---------------------------------------------------------------- the masks


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_causal_is_lower_triangular(n):
    m = models.causal(n)
    assert m.dtype == torch.bool and m.shape == (n, n)
    assert torch.equal(m, torch.tril(torch.ones(n, n, dtype=torch.bool)))
    assert torch.equal(models.make_mask("causal", n), m)


def test_bidirectional_is_all_true():
    assert models.bidirectional(4).all() and models.bidirectional(3, 5).shape == (3, 5)
    assert models.bidirectional(3, 5).all()


@pytest.mark.parametrize(("n", "p"), [(6, 0), (6, 1), (6, 3), (6, 6), (5, 9)])
def test_prefix_is_bidirectional_in_the_prefix_and_causal_elsewhere(n, p):
    m = models.prefix(n, p)
    c = models.causal(n)
    q = min(p, n)
    assert m[:q, :q].all()
    outside = torch.ones(n, n, dtype=torch.bool)
    outside[:q, :q] = False
    assert torch.equal(m[outside], c[outside])
    assert torch.equal(models.make_mask("prefix", n, p), m)


def test_prefix_does_not_mutate_a_shared_causal_mask():
    before = models.causal(5).clone()
    models.prefix(5, 4)
    assert torch.equal(models.causal(5), before)


def test_causal_with_offset_for_kv_cache():
    assert models.causal(1, 5).all()  # the newest query sees every cached key
    assert models.causal(1, 5).shape == (1, 5)
    expected = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
    assert torch.equal(models.causal(2, 5), expected)
    # the last rows of the full causal mask, which is what a cached step must reproduce
    assert torch.equal(models.causal(3, 7), models.causal(7)[-3:])
    assert torch.equal(models.causal(2, 4, offset=0), models.causal(4)[:2])


def test_make_mask_rejects_unknown_and_missing_prefix():
    with pytest.raises(ValueError, match="prefix_len"):
        models.make_mask("prefix", 4)
    with pytest.raises(ValueError, match="mask"):
        models.make_mask("diagonal", 4)
