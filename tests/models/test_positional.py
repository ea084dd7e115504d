"""Positional encodings: the sinusoidal formula, RoPE's rotation, and why attention needs them."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import models
from models.tokenizer import CLS, SEP

# ---------------------------------------------------------------- sinusoidal


@pytest.mark.parametrize("d_model", [8, 32, 64])
def test_sinusoidal_table_matches_the_formula(d_model):
    pe = models.sinusoidal_table(100, d_model)
    assert pe.shape == (100, d_model) and pe.dtype == np.float64
    for pos in (0, 1, 2, 7, 50, 99):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            assert pe[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-12), (pos, i)
            assert pe[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-12), (pos, i)


def test_sinusoidal_table_known_values():
    pe = models.sinusoidal_table(3, 4)
    # position 0: sin 0 = 0, cos 0 = 1 in every pair
    np.testing.assert_allclose(pe[0], [0, 1, 0, 1], atol=1e-15)
    # position 1, pair 0 has wavelength 2π: sin(1), cos(1); pair 1 divides by 10000^(2/4) = 100
    np.testing.assert_allclose(pe[1], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)], atol=1e-15)


def test_sinusoidal_model_adds_the_table_to_the_embeddings(small_model):
    m = small_model("decoder", positional="sinusoidal")
    ids = [1, 300, 300, 300]
    h0 = m.run_ids(ids).hidden["decoder"][0]  # the residual stream before the first block
    tok = m.net.tok_emb.weight[ids].numpy() * math.sqrt(32)
    np.testing.assert_allclose(h0 - tok, models.sinusoidal_table(4, 32), atol=1e-5)


# ---------------------------------------------------------------- RoPE


def rand(shape, seed, dtype=torch.float64) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=dtype)


@pytest.mark.parametrize("d_head", [2, 8, 32])
def test_rope_preserves_norms(d_head):
    x = rand((2, 3, 11, d_head), 0)
    positions = torch.tensor([0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 200])
    y = models.apply_rope(x, positions)
    torch.testing.assert_close(y.norm(dim=-1), x.norm(dim=-1), atol=1e-12, rtol=1e-12)
    # float32 too, within float32 precision
    y32 = models.apply_rope(x.float(), positions)
    torch.testing.assert_close(y32.norm(dim=-1), x.float().norm(dim=-1), atol=1e-5, rtol=1e-5)


def test_rope_at_position_zero_is_the_identity():
    x = rand((1, 2, 3, 8), 1)
    torch.testing.assert_close(models.apply_rope(x, torch.zeros(3, dtype=torch.long)), x)


def test_rope_rotates_pairs_by_the_documented_angle():
    d = 8
    x = torch.zeros(1, 1, 1, d, dtype=torch.float64)
    x[..., 2] = 1.0  # unit vector in pair i = 1
    pos = 3
    y = models.apply_rope(x, torch.tensor([pos]))[0, 0, 0]
    theta = pos * 10000 ** (-2 * 1 / d)
    np.testing.assert_allclose(y.numpy(), [0, 0, math.cos(theta), math.sin(theta), 0, 0, 0, 0], atol=1e-12)


@pytest.mark.parametrize("d_head", [4, 16, 64])
@pytest.mark.parametrize(("m", "n", "s"), [(0, 0, 5), (3, 7, 10), (9, 2, 31), (1, 40, 100)])
def test_rope_dot_product_depends_only_on_the_offset(d_head, m, n, s):
    q, k = rand((1, 1, 1, d_head), 2 + m), rand((1, 1, 1, d_head), 3 + n)

    def dot(pq: int, pk: int) -> float:
        rq = models.apply_rope(q, torch.tensor([pq]))
        rk = models.apply_rope(k, torch.tensor([pk]))
        return float((rq * rk).sum())

    assert dot(m + s, n + s) == pytest.approx(dot(m, n), abs=1e-9)


def test_rope_dot_product_does_change_with_the_offset():
    q = rand((1, 1, 1, 16), 4)
    k = rand((1, 1, 1, 16), 5)
    dots = {
        float((models.apply_rope(q, torch.tensor([0])) * models.apply_rope(k, torch.tensor([off]))).sum())
        for off in (0, 1, 2, 5)
    }
    assert len(dots) == 4


def test_rope_model_scores_depend_on_relative_position_only(small_model):
    """In layer 0 of a RoPE model (no additive PE), a repeated token's score against the token just
    before it is the same wherever the pair sits."""
    m = small_model("decoder", positional="rope")
    a, b = 400, 500
    ids = [1, a, b, 77, 88, a, b]
    s = m.run_ids(ids).scores["decoder.self"][0]  # layer 0: [H, T, T]
    np.testing.assert_allclose(s[:, 2, 1], s[:, 6, 5], atol=1e-5)
    np.testing.assert_allclose(s[:, 2, 2], s[:, 6, 6], atol=1e-5)


# ---------------------------------------------------------------- permutation equivariance


PERM = [3, 0, 7, 5, 1, 6, 2, 4]


def encoder_ids() -> list[int]:
    return [CLS, 300, 412, 509, 643, 777, 901, SEP]  # distinct, so a permutation really moves tokens


@pytest.mark.parametrize("arch", ["encoder", "decoder"])
def test_without_positions_bidirectional_attention_is_permutation_equivariant(small_model, arch):
    m = small_model(arch, positional="none")
    ids = encoder_ids()
    permuted = [ids[p] for p in PERM]
    a = m.run_ids(ids, mask="bidirectional")
    b = m.run_ids(permuted, mask="bidirectional")
    side = arch
    np.testing.assert_allclose(b.hidden[side], a.hidden[side][:, PERM], atol=1e-5, rtol=0)
    np.testing.assert_allclose(b.logits, a.logits[PERM], atol=1e-5, rtol=0)
    key = f"{arch}.self"
    np.testing.assert_allclose(b.attention[key], a.attention[key][:, :, PERM][:, :, :, PERM], atol=1e-6, rtol=0)
    np.testing.assert_allclose(b.scores[key], a.scores[key][:, :, PERM][:, :, :, PERM], atol=1e-6, rtol=0)


def test_without_positions_causal_attention_is_not_equivariant(small_model):
    m = small_model("encoder", positional="none")
    ids = encoder_ids()
    permuted = [ids[p] for p in PERM]
    a = m.run_ids(ids, mask="causal")
    b = m.run_ids(permuted, mask="causal")
    assert np.abs(b.hidden["encoder"][-1] - a.hidden["encoder"][-1][PERM]).max() > 1e-3
    assert np.abs(b.logits - a.logits[PERM]).max() > 1e-3


@pytest.mark.parametrize("positional", ["sinusoidal", "learned", "rope"])
def test_with_positions_bidirectional_attention_is_not_equivariant(small_model, positional):
    m = small_model("encoder", positional=positional)
    ids = encoder_ids()
    permuted = [ids[p] for p in PERM]
    a = m.run_ids(ids)
    b = m.run_ids(permuted)
    # Compared on the scores: RoPE only acts there, and at random init (near-uniform attention,
    # |scores| ~ 0.05) its effect on the hidden states is only ~1e-4.
    key = "encoder.self"
    assert np.abs(b.scores[key] - a.scores[key][:, :, PERM][:, :, :, PERM]).max() > 1e-3
    if positional != "rope":  # an additive PE changes the residual stream itself
        assert np.abs(b.hidden["encoder"][-1] - a.hidden["encoder"][-1][PERM]).max() > 1e-3


def test_relative_bias_by_offset_reads_the_bucket_of_each_offset():
    """The T5 section's curve: the table row of relative_bucket(offset), decoder side one-directional (offsets ≤ 0)."""
    import torch

    from models.core.positional import relative_bias_by_offset, relative_bucket

    weight = np.random.default_rng(0).normal(size=(32, 4))
    for both in (True, False):
        offsets, bias = relative_bias_by_offset(weight, both, 32, 128, 150)
        assert offsets[0] == -150 and offsets[-1] == (150 if both else 0)
        for k in (0, 7, 149, len(offsets) - 1):
            bucket = int(relative_bucket(torch.tensor(int(offsets[k])), both, 32, 128))
            np.testing.assert_array_equal(bias[k], weight[bucket])
