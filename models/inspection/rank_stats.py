"""Rank of attention matrices. Three notions of rank are kept apart on purpose:

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

from ..numerics import log_softmax, softmax


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
