"""Additive attention (Bahdanau et al. 2015) beside the scaled dot product (Vaswani et al. 2017) on the same q, k.

Additive: e_ij = vᵀ tanh(W_q q_i + W_k k_j), with W_q, W_k ∈ R^{d_a×d_k} and v ∈ R^{d_a} learned. Dot product:
e_ij = q_i·k_j / sqrt(d_k), no parameters. Vaswani et al. §3.2.1 chose the dot product because it is one matrix
multiplication (faster, less memory), and scaled it because additive attention outperforms the unscaled dot
product for larger d_k. Here W_q, W_k, v are random (seed ADDITIVE_SEED), not trained: the additive pattern shows
the computation, not something a model learned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch

ADDITIVE_SEED = 0
TIMING_LENGTHS = (64, 128, 256)


@dataclass(frozen=True)
class Additive:
    w_q: np.ndarray  # [d_a, d_k]
    w_k: np.ndarray  # [d_a, d_k]
    v: np.ndarray  # [d_a]

    @property
    def n_params(self) -> int:
        return self.w_q.size + self.w_k.size + self.v.size


def additive_params(d_k: int, d_a: int | None = None, seed: int = ADDITIVE_SEED) -> Additive:
    """Random W_q, W_k (entries N(0, 1/d_k)) and v (N(0, 1/d_a)); d_a = d_k unless given."""
    d_a = d_k if d_a is None else d_a
    g = np.random.default_rng(seed)
    return Additive(g.normal(0, d_k**-0.5, (d_a, d_k)), g.normal(0, d_k**-0.5, (d_a, d_k)), g.normal(0, d_a**-0.5, d_a))


def additive_scores(q: np.ndarray, k: np.ndarray, p: Additive) -> np.ndarray:
    """[Tq, Tk] vᵀ tanh(W_q q_i + W_k k_j): each side projected once, then added pair by pair."""
    qa, ka = q @ p.w_q.T, k @ p.w_k.T  # [Tq, d_a], [Tk, d_a]
    return np.tanh(qa[:, None, :] + ka[None, :, :]) @ p.v


def dot_scores(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """[Tq, Tk] q_i·k_j / sqrt(d_k)."""
    return q @ k.T / np.sqrt(q.shape[-1])


def softmax_rows(scores: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Row softmax; mask [Tq, Tk] True = may attend (the model's own mask)."""
    s = np.where(mask, scores, -np.inf) if mask is not None else scores
    s = s - s.max(-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(-1, keepdims=True)


@dataclass(frozen=True)
class Flops:
    dot: int  # whole score matrix
    additive: int
    dot_per_score: float
    additive_per_score: float


def flops(t_q: int, t_k: int, d_k: int, d_a: int) -> Flops:
    """Counted from the shapes, one multiply-add = 2 FLOPs, tanh = 1. Dot: a d_k dot per pair (2·d_k).
    Additive: W_q q_i per query and W_k k_j per key once (2·d_a·d_k each), then per pair d_a adds, d_a tanh
    and a d_a dot with v (2·d_a): 4·d_a per pair. The 1/sqrt(d_k) scale (one multiply per score) is not
    counted; softmax is the same for both."""
    dot = 2 * d_k * t_q * t_k
    additive = 2 * d_a * d_k * (t_q + t_k) + 4 * d_a * t_q * t_k
    n = t_q * t_k
    return Flops(dot, additive, dot / n, additive / n)


def wall_times(d_k: int, d_a: int, lengths=TIMING_LENGTHS, repeat: int = 5) -> dict[str, list[float]]:
    """Best of `repeat` wall times (ms) of each score matrix in torch float32 on random q, k [T, d_k]: the
    dot product is one matmul; the additive score materialises [T, T, d_a] before its tanh."""
    g = torch.Generator().manual_seed(ADDITIVE_SEED)
    p = additive_params(d_k, d_a)
    wq, wk, v = (torch.tensor(a, dtype=torch.float32) for a in (p.w_q, p.w_k, p.v))
    out: dict[str, list[float]] = {"dot": [], "additive": []}
    for n in lengths:
        q, k = torch.randn(n, d_k, generator=g), torch.randn(n, d_k, generator=g)
        runs = {
            "dot": lambda q=q, k=k: q @ k.T * d_k**-0.5,
            "additive": lambda q=q, k=k: torch.tanh((q @ wq.T)[:, None] + (k @ wk.T)[None]) @ v,
        }
        for name, fn in runs.items():
            best = float("inf")
            for _ in range(repeat):
                t0 = time.perf_counter()
                fn()
                best = min(best, time.perf_counter() - t0)
            out[name].append(best * 1000)
    return out
