"""Issue 41 (part 2): the numbers behind four corrected texts, computed.

- item 4: a bfloat16 matmul's result is rounded to bfloat16 before it is widened to float32 (precision.MixedLinear),
  and a checkpoint stored in bfloat16 gives both runs the same weights, so the gap is the activations' rounding;
- item 5: soft-capping bounds the scores, not the weights: at cap 50 two weights can still differ by almost e^100;
- item 7: a negative cell of Gated DeltaNet's implied attention Ã comes from q·k < 0 as well as from a later similar
  key's erasure, and on random inputs most come from the first;
- item 15: T5's exact buckets, num_buckets/4 offsets a side for the encoder and num_buckets/2 for the decoder.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.core import precision
from models.core.linear_attention import implied_attention, l2norm
from models.core.positional import exact_offsets, relative_bucket
from models.inspection.softcap import softcap


def _mixed(weight: torch.Tensor) -> nn.Linear:
    layer = nn.Linear(weight.shape[1], weight.shape[0], bias=False)
    layer.weight = nn.Parameter(weight, requires_grad=False)
    precision.mix(layer)
    return layer


def test_a_bfloat16_matmul_is_rounded_to_bfloat16_before_it_is_widened():
    torch.manual_seed(0)
    w = torch.randn(48, 64).to(torch.bfloat16)  # a checkpoint stored in bfloat16
    x = torch.randn(5, 64)
    layer = _mixed(w)
    assert type(layer) is precision.MixedLinear
    y = layer(x)
    assert y.dtype == torch.float32
    assert torch.equal(y, y.to(torch.bfloat16).float())  # every value is a bfloat16 number, widened
    assert torch.equal(y, F.linear(x.to(torch.bfloat16), w).float())
    # the float32 run of the same checkpoint widens the same weights exactly: only x (and the result) are rounded
    exact = F.linear(x, w.float())
    assert torch.equal(w.float().to(torch.bfloat16), w)
    rounded_x = F.linear(x.to(torch.bfloat16).float(), w.float())
    gap, from_x = (y - exact).abs().max(), (rounded_x - exact).abs().max()
    assert 0 < from_x <= gap  # rounding the input, then the output, moves it; the weights did not


def test_soft_capping_bounds_scores_but_two_weights_can_differ_by_almost_e_to_the_100():
    cap = 50.0
    scores = softcap(np.array([300.0, -300.0]), cap)  # q·k·s far past the cap on both sides
    assert np.all(np.abs(scores) < cap)
    log_ratio = scores[0] - scores[1]  # the log of the weights' ratio e^{s0} / e^{s1}
    assert 99.99 < log_ratio < 2 * cap
    weights = np.exp(scores - scores.max())
    weights /= weights.sum()
    assert weights[1] < 1e-43 and weights[0] == 1.0  # one key takes the whole row (e^-100 ≈ 3.7e-44)


def test_most_negative_cells_of_the_implied_attention_come_from_a_negative_qk():
    torch.manual_seed(0)
    heads, t, dk = 4, 64, 32
    q = l2norm(torch.randn(heads, t, dk)) / math.sqrt(dk)
    k = l2norm(torch.randn(heads, t, dk))
    g = -F.softplus(torch.randn(heads, t)) * 0.3  # decays
    beta = torch.sigmoid(torch.randn(heads, t))
    a = implied_attention(q, k, g, beta)
    causal = torch.ones(t, t, dtype=torch.bool).tril()
    negative = (a < 0) & causal
    qk = q @ k.transpose(-1, -2)
    from_qk = (negative & (qk < 0)).sum() / negative.sum()
    assert negative.sum() > 100
    assert 0.5 < from_qk < 1.0  # most, not all: the rest are the delta rule's erasures (q·k ≥ 0 there)


def test_t5s_exact_buckets_are_a_quarter_for_the_encoder_and_a_half_for_the_decoder():
    assert exact_offsets(32, bidirectional=True) == 8 == 32 // 4
    assert exact_offsets(32, bidirectional=False) == 16 == 32 // 2
    for both, side in ((True, 1), (True, -1), (False, -1)):
        n = exact_offsets(32, both)
        offsets = torch.arange(0, 40) * side
        buckets = relative_bucket(offsets, both, 32, 128).tolist()
        exact = buckets[:n]
        assert len(set(exact)) == n  # |offset| < n: a bucket each
        assert buckets[n] == buckets[n + 1] and buckets[n] not in exact  # from n on, offsets share buckets
