"""Generic charts for the lessons that are not about one attention matrix: lines, bars, histograms,
a matrix of numbers and arrows in a plane.

The pages pass every word already translated (axis titles, legend names, titles); these functions
escape whatever they draw, because tokens such as "<b>" end up in legend names and tick labels too.
Numbers only, no model: the lesson computes the spectrum, the entropies or the encodings, and the
figure only shows them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from viz.axes import as_float, grid_height, square_cells, token_axis
from viz.check import check_index
from viz.labels import axis_labels, escape
from viz.palette import (
    ATTENTION_COLORSCALE,
    BAR,
    DIVERGING_COLORSCALE,
    HIGHLIGHT,
    INK,
    MUTED,
    base_layout,
    font_size,
    head_color,
)
from viz.spec import Spec

GRID = "#eeeeee"
BAND_ALPHA = 0.18  # a percentile band is context, the line is the answer
HIST_OPACITY = 0.55  # overlaid histograms: both stay visible where they overlap
CELL_TEXT_MAX = 16  # value_heatmap writes numbers in the cells up to 16 x 16; above that they cannot be read
LINES_HEIGHT_PX = 380
BARS_HEIGHT_PX = 360
HEATMAP_HEIGHT_PX = 420
PLANE_HEIGHT_PX = 420
PLANE_MARGIN = 1.25  # room around the longest arrow for its label
LEGEND_RANK_VALUES = 1  # bars(): the values before their reference in the legend (Plotly's default rank is 1000)
LEGEND_RANK_REFERENCE = 2


@dataclass(frozen=True)
class Series:
    """One line of a lines() chart; low/high (both or neither) draw a band such as the 10th..90th percentile."""

    name: str  # legend entry (escaped when drawn)
    y: np.ndarray  # [n]
    low: np.ndarray | None = None  # [n]
    high: np.ndarray | None = None  # [n]
    color: str | None = None  # hex "#rrggbb"; None -> HEAD_COLORS by series index
    dash: str = "solid"  # "solid" | "dash" | "dot"
    markers: bool = True


@dataclass(frozen=True)
class Arrow:
    """A 2-D vector from (x0, y0) to (x, y), labelled at its tip."""

    x: float
    y: float
    label: str = ""
    color: str | None = None  # None -> HEAD_COLORS by arrow index
    dash: str = "solid"
    x0: float = 0.0  # tail
    y0: float = 0.0


def _rgba(color: str, alpha: float) -> str:
    """'#rrggbb' or '#rgb' -> 'rgba(r,g,b,alpha)': a band in the colour of its line, see-through."""
    h = color.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if not color.startswith("#") or len(h) != 6:
        raise ValueError(f"band colours must be hex like '#1f77b4', got {color!r}")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def _vector(values, n: int | None, what: str) -> np.ndarray:
    """A 1-D float64 copy (callers write NaN into it), checked for length n when n is given."""
    arr = np.array(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{what} must have 1 dimension, got {arr.ndim} (shape {arr.shape})")
    if arr.size == 0:
        raise ValueError(f"{what} is empty")
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"{what} has {arr.shape[0]} values but x has {n}")
    return arr


def _positive_only(arr: np.ndarray) -> np.ndarray:
    """A log axis cannot place 0 or a negative number: make those points gaps (NaN) in the line."""
    arr = arr.copy()
    arr[~(arr > 0)] = np.nan
    return arr


def _log_position(value: float, log: bool, what: str) -> float:
    """Annotations on a log axis are placed by log10(value) (shapes take the value itself)."""
    if not log:
        return float(value)
    if not value > 0:
        raise ValueError(f"{what} {value} cannot be drawn on a log axis (it must be > 0)")
    return math.log10(value)


def _legend_below(fig: go.Figure | Spec, layout: dict, title: str, scale: float) -> None:
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


def _fmt(value: float, spec: str) -> str:
    """Python format spec (".2f") for a cell or bar, with the infinities a masked score can have."""
    if value == -np.inf:
        return "−∞"
    if value == np.inf:
        return "∞"
    if np.isnan(value):
        return ""
    return format(float(value), spec)


def lines(
    x,
    series: list[Series],
    *,
    x_title: str,
    y_title: str,
    title: str = "",
    log_x: bool = False,
    log_y: bool = False,
    vlines: Sequence[tuple[float, str]] = (),
    hlines: Sequence[tuple[float, str]] = (),
    current: float | None = None,
    y_range: tuple[float, float] | None = None,
    height: int | None = None,
    scale: float = 1.0,
) -> go.Figure:
    """One line per Series over a shared x [n], with optional bands and labelled reference lines.

    Traces, in order: per series its band (two traces, low then high filled to it; no legend, no
    hover) if it has one, then its line. On a log axis a value <= 0 has no place, so it becomes a
    gap (NaN) in the line instead of being dropped silently by Plotly; a reference line at <= 0 on a
    log axis raises ValueError. vlines/hlines are (value, label) pairs, drawn as thin dashed grey
    lines; current is the value a slider selects, drawn as a solid dark line. y_range is in data
    units on a log axis too.
    """
    if not series:
        raise ValueError("lines needs at least one series")
    xs = _vector(x, None, "x")
    if log_x:
        xs = _positive_only(xs)
    fs = font_size(scale)
    spec = Spec()
    for i, s in enumerate(series):
        color = s.color or head_color(i)
        name = escape(s.name)
        y = _vector(s.y, xs.size, f"series {s.name!r} y")
        if log_y:
            y = _positive_only(y)
        if log_x:
            y[np.isnan(xs)] = np.nan
        if (s.low is None) != (s.high is None):
            raise ValueError(f"series {s.name!r}: give both low and high for a band, or neither")
        if s.low is not None:
            band = [_vector(b, xs.size, f"series {s.name!r} {w}") for b, w in ((s.low, "low"), (s.high, "high"))]
            for k, edge in enumerate(band):
                if log_y:
                    edge = _positive_only(edge)
                spec.add_trace(
                    dict(
                        type="scatter",
                        x=xs,
                        y=edge,
                        mode="lines",
                        line=dict(width=0, color=color),
                        fill="tonexty" if k == 1 else None,
                        fillcolor=_rgba(color, BAND_ALPHA) if k == 1 else None,
                        legendgroup=f"series{i}",
                        showlegend=False,
                        hoverinfo="skip",
                        name=name,
                    )
                )
        spec.add_trace(
            dict(
                type="scatter",
                x=xs,
                y=y,
                mode="lines+markers" if s.markers else "lines",
                line=dict(color=color, width=2 * scale, dash=s.dash),
                marker=dict(size=round(6 * scale), color=color),
                legendgroup=f"series{i}",
                name=name,
                hovertemplate=f"{escape(x_title)}: %{{x}}<br>{escape(y_title)}: %{{y:.3g}}<extra>{name}</extra>",
            )
        )
    ref = dict(color=MUTED, width=1 * scale, dash="dash")
    small = dict(size=round(fs * 0.85), color=MUTED)
    for k, (value, label) in enumerate(vlines):
        # Labels inside the top edge, each one a line lower than the last: close lines (1/√d_k and
        # 1/(2√d_k) on a log axis) would otherwise print their labels over each other.
        spec.add_shape(type="line", xref="x", yref="paper", x0=value, x1=value, y0=0, y1=1, line=ref)
        spec.add_annotation(
            x=_log_position(value, log_x, "vline"),
            xref="x",
            y=1,
            yref="paper",
            text=escape(label),
            showarrow=False,
            xanchor="left",
            yanchor="top",
            xshift=round(3 * scale),
            yshift=-round(k * 1.6 * small["size"]),
            font=small,
            bgcolor="rgba(255,255,255,0.8)",
        )
    for value, label in hlines:
        spec.add_shape(type="line", xref="paper", yref="y", x0=0, x1=1, y0=value, y1=value, line=ref)
        spec.add_annotation(
            x=1,
            xref="paper",
            y=_log_position(value, log_y, "hline"),
            yref="y",
            text=escape(label),
            showarrow=False,
            xanchor="right",
            yanchor="bottom",
            font=small,
        )
    if current is not None:
        _log_position(current, log_x, "current")  # checks > 0 on a log axis
        now = dict(color=INK, width=2 * scale)
        spec.add_shape(type="line", xref="x", yref="paper", x0=current, x1=current, y0=0, y1=1, line=now)
    yaxis = dict(title=dict(text=escape(y_title)), type="log" if log_y else "linear", gridcolor=GRID)
    xaxis = dict(title=dict(text=escape(x_title)), type="log" if log_x else "linear", gridcolor=GRID)
    if log_y:
        ys = [_vector(s.y, xs.size, "y") for s in series] + [
            _vector(b, xs.size, "band") for s in series for b in (s.low, s.high) if b is not None
        ]
        yaxis.update(log_ticks(np.concatenate([*ys, [v for v, _ in hlines], list(y_range or ())])))
    if log_x:
        xaxis.update(log_ticks(np.concatenate([xs, [v for v, _ in vlines], [current] if current else []]), True))
    if y_range is not None:
        lo, hi = (_log_position(v, log_y, "y_range") for v in y_range)
        yaxis["range"] = [lo, hi]
    layout = base_layout(scale)
    layout.update(
        height=height if height is not None else round(LINES_HEIGHT_PX * scale),
        xaxis=xaxis,
        yaxis=yaxis,
    )
    _legend_below(spec, layout, title, scale)
    return spec.figure()


def _bar_hover(x_title: str, value_name: str) -> str:
    """Hover of a bars() series: "x title: bar name" or, with no x title, the bar name alone (not
    ": W_v"); then "value name: value", the value name being the series' legend name when there is
    a reference series, so that two bars of one group say which is which."""
    where = f"{escape(x_title)}: %{{customdata}}" if x_title else "%{customdata}"
    value = f"{escape(value_name)}: %{{y:.4g}}" if value_name else "%{y:.4g}"
    return f"{where}<br>{value}<extra></extra>"


def bars(
    values,
    names: Sequence[str],
    *,
    x_title: str,
    y_title: str,
    title: str = "",
    highlight: int | Sequence[int] | None = None,
    text_fmt: str | None = ".3f",
    y_range: tuple[float, float] | None = None,
    log_y: bool = False,
    reference: np.ndarray | None = None,
    names_shown: tuple[str, str] = ("", ""),
    scale: float = 1.0,
) -> go.Figure:
    """One bar per name [n]; the highlighted index (or indices) in red, the rest blue.

    reference [n] draws a second, grey outline bar beside each (e.g. the same tokens' probability
    at temperature 1); names_shown = (legend name of the values, of the reference) then labels both,
    in the legend (values first) and in the hover, where it replaces y_title.

    log_y shows values spread over decades (next-token probabilities, a change of 1e-7 beside one
    of 30); a value <= 0 then has no bar. y_range is in data units either way.

    Bar i sits at x = i and the x axis shows the escaped names as tick text: names may repeat
    (two "the" tokens) and stay two bars, and no "i " prefix is added, which in a top-10 list of
    next tokens would read like a rank or a position. text_fmt is a Python format spec for the
    value written above each bar (None: no text).
    """
    v = _vector(values, None, "values")
    if len(names) != v.size:
        raise ValueError(f"values has {v.size} entries but there are {len(names)} names")
    if highlight is None:
        marked: set[int] = set()
    elif isinstance(highlight, int | np.integer):
        marked = {check_index(highlight, v.size, "highlight")}
    else:
        marked = {check_index(h, v.size, "highlight") for h in highlight}
    ticks = [escape(n) for n in names]
    idx = np.arange(v.size)
    spec = Spec()
    spec.add_trace(
        dict(
            type="bar",
            x=idx,
            y=v,
            marker=dict(color=[HIGHLIGHT if i in marked else BAR for i in idx], line=dict(width=0)),
            text=[_fmt(val, text_fmt) for val in v] if text_fmt is not None else None,
            textposition="outside" if text_fmt is not None else None,
            cliponaxis=False,
            customdata=ticks,
            hovertemplate=_bar_hover(x_title, names_shown[0] if reference is not None and names_shown[0] else y_title),
            showlegend=False,
            name=escape(names_shown[0]),
        )
    )
    if reference is not None:
        ref = _vector(reference, v.size, "reference")
        spec.add_trace(
            dict(
                type="bar",
                x=idx,
                y=ref,
                marker=dict(color="rgba(0,0,0,0)", line=dict(color=MUTED, width=1.5 * scale)),
                customdata=ticks,
                hovertemplate=_bar_hover(x_title, names_shown[1] or y_title),
                name=escape(names_shown[1]),
                legendrank=LEGEND_RANK_REFERENCE,
            )
        )
        # A legend-only entry in the plain bar colour: the first bar may be the highlighted one,
        # and the legend would otherwise borrow its red. It comes after the reference in the data
        # (pages read data[0] and data[1] as values and reference) but first in the legend (rank).
        spec.add_trace(
            dict(
                type="bar",
                x=[None],
                y=[None],
                marker=dict(color=BAR),
                name=escape(names_shown[0]),
                hoverinfo="skip",
                offsetgroup="values",  # shares the values' slot: no empty third bar in each group
                legendrank=LEGEND_RANK_VALUES,
            )
        )
        spec.data[0]["offsetgroup"] = "values"
        spec.update_layout(barmode="group", legend=dict(orientation="h", x=0, yref="container", y=0, yanchor="bottom"))
    yaxis = dict(title=dict(text=escape(y_title)), rangemode="tozero", gridcolor=GRID)
    if log_y:
        shown = [v, list(y_range or ())] + ([reference] if reference is not None else [])
        yaxis = dict(yaxis, type="log", rangemode="normal", **log_ticks(np.concatenate(shown)))
    if y_range is not None:
        yaxis["range"] = [_log_position(r, log_y, "y_range") for r in y_range]
    spec.update_layout(
        base_layout(scale),
        height=round(BARS_HEIGHT_PX * scale),
        xaxis=dict(
            title=dict(text=escape(x_title)),
            tickmode="array",
            tickvals=idx.tolist(),
            ticktext=ticks,
            range=[-0.5, v.size - 0.5],
            showgrid=False,
            zeroline=False,
        ),
        yaxis=yaxis,
        bargap=0.2,
    )
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    return spec.figure()


def histograms(
    samples: dict[str, np.ndarray],
    *,
    x_title: str,
    y_title: str,
    title: str = "",
    bins: int = 60,
    x_range: tuple[float, float] | None = None,
    colors: Sequence[str] | None = None,
    scale: float = 1.0,
) -> go.Figure:
    """Overlaid probability-density histograms, one per entry (legend name = key), on shared bin edges.

    The bins are counted here with numpy, so the figure carries `bins` bars per entry, not the raw
    samples (20 000 dot products would make a slow page). Edges span x_range, or else the joint
    min..max of all finite samples. Density is count / (all finite samples x bin width): without
    x_range each histogram's area is 1; with an x_range that cuts samples off, the area is the
    fraction inside it, so a cut-off distribution does not look taller than it is.
    """
    if not samples:
        raise ValueError("histograms needs at least one sample set")
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins}")
    data = {}
    for name, s in samples.items():
        arr = np.asarray(s, dtype=np.float64).ravel()
        arr = arr[np.isfinite(arr)]
        if arr.size == 0:
            raise ValueError(f"samples {name!r} has no finite values")
        data[name] = arr
    if x_range is not None:
        lo, hi = map(float, x_range)
        if not hi > lo:
            raise ValueError(f"x_range must be (low, high) with low < high, got {x_range}")
    else:
        lo = min(float(a.min()) for a in data.values())
        hi = max(float(a.max()) for a in data.values())
        if hi == lo:  # every sample equal: one bin around it
            lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, bins + 1)
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    spec = Spec()
    for i, (name, arr) in enumerate(data.items()):
        counts, _ = np.histogram(arr, bins=edges)
        label = escape(name)
        spec.add_trace(
            dict(
                type="bar",
                x=centres,
                y=counts / (arr.size * widths),
                width=widths,
                name=label,
                marker=dict(color=colors[i % len(colors)] if colors else head_color(i), line=dict(width=0)),
                opacity=HIST_OPACITY,
                customdata=np.stack([edges[:-1], edges[1:]], axis=-1),
                hovertemplate=(
                    f"{escape(x_title)}: [%{{customdata[0]:.3g}}, %{{customdata[1]:.3g}})<br>"
                    f"{escape(y_title)}: %{{y:.3g}}<extra>{label}</extra>"
                ),
            )
        )
    layout = base_layout(scale)
    layout.update(
        height=round(LINES_HEIGHT_PX * scale),
        barmode="overlay",
        bargap=0,
        xaxis=dict(title=dict(text=escape(x_title)), range=[lo, hi], gridcolor=GRID),
        yaxis=dict(title=dict(text=escape(y_title)), rangemode="tozero", gridcolor=GRID),
    )
    _legend_below(spec, layout, title, scale)
    return spec.figure()


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
) -> go.Figure:
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
            customdata=[[_fmt(v, ".4g") for v in row] for row in m],
            hovertemplate=f"{row_part}<br>{col_part}<br>{escape(hover_name)}: %{{customdata}}<extra></extra>",
            xgap=1,
            ygap=1,
        )
        if text_fmt is not None:
            trace.update(
                text=[[_fmt(v, text_fmt) for v in row] for row in m],
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
    return spec.figure()


def _angle_arc(a: Arrow, b: Arrow, radius: float) -> tuple[np.ndarray, np.ndarray, float, float, float]:
    """Points of the arc from a's direction to b's (the short way) around a's tail, and its angle in degrees."""
    ta = math.atan2(a.y - a.y0, a.x - a.x0)
    tb = math.atan2(b.y - b.y0, b.x - b.x0)
    delta = (tb - ta + math.pi) % (2 * math.pi) - math.pi  # in [-π, π)
    t = ta + np.linspace(0.0, delta, 32)
    mid = ta + delta / 2
    return (
        a.x0 + radius * np.cos(t),
        a.y0 + radius * np.sin(t),
        a.x0 + 1.35 * radius * math.cos(mid),
        a.y0 + 1.35 * radius * math.sin(mid),
        abs(math.degrees(delta)),
    )


def plane_vectors(
    arrows: Sequence[Arrow],
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    circle: float | None = None,
    angle: tuple[int, int] | None = None,
    scale: float = 1.0,
) -> go.Figure:
    """2-D vectors as arrows, one Scatter trace each (trace i = arrows[i]), with equal x and y scales.

    A rotation only looks like a rotation when one unit is as long across as up, so the y axis is
    anchored to x and both ranges are the same ±R around 0, covering every tail and tip. The
    arrowhead is a marker at the tip oriented along the shaft (so a dashed arrow is dashed too).
    circle draws a dashed circle of that radius around 0 (the unit circle, or |q|); angle=(i, j)
    draws the arc from arrow i to arrow j around arrow i's tail, labelled in degrees.
    """
    if not arrows:
        raise ValueError("plane_vectors needs at least one arrow")
    if circle is not None and not circle > 0:
        raise ValueError(f"circle must be a radius > 0, got {circle}")
    fs = font_size(scale)
    spec = Spec()
    for i, a in enumerate(arrows):
        color = a.color or head_color(i)
        label = escape(a.label)
        # Label beyond the tip, on the side the arrow points to.
        side = ("top" if a.y >= a.y0 else "bottom") + (" right" if a.x >= a.x0 else " left")
        spec.add_trace(
            dict(
                type="scatter",
                x=[a.x0, a.x],
                y=[a.y0, a.y],
                mode="lines+markers+text",
                line=dict(color=color, width=2.5 * scale, dash=a.dash),
                marker=dict(symbol="arrow", angleref="previous", size=[0, round(14 * scale)], color=color),
                text=["", label],
                textposition=["middle center", side],
                textfont=dict(color=color, size=fs),
                cliponaxis=False,
                name=label,
                showlegend=False,
                hovertemplate=f"{label} (%{{x:.3g}}, %{{y:.3g}})<extra></extra>",
            )
        )
    coords = [abs(c) for a in arrows for c in (a.x, a.y, a.x0, a.y0)] + [circle or 0.0]
    reach = max(coords)
    reach = PLANE_MARGIN * reach if reach > 0 else 1.0
    if circle is not None:
        spec.add_shape(
            type="circle",
            xref="x",
            yref="y",
            x0=-circle,
            y0=-circle,
            x1=circle,
            y1=circle,
            line=dict(color=MUTED, width=1 * scale, dash="dash"),
            layer="below",
        )
    if angle is not None:
        i, j = (check_index(k, len(arrows), "angle arrow") for k in angle)
        a, b = arrows[i], arrows[j]
        length = min(math.hypot(a.x - a.x0, a.y - a.y0), math.hypot(b.x - b.x0, b.y - b.y0))
        if length > 0:
            xs, ys, tx, ty, degrees = _angle_arc(a, b, 0.3 * length)
            arc_line = dict(color=INK, width=1 * scale)
            spec.add_trace(dict(type="scatter", x=xs, y=ys, mode="lines", line=arc_line, hoverinfo="skip"))
            spec.add_annotation(x=tx, y=ty, text=f"{degrees:.0f}°", showarrow=False, font=dict(color=INK, size=fs))
    axis = dict(range=[-reach, reach], zeroline=True, zerolinecolor=MUTED, gridcolor=GRID, constrain="domain")
    layout = base_layout(scale)
    layout["margin"].update(l=round(45 * scale), r=round(45 * scale))  # room for a label beyond a tip
    spec.update_layout(
        layout,
        height=round(PLANE_HEIGHT_PX * scale),
        showlegend=False,
        xaxis=dict(axis, title=dict(text=escape(x_title))),
        yaxis=dict(axis, title=dict(text=escape(y_title)), scaleanchor="x", scaleratio=1),
    )
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    return spec.figure()


def head_rows(
    rows: np.ndarray,
    key_tokens: Sequence[str],
    *,
    title: str = "",
    head_word: str = "head",
    key_title: str = "key",
    weight_word: str = "weight",
    scale: float = 1.0,
) -> go.Figure:
    """One query's attention in every head of a layer, [heads, keys]: a row per head, keys numbered
    "i token" (a prompt repeats tokens). Used for the newest token while generating, a target token's
    cross-attention, and a masked position."""
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
