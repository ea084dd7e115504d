"""The softmax, √d_k and similarity arithmetic the lessons show, in numpy (float64 unless asked).

Pure functions of arrays: the Softmax page's Var(q·k) = d_k·σ⁴, a row's softmax and its Jacobian,
float32 underflow, and the cosine that q·k is *not*.
"""

from __future__ import annotations

import numpy as np


def softmax(scores: np.ndarray, dtype=np.float64) -> np.ndarray:
    """Row softmax over the last axis computed in dtype; -inf (masked) entries get exactly 0.

    The max is subtracted first (the standard stable form), so the largest entry of a row is
    exp(0) = 1 and small ones underflow: in float32 anything below about 1e-45 becomes exactly 0,
    in float64 below about 1e-323. A fully masked row gets all zeros, not NaN.
    """
    s = np.asarray(scores, dtype=dtype)
    top = np.max(s, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0).astype(dtype)
    e = np.exp(s - top)  # exp(-inf) = 0
    total = e.sum(-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def log_softmax(scores: np.ndarray) -> np.ndarray:
    """log of the softmax, in float64, without ever forming the (possibly underflowing) weights:
    log p_ij = s_ij - logsumexp_j(s_i). It stays finite where the weight itself underflows to 0."""
    s = np.asarray(scores, dtype=np.float64)
    top = np.max(s, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return s - top - np.log(np.exp(s - top).sum(-1, keepdims=True))


def softmax_jacobian_norm(p: np.ndarray) -> float:
    """Spectral norm of ∂softmax/∂scores = diag(p) - p pᵀ (symmetric, positive semi-definite).

    It bounds how much a change of the scores can move the weights, hence the gradient that
    reaches q and k. A saturated (one-hot) softmax has Jacobian 0: learning stalls. By Gershgorin
    it never exceeds max_i 2·p_i(1 - p_i) <= 1/2 (reached by two entries of 1/2 each); a uniform
    row over n entries gives 1/n.
    """
    p = np.asarray(p, dtype=np.float64)
    return float(np.linalg.eigvalsh(np.diag(p) - np.outer(p, p))[-1])


def score_row(sigma: float, d_k: int, n_keys: int, seed: int = 0) -> np.ndarray:
    """One query's raw scores q·k_j against n_keys keys, q and every k drawn from N(0, σ² I) in d_k dimensions (the
    same draw for the same seed): the Softmax page's one-row demo."""
    rng = np.random.default_rng(seed)
    return rng.normal(0, sigma, d_k) @ rng.normal(0, sigma, (d_k, n_keys))


def scale_sweep(row: np.ndarray, scales: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(entropy in nats, largest weight, Jacobian norm) of softmax(s·row) at each scale s."""
    from .inspection.attention_stats import row_entropy  # attention statistics live there; it imports numpy only

    ps = [softmax(s * row) for s in scales]
    return (
        np.array([row_entropy(p) for p in ps]),
        np.array([p.max() for p in ps]),
        np.array([softmax_jacobian_norm(p) for p in ps]),
    )


def qk_variance(d_k: int, n_samples: int = 20000, sigma: float = 1.0, seed: int = 0) -> float:
    """Empirical Var(q·k) for q, k with iid N(0, σ²) entries: theory says d_k·σ⁴ (Vaswani §3.2.1,
    footnote 4), which is why scores are divided by sqrt(d_k)."""
    return float(np.var(dot_products(d_k, n_samples, sigma, seed)))


def dot_products(d_k: int, n_samples: int = 20000, sigma: float = 1.0, seed: int = 0) -> np.ndarray:
    """n_samples values of q·k for q, k with iid N(0, σ²) entries in d_k dimensions."""
    rng = np.random.default_rng(seed)
    chunk = max(1, 2_000_000 // max(d_k, 1))  # about 16 MB per draw, whatever d_k is
    out = np.empty(n_samples)
    for start in range(0, n_samples, chunk):
        m = min(chunk, n_samples - start)
        out[start : start + m] = (rng.normal(0.0, sigma, (m, d_k)) * rng.normal(0.0, sigma, (m, d_k))).sum(1)
    return out


def nested_dot_products(dims, n_samples: int = 20000, seed: int = 0, chunk: int = 128) -> np.ndarray:
    """[n_samples, len(dims)] q·k at σ = 1, where the d-dimensional q·k is the sum of the first d
    products q_i·k_i of the same draw: one draw serves every d_k at once.

    For another σ multiply by σ² (q·k scales with σ·σ). Each column alone has exactly the
    distribution of dot_products(d, σ=1); the columns are dependent, which a page that shows one
    d_k at a time, or the variance per d_k, never sees.
    """
    dims = [int(d) for d in dims]
    if sorted(dims) != dims or dims[0] < 1:
        raise ValueError(f"dims must be increasing and >= 1, got {dims}")
    rng = np.random.default_rng(seed)
    out = np.empty((n_samples, len(dims)))
    total = np.zeros(n_samples)
    done = 0
    for j, d in enumerate(dims):
        while done < d:
            m = min(chunk, d - done)
            total += (rng.normal(size=(n_samples, m)) * rng.normal(size=(n_samples, m))).sum(1)
            done += m
        out[:, j] = total
    return out


def cosine(q: np.ndarray, k: np.ndarray) -> float:
    """cos ∠(q, k) = q·k / (|q| |k|). Attention uses q·k itself, not this: the norms matter."""
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    denom = np.linalg.norm(q) * np.linalg.norm(k)
    return float(q @ k / denom) if denom > 0 else 0.0


def cosine_matrix(rows: np.ndarray) -> np.ndarray:
    """[n, n] cosine similarity of every pair of rows (zero rows give 0)."""
    a = np.asarray(rows, dtype=np.float64)
    norm = np.linalg.norm(a, axis=-1, keepdims=True)
    u = np.divide(a, norm, out=np.zeros_like(a), where=norm > 0)
    return u @ u.T


def mean_by_offset(matrix: np.ndarray, max_offset: int) -> np.ndarray:
    """[max_offset + 1] mean of each diagonal k = 0..max_offset of a square matrix: "how similar are
    positions k apart, on average". Constant diagonals (a function of the offset only) give exact values."""
    m = np.asarray(matrix, dtype=np.float64)
    return np.array([np.diagonal(m, k).mean() for k in range(min(max_offset, m.shape[0] - 1) + 1)])
