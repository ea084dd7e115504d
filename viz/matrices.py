"""value_heatmap(): any matrix of numbers as a heatmap (toy scores, PE tables, similarities), and
head_rows(), one query's attention in every head, built on it.

Unlike viz.attention.heatmap the values need not be weights: a diverging scale shows a sign, and
small tables write each value in its cell ("−∞" for a masked score).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from viz.axes import as_float, grid_height, square_cells, token_axis
from viz.labels import ENGLISH, Labels, axis_labels, escape, number_text
from viz.palette import ATTENTION_COLORSCALE, DIVERGING_COLORSCALE, base_layout
from viz.spec import Spec

CELL_TEXT_MAX = 16  # value_heatmap writes numbers in the cells up to 16 x 16; above that they cannot be read

HEATMAP_HEIGHT_PX = 420


def _numeric_axis(n: int, title: str, *, reverse: bool = False) -> dict:
    """Index axis 0..n-1 for unlabelled tables (positions x dimensions): no grid over the cells."""
    axis = dict(type="linear", title=dict(text=escape(title)), showgrid=False, zeroline=False, ticks="")
    if reverse:
        axis["autorange"] = "reversed"
    if n <= 20:
        axis.update(tickmode="linear", tick0=0, dtick=1)  # small tables: every index, no 0.5 ticks
    return axis


def _category_labels(labels: Sequence[str], index_labels: bool, what: str) -> list[str]:
    """Escaped category labels; a category axis merges equal labels, so they must be unique."""
    if index_labels:
        return axis_labels(list(labels))
    out = [escape(label) for label in labels]
    if len(set(out)) != len(out):
        raise ValueError(f"{what} labels repeat ({out}): pass index_labels=True to prefix each with its index")
    return out


def value_heatmap(
    a: np.ndarray,
    row_labels: Sequence[str] | None,
    col_labels: Sequence[str] | None,
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    hover_name: str = "value",
    colorscale: str = "sequential",
    zmin: float | None = None,
    zmax: float | None = None,
    text_fmt: str | None = ".2f",
    square: bool = True,
    index_labels: bool = True,
    reverse_y: bool = True,
    height: int | None = None,
    scale: float = 1.0,
) -> Spec:
    """Any matrix [rows, cols] as a heatmap: toy scores and weights, PE tables, similarities, entropies.

    Labels become category axes "i label" (unique and escaped, as in the attention heatmap), or
    the labels as given with index_labels=False (for names that are unique already, such as
    "layer 1"; a repeat then raises ValueError); None gives a numeric axis 0..n-1, for tables too
    big to label. Up to 16 x 16 cells, text_fmt (a
    Python format spec) writes each value in its cell and "−∞" for a masked score. Non-finite cells
    (-inf, NaN) are left blank. colorscale "sequential" (white = the minimum) or "diverging" (white
    = 0; zmin/zmax default to ±max|a|, so the sign is the colour). Row 0 is at the top unless
    reverse_y=False.
    """
    m = np.asarray(a)
    if m.ndim != 2:
        raise ValueError(f"matrix must have 2 dimensions, got {m.ndim} (shape {m.shape})")
    if m.size == 0:
        raise ValueError(f"matrix is empty (shape {m.shape})")
    n_rows, n_cols = m.shape
    if row_labels is not None and len(row_labels) != n_rows:
        raise ValueError(f"matrix has {n_rows} rows but {len(row_labels)} row labels")
    if col_labels is not None and len(col_labels) != n_cols:
        raise ValueError(f"matrix has {n_cols} columns but {len(col_labels)} column labels")
    if colorscale not in ("sequential", "diverging"):
        raise ValueError(f"colorscale must be 'sequential' or 'diverging', got {colorscale!r}")
    m = as_float(m)
    finite = np.isfinite(m)
    z = np.where(finite, m, np.nan).astype(m.dtype)  # Plotly leaves NaN cells blank
    if colorscale == "diverging":
        top = float(np.abs(m[finite]).max()) if finite.any() else 0.0
        top = top if top > 0 else 1.0
        lo = -top if zmin is None else float(zmin)
        hi = top if zmax is None else float(zmax)
    else:
        lo = (float(m[finite].min()) if finite.any() else 0.0) if zmin is None else float(zmin)
        hi = (float(m[finite].max()) if finite.any() else 1.0) if zmax is None else float(zmax)
        if zmax is None and hi <= lo:  # a constant matrix: any colour range that contains it
            hi = lo + 1.0
    if not hi > lo:
        raise ValueError(f"zmin must be < zmax, got {lo} and {hi}")
    x = _category_labels(col_labels, index_labels, "column") if col_labels is not None else np.arange(n_cols)
    y = _category_labels(row_labels, index_labels, "row") if row_labels is not None else np.arange(n_rows)
    small = n_rows <= CELL_TEXT_MAX and n_cols <= CELL_TEXT_MAX
    row_part = f"{escape(y_title)}: %{{y}}" if y_title else "%{y}"
    col_part = f"{escape(x_title)}: %{{x}}" if x_title else "%{x}"
    trace = dict(
        type="heatmap",
        z=z,
        x=x,
        y=y,
        zmin=lo,
        zmax=hi,
        colorscale=DIVERGING_COLORSCALE if colorscale == "diverging" else ATTENTION_COLORSCALE,
        colorbar=dict(title=dict(text=escape(hover_name)), thickness=round(14 * scale)),
    )
    if small:
        # Few cells: hover text made here, so a masked cell says "−∞" instead of nothing.
        trace.update(
            customdata=[[number_text(v, ".4g") for v in row] for row in m],
            hovertemplate=f"{row_part}<br>{col_part}<br>{escape(hover_name)}: %{{customdata}}<extra></extra>",
            xgap=1,
            ygap=1,
        )
        if text_fmt is not None:
            trace.update(
                text=[[number_text(v, text_fmt) for v in row] for row in m],
                texttemplate="%{text}",  # font: Plotly fits it to the cell, at most the layout font size
            )
    else:
        trace.update(
            hovertemplate=f"{row_part}<br>{col_part}<br>{escape(hover_name)}: %{{z:.4g}}<extra></extra>",
            hoverongaps=False,
        )
    spec = Spec()
    spec.add_trace(trace)
    if height is None:
        height = grid_height(n_rows, scale) if row_labels is not None else round(HEATMAP_HEIGHT_PX * scale)
    spec.update_layout(
        base_layout(scale),
        height=height,
        xaxis=token_axis(x, x_title, scale, angle=True) if col_labels is not None else _numeric_axis(n_cols, x_title),
        yaxis=(
            token_axis(y, y_title, scale, reverse=reverse_y)
            if row_labels is not None
            else _numeric_axis(n_rows, y_title, reverse=reverse_y)
        ),
    )
    if square:
        square_cells(spec)
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    return spec


def head_rows(
    rows: np.ndarray,
    key_tokens: Sequence[str],
    *,
    title: str = "",
    labels: Labels = ENGLISH,
    scale: float = 1.0,
) -> Spec:
    """One query's attention in every head of a layer, [heads, keys]: a row per head, keys numbered
    "i token" (a prompt repeats tokens). Used for the newest token while generating, a target token's
    cross-attention, and a masked position. labels gives "head", "key" (the x title) and "weight"."""
    head_word, key_title, weight_word = labels.head, labels.key, labels.weight
    r = np.asarray(rows)
    if r.ndim != 2 or r.shape[1] != len(key_tokens):
        raise ValueError(f"rows must be [heads, {len(key_tokens)}], got {r.shape}")
    return value_heatmap(
        r,
        [f"{head_word} {h + 1}" for h in range(r.shape[0])],
        [f"{i} {tok}" for i, tok in enumerate(key_tokens)],
        index_labels=False,
        title=title,
        x_title=key_title,
        y_title=head_word,
        hover_name=weight_word,
        zmin=0,
        zmax=1,
        text_fmt=".2f" if len(key_tokens) <= CELL_TEXT_MAX else None,
        square=False,
        height=round((200 + 28 * r.shape[0]) * scale),
        scale=scale,
    )


def signed_map(
    a: np.ndarray, title: str, x_title: str, y_title: str, hover: str, *, limit: float | None = None,
    square: bool = True, rows: Sequence[str] | None = None, scale: float = 1.0,
) -> Spec:  # fmt: skip
    """A big signed table (position encodings, their similarities, T5's bias table) with no cell text, on the
    red-white-blue scale symmetric around 0. rows: row names (T5's heads, from 1 as every figure numbers them);
    None: the row index from 0 (a position)."""
    return value_heatmap(
        a, rows, None, title=title, x_title=x_title, y_title=y_title, hover_name=hover, colorscale="diverging",
        zmin=-limit if limit else None, zmax=limit, text_fmt=None, square=square, scale=scale,
        index_labels=rows is None,
    )  # fmt: skip
