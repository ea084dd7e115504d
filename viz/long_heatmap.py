"""A long prompt's attention matrix [Tq, Tk] as one picture, and a region of it at full resolution.

Why: a heatmap trace sends every cell as a number and draws it as a rectangle; at 2,048 tokens that is
4 million numbers (16 MB of float32, base64 on top) and a browser tab that freezes. Above LONG_TOKENS the
matrix becomes a colour-mapped PNG (an image trace, as plotly.express.imshow(binary_string=True) does, with
a palette of 255 colours: one byte a pixel before compression), at most IMAGE_MAX_PX pixels a side. A larger
matrix is pooled in blocks keeping each block's largest value, so one sharp weight (a sink, the diagonal)
still shows. The image has no values to hover; zoom_heatmap draws a chosen region (at most ZOOM_MAX a side)
as the ordinary heatmap, with token labels and hover values, coloured on the same scale.
"""

from __future__ import annotations

import base64
import io
import math
from typing import NamedTuple

import numpy as np
from PIL import Image

from viz.attention import heatmap
from viz.axes import resolve_zmax
from viz.check import check_attention
from viz.labels import ENGLISH, Labels, escape
from viz.palette import ATTENTION_COLORSCALE, HIGHLIGHT, base_layout, font_size
from viz.spec import Spec

LONG_TOKENS = 256  # above this many queries or keys, the matrix is drawn as an image
IMAGE_MAX_PX = 512  # pixels a side of that image: about the size it is drawn (640 px tall with its axes)
ZOOM_MAX = 128  # queries and keys a side of a zoomed region (its tick labels stay readable)
LEVELS = 255  # colours of the palette; index LEVELS is for NaN
NAN_COLOR = (232, 232, 232)
TICKS = 12  # token labels an axis of the image shows (about 50 px apart on a laptop, 30 on a phone)
TICK_CHARS = 10  # a tick's token is cut to this many characters


class Region(NamedTuple):
    """Half-open ranges of query rows [q0, q1) and key columns [k0, k1)."""

    q0: int
    q1: int
    k0: int
    k1: int


AUTO_QUANTILE = 0.995  # zmax=None: colours stop here among the weights above 0 (see auto_top)


def auto_top(w: np.ndarray, zmax: float | None) -> float:
    """Top of the colour scale. zmax=None on a long prompt: the AUTO_QUANTILE quantile of the weights above 0, not
    the largest (a causal model's first row is always one weight of 1, so "the largest" would change nothing while
    the other rows' ~1/T weights stay white); the few larger weights show as the darkest colour."""
    if zmax is not None:
        return resolve_zmax(w, zmax)
    positive = w[np.isfinite(w) & (w > 0)]
    if positive.size == 0:
        return 1.0
    k = min(int(AUTO_QUANTILE * positive.size), positive.size - 1)
    return float(np.partition(positive, k)[k])


def is_long(n_queries: int, n_keys: int) -> bool:
    return max(n_queries, n_keys) > LONG_TOKENS


def pool_factor(n: int) -> int:
    """Cells a side of the block one pixel stands for (1 up to IMAGE_MAX_PX tokens)."""
    return max(1, math.ceil(n / IMAGE_MAX_PX))


def pooled(w: np.ndarray, f: int) -> np.ndarray:
    """[Tq, Tk] -> [ceil(Tq/f), ceil(Tk/f)]: each f x f block's value of largest magnitude (NaN only if all are)."""
    if f == 1:
        return w
    n, m = math.ceil(w.shape[0] / f), math.ceil(w.shape[1] / f)
    padded = np.full((n * f, m * f), np.nan, np.float32)
    padded[: w.shape[0], : w.shape[1]] = w
    blocks = padded.reshape(n, f, m, f).transpose(0, 2, 1, 3).reshape(n, m, f * f)
    pick = np.nan_to_num(np.abs(blocks), nan=-1.0).argmax(-1)
    return np.take_along_axis(blocks, pick[..., None], -1)[..., 0]


def _rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def palette(colorscale: list) -> np.ndarray:
    """[LEVELS + 1, 3] uint8: the colour scale sampled at LEVELS points, then the NaN colour."""
    stops = np.array([float(s) for s, _ in colorscale])
    rgb = np.array([_rgb(c) for _, c in colorscale], dtype=np.float64)
    at = np.linspace(0.0, 1.0, LEVELS)
    out = np.stack([np.interp(at, stops, rgb[:, i]) for i in range(3)], axis=1)
    return np.vstack([np.round(out), NAN_COLOR]).astype(np.uint8)


def png_uri(w: np.ndarray, zmin: float, zmax: float, colorscale: list) -> str:
    """w [rows, cols] as a palette PNG (data: URI), zmin..zmax spread over the colour scale, clipped."""
    with np.errstate(invalid="ignore"):
        frac = np.clip((w.astype(np.float64) - zmin) / (zmax - zmin), 0.0, 1.0)
    idx = np.where(np.isnan(frac), LEVELS, np.round(np.nan_to_num(frac) * (LEVELS - 1))).astype(np.uint8)
    img = Image.fromarray(idx, mode="P")
    img.putpalette(palette(colorscale).ravel().tolist())
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def tick_positions(n: int, most: int = TICKS) -> list[int]:
    """Positions 0, step, 2·step, ... below n, step a round number (1, 2, 5 x 10^k) giving at most `most`."""
    step = next(s * 10**k for k in range(12) for s in (1, 2, 5) if n <= most * s * 10**k)
    return list(range(0, n, step))


def _tick_text(i: int, token: str) -> str:
    tok = token if len(token) <= TICK_CHARS else token[: TICK_CHARS - 1] + "…"
    return f"{i} {escape(tok)}"


def _axis(tokens: list[str], title: str, scale: float, *, reverse: bool = False) -> dict:
    """A numeric position axis over the whole prompt, labelled "i token" at round positions; fixed: the page
    zooms by redrawing a region (zoom_heatmap), not by stretching the picture."""
    n = len(tokens)
    ticks = tick_positions(n)
    return dict(
        range=[n - 0.5, -0.5] if reverse else [-0.5, n - 0.5],
        tickmode="array",
        tickvals=ticks,
        ticktext=[_tick_text(i, tokens[i]) for i in ticks],
        tickfont=dict(size=max(8, round(font_size(scale) * 0.8))),
        title=dict(text=escape(title)),
        showgrid=False,
        zeroline=False,
        fixedrange=True,
    )


def long_heatmap(
    weights: np.ndarray,
    query_tokens: list[str],
    key_tokens: list[str],
    *,
    title: str = "",
    zmax: float | None = 1.0,
    zmin: float = 0.0,
    colorscale: list = ATTENTION_COLORSCALE,
    region: Region | None = None,
    hint: str = "",
    scale: float = 1.0,
    labels: Labels = ENGLISH,
) -> Spec:
    """weights [Tq, Tk] as an image (see the module), query 0 at the top, with its colour bar and the zoomed
    region outlined. Hovering names the query and key positions (and `hint`, e.g. how to zoom); dragging a box
    selects a region (the page reads it with box_region)."""
    w = check_attention(weights, query_tokens, key_tokens).astype(np.float32, copy=False)  # [Tq, Tk]
    top = auto_top(w, zmax)
    f = pool_factor(max(w.shape))
    centre = (f - 1) / 2  # a pooled pixel's centre, in positions
    hover = f"{escape(labels.query)}: %{{y:.0f}}<br>{escape(labels.key)}: %{{x:.0f}}"
    image = dict(type="image", source=png_uri(pooled(w, f), zmin, top, colorscale), x0=centre, dx=f, y0=centre, dy=f,
                 hovertemplate=hover + (f"<br><i>{escape(hint)}</i>" if hint else "") + "<extra></extra>")  # fmt: skip
    # An image trace has no colour bar: an empty scatter carries it (nothing drawn, nothing to hover).
    # across the top, not beside: on a phone a bar beside the square picture took a third of its width
    colorbar = dict(title=dict(text=escape(labels.weight), side="top"), thickness=round(10 * scale), orientation="h",
                    x=1.0, xanchor="right", y=1.0, yanchor="bottom", len=0.45)  # fmt: skip
    marker = dict(color=[zmin], cmin=zmin, cmax=top, colorscale=colorscale, showscale=True, colorbar=colorbar)
    bar = dict(type="scatter", x=[None], y=[None], mode="markers", hoverinfo="skip", showlegend=False, marker=marker)
    spec = Spec(base_layout(scale)).add_trace(image).add_trace(bar)
    spec.update_layout(
        height=round(640 * scale),
        xaxis=dict(_axis(key_tokens, labels.key, scale), tickangle=-60, constrain="domain"),
        yaxis=dict(
            _axis(query_tokens, labels.query, scale, reverse=True),
            scaleanchor="x",
            constrain="domain",
            constraintoward="top",
        ),  # a narrow screen's spare height goes below the picture, not above
        dragmode="select",
        selectdirection="any",
        hovermode="closest",
    )
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    if region is not None:
        spec.add_shape(type="rect", x0=region.k0 - 0.5, x1=region.k1 - 0.5, y0=region.q0 - 0.5, y1=region.q1 - 0.5,
                       line=dict(color=HIGHLIGHT, width=2 * scale))  # fmt: skip
    return spec


def clamp_region(q: tuple[int, int], k: tuple[int, int], n_q: int, n_k: int, side: int = ZOOM_MAX) -> Region:
    """Inclusive (first, last) query and key positions -> a Region inside the matrix, each side at most `side`
    long (a longer range keeps its first `side` positions)."""

    def one(lo: int, hi: int, n: int) -> tuple[int, int]:
        lo, hi = sorted((int(lo), int(hi)))
        lo = min(max(lo, 0), n - 1)
        hi = min(max(hi, lo), n - 1, lo + side - 1)
        return lo, hi + 1

    return Region(*one(*q, n_q), *one(*k, n_k))


def box_region(box: dict, n_q: int, n_k: int, side: int = ZOOM_MAX) -> Region | None:
    """A box dragged on long_heatmap (Plotly's selection: {"x": [x0, x1], "y": [y0, y1]} in positions) -> the
    Region of the cells whose centres it covers, at most `side` a side; None if it covers none."""
    try:
        x0, x1 = sorted(float(v) for v in box["x"])
        y0, y1 = sorted(float(v) for v in box["y"])
    except (KeyError, TypeError, ValueError):
        return None
    k = math.ceil(x0), math.floor(x1)
    q = math.ceil(y0), math.floor(y1)
    if k[0] > k[1] or q[0] > q[1] or k[1] < 0 or q[1] < 0 or k[0] >= n_k or q[0] >= n_q:
        return None
    return clamp_region(q, k, n_q, n_k, side)


def zoom_heatmap(
    weights: np.ndarray,
    query_tokens: list[str],
    key_tokens: list[str],
    region: Region,
    *,
    title: str = "",
    zmax: float | None = 1.0,
    scale: float = 1.0,
    labels: Labels = ENGLISH,
) -> Spec:
    """The cells of `region` of weights [Tq, Tk] as the ordinary heatmap: exact values, hover, "i token" labels
    numbered as in the whole prompt; coloured on the whole matrix's scale (auto_top) so it matches long_heatmap."""
    w = check_attention(weights, query_tokens, key_tokens)
    top = auto_top(np.asarray(w, dtype=np.float32), zmax)
    q0, q1, k0, k1 = region
    return heatmap(w[q0:q1, k0:k1], query_tokens[q0:q1], key_tokens[k0:k1], title=title, zmax=top, scale=scale,
                   labels=labels, q_start=q0, k_start=k0)  # fmt: skip
