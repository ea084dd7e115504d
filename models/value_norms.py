"""Value-weighted attention (Kobayashi et al. 2020, "Attention is not only a weight").

Head h adds Σ_j α_ij f_h(x_j) to query i's residual stream, with f_h(x) = (x W_V + b_V) W_O^h and W_O^h
head h's slice of the output projection. A weight α_ij on a token whose f_h(x_j) is tiny moves almost
nothing, so ‖α_ij f_h(x_j)‖ = α_ij ‖f_h(x_j)‖ says what attention carries. The trace stores only
‖f_h(x_j)‖ ([L, H, Tk]); `ValueWeighted` multiplies it into the weights when a key is read.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import torch

from .attention import MultiHeadAttention


def head_value_norms(attn: MultiHeadAttention, v: torch.Tensor) -> torch.Tensor:
    """‖f_h(x_j)‖ for every head and key: v (Hkv, Tk, dh) are the value vectors x W_V + b_V the attention
    used -> (H, Tk). Under GQA query head h reads its KV group's values (repeat_interleave, as attention()).

    ‖v W_O^hᵀ‖² = v G_h vᵀ with G_h = W_O^hᵀ W_O^h (dh × dh): d_model·dh² per head instead of
    Tk·d_model·dh, which keeps it cheap for a 0.5B model at 256 tokens."""
    h, dh = attn.n_heads, attn.d_head
    v = v.to(torch.float32).repeat_interleave(h // v.shape[0], dim=0)  # (H, Tk, dh)
    w_o = attn.o.weight.to(torch.float32).view(-1, h, dh).permute(1, 0, 2)  # (H, d, dh): column block h
    gram = w_o.transpose(1, 2) @ w_o  # (H, dh, dh)
    squared = torch.einsum("htd,hde,hte->ht", v, gram, v)
    return squared.clamp_min(0).sqrt()  # rounding can leave a tiny negative for an all-zero value


class ValueWeighted(Mapping):
    """Trace.norms: α_ij‖f(x_j)‖ [L, H, Tq, Tk] under the same keys as Trace.attention, computed on access
    from attention [L, H, Tq, Tk] and value norms [L, H, Tk]; nothing T×T is stored twice."""

    def __init__(self, attention: Mapping[str, np.ndarray], value_norms: Mapping[str, np.ndarray]):
        self._attention, self._norms = attention, value_norms

    def __getitem__(self, key: str) -> np.ndarray:
        return self._attention[key] * self._norms[key][:, :, None, :]

    def __iter__(self):
        return (k for k in self._attention if k in self._norms)

    def __len__(self) -> int:
        return sum(1 for _ in self)
