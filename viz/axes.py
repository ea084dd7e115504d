"""Shared axis and size rules for the token-by-token figures (heatmap, mask), so they line up."""

from __future__ import annotations

import numpy as np

from viz.labels import escape
from viz.palette import font_size

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
