"""What a head causes (issue 42): activation-patching maps, direct attribution, the estimate against the exact map,
and a batch's intervals, as pure figures from arrays.

The recovered share is drawn on a FIXED −1…1 diverging scale: white is "changed nothing", full red "brought the whole
answer back", full blue "pushed it the other way". A fixed scale keeps two prompts (and two models) comparable; a cell
past ±1 keeps its true number in its text and hover, so "above 1" and "negative" stay readable as findings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from viz.axes import token_axis
from viz.labels import axis_labels, escape, number_text
from viz.palette import BAR, CHANGED, DIVERGING_COLORSCALE, MUTED, base_layout, font_size
from viz.spec import Spec

CELL_TEXT_MAX = 16  # up to 16 × 16 cells a map writes its numbers in the cells
ROW_PX, BASE_PX, MAX_PX = (
    40,
    190,
    640,
)  # a map's height: rows × 40 px plus title and axes (the colour bar's room), capped


def head_names(n_layers: int, n_heads: int) -> tuple[list[str], list[str]]:
    """Row and column names, numbered from 1 as every figure of the app numbers layers and heads."""
    return [f"L{i + 1}" for i in range(n_layers)], [f"H{h + 1}" for h in range(n_heads)]


def _height(n_rows: int, scale: float) -> int:
    return round(min(BASE_PX + ROW_PX * n_rows, MAX_PX) * scale)


def _signed(z: np.ndarray, limit: float | None) -> tuple[float, float]:
    if limit is not None:
        return -float(limit), float(limit)
    finite = np.abs(z[np.isfinite(z)])
    top = float(finite.max()) if finite.size else 0.0
    return (-top, top) if top > 0 else (-1.0, 1.0)


def _cell_text(v: float) -> str:
    return "" if not np.isfinite(v) else f"{v:.2f}".replace("-0.00", "0.00")


def _check(z: np.ndarray, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
    z = np.asarray(z, dtype=np.float64)
    if z.ndim != 2 or z.size == 0:
        raise ValueError(f"a map must be a non-empty 2-D array, got shape {z.shape}")
    if len(rows) != z.shape[0] or len(cols) != z.shape[1]:
        raise ValueError(f"map of shape {z.shape} has {len(rows)} row names and {len(cols)} column names")
    return z


def signed_cells(
    z: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str,
    x_title: str,
    y_title: str,
    value_name: str,
    limit: float | None = 1.0,
    extra: np.ndarray | None = None,
    extra_name: str = "",
    note: str = "",
    square: bool = False,
    scale: float = 1.0,
) -> Spec:
    """A signed map [rows, cols]: value in the colour (±limit fixed; None: ±max|z|), the true value in the hover,
    `extra` (the raw patched metric) beside it, and `note` (clean and corrupted metric) under both. NaN cells are
    blank: a layer without that head, or prompts that do not disagree."""
    z = _check(z, rows, cols)
    lo, hi = _signed(z, limit)
    x, y = [escape(c) for c in cols], [escape(r) for r in rows]
    hover = f"{escape(y_title)} %{{y}} · {escape(x_title)} %{{x}}<br>{escape(value_name)}: %{{customdata[0]}}"
    raw = np.full_like(z, np.nan) if extra is None else np.asarray(extra, dtype=np.float64)
    if extra is not None:
        hover += f"<br>{escape(extra_name)}: %{{customdata[1]}}"
    if note:
        hover += f"<br>{escape(note)}"
    custom = [[[number_text(v, ".3f"), number_text(r, ".3f")] for v, r in zip(zr, rr, strict=True)]
              for zr, rr in zip(z, raw, strict=True)]  # fmt: skip
    trace = dict(
        type="heatmap", z=np.where(np.isfinite(z), z, np.nan), x=x, y=y, zmin=lo, zmax=hi,
        colorscale=DIVERGING_COLORSCALE, customdata=custom, hovertemplate=hover + "<extra></extra>",
        colorbar=dict(title=dict(text=escape(value_name)), thickness=round(14 * scale), tickvals=[lo, 0.0, hi],
                      ticktext=[number_text(lo, ".2g"), "0", number_text(hi, ".2g")]),
        xgap=1, ygap=1,
    )  # fmt: skip
    if z.shape[0] <= CELL_TEXT_MAX and z.shape[1] <= CELL_TEXT_MAX:
        trace.update(text=[[_cell_text(v) for v in row] for row in z],
                     texttemplate="%{text}", textfont=dict(size=round(font_size(scale) * 0.9)))  # fmt: skip
    spec = Spec(base_layout(scale)).add_trace(trace)
    spec.update_layout(
        title=dict(text=escape(title)),
        height=_height(z.shape[0], scale),
        xaxis=dict(type="category", title=dict(text=escape(x_title)), showgrid=False, ticks=""),
        yaxis=dict(type="category", title=dict(text=escape(y_title)), showgrid=False, ticks="", autorange="reversed"),
    )
    if square:
        spec.update_yaxes(scaleanchor="x", scaleratio=1, constrain="domain")
        spec.update_xaxes(constrain="domain")
    return spec


def token_cells(
    z: np.ndarray,
    rows: Sequence[str],
    tokens: Sequence[str],
    *,
    title: str,
    x_title: str,
    y_title: str,
    value_name: str,
    scale: float = 1.0,
) -> Spec:
    """A [rows, positions] map on the fixed −1…1 scale (a layer's heads by position; the residual stream): the
    columns are the prompt's tokens, "i token", so a repeated word stays two columns."""
    z = np.asarray(z, dtype=np.float64)
    if z.ndim != 2 or z.shape[1] != len(tokens):
        raise ValueError(f"map of shape {z.shape} does not match {len(tokens)} tokens")
    cols = axis_labels(list(tokens))
    spec = signed_cells(z, rows, [str(i) for i in range(len(tokens))], title=title, x_title=x_title,
                        y_title=y_title, value_name=value_name, scale=scale)  # fmt: skip
    trace = spec.data[0]
    trace["x"] = cols
    if "text" in trace:  # only the cells that moved carry a number: a row of 0.00 hid the few that matter
        trace["text"] = [[x if x != "0.00" else "" for x in row] for row in trace["text"]]
    if len(tokens) > CELL_TEXT_MAX:  # wide: hover only
        trace.pop("text", None)
        trace.pop("texttemplate", None)
        trace.pop("textfont", None)
    spec.update_layout(xaxis=token_axis(cols, x_title, scale, angle=True))
    spec.update_layout(margin=dict(b=round(90 * scale)))  # room for the turned token labels
    return spec


def estimate_scatter(
    exact: np.ndarray,
    estimate: np.ndarray,
    names: Sequence[str],
    *,
    flagged: Sequence[bool],
    title: str,
    x_title: str,
    y_title: str,
    line_name: str,
    flagged_name: str,
    others_name: str,
    scale: float = 1.0,
) -> Spec:
    """Attribution patching (y) against exact patching (x), one point per head, on the line y = x where the first-order
    estimate is right; the flagged heads (where they disagree) carry their names on the figure."""
    x, y = np.asarray(exact, float).ravel(), np.asarray(estimate, float).ravel()
    flag = np.asarray(flagged, bool).ravel()
    if not len(x) == len(y) == len(names) == len(flag):
        raise ValueError(f"{len(x)} exact, {len(y)} estimated values, {len(names)} names, {len(flag)} flags")
    ok = np.isfinite(x) & np.isfinite(y)
    both = np.concatenate([x[ok], y[ok], [0.0, 1.0]])
    lo, hi = float(both.min()), float(both.max())
    pad = 0.05 * (hi - lo)
    span = [lo - pad, hi + pad]
    safe = [escape(n) for n in names]
    spec = Spec(base_layout(scale))
    spec.add_trace(dict(type="scatter", x=span, y=span, mode="lines", name=escape(line_name), hoverinfo="skip",
                        line=dict(color=MUTED, dash="dash", width=1)))  # fmt: skip
    for which, name, color, text in ((~flag, others_name, BAR, False), (flag, flagged_name, CHANGED, True)):
        keep = which & ok
        if not keep.any():
            continue
        trace = dict(
            type="scatter", x=x[keep], y=y[keep], name=escape(name), customdata=[safe[i] for i in np.flatnonzero(keep)],
            mode="markers+text" if text else "markers", marker=dict(color=color, size=round(9 * scale)),
            hovertemplate=f"%{{customdata}}<br>{escape(x_title)}: %{{x:.3f}}<br>{escape(y_title)}: %{{y:.3f}}"
            "<extra></extra>",
        )  # fmt: skip
        if text:
            trace.update(text=[safe[i] for i in np.flatnonzero(keep)], textposition="top center")
        spec.add_trace(trace)
    spec.update_layout(
        title=dict(text=escape(title)), height=round(420 * scale),
        xaxis=dict(title=dict(text=escape(x_title)), range=span, zeroline=True),
        yaxis=dict(title=dict(text=escape(y_title)), range=span, zeroline=True),
        legend=dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom"),
        margin=dict(b=round(70 * scale)),
    )  # fmt: skip
    return spec


def interval_bars(
    mean: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    names: Sequence[str],
    *,
    title: str,
    x_title: str,
    value_name: str,
    scale: float = 1.0,
) -> Spec:
    """Each head's mean recovered share over a batch of prompt pairs with its bootstrap 95% interval, one row per head
    (the first at the top): one prompt is an anecdote, eight give an interval."""
    mean, low, high = (np.asarray(a, float).ravel() for a in (mean, low, high))
    if not len(mean) == len(low) == len(high) == len(names) or not len(mean):
        raise ValueError(f"{len(mean)} means, {len(low)} lows, {len(high)} highs, {len(names)} names")
    y = [escape(n) for n in names]
    trace = dict(
        type="scatter", x=mean, y=y, mode="markers", name=escape(value_name), marker=dict(color=CHANGED, size=9),
        error_x=dict(type="data", symmetric=False, array=high - mean, arrayminus=mean - low, color=MUTED),
        customdata=[[number_text(a, ".2f"), number_text(b, ".2f")] for a, b in zip(low, high, strict=True)],
        hovertemplate=f"%{{y}}<br>{escape(value_name)}: %{{x:.2f}}<br>95%: %{{customdata[0]}} … %{{customdata[1]}}"
        "<extra></extra>",
    )  # fmt: skip
    spec = Spec(base_layout(scale)).add_trace(trace)
    spec.update_layout(
        title=dict(text=escape(title)), height=_height(len(y), scale), showlegend=False,
        xaxis=dict(title=dict(text=escape(x_title)), zeroline=True),
        yaxis=dict(type="category", autorange="reversed"),
        shapes=[dict(type="line", x0=1, x1=1, y0=0, y1=1, yref="paper", line=dict(color=MUTED, dash="dot", width=1))],
    )  # fmt: skip
    return spec
