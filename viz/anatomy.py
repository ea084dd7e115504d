"""Where a model's parameters sit, and how many parameters and tokens a given loss needs.

param_treemap shows that in a small model the embeddings, not attention, hold most of the weights,
and that grouped-query attention shrinks K and V. scaling_contours is the Chinchilla picture
(Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models", fig. 2-4): iso-loss lines
over parameters N and training tokens D, the iso-compute lines C ≈ 6·N·D (Kaplan et al. 2020,
section 2.1) and the compute-optimal allocation along which a given budget reaches the lowest loss.

Numbers only: the page counts the parameters and evaluates the fitted loss; these functions draw.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from viz.labels import escape
from viz.palette import ATTENTION_COLORSCALE, HEAD_COLORS, HIGHLIGHT, INK, MUTED, base_layout, font_size
from viz.plots import GRID, _legend_below
from viz.spec import Spec, unvalidated

TREEMAP_HEIGHT_PX = 380
SCALING_HEIGHT_PX = 540  # 60 more than before: the legend names seven models
ROOT_ID = "root"  # id of the total's tile, and the key of its label in `names`
ROOT_COLOR = "#f4f4f4"
CHILD_TINT = (0.2, 0.55)  # children of a component: its colour mixed with this much white, first..last child
FLOPS_PER_PARAM_TOKEN = 6  # C ≈ 6·N·D: 2 FLOPs per parameter per token forward, 4 backward (Kaplan et al. 2020)
HEATMAP_OPACITY = 0.3  # the loss surface is context; the labelled lines carry the values
CONTOUR_COLOR = ATTENTION_COLORSCALE[7][1]  # "#08519c", the dark blue of strong attention
POINT_PAD = 0.15  # decades of room beyond a point that lies outside the grid
POINT_SIZE_PX = 8  # a published model's dot
ALLOCATION_SIZE_PX = 16  # a budget's allocations: larger than the models' dots, which may sit on them
# Filled, then open: the exact minimum and 20 tokens per parameter nearly coincide at small budgets,
# and a star inside an open diamond shows both.
ALLOCATION_SYMBOLS = ("star", "diamond-open", "square-open", "triangle-up-open", "circle-open")
# Plot areas (width, height at scale 1) in px at figure widths 420 (a phone), 700 and 1400 with the
# legend below: labels are placed to fit all three, as the page, not the figure, sets the width.
PLOT_AREAS_PX = ((340, 285), (620, 375), (1320, 405))
NUMBER_RADII_PX = (20, 30, 42, 56)  # a model's number, this far from its dot (at scale 1)
NUMBER_ANGLES = (45, 135, -45, -135, 90, -90, 0, 180)  # degrees counter-clockwise from "right", preferred first
NUMBER_PAD_PX = 3  # inside a number's box, border included
LABEL_PAD_PX = 2  # inside an iso-compute label's box
LABEL_GAP_PX = 3  # between an iso-compute line and its label
LABEL_STEPS = (0.0, 0.08, 0.16, 0.24)  # an iso-compute label's anchor, this far in from an end of its line
LINE_HEIGHT = 1.3  # a line of text, in font sizes
CHAR_WIDTH = 0.6  # an average Latin glyph, in font sizes; label boxes are estimated, a browser would measure
CJK_START = 0x2E80  # from here on (CJK, kana, hangul, fullwidth forms) a glyph is a full em wide
# Legend order, whatever the drawing order: the surface, the frontier, the selected budget and its
# allocations, then the numbered models (equal ranks keep the order of the traces).
LEGEND_RANK = dict(loss=1, frontier=2, budget=3, allocation=4, model=5)
LossFn = Callable[[float, float], float]  # L(N, D), the page's fitted loss
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
    trace = dict(
        type="treemap",
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
    layout = base_layout(scale)
    small = round(4 * scale)
    layout.update(
        margin=dict(l=small, r=small, b=small, t=round(40 * scale) if title else small),
        height=round(TREEMAP_HEIGHT_PX * scale),
        uniformtext=dict(minsize=max(8, round(fs * 0.7)), mode="hide"),  # no text in a tile too small to read it
    )
    if title:
        layout["title"] = {**layout["title"], "text": escape(title)}
    return unvalidated([trace], layout)


# ---------------------------------------------------------------- scaling contours


_Box = tuple[float, float, float, float]  # left, top, right, bottom in px


@dataclass(frozen=True)
class _View:
    """The plot area at one assumed size in px, y pointing down.

    Plotly draws text in px at a fixed size, while the page decides the width, so a label that
    clears its neighbours on a wide screen can sit on them on a phone. Labels are placed so that
    they fit every view in PLOT_AREAS_PX."""

    width: float
    height: float
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    def px(self, x: float, y: float) -> tuple[float, float]:
        (x0, x1), (y0, y1) = self.x_range, self.y_range
        return (x - x0) / (x1 - x0) * self.width, (y1 - y) / (y1 - y0) * self.height

    def inside(self, box: _Box) -> bool:
        return box[0] >= 0 and box[1] >= 0 and box[2] <= self.width and box[3] <= self.height


def _overlap(a: _Box, b: _Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _square(x: float, y: float, half: float) -> _Box:
    return (x - half, y - half, x + half, y + half)


def _crosses(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    """Segments pq and rs cross (touching ends do not count)."""

    def side(a, b, c) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def _text_px(text: str, size: float) -> float:
    """Estimated width of one line of label text in px: Latin glyphs average CHAR_WIDTH of the font
    size, CJK ones a full em. Tags and entities of the escaped text count as what they show."""
    plain = html.unescape(re.sub(r"<[^>]*>", "", text))
    return size * sum(1.0 if ord(ch) >= CJK_START else CHAR_WIDTH for ch in plain)


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


def _ratio(n: float, d: float) -> str:
    """Tokens per parameter: one decimal near Chinchilla's 20, whole numbers for Llama 3's 1875."""
    r = d / n
    return f"{r:.1f}" if r < 100 else f"{r:.0f}"


def _hover(
    title: str, n: float, d: float, labels: ScalingLabels, point_loss: LossFn | None, *, compute: bool = True
) -> str:
    """Hover text of one (N, D): the counts in short form, D/N and C = 6·N·D, and the loss there if
    point_loss is given (read off the grid it would be off by up to a grid step). title is escaped."""
    rows = [f"<b>{title}</b>"] if title else []
    rows += [f"{escape(labels.n_axis)}: {short_count(round(n))}", f"{escape(labels.d_axis)}: {short_count(round(d))}"]
    if compute:
        rows += [f"D / N: {_ratio(n, d)}", f"C = 6·N·D: {FLOPS_PER_PARAM_TOKEN * n * d:.3g}"]
    if point_loss is not None:
        rows.append(f"{escape(labels.loss)}: {float(point_loss(n, d)):.3f}")
    return "<br>".join(rows)


def _check_points(kind: str, items: Sequence[tuple[str, float, float]]) -> None:
    for name, pn, pd in items:
        if not (pn > 0 and pd > 0):
            raise ValueError(f"{kind} {name!r} needs N > 0 and D > 0, got N={pn}, D={pd}")


def _compute_segment(c: float, x_range: list[float], y_range: list[float]) -> tuple[float, float, float] | None:
    """(intercept, x0, x1) of the line log D = log C - log 6 - log N inside the plot, None if it misses it."""
    intercept = math.log10(c) - math.log10(FLOPS_PER_PARAM_TOKEN)
    x0 = max(x_range[0], intercept - y_range[1])
    x1 = min(x_range[1], intercept - y_range[0])
    return (intercept, x0, x1) if x1 > x0 else None


def _line_label_spots(intercept: float, x0: float, x1: float, x_range: list[float]) -> list[dict]:
    """Where an iso-compute label may go, best first: at the upper-left end of the line (where it
    enters the plot at the left or top edge), at its lower-right end, then a little way in from
    either end (LABEL_STEPS of the visible part); never in the middle, where the models and the
    compute-optimal line are.

    A line of slope -1 leaves free the quadrant above-right and the one below-left of each of its
    points, so a label anchored there by its corner touches the line at that corner and the line
    never runs through its text, whatever the plot's aspect ratio. At the left or bottom edge only
    above-right lies inside the plot, at the top or right edge only below-left; inside, both."""
    spots = []
    for t in LABEL_STEPS:
        for x, low_end in ((x0 + t * (x1 - x0), False), (x1 - t * (x1 - x0), True)):
            on_side_edge = math.isclose(x0 if not low_end else x1, x_range[1] if low_end else x_range[0])
            inner = on_side_edge != low_end  # above-right at the left edge or the bottom edge
            for above_right in (inner,) if t == 0 else (inner, not inner):
                gap = LABEL_GAP_PX if above_right else -LABEL_GAP_PX
                spots.append(
                    dict(
                        x=x,
                        y=intercept - x,
                        xanchor="left" if above_right else "right",
                        yanchor="bottom" if above_right else "top",
                        xshift=gap,
                        yshift=gap,
                    )
                )
    return spots


def _anchored_box(view: _View, spot: dict, w: float, h: float, scale: float) -> _Box:
    """The px box of an annotation anchored at one corner (xanchor/yanchor) with xshift/yshift."""
    x, y = view.px(spot["x"], spot["y"])
    x += spot["xshift"] * scale
    y -= spot["yshift"] * scale  # Plotly's yshift points up
    left = x if spot["xanchor"] == "left" else x - w
    top = y - h if spot["yanchor"] == "bottom" else y
    return (left, top, left + w, top + h)


def _place_line_labels(
    lines: list[tuple[str, float, float, float]],
    views: list[_View],
    markers: list[list[_Box]],
    size: float,
    scale: float,
) -> tuple[list[dict], list[list[_Box]]]:
    """One spot per iso-compute line (text, intercept, x0, x1), in order, and each view's label boxes.

    Of the spots that fit inside the plot in every view, the first that covers no marker and no
    earlier label wins, else the first that fits, else the first."""
    spots: list[dict] = []
    boxes: list[list[_Box]] = [[] for _ in views]
    for text, intercept, x0, x1 in lines:
        w = _text_px(text, size) + 2 * LABEL_PAD_PX * scale
        h = LINE_HEIGHT * size + 2 * LABEL_PAD_PX * scale
        options = _line_label_spots(intercept, x0, x1, views[0].x_range)
        placed = [[_anchored_box(v, o, w, h, scale) for v in views] for o in options]
        fits = [k for k, per_view in enumerate(placed) if all(map(_View.inside, views, per_view))]
        free = [
            k
            for k in fits
            if not any(
                _overlap(box, b)
                for box, taken, marks in zip(placed[k], boxes, markers, strict=True)
                for b in taken + marks
            )
        ]
        best = (free or fits or [0])[0]
        spots.append(options[best])
        for taken, box in zip(boxes, placed[best], strict=True):
            taken.append(box)
    return spots, boxes


def _number_cost(
    i: int,
    box: tuple[float, float],
    off: tuple[float, float],
    views: list[_View],
    centres: list[list[tuple[float, float]]],
    markers: list[list[_Box]],
    labels: list[list[_Box]],
    placed: list[list[tuple[_Box, tuple[float, float], tuple[float, float]]]],
) -> float:
    """Cost of point i's number at px offset off, box = (half width, half height), summed over the views."""
    total = 0.0
    for v, c, marks, texts, done in zip(views, centres, markers, labels, placed, strict=True):
        p = c[i]
        q = (p[0] + off[0], p[1] + off[1])
        rect = (q[0] - box[0], q[1] - box[1], q[0] + box[0], q[1] + box[1])
        total += 0 if v.inside(rect) else 100
        total += 10 * sum(_overlap(rect, b) for b in [*marks, *texts, *(b for b, _, _ in done)])
        total += 3 * sum(_crosses(p, q, a, b) for _, a, b in done)
        along = [(p[0] + (q[0] - p[0]) * k / 8, p[1] + (q[1] - p[1]) * k / 8) for k in range(2, 8)]
        total += 2 * sum(
            any(m[0] <= a[0] <= m[2] and m[1] <= a[1] <= m[3] for a in along) for j, m in enumerate(marks) if j != i
        )
    return total


def _number_offsets(
    xy: list[tuple[float, float]],
    tags: list[str],
    views: list[_View],
    markers: list[list[_Box]],
    labels: list[list[_Box]],
    size: float,
    scale: float,
) -> list[tuple[float, float]]:
    """Pixel offset (ax, ay; ay down) of each point's number from its point, tied to it by a line.

    Greedy, most crowded point first: of the candidates (NUMBER_RADII_PX x NUMBER_ANGLES) the one with
    the lowest cost summed over the views, where a box outside the plot costs most, then a box on a
    marker, an iso-compute label or an earlier number, then a leader line across an earlier one or
    through a marker; ties go to the nearer radius and the earlier-listed direction. markers[v] are
    the boxes of the points (in order) and any other markers, labels[v] the iso-compute labels."""
    candidates = [
        (r * scale * math.cos(math.radians(a)), -r * scale * math.sin(math.radians(a)))
        for r in NUMBER_RADII_PX
        for a in NUMBER_ANGLES
    ]
    centres = [[v.px(x, y) for x, y in xy] for v in views]
    reach = NUMBER_RADII_PX[-1] * scale
    crowd = [sum(math.dist(c[i], q) < reach for c in centres for q in c) for i in range(len(xy))]
    placed: list[list[tuple[_Box, tuple[float, float], tuple[float, float]]]] = [[] for _ in views]  # box, leader
    chosen: dict[int, tuple[float, float]] = {}
    for i in sorted(range(len(xy)), key=lambda k: -crowd[k]):
        half = (_text_px(tags[i], size) / 2 + NUMBER_PAD_PX * scale, LINE_HEIGHT * size / 2 + NUMBER_PAD_PX * scale)
        costs = [_number_cost(i, half, off, views, centres, markers, labels, placed) for off in candidates]
        off = candidates[costs.index(min(costs))]  # the first of equal costs
        chosen[i] = off
        for c, done in zip(centres, placed, strict=True):
            p = c[i]
            q = (p[0] + off[0], p[1] + off[1])
            done.append(((q[0] - half[0], q[1] - half[1], q[0] + half[0], q[1] + half[1]), p, q))
    return [chosen[i] for i in range(len(xy))]


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
    budget: tuple[str, float] | None = None,
    allocations: Sequence[tuple[str, float, float]] = (),
    point_loss: LossFn | None = None,
) -> go.Figure:
    """Iso-loss lines over parameters N (x) and training tokens D (y), both logarithmic.

    loss [ny, nx] is the fitted loss at d_values[i], n_values[j] (both increasing, > 0). The axes
    are in log10 units on linear axes, ticks labelled as counts (1B, 10B), so lines and points sit
    exactly where the numbers say. Traces, in drawing order (the legend follows LEGEND_RANK: loss,
    frontier, budget, allocations, models):
      - the loss as a faint heatmap (hover: N, D, loss to 3 decimals; no legend entry);
      - the contour lines at `levels` (one trace when evenly spaced, else one per level);
      - the iso-compute lines D = C / (6N), dashed grey, no legend entry, each labelled at one end
        (see _line_label_spots), not across the data;
      - budget = (label, C), the selected compute budget: an iso-compute line in HIGHLIGHT drawn
        over the grey ones, labelled (its label placed first) and in the legend;
      - the frontier (n, d) if given;
      - allocations (name, N, D), such as the exact minimum and 20 tokens per parameter for that
        budget: large HIGHLIGHT markers, one symbol and legend entry each;
      - the points (name, N, D), published models: one trace each, a dot numbered k = 1, 2, ... by a
        boxed number on a short leader line, the legend reading "k name". Names beside the dots
        collided (Chinchilla 70B and LLaMA 65B are 2 px apart on a phone) and dashed lines ran
        through them; a digit in a white box fits, placed in px so that it clears every other label
        at widths from a phone to a wide screen (_number_offsets).
    Points, allocations and the frontier hover with N, D, D/N and C = 6·N·D (the number box of a
    point too); point_loss(N, D), the fitted loss function, adds the loss there to them and to the
    iso-compute lines. The plot covers the grid, widened to show every point and allocation; the
    frontier is cut off at its edges.
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
    _check_points("point", points)
    _check_points("allocation", allocations)
    for text, c in [*compute_lines, *([budget] if budget is not None else [])]:
        if not c > 0:
            raise ValueError(f"compute line {text!r} needs C > 0, got {c}")

    lx, ly = np.log10(n), np.log10(d)
    x_range = [float(lx[0]), float(lx[-1])]
    y_range = [float(ly[0]), float(ly[-1])]
    pxy = [(math.log10(pn), math.log10(pd)) for _, pn, pd in points]
    axy = [(math.log10(an), math.log10(ad)) for _, an, ad in allocations]
    for px, py in pxy + axy:  # a point outside the grid widens the plot, with room for its marker
        x_range = _widen(x_range, px)
        y_range = _widen(y_range, py)

    fs = font_size(scale)
    small = round(fs * 0.85)
    n_name, d_name, loss_name = escape(labels.n_axis), escape(labels.d_axis), escape(labels.loss)
    n_short, d_short = [short_count(round(v)) for v in n], [short_count(round(v)) for v in d]
    views = [_View(w, h * scale, tuple(x_range), tuple(y_range)) for w, h in PLOT_AREAS_PX]
    point_r, alloc_r = POINT_SIZE_PX * scale / 2, ALLOCATION_SIZE_PX * scale / 2
    markers = [
        [_square(*v.px(x, y), point_r) for x, y in pxy] + [_square(*v.px(x, y), alloc_r) for x, y in axy] for v in views
    ]

    spec = Spec()
    # Low loss is the goal: darkest where the loss is lowest, paper white where it is highest.
    reversed_blues = [[round(1 - p, 6), c] for p, c in reversed(ATTENTION_COLORSCALE)]
    spec.add_trace(
        dict(
            type="heatmap",
            x=lx,
            y=ly,
            z=z,
            colorscale=reversed_blues,
            opacity=HEATMAP_OPACITY,
            zsmooth="best",
            showscale=False,
            customdata=[[[ns, ds] for ns in n_short] for ds in d_short],
            hovertemplate=(
                f"{n_name}: %{{customdata[0]}}<br>{d_name}: %{{customdata[1]}}<br>"
                f"{loss_name}: %{{z:.3f}}<extra></extra>"
            ),
            hoverongaps=False,
            name=loss_name,
            showlegend=False,
        )
    )
    for k, (start, end, size) in enumerate(_level_groups(lv)):
        spec.add_trace(
            dict(
                type="contour",
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
                    labelfont=dict(size=small, color=CONTOUR_COLOR),
                ),
                line=dict(color=CONTOUR_COLOR, width=1.5 * scale),
                hoverinfo="skip",
                name=loss_name,
                legendgroup="loss",
                legendrank=LEGEND_RANK["loss"],
                showlegend=k == 0,
            )
        )

    # Iso-compute lines: log D = log C - log 6 - log N, the part inside both ranges. The budget's
    # label is placed first, so that it gets the preferred end when two lines are close; its line is
    # drawn last, over the grey ones.
    lines = []  # (text, intercept, x0, x1, is the budget)
    for text, c, chosen in [
        *([(*budget, True)] if budget is not None else []),
        *((*cl, False) for cl in compute_lines),
    ]:
        seg = _compute_segment(c, x_range, y_range)
        if seg is not None:
            lines.append((escape(text), *seg, chosen))
    spots, line_boxes = _place_line_labels([line[:4] for line in lines], views, markers, small, scale)
    for (text, intercept, x0, x1, chosen), spot in sorted(zip(lines, spots, strict=True), key=lambda p: p[0][4]):
        xs = np.linspace(x0, x1, 24)
        ys = intercept - xs
        spec.add_trace(
            dict(
                type="scatter",
                x=xs,
                y=ys,
                mode="lines",
                line=dict(color=HIGHLIGHT if chosen else MUTED, width=(2 if chosen else 1.2) * scale, dash="dash"),
                hovertext=[
                    _hover("", 10**a, 10**b, labels, point_loss, compute=False) for a, b in zip(xs, ys, strict=True)
                ],
                hovertemplate=f"%{{hovertext}}<extra>{text}</extra>",
                name=text,
                showlegend=chosen,
                legendrank=LEGEND_RANK["budget"],
            )
        )
        spec.add_annotation(
            **spot,
            text=text,
            showarrow=False,
            font=dict(size=small, color=HIGHLIGHT if chosen else INK),
            bgcolor="rgba(255,255,255,0.85)",
            bordercolor=HIGHLIGHT if chosen else "rgba(0,0,0,0)",
            borderwidth=1,
            borderpad=LABEL_PAD_PX * scale - 1,
        )
    if frontier is not None:
        fn = np.asarray(frontier[0], dtype=np.float64).ravel()
        fd = np.asarray(frontier[1], dtype=np.float64).ravel()
        if fn.shape != fd.shape:
            raise ValueError(f"frontier N and D must have the same length, got {fn.size} and {fd.size}")
        ok = (fn > 0) & (fd > 0)  # a log axis has no place for 0: gaps, not errors
        fx = np.where(ok, np.log10(np.where(ok, fn, 1.0)), np.nan)
        fy = np.where(ok, np.log10(np.where(ok, fd, 1.0)), np.nan)
        name = escape(labels.frontier)
        spec.add_trace(
            dict(
                type="scatter",
                x=fx,
                y=fy,
                mode="lines",
                line=dict(color=HIGHLIGHT, width=2.5 * scale),
                hovertext=[
                    _hover(name, a, b, labels, point_loss) if good else ""
                    for a, b, good in zip(fn, fd, ok, strict=True)
                ],
                hovertemplate="%{hovertext}<extra></extra>",
                name=name,
                legendrank=LEGEND_RANK["frontier"],
            )
        )
    for j, ((name, an, ad), (x, y)) in enumerate(zip(allocations, axy, strict=True)):
        symbol = ALLOCATION_SYMBOLS[j % len(ALLOCATION_SYMBOLS)]
        spec.add_trace(
            dict(
                type="scatter",
                x=[x],
                y=[y],
                mode="markers",
                marker=dict(
                    symbol=symbol,
                    color=HIGHLIGHT,
                    size=ALLOCATION_SIZE_PX * scale,
                    # an open symbol is its outline; a filled one gets a white rim against the lines
                    line=dict(color=HIGHLIGHT, width=2.5 * scale)
                    if symbol.endswith("-open")
                    else dict(color="white", width=1.5 * scale),
                ),
                hovertext=[_hover(escape(name), an, ad, labels, point_loss)],
                hovertemplate="%{hovertext}<extra></extra>",
                name=escape(name),
                legendrank=LEGEND_RANK["allocation"],
                cliponaxis=False,
            )
        )
    tags = [f"<b>{k + 1}</b>" for k in range(len(points))]
    offsets = _number_offsets(pxy, tags, views, markers, line_boxes, small, scale)
    for (name, pn, pd), (x, y), tag, (ax, ay) in zip(points, pxy, tags, offsets, strict=True):
        hover = _hover(escape(name), pn, pd, labels, point_loss)
        # Drawn after the allocations: at Chinchilla's budget its dot sits on the 20-tokens marker.
        spec.add_trace(
            dict(
                type="scatter",
                x=[x],
                y=[y],
                mode="markers",
                marker=dict(color=INK, size=POINT_SIZE_PX * scale, line=dict(color="white", width=1)),
                hovertext=[hover],
                hovertemplate="%{hovertext}<extra></extra>",
                name=f"{tag} {escape(name)}",
                legendrank=LEGEND_RANK["model"],
                cliponaxis=False,
            )
        )
        spec.add_annotation(
            x=x,
            y=y,
            ax=ax,
            ay=ay,
            text=tag,
            hovertext=hover,
            showarrow=True,
            arrowhead=0,
            arrowwidth=scale,
            arrowcolor=INK,
            standoff=point_r,
            font=dict(size=small, color=INK),
            bgcolor="white",
            bordercolor=INK,
            borderwidth=1,
            borderpad=NUMBER_PAD_PX * scale - 1,
        )
    axis = dict(gridcolor=GRID, zeroline=False, showline=False)
    layout = base_layout(scale)
    layout["margin"]["t"] = round(20 * scale)  # no title: room for the top tick label only
    layout.update(
        height=round(SCALING_HEIGHT_PX * scale),
        xaxis=dict(axis, title=dict(text=n_name), range=x_range, **_decade_ticks(*x_range)),
        yaxis=dict(axis, title=dict(text=d_name), range=y_range, **_decade_ticks(*y_range)),
    )
    _legend_below(spec, layout, "", scale)
    return spec.figure()
