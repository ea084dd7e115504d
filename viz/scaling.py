"""scaling_contours(): how many parameters and tokens a given loss needs.

The Chinchilla picture (Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models",
fig. 2-4): iso-loss lines over parameters N and training tokens D, the iso-compute lines C ≈ 6·N·D
(Kaplan et al. 2020, section 2.1) and the compute-optimal allocation along which a given budget
reaches the lowest loss. Numbers only: the page evaluates the fitted loss; this draws. Where the
text goes is viz.label_placement's job.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from viz.axes import GRID, decade_ticks, legend_below
from viz.check import check_positive_axis
from viz.label_placement import (
    LABEL_PAD_PX,
    NUMBER_PAD_PX,
    PLOT_AREAS_PX,
    View,
    number_offsets,
    place_line_labels,
    square_box,
)
from viz.labels import ScalingLabels, escape, short_count
from viz.palette import ATTENTION_COLORSCALE, HIGHLIGHT, INK, MUTED, base_layout, font_size
from viz.spec import Spec

SCALING_HEIGHT_PX = 540  # 60 more than before: the legend names seven models

FLOPS_PER_PARAM_TOKEN = 6  # C ≈ 6·N·D: 2 FLOPs per parameter per token forward, 4 backward (Kaplan et al. 2020)

HEATMAP_OPACITY = 0.3  # the loss surface is context; the labelled lines carry the values

CONTOUR_COLOR = ATTENTION_COLORSCALE[7][1]  # "#08519c", the dark blue of strong attention

POINT_PAD = 0.15  # decades of room beyond a point that lies outside the grid

POINT_SIZE_PX = 8  # a published model's dot

ALLOCATION_SIZE_PX = 16  # a budget's allocations: larger than the models' dots, which may sit on them

# Filled, then open: the exact minimum and 20 tokens per parameter nearly coincide at small budgets,
# and a star inside an open diamond shows both.
ALLOCATION_SYMBOLS = ("star", "diamond-open", "square-open", "triangle-up-open", "circle-open")

# Legend order, whatever the drawing order: the surface, the frontier, the selected budget and its
# allocations, then the numbered models (equal ranks keep the order of the traces).
LEGEND_RANK = dict(loss=1, frontier=2, budget=3, allocation=4, model=5)

LossFn = Callable[[float, float], float]  # L(N, D), the page's fitted loss


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
) -> Spec:
    """Iso-loss lines over parameters N (x) and training tokens D (y), both logarithmic.

    loss [ny, nx] is the fitted loss at d_values[i], n_values[j] (both increasing, > 0). The axes
    are in log10 units on linear axes, ticks labelled as counts (1B, 10B), so lines and points sit
    exactly where the numbers say. Traces, in drawing order (the legend follows LEGEND_RANK: loss,
    frontier, budget, allocations, models):
      - the loss as a faint heatmap (hover: N, D, loss to 3 decimals; no legend entry);
      - the contour lines at `levels` (one trace when evenly spaced, else one per level);
      - the iso-compute lines D = C / (6N), dashed grey, no legend entry, each labelled at one end
        (see line_label_spots), not across the data;
      - budget = (label, C), the selected compute budget: an iso-compute line in HIGHLIGHT drawn
        over the grey ones, labelled (its label placed first) and in the legend;
      - the frontier (n, d) if given;
      - allocations (name, N, D), such as the exact minimum and 20 tokens per parameter for that
        budget: large HIGHLIGHT markers, one symbol and legend entry each;
      - the points (name, N, D), published models: one trace each, a dot numbered k = 1, 2, ... by a
        boxed number on a short leader line, the legend reading "k name". Names beside the dots
        collided (Chinchilla 70B and LLaMA 65B are 2 px apart on a phone) and dashed lines ran
        through them; a digit in a white box fits, placed in px so that it clears every other label
        at widths from a phone to a wide screen (number_offsets).
    Points, allocations and the frontier hover with N, D, D/N and C = 6·N·D (the number box of a
    point too); point_loss(N, D), the fitted loss function, adds the loss there to them and to the
    iso-compute lines. The plot covers the grid, widened to show every point and allocation; the
    frontier is cut off at its edges.
    """
    labels = labels or ScalingLabels()
    n = check_positive_axis(n_values, "n_values")
    d = check_positive_axis(d_values, "d_values")
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
    views = [View(w, h * scale, tuple(x_range), tuple(y_range)) for w, h in PLOT_AREAS_PX]
    point_r, alloc_r = POINT_SIZE_PX * scale / 2, ALLOCATION_SIZE_PX * scale / 2
    markers = [
        [square_box(*v.px(x, y), point_r) for x, y in pxy] + [square_box(*v.px(x, y), alloc_r) for x, y in axy]
        for v in views
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
    spots, line_boxes = place_line_labels([line[:4] for line in lines], views, markers, small, scale)
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
    offsets = number_offsets(pxy, tags, views, markers, line_boxes, small, scale)
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
        xaxis=dict(axis, title=dict(text=n_name), range=x_range, **decade_ticks(*x_range)),
        yaxis=dict(axis, title=dict(text=d_name), range=y_range, **decade_ticks(*y_range)),
    )
    legend_below(spec, layout, "", scale)
    return spec
