"""Pure analysis helpers the lessons compute live: rank, entropy, q·k variance, parameter counts.

Three notions of rank are kept apart on purpose:
- exact rank: a lower-triangular matrix with a positive diagonal (causal attention) has
  det = product of the diagonal > 0, so it is full rank in exact arithmetic;
- numerical rank: singular values above a tolerance; sharp softmaxes can push diagonal entries
  below float precision, so a causal matrix can *look* rank-deficient in float32;
- effective rank (Roy & Vetterli 2007): exp of the entropy of the normalised singular values,
  a smooth measure of how many directions carry the mass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .config import ModelConfig


def singular_values(a: np.ndarray, dtype=np.float64) -> np.ndarray:
    """Singular values, largest first, computed in dtype (float64 unless asked otherwise)."""
    return np.linalg.svd(np.asarray(a, dtype=dtype), compute_uv=False)


def default_tolerance(s: np.ndarray, shape: tuple[int, int], dtype=np.float64) -> float:
    """numpy.linalg.matrix_rank's default: S.max · max(M, N) · eps of the dtype."""
    return float(s.max(initial=0.0) * max(shape) * np.finfo(dtype).eps)


def numerical_rank(a: np.ndarray, tol: float | None = None, dtype=np.float64) -> int:
    """Count of singular values above tol (matrix_rank's default tolerance when tol is None)."""
    s = singular_values(a, dtype)
    tol = default_tolerance(s, np.shape(a), dtype) if tol is None else tol
    return int((s > tol).sum())


def effective_rank(a: np.ndarray) -> float:
    """exp(H(p)) with p = σ / Σσ (Roy & Vetterli 2007): between 1 and min(M, N)."""
    return float(effective_rank_of(singular_values(a)))


def effective_rank_of(s: np.ndarray) -> np.ndarray:
    """Effective rank from singular values along the last axis (works on stacks: [..., n] -> [...])."""
    s = np.asarray(s, dtype=np.float64)
    total = s.sum(-1, keepdims=True)
    p = np.divide(s, total, out=np.zeros_like(s), where=total > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -np.where(p > 0, p * np.log(p), 0.0).sum(-1)
    return np.where(total[..., 0] > 0, np.exp(h), 0.0)


def condition_number(a: np.ndarray) -> float:
    s = singular_values(a)
    return float("inf") if s[-1] == 0 else float(s[0] / s[-1])


def log_abs_det(a: np.ndarray) -> float:
    """log|det A| in float64 (-inf when singular); for a triangular matrix, Σ log|diagonal|."""
    sign, logdet = np.linalg.slogdet(np.asarray(a, dtype=np.float64))
    return float(logdet) if sign != 0 else float("-inf")


def row_entropy(weights: np.ndarray) -> np.ndarray:
    """Shannon entropy (nats) of each attention row over its last axis; 0·log 0 counts as 0."""
    w = np.asarray(weights, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, w * np.log(w), 0.0)
    return -terms.sum(axis=-1)


def qk_variance(d_k: int, n_samples: int = 20000, sigma: float = 1.0, seed: int = 0) -> float:
    """Empirical Var(q·k) for q, k with iid N(0, σ²) entries: theory says d_k·σ⁴ (Vaswani §3.2.1,
    footnote 4), which is why scores are divided by sqrt(d_k)."""
    return float(np.var(dot_products(d_k, n_samples, sigma, seed)))


def parameter_counts(cfg: ModelConfig) -> dict[str, int]:
    """Parameters per component, from the config alone (tests check it against the built module)."""
    d, v, h = cfg.d_model, cfg.vocab_size, cfg.d_head
    n_enc = cfg.n_layers if cfg.arch in ("encoder", "encoder-decoder") else 0
    n_dec = cfg.n_layers if cfg.arch in ("decoder", "encoder-decoder") else 0
    n_cross = n_dec if cfg.arch == "encoder-decoder" else 0
    n_attn = n_enc + n_dec + n_cross  # attention modules
    norm = 2 * d if cfg.norm == "layernorm" else d  # LayerNorm has a gain and a bias; RMSNorm a gain
    final_norms = (int(n_enc > 0) + int(n_dec > 0)) if cfg.norm_position == "pre" else 0
    ffn_mats = 3 if cfg.activation == "swiglu" else 2
    b = int(cfg.bias)  # one bias per output unit of each projection
    bqkv = int(cfg.bias or cfg.qkv_bias)  # Qwen2: biases on q, k, v only
    ffn_bias = (ffn_mats - 1) * cfg.d_ff + d  # W1 (and W3) biases of width d_ff, W2's of width d
    return {
        "embeddings": v * d
        + (cfg.max_len * d if cfg.positional == "learned" else 0)
        + cfg.type_vocab_size * d
        + (norm if cfg.embed_norm else 0),
        "attention.q": n_attn * (d + bqkv) * cfg.n_heads * h,
        "attention.k": n_attn * (d + bqkv) * cfg.kv_heads * h,
        "attention.v": n_attn * (d + bqkv) * cfg.kv_heads * h,
        "attention.o": n_attn * (cfg.n_heads * h + b) * d,
        "ffn": (n_enc + n_dec) * (ffn_mats * d * cfg.d_ff + b * ffn_bias),
        "norms": ((n_enc + n_dec) * 2 + n_cross + final_norms) * norm,
        "head": 0 if cfg.tie_embeddings else d * v,
    }


def attention_rollout(attention: np.ndarray, residual: float = 0.5) -> np.ndarray:
    """Attention rollout (Abnar & Zuidema 2020): how much each input token flows into each position
    through all layers. Per layer, heads are averaged and the residual connection is modelled as
    residual·I + (1 - residual)·A (rows renormalised); layers are multiplied, first layer rightmost.

    attention: [L, H, T, T] self-attention -> [T, T]; rows sum to 1. It is an approximation (it
    ignores values, FFNs and norms), not what the model computes.
    """
    a = np.asarray(attention, dtype=np.float64).mean(axis=1)  # [L, T, T]
    eye = np.eye(a.shape[-1])
    out = eye
    for layer in a:
        step = residual * eye + (1 - residual) * layer
        step = step / step.sum(-1, keepdims=True)
        out = step @ out
    return out


# A head counts as a sink when its queries put at least this much weight, on average, on one key.
SINK_THRESHOLD = 0.5


def attention_sinks(attention: np.ndarray, tokens: list[str], threshold: float = SINK_THRESHOLD) -> list[dict]:
    """Heads whose queries (position 1 on) send on average >= threshold of their weight to one key
    that is the first token, a special token or punctuation: an attention sink (Xiao et al. 2023).

    attention: [L, H, T, T] -> [{"layer", "head", "key", "token", "weight"}], 0-based indices."""
    a = np.asarray(attention, dtype=np.float64)
    if a.shape[-2] < 2:
        return []
    col = a[:, :, 1:, :].mean(axis=2)  # [L, H, T]: mean weight each key receives
    sinks = []
    for layer, head in np.ndindex(col.shape[:2]):
        key = int(col[layer, head].argmax())
        weight = float(col[layer, head, key])
        tok = tokens[key].replace("␣", "").strip()
        if weight >= threshold and (key == 0 or (tok.startswith("[") and tok.endswith("]")) or _is_punct(tok)):
            sinks.append({"layer": layer, "head": head, "key": key, "token": tokens[key], "weight": weight})
    return sinks


def _is_punct(tok: str) -> bool:
    return bool(tok) and all(not ch.isalnum() for ch in tok)


# ----------------------------------------------------------------- softmax, precision and rank


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


@dataclass(frozen=True)
class RankReport:
    """Exact, numerical and effective rank of one attention matrix, kept apart (see module doc)."""

    n: int
    dtype: str  # the precision of the softmax and of the SVD: "float32" | "float64"
    singular_values: np.ndarray  # largest first, computed in dtype
    tolerance: float  # singular values above it count
    numerical_rank: int
    effective_rank: float
    condition_number: float
    min_diagonal: float  # smallest diagonal weight as computed in dtype (0.0 once it underflowed)
    log10_min_diagonal: float  # the same entry's log10 from log-softmax: finite even when it underflowed
    lower_triangular: bool  # no weight above the diagonal (a causal matrix)
    log_abs_det: float  # natural log |det|: Σ log p_ii from log-softmax when triangular, else slogdet
    exact_full_rank: bool | None  # True: provably full rank (triangular, every diagonal weight > 0)


def rank_report(scores: np.ndarray, dtype=np.float64, tol: float | None = None) -> RankReport:
    """Everything the rank lesson shows for one head's scores [T, T] (masked entries -inf).

    The weights are softmax(scores) in dtype; so is the SVD. In exact arithmetic every softmax
    weight whose score is finite is > 0, so a lower-triangular (causal) matrix has det = Π p_ii > 0
    and full rank. Only a general matrix's exact rank is unknown to floating point (None).
    """
    scores = np.asarray(scores, dtype=np.float64)
    n = scores.shape[-1]
    w = softmax(scores, dtype)
    s = singular_values(w, dtype)
    tol_used = default_tolerance(s, w.shape, dtype) if tol is None else float(tol)
    logp = log_softmax(scores)
    log_diag = np.diagonal(logp)
    triangular = bool(np.all(np.isneginf(scores[np.triu_indices(n, 1)])))
    # det of a triangular matrix = the product of its diagonal, summed in log space (no underflow)
    log_det = float(log_diag.sum()) if triangular else log_abs_det(softmax(scores, np.float64))
    diag_positive = bool(np.all(np.isfinite(log_diag)))
    return RankReport(
        n=n,
        dtype=np.dtype(dtype).name,
        singular_values=s,
        tolerance=tol_used,
        numerical_rank=int((s > tol_used).sum()),
        effective_rank=float(effective_rank_of(s)),
        condition_number=float("inf") if s[-1] == 0 else float(s[0] / s[-1]),
        min_diagonal=float(np.diagonal(w).min()),
        log10_min_diagonal=float(log_diag.min() / np.log(10)),
        lower_triangular=triangular,
        log_abs_det=log_det,
        exact_full_rank=True if triangular and diag_positive else None,
    )


def softmax_jacobian_norm(p: np.ndarray) -> float:
    """Spectral norm of ∂softmax/∂scores = diag(p) - p pᵀ (symmetric, positive semi-definite).

    It bounds how much a change of the scores can move the weights, hence the gradient that
    reaches q and k. A saturated (one-hot) softmax has Jacobian 0: learning stalls. By Gershgorin
    it never exceeds max_i 2·p_i(1 - p_i) <= 1/2 (reached by two entries of 1/2 each); a uniform
    row over n entries gives 1/n.
    """
    p = np.asarray(p, dtype=np.float64)
    return float(np.linalg.eigvalsh(np.diag(p) - np.outer(p, p))[-1])


def dot_products(d_k: int, n_samples: int = 20000, sigma: float = 1.0, seed: int = 0) -> np.ndarray:
    """n_samples values of q·k for q, k with iid N(0, σ²) entries in d_k dimensions."""
    rng = np.random.default_rng(seed)
    chunk = max(1, 2_000_000 // max(d_k, 1))  # about 16 MB per draw, whatever d_k is
    out = np.empty(n_samples)
    for start in range(0, n_samples, chunk):
        m = min(chunk, n_samples - start)
        out[start : start + m] = (rng.normal(0.0, sigma, (m, d_k)) * rng.normal(0.0, sigma, (m, d_k))).sum(1)
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


SINK_GROUPS = {"start": ("[CLS]", "[BOS]"), "end": ("[SEP]", "[EOS]")}


def sink_shares(attention: np.ndarray, tokens: list[str]) -> dict[str, np.ndarray]:
    """[L, H] mean share of each head's attention (query rows 1..) that lands on the opening
    special token ([CLS] / [BOS]), the closing one ([SEP] / [EOS]) and on punctuation. Clark et al.
    (2019, "What does BERT look at?") found BERT heads parking attention on [SEP] and punctuation
    when they have nothing to do."""
    a = np.asarray(attention, dtype=np.float64)  # [L, H, T, T]
    rows = a[:, :, 1:, :] if a.shape[-2] > 1 else a  # from position 1 on, as attention_sinks: row 0 of a
    per_key = rows.mean(axis=2)  # causal model has only itself to attend to. [L, H, T]
    specials = {t for group in SINK_GROUPS.values() for t in group}
    where = {name: np.array([tok in group for tok in tokens]) for name, group in SINK_GROUPS.items()}
    where["punctuation"] = np.array([_is_punct(tok.replace("␣", "").strip()) and tok not in specials for tok in tokens])
    return {name: per_key[..., mask].sum(-1) for name, mask in where.items()}
