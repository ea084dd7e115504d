"""The chunked Gated DeltaNet (linear_attention.chunk_gated_delta_rule) is the token-by-token recurrence, computed
a chunk at a time: the same outputs and final state in float64, with and without a state carried in, for lengths
around the chunk size; and in float32 the steps of transformers' torch_chunk_gated_delta_rule. The causal conv
before it (linear_attention.causal_conv) is F.conv1d's, bit for bit."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from models.core.linear_attention import causal_conv, chunk_gated_delta_rule, gated_delta_rule, l2norm


def inputs(t: int, dtype=torch.float64, seed: int = 0, h: int = 3, dk: int = 8, dv: int = 5):
    gen = torch.Generator().manual_seed(seed)
    q = l2norm(torch.randn(1, h, t, dk, generator=gen, dtype=dtype)) / dk**0.5
    k = l2norm(torch.randn(1, h, t, dk, generator=gen, dtype=dtype))
    v = torch.randn(1, h, t, dv, generator=gen, dtype=dtype)
    g = -torch.rand(1, h, t, generator=gen, dtype=dtype) * 0.5  # decays ≤ 0, as −exp(A)·softplus(·)
    beta = torch.rand(1, h, t, generator=gen, dtype=dtype)
    return q, k, v, g, beta


@pytest.mark.parametrize("t", [1, 5, 63, 64, 65, 200])
@pytest.mark.parametrize("carried", [False, True])
def test_chunked_equals_the_recurrence(t, carried):
    q, k, v, g, beta = inputs(t, seed=t)
    state = torch.randn(1, 3, 8, 5, dtype=torch.float64) if carried else None
    want, want_state = gated_delta_rule(q, k, v, g, beta, state)
    got, got_state = chunk_gated_delta_rule(q, k, v, g, beta, state)
    assert got.shape == want.shape == (1, 3, t, 5)
    assert (got - want).abs().max() <= 1e-10 * max(1.0, float(want.abs().max()))
    assert (got_state - want_state).abs().max() <= 1e-10 * max(1.0, float(want_state.abs().max()))


def test_chunk_size_does_not_change_the_result():
    q, k, v, g, beta = inputs(100, seed=7)
    a, _ = chunk_gated_delta_rule(q, k, v, g, beta, chunk=64)
    b, _ = chunk_gated_delta_rule(q, k, v, g, beta, chunk=16)
    assert (a - b).abs().max() <= 1e-10


@pytest.mark.parametrize("t", [40, 130])
def test_float32_follows_transformers_chunked_steps(t):
    from transformers.models.qwen3_5.modeling_qwen3_5 import torch_chunk_gated_delta_rule

    q, k, v, g, beta = inputs(t, dtype=torch.float32, seed=3)
    ours, _ = chunk_gated_delta_rule(q, k, v, g, beta)
    dk = q.shape[-1]
    theirs, _ = torch_chunk_gated_delta_rule(
        *((x * s).transpose(1, 2) for x, s in ((q, dk**0.5), (k, 1), (v, 1))),
        g=g.transpose(1, 2), beta=beta.transpose(1, 2))  # fmt: skip
    assert (ours - theirs.transpose(1, 2)).abs().max() <= 1e-6


@pytest.mark.parametrize("t", [1, 2, 3, 4, 17, 256])
@pytest.mark.parametrize("carried", [False, True])
def test_causal_conv_is_conv1d_bit_for_bit(t, carried):
    """Channels-last taps, with zeros before the first input (no copy made) or a carried state, equal F.conv1d on
    (B, C, K − 1 + T) with the same K − 1 inputs before, exactly; also shorter than the kernel."""
    gen = torch.Generator().manual_seed(t)
    c, k = 64, 4
    x, weight = torch.randn(2, t, c, generator=gen), torch.randn(c, k, generator=gen)
    before = torch.randn(2, k - 1, c, generator=gen) if carried else torch.zeros(2, k - 1, c)
    want = F.conv1d(torch.cat([before, x], 1).transpose(1, 2), weight[:, None], groups=c).transpose(1, 2)
    got = causal_conv(x, weight, before if carried else None)
    assert got.shape == (2, t, c) and torch.equal(got, want)
