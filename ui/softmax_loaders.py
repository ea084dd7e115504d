"""Cached computation for the Softmax page (lessons/softmax.py): the variance argument's draw and the one-row demo's
curves across scales, each a function of the sliders alone, computed once and shared by every session."""

from __future__ import annotations

import numpy as np
import streamlit as st

from models import analysis

from .params import DKS, LOG2_SCALE

ROW_KEYS = 8  # keys in the one-row demo
SAMPLES = 20000  # per d_k: the variance is measured to about 1-2%


@st.cache_data(show_spinner=False)
def dot_table() -> np.ndarray:
    """q·k at σ = 1 for every d_k of the slider from one draw (about 0.4 s, once per server)."""
    return analysis.nested_dot_products(DKS, SAMPLES)


def score_row(sigma: float, d_k: int) -> np.ndarray:
    """The one-row demo's raw scores q·k_j (the same draw for the same σ and d_k)."""
    return analysis.score_row(sigma, d_k, ROW_KEYS)


@st.cache_data(show_spinner=False, max_entries=64)
def across_scales(sigma: float, d_k: int) -> tuple[np.ndarray, ...]:
    """(scales, entropy, max weight, Jacobian norm) of the row's softmax at 65 scales: a function of σ and d_k alone,
    so moving the scale slider does not compute it again (65 eigenvalue problems, ~1.3 ms; issue 40)."""
    scales = 2.0 ** np.arange(LOG2_SCALE[0], LOG2_SCALE[1] + 1e-9, 0.125)
    return (scales, *analysis.scale_sweep(score_row(sigma, d_k), scales))
