"""Value-weighted attention (Kobayashi et al. 2020, "Attention is not only a weight").

Head h adds Σ_j α_ij f_h(x_j) to query i's residual stream, with f_h(x) = (x W_V + b_V) W_O^h and W_O^h
head h's slice of the output projection. A weight α_ij on a token whose f_h(x_j) is tiny moves almost
nothing, so ‖α_ij f_h(x_j)‖ = α_ij ‖f_h(x_j)‖ says what attention carries. The trace stores only
‖f_h(x_j)‖ ([L, H, Tk]); `ValueWeighted` multiplies it into the weights when a key is read.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping

import numpy as np
import torch

from .attention import MultiHeadAttention
from .long_trace import Layers, Weighted


def head_value_norms(attn: MultiHeadAttention, v: torch.Tensor) -> torch.Tensor:
    """‖f_h(x_j)‖ for every head and key: v (Hkv, Tk, dh) are the value vectors x W_V + b_V the attention
    used -> (H, Tk). Under GQA query head h reads its KV group's values (repeat_interleave, as attention()).

    ‖v W_O^hᵀ‖² = v G_h vᵀ with G_h = W_O^hᵀ W_O^h (dh × dh): d_model·dh² per head instead of
    Tk·d_model·dh, which keeps it cheap for a 0.5B model at 256 tokens."""
    h = attn.n_heads
    v = v.to(torch.float32)
    v = v if v.shape[0] == h else v.repeat_interleave(h // v.shape[0], dim=0)  # (H, Tk, dh); MHA: no copy
    squared = ((v @ _gram(attn)) * v).sum(-1)  # (H, Tk): v G_h vᵀ, row by row
    return squared.clamp_min(0).sqrt()  # rounding can leave a tiny negative for an all-zero value


def layer_value_norms(records: list[dict], blocks, part: str) -> torch.Tensor:
    """[L, H, Tk] for one attention kind of a stack, from the values each layer's attention used: part "self" reads
    the cached (k, v) of its record, "cross" the W_V of the encoder's memory."""
    present = "present" if part == "self" else "cross_present"
    return torch.stack([head_value_norms(block.self_attn if part == "self" else block.cross_attn, r[present][1][0])
                        for r, block in zip(records, blocks, strict=True)])  # fmt: skip


_GRAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # attention module -> (weight's identity, G)


def _gram(attn: MultiHeadAttention) -> torch.Tensor:
    """G_h = W_O^hᵀ W_O^h (H, dh, dh), computed once per weight (d_model·dh² a head: at 16 tokens it was most of
    the value norms' cost, every forward); recomputed when W_O is replaced or changed in place (training)."""
    w = attn.o.weight
    key = (w.data_ptr(), w._version, w.dtype, w.shape)
    hit = _GRAMS.get(attn)
    if hit is None or hit[0] != key:
        with torch.inference_mode(False), torch.no_grad():  # a plain tensor, usable outside inference mode too
            w_o = w.detach().to(torch.float32).view(-1, attn.n_heads, attn.d_head).permute(1, 0, 2)  # (H, d, dh)
            hit = _GRAMS[attn] = (key, w_o.transpose(1, 2) @ w_o)
    return hit[1]


class ValueWeighted(Mapping):
    """Trace.norms: α_ij‖f(x_j)‖ [L, H, Tq, Tk] under the same keys as Trace.attention, computed on access
    from attention [L, H, Tq, Tk] and value norms [L, H, Tk]; nothing T×T is stored twice."""

    def __init__(self, attention: Mapping[str, np.ndarray], value_norms: Mapping[str, np.ndarray]):
        self._attention, self._norms = attention, value_norms

    def __getitem__(self, key: str) -> np.ndarray:
        if isinstance(self._attention[key], Layers):  # a long trace: per layer, when read
            return Weighted(self._attention[key], self._norms[key])
        return self._attention[key] * self._norms[key][:, :, None, :]

    def __iter__(self):
        return (k for k in self._attention if k in self._norms)

    def __len__(self) -> int:
        return sum(1 for _ in self)
