"""Positional encodings: sinusoidal (added to embeddings), learned (a table), RoPE (rotates q, k).

Attention itself is permutation-equivariant: without one of these, a bidirectional encoder
cannot tell "dog bites man" from "man bites dog".
"""

from __future__ import annotations

import math
import threading

import numpy as np
import torch

from ..numerics import cosine_matrix, mean_by_offset

# The wavelength base of the sinusoidal encoding: wavelengths run from 2π to 10000·2π
# (Vaswani et al. 2017, §3.5). RoPE reuses the same base (Su et al. 2021, eq. 15).
PE_BASE = 10000.0
ROPE_BASE = 10000.0


def sinusoidal_table(n_positions: int, d_model: int, base: float = PE_BASE, layout: str = "interleaved") -> np.ndarray:
    """PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)); float64 [pos, d].

    layout="half" puts every sine first and every cosine after (Marian/fairseq's table: the same
    numbers, another order of dimensions). Pure numpy so pages can draw the waves without a model.
    """
    pos = np.arange(n_positions, dtype=np.float64)[:, None]  # (P, 1)
    angle = pos * pair_frequencies(d_model, base)[None, :]  # (P, d/2)
    if layout == "half":
        return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
    pe = np.empty((n_positions, d_model), dtype=np.float64)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def pair_frequencies(d: int, base: float = PE_BASE) -> np.ndarray:
    """ω_i = base^(-2i/d) for each pair (2i, 2i+1): radians per position, from 1 down to about 1/base."""
    if d < 2 or d % 2:
        raise ValueError(f"d must be even and >= 2, got {d}")
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)


def shift_matrix(k: float, d: int, base: float = PE_BASE) -> np.ndarray:
    """The [d, d] matrix M_k with PE(pos + k) = M_k · PE(pos) for every pos (Vaswani §3.5: "for any
    fixed offset k, PE_pos+k can be represented as a linear function of PE_pos").

    Block-diagonal: pair i = (sin, cos) of angle pos·ω_i is rotated by k·ω_i, since
    sin(a+b) = sin a cos b + cos a sin b and cos(a+b) = cos a cos b - sin a sin b. M_k does not
    depend on pos, and it is orthogonal (a rotation): |PE(pos)| is the same at every position.
    """
    m = np.zeros((d, d))
    for i, w in enumerate(pair_frequencies(d, base)):
        c, s = np.cos(k * w), np.sin(k * w)
        m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
    return m


def rope_rotate(x: np.ndarray, positions: np.ndarray, base: float = ROPE_BASE) -> np.ndarray:
    """numpy twin of apply_rope (tests check they agree): x [T, d] rotated pair by pair by pos·ω_i."""
    x = np.asarray(x, dtype=np.float64)
    angle = np.asarray(positions, dtype=np.float64)[:, None] * pair_frequencies(x.shape[-1], base)[None, :]
    cos, sin = np.cos(angle), np.sin(angle)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * cos - x[:, 1::2] * sin
    out[:, 1::2] = x[:, 0::2] * sin + x[:, 1::2] * cos
    return out


def rope_score_grid(q: np.ndarray, k: np.ndarray, n_positions: int, base: float = ROPE_BASE) -> np.ndarray:
    """[P, P] grid of R(m)q · R(n)k for the same q and k placed at every query position m and key
    position n. RoPE makes it depend only on n - m: every diagonal of the grid is constant."""
    pos = np.arange(n_positions)
    qs = rope_rotate(np.tile(q, (n_positions, 1)), pos, base)
    ks = rope_rotate(np.tile(k, (n_positions, 1)), pos, base)
    return qs @ ks.T


def rope_pair(q: np.ndarray, k: np.ndarray, m: int, n: int, shift: int = 10, n_positions: int = 64) -> dict:
    """The RoPE section's numbers for q at position m and k at n: the rotated vectors, their dot product and
    the same pair moved `shift` positions on (equal: only n - m counts), and the [P, P] score grid with the
    largest spread along any of its diagonals (float rounding only)."""
    rq, rk = rope_rotate(q[None], np.array([m]))[0], rope_rotate(k[None], np.array([n]))[0]
    moved = rope_rotate(q[None], np.array([m + shift]))[0] @ rope_rotate(k[None], np.array([n + shift]))[0]
    grid = rope_score_grid(q, k, n_positions)
    spread = max(float(np.ptp(np.diagonal(grid, o))) for o in range(1 - n_positions, n_positions))
    return {"rq": rq, "rk": rk, "dot": float(rq @ rk), "moved": float(moved), "grid": grid, "spread": spread}


ROPE_EXAMPLE_D = 32  # the Positional page's example: one pair of 32-dimensional vectors


def rope_example(m: int, n: int, d: int = ROPE_EXAMPLE_D, seed: int = 7) -> dict:
    """rope_pair for the Positional page's one fixed q and k (seeded: moving a slider moves only the positions),
    with q, k, their plain dot product and the norms before and after the rotation (a rotation keeps them)."""
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=d), rng.normal(size=d)
    pair = rope_pair(q, k, m, n)
    return pair | {"q": q, "k": k, "theta0": float(pair_frequencies(d)[0]), "plain": float(q @ k),
                   "norm_q": float(np.linalg.norm(q)), "norm_rq": float(np.linalg.norm(pair["rq"]))}  # fmt: skip


def rope_inv_freq(
    d_head: int, base: float = ROPE_BASE, llama3: tuple[float, float, float, int] | None = None
) -> torch.Tensor:
    """ω_i = base^(-2i/d_head) for each pair i: (d_head/2,) float64.

    llama3 = (factor, low_freq_factor, high_freq_factor, original_context): Llama 3.1's scaling for long
    contexts (Meta's reference code, as transformers' `_compute_llama3_parameters`): wavelengths shorter
    than original/high are kept, longer than original/low are divided by factor, and those between are
    blended smoothly, so nearby positions look as in pretraining while far ones are compressed."""
    inv_freq = base ** (-torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)  # (dh/2,)
    if llama3 is None:
        return inv_freq
    factor, low, high, original = llama3
    wavelen = 2 * torch.pi / inv_freq
    scaled = torch.where(wavelen > original / low, inv_freq / factor, inv_freq)
    smooth = (original / wavelen - low) / (high - low)
    blended = (1 - smooth) * scaled / factor + smooth * scaled
    medium = (wavelen >= original / high) & (wavelen <= original / low)
    return torch.where(medium, blended, scaled)


def rope_angles(positions: torch.Tensor, d_head: int, inv_freq: torch.Tensor | None = None) -> torch.Tensor:
    """θ_{pos, i} = pos · ω_i for each pair i of dimensions: (T, d_head/2); ω from rope_inv_freq."""
    inv_freq = rope_inv_freq(d_head) if inv_freq is None else inv_freq  # (dh/2,)
    return positions.to(torch.float64)[:, None] * inv_freq[None, :]  # (T, dh/2)


def apply_rope(
    x: torch.Tensor, positions: torch.Tensor, inv_freq: torch.Tensor | None = None, rotary_dim: int | None = None
) -> torch.Tensor:
    """Rotate each pair (x_{2i}, x_{2i+1}) by the angle θ_{pos,i} (RoFormer, eq. 34).

    x: (B, H, T, dh). A rotation keeps |x|, and R(a)ᵀR(b) = R(b - a), so q·k depends only on the
    offset between the two positions. (Llama's code pairs dimension i with i + dh/2 instead of
    2i with 2i+1: a permutation of the same idea; models/families permutes the rows of a
    published q and k projection at load so this one rotation serves every checkpoint.)

    Partial rotary (GPT-NeoX/Pythia, GPT-J): only the first rotary_dim dimensions of each head are rotated,
    with frequencies over that width (rope_inv_freq(rotary_dim)); the rest pass through unchanged and carry
    no position. rotary_dim defaults to 2 · len(inv_freq) when inv_freq is given, else to all of dh.
    """
    d = x.shape[-1]
    r = (d if inv_freq is None else 2 * inv_freq.shape[0]) if rotary_dim is None else rotary_dim
    if r % 2 or not 0 < r <= d or (inv_freq is not None and 2 * inv_freq.shape[0] != r):
        raise ValueError(f"rotary_dim={r} must be even, at most the head's {d} dims, and match inv_freq")
    cos, sin = _tables(positions, r, inv_freq, x.dtype)  # (T, r/2) each
    even, odd = x[..., 0:r:2], x[..., 1:r:2]  # (B, H, T, r/2)
    out = x.clone() if r < d else torch.empty_like(x)  # the pass-through dims are kept as they are
    out[..., 0:r:2] = even * cos - odd * sin
    out[..., 1:r:2] = even * sin + odd * cos
    return out


_RECENT = threading.local()  # per thread (a session's forward): the last few (key, cos, sin)


def _tables(positions: torch.Tensor, r: int, inv_freq: torch.Tensor | None, dtype: torch.dtype):
    """cos and sin of rope_angles, (T, r/2) in dtype. Every layer of a forward rotates q and k at the same positions
    (one tensor) by the same frequencies (Gemma 3: two sets), so the last few are kept per thread and reused: once a
    forward instead of twice a layer. A hit needs the very same positions tensor, unchanged, and equal frequencies."""
    recent = _RECENT.__dict__.setdefault("tables", [])
    now = None if positions.is_inference() else positions._version  # (inference tensors keep no version counter)
    for pos, version, rr, freq, dt, cos, sin in recent:
        same_freq = freq is inv_freq is None or (
            freq is not None and inv_freq is not None and freq.shape == inv_freq.shape and torch.equal(freq, inv_freq)
        )
        if pos is positions and version == now and rr == r and dt == dtype and same_freq:
            return cos, sin
    angle = rope_angles(positions, r, inv_freq)
    cos, sin = angle.cos().to(dtype), angle.sin().to(dtype)
    kept = None if inv_freq is None else inv_freq.clone()  # (compared by value: a layer's own copy of the same ω)
    recent.insert(0, (positions, now, r, kept, dtype, cos, sin))
    del recent[4:]
    return cos, sin


def relative_bucket(
    relative_position: torch.Tensor, bidirectional: bool, num_buckets: int = 32, max_distance: int = 128
) -> torch.Tensor:
    """T5's bucket of each (key position - query position) (Raffel et al. 2020, §2.1; Mesh TensorFlow's code, as
    transformers' `T5Attention._relative_position_bucket`): int64 of the same shape, in 0..num_buckets-1.

    bidirectional (encoder): half the buckets for keys after the query, half for those before (and at) it; a
    decoder buckets only the past (a future key gets bucket 0, and the causal mask hides it anyway). Of each
    side's buckets, the first half are exact offsets 0, 1, 2, ...; the rest are log-spaced up to max_distance,
    and every offset at or beyond it shares the last bucket."""
    buckets = torch.zeros_like(relative_position, dtype=torch.long)
    if bidirectional:
        num_buckets //= 2
        buckets = buckets + (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    log_ratio = torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact)
    large = max_exact + (log_ratio * (num_buckets - max_exact)).to(torch.long)
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return buckets + torch.where(is_small, relative_position, large)


def exact_offsets(num_buckets: int, bidirectional: bool) -> int:
    """How many offsets |key - query| = 0, 1, ... get a bucket each in relative_bucket (on each side for the
    encoder): num_buckets // 4 bidirectional (the buckets halved between the sides, then half of those exact),
    num_buckets // 2 one-directional. Farther offsets share the log-spaced buckets."""
    return (num_buckets // 2 if bidirectional else num_buckets) // 2


def relative_bias_by_offset(
    weight: np.ndarray, bidirectional: bool, num_buckets: int, max_distance: int, reach: int
) -> tuple[np.ndarray, np.ndarray]:
    """T5's learned bias at every offset (key - query) in -reach..reach (0..reach's negative side only for the
    one-directional decoder: offsets -reach..0): (offsets [n], bias [n, heads]) from the table weight [buckets, heads]
    through relative_bucket, as the attention adds it to q·k."""
    offsets = np.arange(-reach, reach + 1 if bidirectional else 1)
    buckets = relative_bucket(torch.from_numpy(offsets), bidirectional, num_buckets, max_distance).numpy()
    return offsets, weight[buckets]


def learned_vs_sinusoidal(table: np.ndarray, max_offset: int = 32) -> dict[str, np.ndarray]:
    """A learned position table [n, d] beside the sinusoidal one of the same shape: "cos" the learned rows' cosine
    similarity [n, n]; "learned" and "sinusoidal" the mean cosine at each offset 0..max_offset (the Positional
    page's curves: near positions look alike in both)."""
    learned_cos = cosine_matrix(table)
    sin_cos = cosine_matrix(sinusoidal_table(table.shape[0], table.shape[1]))
    return {"cos": learned_cos, "learned": mean_by_offset(learned_cos, max_offset),
            "sinusoidal": mean_by_offset(sin_cos, max_offset)}  # fmt: skip
