"""Where a model's parameters sit, and how many parameters and tokens a given loss needs.

param_treemap shows that in a small model the embeddings, not attention, hold most of the weights,
and that grouped-query attention shrinks K and V. scaling_contours is the Chinchilla picture
(Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models", fig. 2-4): iso-loss lines
over parameters N and training tokens D, the iso-compute lines C ≈ 6·N·D (Kaplan et al. 2020,
section 2.1) and the compute-optimal allocation along which a given budget reaches the lowest loss.

Numbers only: the page counts the parameters and evaluates the fitted loss; these functions draw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from viz.labels import escape
from viz.palette import ATTENTION_COLORSCALE, HEAD_COLORS, HIGHLIGHT, INK, MUTED, base_layout, font_size
from viz.plots import GRID, _legend_below

TREEMAP_HEIGHT_PX = 380
SCALING_HEIGHT_PX = 480
ROOT_ID = "root"  # id of the total's tile, and the key of its label in `names`
ROOT_COLOR = "#f4f4f4"
CHILD_TINT = (0.2, 0.55)  # children of a component: its colour mixed with this much white, first..last child
FLOPS_PER_PARAM_TOKEN = 6  # C ≈ 6·N·D: 2 FLOPs per parameter per token forward, 4 backward (Kaplan et al. 2020)
HEATMAP_OPACITY = 0.3  # the loss surface is context; the labelled lines carry the values
CONTOUR_COLOR = ATTENTION_COLORSCALE[7][1]  # "#08519c", the dark blue of strong attention
POINT_PAD = 0.15  # decades of room beyond a point that lies outside the grid
NEAR_DECADES = 0.45  # two point labels closer than this (in decades, on both axes) would overlap
_UNITS = (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3))


def short_count(n: int) -> str:
    """A count as 3 significant digits and a unit: 999, 1.23K, 131K, 1.5M, 8.03B.

    Parameter and token counts span eleven decades; three digits tell models apart (Llama 3 "8B"
    has 8.03B) without a column of digits to count.
    """
    n = int(n)
    if n < 0:
        return "-" + short_count(-n)
    if n < 1000:
        return str(n)
    rounded = float(f"{n:.3g}")  # round first: 999 600 is "1M", not "1000K"
    for unit, size in _UNITS:
        if rounded >= size:
            v = rounded / size
            return (f"{v:.0f}" if v >= 1000 else f"{v:.3g}") + unit
    return str(n)  # not reached: rounded >= 1000


@dataclass(frozen=True)
class ScalingLabels:
    """Words scaling_contours shows (axis titles, hover, legend). English defaults; pages pass a translation."""

    n_axis: str = "parameters N"
    d_axis: str = "training tokens D"
    loss: str = "loss"
    frontier: str = "compute-optimal"


# ---------------------------------------------------------------- parameter treemap


def _hex_rgb(color: str) -> tuple[int, int, int]:
    h = color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _tint(color: str, white: float) -> str:
    """color mixed with `white` (0..1) parts of white: Q, K, V and O are shades of attention's colour."""
    r, g, b = (round(c + (255 - c) * white) for c in _hex_rgb(color))
    return f"#{r:02x}{g:02x}{b:02x}"


def _text_color(color: str) -> str:
    """Dark ink on light tiles, white on dark ones (WCAG relative luminance)."""

    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in _hex_rgb(color))
    return INK if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.3 else "white"


def _split_id(part: str) -> tuple[str, str | None]:
    """'attention.q' -> ('attention', 'q'); 'ffn' -> ('ffn', None). One level of nesting."""
    segments = part.split(".")
    if len(segments) > 2 or not all(segments):
        raise ValueError(f"part id {part!r} must be 'name' or 'parent.child' (one dot, no empty names)")
    return segments[0], (segments[1] if len(segments) == 2 else None)


def param_treemap(parts: dict[str, int], names: dict[str, str], title: str = "", scale: float = 1.0) -> go.Figure:
    """Parameter counts as nested tiles, area = count: which part of the model is big.

    parts maps ids to counts; "attention.q" is child "q" of "attention", whose tile is the sum of
    its children (branchvalues="total"); a root tile holds the total. Parts with 0 parameters (an
    output head tied to the embeddings) are left out, but the colours follow the order of the
    top-level ids in parts, zeros included, so a component keeps its colour from model to model.
    names gives each tile's label: the full id, else (for a child) its last segment, else the id
    itself; names["root"] labels the total. Tiles read "label, 131K, 38.1%" (of the total); hover
    gives the exact count.
    """
    top_order: list[str] = []
    children: dict[str, list[tuple[str, int]]] = {}
    leaves: dict[str, int] = {}
    for part, count in parts.items():
        if part.split(".")[0] == ROOT_ID:
            raise ValueError(f"part id {part!r}: {ROOT_ID!r} is reserved for the total")
        if int(count) < 0:
            raise ValueError(f"part {part!r} has a negative parameter count ({count})")
        parent, child = _split_id(part)
        if parent not in top_order:
            top_order.append(parent)
        if child is None:
            leaves[part] = int(count)
        else:
            children.setdefault(parent, []).append((part, int(count)))
    both = sorted(set(leaves) & set(children))
    if both:
        raise ValueError(f"{both} given both as a part and as a parent of parts: give only the children")
    total = sum(int(c) for c in parts.values())
    if total <= 0:
        raise ValueError("every part has 0 parameters: nothing to draw")

    def label(part: str) -> str:
        child = part.rsplit(".", 1)[-1]
        return escape(names.get(part, names.get(child, child) if "." in part else part))

    ids, parents, labels, values, colors = [ROOT_ID], [""], [label(ROOT_ID)], [total], [ROOT_COLOR]
    for i, top in enumerate(top_order):
        color = HEAD_COLORS[i % 10]  # the ten dark category10 colours; children get lighter shades
        kids = [(p, c) for p, c in children.get(top, []) if c > 0]
        count = leaves.get(top, sum(c for _, c in kids))
        if count == 0:
            continue
        ids.append(escape(top))  # ids are never shown, but they travel in the page's JSON
        parents.append(ROOT_ID)
        labels.append(label(top))
        values.append(count)
        colors.append(color)
        for k, (part, c) in enumerate(kids):
            lo, hi = CHILD_TINT
            ids.append(escape(part))
            parents.append(escape(top))
            labels.append(label(part))
            values.append(c)
            colors.append(_tint(color, lo + (hi - lo) * k / max(1, len(kids) - 1)))
    has_kids = set(parents)
    pct = [f"{100 * v / total:.1f}%" for v in values]
    # Plotly writes only the label in a parent's header (texttemplate is for tiles without children),
    # so a parent's label carries its numbers, on one line; a leaf's text stacks them to fit a narrow tile.
    shown = [
        f"{lab} · {short_count(v)} · {p}" if i in has_kids else lab
        for i, lab, v, p in zip(ids, labels, values, pct, strict=True)
    ]
    text = [f"{lab}<br>{short_count(v)}<br>{p}" for lab, v, p in zip(labels, values, pct, strict=True)]
    fs = font_size(scale)
    fig = go.Figure(
        go.Treemap(
            ids=ids,
            parents=parents,
            labels=shown,
            values=values,
            branchvalues="total",
            text=text,
            texttemplate="%{text}",
            textfont=dict(size=fs, color=[_text_color(c) for c in colors]),
            customdata=[[lab, f"{v:,}", p] for lab, v, p in zip(labels, values, pct, strict=True)],
            hovertemplate="<b>%{customdata[0]}</b><br>%{customdata[1]}<br>%{customdata[2]}<extra></extra>",
            marker=dict(colors=colors, line=dict(color="white", width=max(1, round(1.5 * scale)))),
            tiling=dict(pad=round(2 * scale)),
            pathbar=dict(visible=False),  # the root tile's header already says what you are in
        )
    )
    layout = base_layout(scale)
    small = round(4 * scale)
    layout["margin"] = dict(l=small, r=small, b=small, t=round(40 * scale) if title else small)
    fig.update_layout(
        **layout,
        height=round(TREEMAP_HEIGHT_PX * scale),
        uniformtext=dict(minsize=max(8, round(fs * 0.7)), mode="hide"),  # no text in a tile too small to read it
    )
    if title:
        fig.update_layout(title_text=escape(title))
    return fig


# ---------------------------------------------------------------- scaling contours


def _positive_axis(values, what: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"{what} must be 1-D with at least 2 values, got shape {arr.shape}")
    if not (np.all(np.isfinite(arr)) and np.all(arr > 0)):
        raise ValueError(f"{what} must be finite and > 0 (they go on a log axis)")
    if not np.all(np.diff(arr) > 0):
        raise ValueError(f"{what} must be increasing")
    return arr


def _decade_ticks(lo: float, hi: float) -> dict:
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


def _level_groups(levels: np.ndarray) -> list[tuple[float, float, float]]:
    """(start, end, size) per Contour trace: Plotly draws only evenly spaced levels, so uneven
    levels get one trace each (start = end), and even ones share a single trace."""
    if levels.size == 1:
        return [(float(levels[0]), float(levels[0]), 1.0)]
    steps = np.diff(levels)
    if np.allclose(steps, steps[0], rtol=1e-6, atol=0):
        return [(float(levels[0]), float(levels[-1]), float(steps[0]))]
    return [(float(v), float(v), 1.0) for v in levels]


def _widen(span: list[float], v: float) -> list[float]:
    """span grown to show v with POINT_PAD to spare, if v lies outside it."""
    if span[0] <= v <= span[1]:
        return span
    return [min(span[0], v - POINT_PAD), max(span[1], v + POINT_PAD)]


def _counts(ns, ds) -> list[list[str]]:
    """Hover text pairs [N, D] in short form."""
    return [[short_count(round(a)), short_count(round(b))] for a, b in zip(ns, ds, strict=True)]


def _label_positions(xy: list[tuple[float, float]], x_range: list[float], y_range: list[float]) -> list[str]:
    """Greedy textposition per point: the first corner whose label does not sit on an earlier
    label nearby, preferring the side away from the plot's right and top edges."""
    chosen: list[str] = []
    for i, (x, y) in enumerate(xy):
        h = "left" if x > x_range[1] - 0.25 * (x_range[1] - x_range[0]) else "right"
        v = "bottom" if y > y_range[1] - 0.1 * (y_range[1] - y_range[0]) else "top"
        other_h, other_v = ("right" if h == "left" else "left"), ("top" if v == "bottom" else "bottom")
        options = [f"{v} {h}", f"{other_v} {h}", f"{v} {other_h}", f"{other_v} {other_h}"]
        near = {
            chosen[j] for j, (xj, yj) in enumerate(xy[:i]) if abs(xj - x) < NEAR_DECADES and abs(yj - y) < NEAR_DECADES
        }
        chosen.append(next((o for o in options if o not in near), options[0]))
    return chosen


def scaling_contours(
    n_values,
    d_values,
    loss,
    levels: Sequence[float],
    points: Sequence[tuple[str, float, float]],
    frontier: tuple[np.ndarray, np.ndarray] | None,
    compute_lines: Sequence[tuple[str, float]],
    labels: ScalingLabels | None = None,
    scale: float = 1.0,
) -> go.Figure:
    """Iso-loss lines over parameters N (x) and training tokens D (y), both logarithmic.

    loss [ny, nx] is the fitted loss at d_values[i], n_values[j] (both increasing, > 0). The axes
    are in log10 units on linear axes, ticks labelled as counts (1B, 10B), so lines and points sit
    exactly where the numbers say. Traces, in order: the loss as a faint heatmap (hover: N, D, loss
    to 3 decimals), the contour lines at `levels` (one trace when evenly spaced, else one per level),
    the iso-compute lines D = C / (6N) clipped to the plot (dashed grey, labelled, no legend entry),
    the frontier (n, d) if given, and the points (name, N, D) as labelled markers. The plot covers the
    grid, widened to show every point; the frontier is cut off at its edges.
    """
    labels = labels or ScalingLabels()
    n = _positive_axis(n_values, "n_values")
    d = _positive_axis(d_values, "d_values")
    z = np.asarray(loss, dtype=np.float64)
    if z.shape != (d.size, n.size):
        raise ValueError(f"loss must be [len(d_values), len(n_values)] = [{d.size}, {n.size}], got {z.shape}")
    lv = np.unique(np.asarray(levels, dtype=np.float64))
    if lv.size == 0 or not np.all(np.isfinite(lv)):
        raise ValueError("levels must be at least one finite loss value")
    for name, pn, pd in points:
        if not (pn > 0 and pd > 0):
            raise ValueError(f"point {name!r} needs N > 0 and D > 0, got N={pn}, D={pd}")
    for text, c in compute_lines:
        if not c > 0:
            raise ValueError(f"compute line {text!r} needs C > 0, got {c}")

    lx, ly = np.log10(n), np.log10(d)
    x_range = [float(lx[0]), float(lx[-1])]
    y_range = [float(ly[0]), float(ly[-1])]
    pxy = [(math.log10(pn), math.log10(pd)) for _, pn, pd in points]
    for px, py in pxy:  # a point outside the grid widens the plot, with room for its marker
        x_range = _widen(x_range, px)
        y_range = _widen(y_range, py)

    fs = font_size(scale)
    n_name, d_name, loss_name = escape(labels.n_axis), escape(labels.d_axis), escape(labels.loss)
    nd_hover = f"{n_name}: %{{customdata[0]}}<br>{d_name}: %{{customdata[1]}}"
    n_short, d_short = [short_count(round(v)) for v in n], [short_count(round(v)) for v in d]
    fig = go.Figure()
    # Low loss is the goal: darkest where the loss is lowest, paper white where it is highest.
    reversed_blues = [[round(1 - p, 6), c] for p, c in reversed(ATTENTION_COLORSCALE)]
    fig.add_trace(
        go.Heatmap(
            x=lx,
            y=ly,
            z=z,
            colorscale=reversed_blues,
            opacity=HEATMAP_OPACITY,
            zsmooth="best",
            showscale=False,
            customdata=[[[ns, ds] for ns in n_short] for ds in d_short],
            hovertemplate=f"{nd_hover}<br>{loss_name}: %{{z:.3f}}<extra></extra>",
            hoverongaps=False,
            name=loss_name,
            showlegend=False,
        )
    )
    for k, (start, end, size) in enumerate(_level_groups(lv)):
        fig.add_trace(
            go.Contour(
                x=lx,
                y=ly,
                z=z,
                autocontour=False,
                contours=dict(
                    start=start,
                    end=end,
                    size=size,
                    coloring="none",
                    showlabels=True,
                    labelformat=".3~f",
                    labelfont=dict(size=round(fs * 0.85), color=CONTOUR_COLOR),
                ),
                line=dict(color=CONTOUR_COLOR, width=1.5 * scale),
                hoverinfo="skip",
                name=loss_name,
                legendgroup="loss",
                showlegend=k == 0,
            )
        )
    grey = dict(color=MUTED, width=1.2 * scale, dash="dash")
    log6 = math.log10(FLOPS_PER_PARAM_TOKEN)
    for text, c in compute_lines:
        # log D = log C - log 6 - log N: slope -1; keep the part inside both ranges.
        intercept = math.log10(c) - log6
        x0 = max(x_range[0], intercept - y_range[1])
        x1 = min(x_range[1], intercept - y_range[0])
        if x1 <= x0:
            continue  # this budget lies outside the plot
        xs = np.linspace(x0, x1, 24)
        ys = intercept - xs
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                line=grey,
                customdata=_counts(10**xs, 10**ys),
                hovertemplate=f"{nd_hover}<extra>{escape(text)}</extra>",
                name=escape(text),
                showlegend=False,
            )
        )
        # Label at the middle of the visible part, on the side away from the line (a falling line
        # leaves the upper right and the lower left free), turned inward near the right edge.
        xm = (x0 + x1) / 2
        right_half = xm > (x_range[0] + x_range[1]) / 2
        fig.add_annotation(
            x=xm,
            y=intercept - xm,
            text=escape(text),
            showarrow=False,
            xanchor="right" if right_half else "left",
            yanchor="top" if right_half else "bottom",
            font=dict(size=round(fs * 0.85), color=INK),
            bgcolor="rgba(255,255,255,0.75)",
        )
    if frontier is not None:
        fn = np.asarray(frontier[0], dtype=np.float64).ravel()
        fd = np.asarray(frontier[1], dtype=np.float64).ravel()
        if fn.shape != fd.shape:
            raise ValueError(f"frontier N and D must have the same length, got {fn.size} and {fd.size}")
        ok = (fn > 0) & (fd > 0)  # a log axis has no place for 0: gaps, not errors
        fx = np.where(ok, np.log10(np.where(ok, fn, 1.0)), np.nan)
        fy = np.where(ok, np.log10(np.where(ok, fd, 1.0)), np.nan)
        fig.add_trace(
            go.Scatter(
                x=fx,
                y=fy,
                mode="lines",
                line=dict(color=HIGHLIGHT, width=2.5 * scale),
                customdata=_counts(np.where(ok, fn, 0), np.where(ok, fd, 0)),
                hovertemplate=f"{nd_hover}<extra></extra>",
                name=escape(labels.frontier),
            )
        )
    if points:
        names = [escape(name) for name, _, _ in points]
        pn, pd = (np.array([p[k] for p in points], dtype=np.float64) for k in (1, 2))
        fig.add_trace(
            go.Scatter(
                x=[p[0] for p in pxy],
                y=[p[1] for p in pxy],
                mode="markers+text",
                marker=dict(color=INK, size=round(8 * scale), line=dict(color="white", width=1)),
                text=names,
                textposition=_label_positions(pxy, x_range, y_range),
                textfont=dict(size=round(fs * 0.9), color=INK),
                cliponaxis=False,
                customdata=[[nm, *c] for nm, c in zip(names, _counts(pn, pd), strict=True)],
                hovertemplate=(
                    f"<b>%{{customdata[0]}}</b><br>{n_name}: %{{customdata[1]}}<br>{d_name}: %{{customdata[2]}}"
                    "<extra></extra>"
                ),
                showlegend=False,
            )
        )
    axis = dict(gridcolor=GRID, zeroline=False, showline=False)
    layout = base_layout(scale)
    layout["margin"]["t"] = round(20 * scale)  # no title: room for the top tick label only
    layout.update(
        height=round(SCALING_HEIGHT_PX * scale),
        xaxis=dict(axis, title=dict(text=n_name), range=x_range, **_decade_ticks(*x_range)),
        yaxis=dict(axis, title=dict(text=d_name), range=y_range, **_decade_ticks(*y_range)),
    )
    _legend_below(fig, layout, "", scale)
    return fig
