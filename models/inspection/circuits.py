"""Circuits between heads (issue 43): composition scores, each head's OV and QK circuits in tokens, path patching,
one head's score split into the parts of the stream that made it, and knocking out one edge of a pattern.

An induction head is two heads: a previous-token head writes "the token before me was X", and the induction head's
keys read it (K-composition; Elhage et al. 2021, Olsson et al. 2022). Composition scores measure that wire from the
weights alone, as TransformerLens's all_composition_scores: on weights with the input norm's gain folded in
(circuit_weights.py), OV = W_V·W_O and QK = W_Q·W_Kᵀ per head, and

    K = ‖OV₁·QK₂ᵀ‖_F / (‖OV₁‖_F‖QK₂‖_F),  Q = ‖OV₁·QK₂‖_F / (…),  V = ‖OV₁·OV₂‖_F / (…).

Everything is computed in factored form (QR of the thin factors), never a [d, d] product per pair, and the token
circuits never form the [V, V] matrix. Which views apply: composition and the token circuits read any stack's
self-attention (encoder too, `stack=`); path patching, score_parts and knock_out need a decoder-only model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from .circuit_parts import ScoreParts, score_parts
from .circuit_paths import EntryPatch, KnockOut, PathPatch, knock_out, patch_entry, path_patch
from .circuit_weights import F64, HeadWeights, embedding_matrix, head_weights, transformer
from .circuit_weights import unembedding_matrix as _unembed
from .rank_stats import effective_rank_of

KINDS = ("Q", "K", "V")
BASELINE_SAMPLES = 20
CHUNK_ELEMENTS = 1 << 22  # entries of one [rows, V] block of a token circuit (32 MiB in float64)

__all__ = [
    "KINDS", "EntryPatch", "KnockOut", "PathPatch", "ScoreParts", "TokenCircuit", "composition",
    "composition_baseline", "copying_score", "factored_eigenvalues", "factored_singular_values",
    "k_composition_between", "knock_out", "ov_circuit", "ov_matrix", "patch_entry", "path_patch", "qk_circuit",
    "score_parts",
]  # fmt: skip


def _kind(kind: str) -> str:
    k = str(kind).upper()
    if k not in KINDS:
        raise ValueError(f"kind={kind!r} is not one of Q, K, V")
    return k


def _factors(w: HeadWeights, kind: str) -> tuple[tuple[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]]:
    """(sender A, B), (receiver A, B): each matrix as A [.., d, dh] @ B [.., dh, d]. Senders are always OV; the
    receiver is QK₂ᵀ = W_K·W_Qᵀ (K), QK₂ = W_Q·W_Kᵀ (Q) or OV₂ (V)."""
    ov = (w.W_V, w.W_O)
    if kind == "K":
        return ov, (w.W_K, w.W_Q.transpose(-2, -1))
    if kind == "Q":
        return ov, (w.W_Q, w.W_K.transpose(-2, -1))
    return ov, ov


def _thin(a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """A = Qa·Ra and Bᵀ = Qb·Rb: ‖A·M·B‖_F = ‖Ra·M·Rbᵀ‖_F for any M, since Qa, Qb have orthonormal columns."""
    return torch.linalg.qr(a)[1], torch.linalg.qr(b.transpose(-2, -1))[1]


def _scores(sender, receiver, later_only: bool = False) -> torch.Tensor:
    """[L1, H1, L2, H2] ‖X₁·X₂‖_F / (‖X₁‖_F‖X₂‖_F) for every pair of (A, B) factors; later_only: only receivers in
    later layers (the rest stay 0), half the work of a model's whole map."""
    (a1, b1), (a2, b2) = sender, receiver
    ra1, rb1 = _thin(a1, b1)
    ra2, rb2 = _thin(a2, b2)
    n1 = torch.linalg.matrix_norm(ra1 @ rb1.transpose(-2, -1))  # [L1, H1] ‖X₁‖_F
    n2 = torch.linalg.matrix_norm(ra2 @ rb2.transpose(-2, -1))
    out = torch.zeros(*n1.shape, *n2.shape, dtype=F64)
    for l1 in range(n1.shape[0]):  # one sender layer at a time: [H1, L2, H2, dh, dh] stays small
        later = slice(l1 + 1 if later_only else 0, None)  # a head reads only what earlier layers wrote
        mid = torch.einsum("hid,mgdj->hmgij", b1[l1], a2[later])  # B₁·A₂
        inner = ra1[l1][:, None, None] @ mid @ rb2[later].transpose(-2, -1)[None]
        out[l1, :, later] = torch.linalg.matrix_norm(inner) / n1[l1][:, None, None] / n2[None, later]
    return out


def composition(model, kind: str, stack: str | None = None) -> np.ndarray:
    """[L, H, L, H]: the kind ("Q", "K", "V") composition score from sender head (l1, h1) into receiver (l2, h2); 0
    where l1 >= l2 (a head reads only what earlier layers wrote). Qwen3.5's linear layers have no softmax heads:
    their rows and columns are NaN. stack: "decoder" (default where there is one) or "encoder"."""
    kind = _kind(kind)
    w = head_weights(model, stack)
    inner = _scores(*_factors(w, kind), later_only=True).numpy()
    n, h = w.n_layers, w.W_Q.shape[1]
    out = np.full((n, h, n, h), np.nan)
    idx = np.asarray(w.layers)
    out[np.ix_(idx, range(h), idx, range(h))] = inner
    later = np.arange(n)[:, None, None, None] < np.arange(n)[None, None, :, None]
    return np.where(later | np.isnan(out), out, 0.0)


def k_composition_between(model, sender: tuple[int, int], receiver: tuple[int, int], stack: str | None = None) -> dict:
    """{"K", "Q", "V"}: the three composition scores of one pair (the lab plots the K one over training)."""
    w = head_weights(model, stack)
    (l1, h1), (l2, h2) = sender, receiver
    if not l1 < l2:
        raise ValueError(f"the sender's layer ({l1}) must come before the receiver's ({l2})")
    for layer in (l1, l2):
        if layer not in w.layers:
            raise ValueError(f"layer {layer} has no softmax attention heads")
    i1, i2 = w.layers.index(l1), w.layers.index(l2)
    out = {}
    for kind in KINDS:
        (a1, b1), (a2, b2) = _factors(w, kind)
        pick = ((a1[i1, h1 : h1 + 1][None], b1[i1, h1 : h1 + 1][None]), (a2[i2, h2 : h2 + 1][None],
                b2[i2, h2 : h2 + 1][None]))  # fmt: skip
        out[kind] = float(_scores(*pick).reshape(()))
    return out


def composition_baseline(model, kind: str, samples: int = BASELINE_SAMPLES, seed: int = 0) -> float:
    """The mean score between Gaussian matrices of this model's shapes (W_V, W_Q, W_K [d, dh], W_O [dh, d]): a score
    near it means the two heads' subspaces overlap no more than chance would make them."""
    kind = _kind(kind)
    cfg = transformer(model).cfg
    d, dh = cfg.d_model, cfg.d_head
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape):
        return torch.randn(samples, 1, *shape, generator=g, dtype=F64)

    w = HeadWeights(rnd(d, dh), rnd(d, dh), rnd(d, dh), rnd(dh, d), layers=(), n_layers=0, stack="")
    send, recv = _factors(w, kind)
    # sample i's sender against sample i's receiver: the diagonal of the [S, 1, S, 1] grid
    recv = tuple(t.roll(1, 0) for t in recv)  # independent matrices (V would otherwise compare a head with itself)
    s = torch.stack([_scores((send[0][i : i + 1], send[1][i : i + 1]), (recv[0][i : i + 1], recv[1][i : i + 1]))
                     .reshape(()) for i in range(samples)])  # fmt: skip
    return float(s.mean())


# ---------------------------------------------------------------- a head's circuits in tokens


def factored_eigenvalues(a: torch.Tensor, b: torch.Tensor) -> np.ndarray:
    """The eigenvalues of A·B [n, n] (A [n, r], B [r, n], r <= n) from the small B·A [r, r]: they share their nonzero
    eigenvalues; A·B's other n − r are 0. Sorted by decreasing modulus."""
    ev = torch.linalg.eigvals(b.to(F64) @ a.to(F64)).numpy()
    return ev[np.argsort(-np.abs(ev), kind="stable")]


def factored_singular_values(a: torch.Tensor, b: torch.Tensor) -> np.ndarray:
    """The r largest singular values of A·B (A [n, r], B [r, m]) from R factors: A = Qa·Ra, Bᵀ = Qb·Rb, so
    A·B = Qa (Ra·Rbᵀ) Qbᵀ has Ra·Rbᵀ's singular values."""
    ra, rb = _thin(a.to(F64), b.to(F64))
    return torch.linalg.svdvals(ra @ rb.T).numpy()


def copying_score(eigenvalues: np.ndarray) -> float:
    """Σλ / Σ|λ| (real part): 1 when every eigenvalue is positive real (the circuit copies a token to itself), −1
    when all are negative (it suppresses it); TransformerLens's Main_Demo."""
    ev = np.asarray(eigenvalues)
    total = np.abs(ev).sum()
    return float(np.real(ev.sum()) / total) if total > 0 else 0.0


@dataclass(frozen=True)
class TokenCircuit:
    """A head's OV circuit W_E·OV·W_U (source token -> output token) or QK circuit W_E·QK·W_Eᵀ (query token -> key
    token) in factored form: `pairs` the k largest entries (row id, column id, value), largest first."""

    kind: str  # "OV" | "QK"
    layer: int
    head: int
    pairs: list[tuple[int, int, float]]
    eigenvalues: np.ndarray  # of the full [V, V] circuit (its nonzero ones: at most d_head), largest modulus first
    copying: float  # Σλ/Σ|λ| over those eigenvalues
    singular_values: np.ndarray  # of the head's OV (or QK) matrix [d, d]: at most d_head nonzero
    effective_rank: float  # exp of the entropy of the normalised singular values (the Rank page's measure)


def _top_pairs(a: torch.Tensor, b: torch.Tensor, k: int, rows) -> list[tuple[int, int, float]]:
    """The k largest entries of A[rows]·B, computed CHUNK_ELEMENTS at a time (never the whole [V, V])."""
    rows = torch.arange(a.shape[0]) if rows is None else torch.as_tensor(list(rows), dtype=torch.long)
    step = max(1, CHUNK_ELEMENTS // b.shape[1])
    best_v, best_i = torch.empty(0, dtype=F64), torch.empty(0, dtype=torch.long)
    for s in range(0, len(rows), step):
        r = rows[s : s + step]
        block = (a[r] @ b).flatten()
        v, i = block.topk(min(k, block.numel()))
        flat = r[i // b.shape[1]] * b.shape[1] + i % b.shape[1]
        best_v, order = torch.cat([best_v, v]).topk(min(k, len(best_v) + len(v)))
        best_i = torch.cat([best_i, flat])[order]
    return [(int(i // b.shape[1]), int(i % b.shape[1]), float(v)) for v, i in zip(best_v, best_i, strict=True)]


def _head(model, layer: int, head: int, stack: str | None):
    net = transformer(model)
    w = head_weights(net, stack)
    if layer not in w.layers:
        raise ValueError(f"layer {layer} has no softmax attention heads (layers with heads: {list(w.layers)})")
    if not 0 <= head < w.W_Q.shape[1]:
        raise ValueError(f"head {head} is not one of 0..{w.W_Q.shape[1] - 1}")
    return net, w, w.layers.index(layer)


def _circuit(kind, layer, head, a, b, mid_a, mid_b, k) -> TokenCircuit:
    ev = factored_eigenvalues(a, b) if a.shape[0] == b.shape[1] else np.zeros(0)
    s = factored_singular_values(mid_a, mid_b)
    return TokenCircuit(kind, layer, head, _top_pairs(a, b, k, None), ev, copying_score(ev), s,
                        float(effective_rank_of(s)))  # fmt: skip


def ov_circuit(model, layer: int, head: int, k: int = 10, stack: str | None = None) -> TokenCircuit:
    """Head (layer, head)'s OV circuit in tokens: W_E·W_V·W_O·W_U [V, V] as (W_E·W_V) [V, dh] · (W_O·W_U) [dh, V]."""
    net, w, i = _head(model, layer, head, stack)
    a, b = embedding_matrix(net) @ w.W_V[i, head], w.W_O[i, head] @ _unembed(net, w.stack)
    return _circuit("OV", layer, head, a, b, w.W_V[i, head], w.W_O[i, head], k)


def qk_circuit(model, layer: int, head: int, k: int = 10, stack: str | None = None) -> TokenCircuit:
    """Head (layer, head)'s QK circuit in tokens, positions and RoPE left out: W_E·W_Q·W_Kᵀ·W_Eᵀ [V, V] as (W_E·W_Q)
    [V, dh] · (W_E·W_K)ᵀ [dh, V]; entry (q, k) is how much query token q attends to key token k."""
    net, w, i = _head(model, layer, head, stack)
    e = embedding_matrix(net)
    a, b = e @ w.W_Q[i, head], (e @ w.W_K[i, head]).T
    return _circuit("QK", layer, head, a, b, w.W_Q[i, head], w.W_K[i, head].T, k)


def ov_matrix(model, layer: int, head: int, stack: str | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The factors (W_V [d, dh], W_O [dh, d]) of head (layer, head)'s folded OV matrix (tests, the Rank page)."""
    _, w, i = _head(model, layer, head, stack)
    return w.W_V[i, head], w.W_O[i, head]
