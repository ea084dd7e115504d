"""Argument checks shared by every figure function (one place, one wording; BertViz does the same).

A mismatch between attention and tokens usually means the wrong Trace key or a truncated prompt;
the message names both numbers so the cause is obvious.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def check_attention(
    weights: np.ndarray,
    query_tokens: Sequence[str] | None = None,
    key_tokens: Sequence[str] | None = None,
    what: str = "attention",
    *,
    ndim: int = 2,
) -> np.ndarray:
    """Return weights as a numpy array after checking ndim, non-emptiness and token counts.

    The last two axes are [queries, keys]; leading axes (layers, heads) are allowed when ndim > 2.
    Token lists that are None are not checked (heads_grid draws positions only).
    """
    arr = np.asarray(weights)
    if arr.ndim != ndim:
        raise ValueError(f"{what} must have {ndim} dimensions, got {arr.ndim} (shape {arr.shape})")
    if arr.size == 0:
        raise ValueError(f"{what} is empty (shape {arr.shape})")
    n_q, n_k = arr.shape[-2:]
    if query_tokens is not None and n_q != len(query_tokens):
        raise ValueError(f"{what} has {n_q} query rows but {len(query_tokens)} query tokens")
    if key_tokens is not None and n_k != len(key_tokens):
        raise ValueError(f"{what} has {n_k} key columns but {len(key_tokens)} key tokens")
    return arr


def check_values(values: np.ndarray, tokens: Sequence[str], what: str = "values") -> np.ndarray:
    """Return a per-position vector [T] after checking it has one value per token."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{what} must have 1 dimension, got {arr.ndim} (shape {arr.shape})")
    if arr.shape[0] != len(tokens):
        raise ValueError(f"{what} has {arr.shape[0]} positions but {len(tokens)} tokens")
    if arr.size == 0:
        raise ValueError(f"{what} is empty")
    return arr


def check_index(value: int, size: int, what: str) -> int:
    """An index into an axis of length size, with a message naming both."""
    if not 0 <= int(value) < size:
        raise ValueError(f"{what} {value} is out of range: there are {size}")
    return int(value)


def check_vector(values, n: int | None, what: str) -> np.ndarray:
    """A 1-D float64 copy (callers write NaN into it), checked for length n when n is given."""
    arr = np.array(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{what} must have 1 dimension, got {arr.ndim} (shape {arr.shape})")
    if arr.size == 0:
        raise ValueError(f"{what} is empty")
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"{what} has {arr.shape[0]} values but x has {n}")
    return arr


def check_positive_axis(values, what: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"{what} must be 1-D with at least 2 values, got shape {arr.shape}")
    if not (np.all(np.isfinite(arr)) and np.all(arr > 0)):
        raise ValueError(f"{what} must be finite and > 0 (they go on a log axis)")
    if not np.all(np.diff(arr) > 0):
        raise ValueError(f"{what} must be increasing")
    return arr
