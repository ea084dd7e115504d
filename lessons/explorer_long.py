"""A long prompt on the Explorer (issue 30): one matrix drawn as a picture with a zoom that redraws a region from
the exact weights (viz/long_heatmap.py), and a window of the prompt for the views that cannot draw it whole (the
all-heads grid, the head view's lines). Up to viz.LONG_TOKENS tokens every view draws as before.

The trace may compute a long prompt's attention one layer at a time (models/core/lazy.py): this file reads it by layer
(attention[l]) and never as the whole [L, H, T, T] stack."""

from __future__ import annotations

import numpy as np
import streamlit as st

import viz
from ui import charts, shell
from ui.i18n import t
from viz.long_heatmap import AUTO_QUANTILE, auto_top, pool_factor

ZOOM_START = 64  # the zoom's first region: the first 64 queries and keys (the start of the prompt, its sinks)
MAP_KEY = "long_map"  # the picture's chart key: its box selection sets the zoom
LINES_WINDOW = 128  # tokens of the head view's window (its figure is ~22 px a token tall)
GRID_CELLS = 2**20  # cells the all-heads grid may draw in all (layers x heads x window²)


def _fit(name: str, n: int, default: tuple[int, int]) -> None:
    """A zoom slider's value inside 0..n-1 before it is drawn (the prompt may have changed length)."""
    lo, hi = st.session_state.get(name, default)
    lo = min(max(int(lo), 0), n - 1)
    st.session_state[name] = (lo, min(max(int(hi), lo), n - 1))


def _take_box(n_q: int, n_k: int, prefix: str = "") -> None:
    """A box dragged on the picture (Streamlit's selection state of MAP_KEY) becomes the zoom, once: the same box
    read again in a later run (the student then moved a slider) changes nothing."""
    chosen = st.session_state.get(prefix + MAP_KEY)
    boxes = (chosen or {}).get("selection", {}).get("box") or []
    if not boxes:
        return
    region = viz.box_region(boxes[-1], n_q, n_k, side=n_q + n_k)  # the zoom sliders show it whole; cut below
    if region is None or st.session_state.get(f"_{prefix}zoom_box") == region:
        return
    st.session_state[f"_{prefix}zoom_box"] = region
    st.session_state[f"{prefix}zoom_q"] = (region.q0, region.q1 - 1)
    st.session_state[f"{prefix}zoom_k"] = (region.k0, region.k1 - 1)


def long_matrix(m: np.ndarray, q_tokens: list[str], k_tokens: list[str], *, title: str, zmax: float | None,
                scale: float, labels: viz.Labels, key: str, prefix: str = "") -> None:  # fmt: skip
    """m [Tq, Tk] as a picture, two range sliders (or a box dragged on the picture) choosing a region, and that
    region as the ordinary heatmap (with the sidebar's table of numbers, when on). prefix: before every widget key
    (the Explorer's second model has its own zoom, issue 44)."""
    n_q, n_k = len(q_tokens), len(k_tokens)
    zq, zk = f"{prefix}zoom_q", f"{prefix}zoom_k"
    _take_box(n_q, n_k, prefix)
    _fit(zq, n_q, (0, min(n_q, ZOOM_START) - 1))
    _fit(zk, n_k, (0, min(n_k, ZOOM_START) - 1))
    region = viz.clamp_region(st.session_state[zq], st.session_state[zk], n_q, n_k)
    picture = viz.long_heatmap(m, q_tokens, k_tokens, title=title, zmax=zmax, region=region,
                               hint=t("explorer_long.hint"), scale=scale, labels=labels)  # fmt: skip
    charts.plot(st, picture, key=prefix + MAP_KEY, on_select="rerun", selection_mode="box")
    f = pool_factor(max(n_q, n_k))
    pooled = t("explorer_long.pooled", f=f) if f > 1 else ""
    st.caption(t("explorer_long.caption", n_q=f"{n_q:,}", n_k=f"{n_k:,}", pooled=pooled))
    if zmax is None:  # auto-scale on a long prompt: a quantile, not the largest weight (viz.long_heatmap.auto_top)
        st.caption(t("explorer_long.auto", share=f"{AUTO_QUANTILE:.1%}", top=f"{auto_top(m, None):.3g}"))
    c1, c2 = st.columns(2)
    help_text = t("explorer_long.zoom_help", n=viz.ZOOM_MAX)
    c1.slider(t("explorer_long.zoom_q"), 0, n_q - 1, key=zq, help=help_text)
    c2.slider(t("explorer_long.zoom_k"), 0, n_k - 1, key=zk, help=help_text)
    (q_lo, q_hi), (k_lo, k_hi) = st.session_state[zq], st.session_state[zk]
    if max(q_hi - q_lo, k_hi - k_lo) + 1 > viz.ZOOM_MAX:
        st.caption(t("explorer_long.zoom_cut", n=viz.ZOOM_MAX))
    q0, q1, k0, k1 = region
    zoom_title = t("explorer_long.zoom_title", title=title, q0=q0, q1=q1 - 1, k0=k0, k1=k1 - 1)
    zoom = viz.zoom_heatmap(m, q_tokens, k_tokens, region, title=zoom_title, zmax=zmax, scale=scale, labels=labels)
    shell.plot(zoom, key, m[q0:q1, k0:k1], q_tokens[q0:q1], k_tokens[k0:k1])


def window(view: str, q_tokens: list[str], k_tokens: list[str], width: int, heads: int,
           follow: int | None = None, prefix: str = "") -> tuple[slice, slice]:  # fmt: skip
    """The (query, key) slices a view draws: all of a prompt up to LONG_TOKENS; of a longer one, a window of `width`
    tokens placed with a slider, under one sentence saying why. An axis no longer than the window (cross-attention's
    short side) is kept whole. follow: a query position the window should show (the head view's focused query),
    honoured when it changes. prefix: before the slider's key (the Explorer's second model has its own)."""
    n = max(len(q_tokens), len(k_tokens))
    if n <= viz.LONG_TOKENS or n <= width:
        return slice(0, len(q_tokens)), slice(0, len(k_tokens))
    st.info(t(f"explorer_long.window.{view}", n=f"{n:,}", width=width, heads=heads))
    last = n - width
    key = f"{prefix}window_start"
    start = min(max(int(st.session_state.get(key, 0)), 0), last)
    if follow is not None and follow != st.session_state.get(f"_{prefix}window_follow"):
        st.session_state[f"_{prefix}window_follow"] = follow
        if not start <= follow < start + width:
            start = min(max(follow - width // 2, 0), last)
    st.session_state[key] = start
    st.slider(t("explorer_long.window_start"), 0, last, key=key)
    start = st.session_state[key]
    st.caption(t("explorer_long.window_range", first=start, last=start + width - 1, n=f"{n:,}"))
    return _axis(start, width, len(q_tokens)), _axis(start, width, len(k_tokens))


def _axis(start: int, width: int, n: int) -> slice:
    """The window on an axis of n positions: whole if short, else `width` positions from start (moved in)."""
    if n <= width:
        return slice(0, n)
    start = min(start, n - width)
    return slice(start, start + width)


def grid_width(n_layers: int, n_heads: int) -> int:
    """The all-heads grid's window: GRID_CELLS shared by every head, at least 16 tokens, at most LINES_WINDOW."""
    return int(min(max(np.sqrt(GRID_CELLS / (n_layers * n_heads)), 16), LINES_WINDOW))
