"""Gemma 2's attention soft-capping (Gemma Team 2024): scores -> cap·tanh(scores / cap), before the mask.

The trace keeps the capped scores (Trace.scores, models/core/attention.py); the scores before capping are recomputed
here for one head from the layer's input in the trace (qk_map.head_qk: norm, q/k projection, RoPE as the model
does) times the scale the run used, and masked like the trace's.
"""

from __future__ import annotations

import numpy as np

from ..live import LiveModel, Trace
from .qk_map import head_qk


def softcap(scores: np.ndarray, cap: float) -> np.ndarray:
    return cap * np.tanh(np.asarray(scores, np.float64) / cap)


def head_scores(model: LiveModel, trace: Trace, layer: int, head: int) -> tuple[np.ndarray, np.ndarray]:
    """(before, after) [T, T] float64 of a decoder's self-attention head: q·k·scale, and the trace's capped scores;
    masked entries −inf in both."""
    kind = "decoder.self"
    q, k = head_qk(model, trace.hidden["decoder"][layer], kind, layer, head)
    before = (q @ k.T) * trace.attn_scale
    after = np.asarray(trace.scores[kind][layer, head], np.float64)
    return np.where(np.isfinite(after), before, -np.inf), after
