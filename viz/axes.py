"""Shared axis and size rules for the token-by-token figures (heatmap, mask), so they line up."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from viz.labels import escape, short_count
from viz.palette import font_size
from viz.spec import Spec

MANY_TOKENS = 64  # above this, tick labels would overlap: show every k-th one (hover still names each cell)
HEIGHT_BASE_PX = 260  # title, colorbar and x tick labels
HEIGHT_PER_ROW_PX = 14
HEIGHT_MAX_PX = 900


def token_axis(categories: list[str], title: str, scale: float, *, reverse: bool = False, angle: bool = False) -> dict:
    """A category axis over "i token" labels; reverse=True puts position 0 at the top (reading order)."""
    n = len(categories)
    axis = dict(
        type="category",
        categoryorder="array",
        categoryarray=categories,
        title=dict(text=escape(title)),
        showgrid=False,
        zeroline=False,
        ticks="",
    )
    if reverse:
        axis["autorange"] = "reversed"
    if angle and n > 10:
        axis["tickangle"] = -60
    if n > MANY_TOKENS:
        # On a category axis dtick counts categories: label every step-th token, smaller.
        axis.update(tickmode="linear", tick0=0, dtick=int(np.ceil(n / MANY_TOKENS)))
        axis["tickfont"] = dict(size=max(8, round(font_size(scale) * 0.75)))
    return axis


def square_cells(fig) -> None:
    """One query row as tall as one key column is wide: a matrix should look like a matrix.

    fig is a viz.spec.Spec or a go.Figure: both have update_xaxes/update_yaxes with plain keywords.
    """
    fig.update_yaxes(scaleanchor="x", scaleratio=1, constrain="domain")
    fig.update_xaxes(constrain="domain")


def grid_height(n_rows: int, scale: float) -> int:
    """Height in px of a [rows, columns] heatmap: grows with the rows, capped so it fits a screen."""
    return round(min(HEIGHT_BASE_PX + HEIGHT_PER_ROW_PX * n_rows, HEIGHT_MAX_PX) * scale)


def resolve_zmax(weights: np.ndarray, zmax: float | None) -> float:
    """Top of the colour scale: fixed (1.0 = a weight can be at most 1) or, if None, the data max.

    A fixed top keeps colours comparable between heads and prompts; auto-scaling makes a diffuse
    head readable but a pale cell in one figure can then mean more than a dark one in another.
    """
    if zmax is None:
        finite = weights[np.isfinite(weights)]
        top = float(finite.max()) if finite.size else 0.0
        return top if top > 0 else 1.0
    if not zmax > 0:
        raise ValueError(f"zmax must be > 0 or None, got {zmax}")
    return float(zmax)


def as_float(arr: np.ndarray) -> np.ndarray:
    """float32/float64 stay as they are (Plotly ships them as binary); anything else becomes float32."""
    return arr if arr.dtype in (np.float32, np.float64) else arr.astype(np.float32)


GRID = "#eeeeee"


def positive_only(arr: np.ndarray) -> np.ndarray:
    """A log axis cannot place 0 or a negative number: make those points gaps (NaN) in the line."""
    arr = arr.copy()
    arr[~(arr > 0)] = np.nan
    return arr


def log_position(value: float, log: bool, what: str) -> float:
    """Annotations on a log axis are placed by log10(value) (shapes take the value itself)."""
    if not log:
        return float(value)
    if not value > 0:
        raise ValueError(f"{what} {value} cannot be drawn on a log axis (it must be > 0)")
    return math.log10(value)


def legend_below(fig: go.Figure | Spec, layout: dict, title: str, scale: float) -> None:
    """Horizontal legend at the bottom of the figure, under the x-axis title.

    The legend is placed in container coordinates, so Plotly grows the bottom margin to fit it,
    however many lines it wraps to on a phone. A legend above the plot ran into the title once
    it wrapped. fig may be a go.Figure or a Spec: only update_layout with nested dicts is used.
    """
    fig.update_layout(
        layout,
        showlegend=True,
        legend=dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom"),
    )
    if title:
        fig.update_layout(title=dict(text=escape(title)))


def _tick_text(v: float) -> str:
    return f"{v:g}" if 1e-3 <= abs(v) < 1e5 else f"{v:.0e}".replace("e-0", "e-").replace("e+0", "e").replace("e+", "e")


MIN_LOG_DECADES = 2  # a log axis spans at least this many powers of ten


def log_span(values: np.ndarray) -> np.ndarray:
    """The values a log axis is fitted to, stretched down to MIN_LOG_DECADES below the largest.

    A log axis magnifies small ratios when its range is narrow: Translate's bars of 0.999997 to 1.0000003 (all
    labelled "1") were drawn at wildly different heights on an axis spanning 6e-7 of a decade (issue 39). With the
    bottom of the axis at least two decades down, 0.99 and 1 stand at the same height, as their ratio says; values
    that already span more keep their own range. Pass the result to log_ticks and log_range."""
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v) & (v > 0)]
    if v.size == 0:
        return v
    return np.append(v, min(v.min(), v.max() / 10.0**MIN_LOG_DECADES))


def log_range(values: np.ndarray) -> list[float] | None:
    """[lo, hi] in log10 units for a log axis over log_span(values), with 5% room at each end."""
    v = log_span(values)
    if v.size == 0:
        return None
    lo, hi = math.log10(v.min()), math.log10(v.max())
    return [lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)]


def log_ticks(values: np.ndarray, at_values: bool = False) -> dict:
    """Tick positions for a log axis over these values, as plain numbers.

    Plotly's defaults label minor ticks ("2 5 10 2 5") and use SI prefixes (1µ, 1n). Instead:
    the values themselves when at_values (a few lengths or d_k), 1-2-5 steps within three
    decades, else powers of ten (at most about 8 labels).
    """
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v) & (v > 0)]
    if v.size == 0:
        return {}
    if at_values and np.unique(v).size <= 12:
        ticks = np.unique(v)
    else:
        lo, hi = math.floor(math.log10(v.min())), math.ceil(math.log10(v.max()))
        if hi - lo <= 3:
            ticks = np.array([m * 10.0**k for k in range(lo, hi + 1) for m in (1, 2, 5)])
        else:
            step = max(1, math.ceil((hi - lo + 1) / 8))
            ticks = 10.0 ** np.arange(hi, lo - 1, -step)[::-1]  # counted down from the top decade
        ticks = ticks[(ticks >= v.min() / 1.0001) & (ticks <= v.max() * 1.0001)]
    return dict(tickmode="array", tickvals=ticks.tolist(), ticktext=[_tick_text(t) for t in ticks])


def decade_ticks(lo: float, hi: float) -> dict:
    """Ticks for an axis in log10 units, labelled as the real counts (1M, 10M, 1B): 1-2-5 steps
    within two decades, else powers of ten, every k-th one so that at most about 7 show."""
    a, b = math.floor(lo), math.ceil(hi)
    if hi - lo <= 2:
        vals = [math.log10(m) + k for k in range(a, b + 1) for m in (1, 2, 5)]
    else:
        step = max(1, math.ceil((b - a + 1) / 7))
        vals = list(range(a, b + 1, step))
    vals = [v for v in vals if lo - 1e-9 <= v <= hi + 1e-9]
    return dict(tickmode="array", tickvals=vals, ticktext=[short_count(round(10**v)) for v in vals])
