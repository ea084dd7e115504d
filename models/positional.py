"""Positional encodings: sinusoidal (added to embeddings), learned (a table), RoPE (rotates q, k).

Attention itself is permutation-equivariant: without one of these, a bidirectional encoder
cannot tell "dog bites man" from "man bites dog".
"""

from __future__ import annotations

import numpy as np
import torch

# The wavelength base of the sinusoidal encoding: wavelengths run from 2π to 10000·2π
# (Vaswani et al. 2017, §3.5). RoPE reuses the same base (Su et al. 2021, eq. 15).
PE_BASE = 10000.0
ROPE_BASE = 10000.0


def sinusoidal_table(n_positions: int, d_model: int) -> np.ndarray:
    """PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)); float64 [pos, d].

    Pure numpy so pages can draw the waves without touching a model.
    """
    pos = np.arange(n_positions, dtype=np.float64)[:, None]  # (P, 1)
    two_i = np.arange(0, d_model, 2, dtype=np.float64)[None, :]  # (1, d/2): the even indices 2i
    angle = pos / PE_BASE ** (two_i / d_model)  # (P, d/2)
    pe = np.empty((n_positions, d_model), dtype=np.float64)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def rope_angles(positions: torch.Tensor, d_head: int) -> torch.Tensor:
    """θ_{pos, i} = pos · 10000^(-2i/d_head) for each pair i of dimensions: (T, d_head/2)."""
    inv_freq = ROPE_BASE ** (-torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)  # (dh/2,)
    return positions.to(torch.float64)[:, None] * inv_freq[None, :]  # (T, dh/2)


def apply_rope(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """Rotate each pair (x_{2i}, x_{2i+1}) by the angle θ_{pos,i} (RoFormer, eq. 34).

    x: (B, H, T, dh). A rotation keeps |x|, and R(a)ᵀR(b) = R(b - a), so q·k depends only on the
    offset between the two positions. (Llama's code pairs dimension i with i + dh/2 instead of
    2i with 2i+1: a permutation of the same idea.)
    """
    angle = rope_angles(positions, x.shape[-1])  # (T, dh/2)
    cos, sin = angle.cos().to(x.dtype), angle.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]  # (B, H, T, dh/2)
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
