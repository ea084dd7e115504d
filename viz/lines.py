"""lines(): one line per series over a shared x, with percentile bands and labelled reference lines.

The pages pass every word already translated (axis titles, legend names, titles); the figure escapes
whatever it draws, because tokens such as "<b>" end up in legend names too. Numbers only, no model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from viz.axes import GRID, legend_below, log_position, log_range, log_span, log_ticks, positive_only
from viz.check import check_vector
from viz.labels import escape
from viz.palette import INK, MASK_KIND_COLORS, MUTED, WEIGHT_DASH, base_layout, font_size, head_color, rgba
from viz.spec import Spec

BAND_ALPHA = 0.18  # a percentile band is context, the line is the answer

LINES_HEIGHT_PX = 380


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


def sweep_bands(runs: dict[str, dict[str, np.ndarray]], what: str, name, masks=("causal", "bidirectional"),
                weights=("trained", "random")) -> list[Series]:  # fmt: skip
    """One Series per (weights, mask) of a sweep's runs[weights][f"{mask}.{what}"] ([lengths, samples]): the mean
    over the samples with their min..max as the band, coloured by mask and dashed by weights (the rank lesson's
    sweep). name(mask, weights) gives the legend entry, already translated."""
    out = []
    for w in weights:
        for kind in masks:
            values = runs[w][f"{kind}.{what}"]
            out.append(Series(name(kind, w), values.mean(-1), low=values.min(-1), high=values.max(-1),
                              color=MASK_KIND_COLORS[kind], dash=WEIGHT_DASH[w]))  # fmt: skip
    return out


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
    vline_labels: str = "right",
    y_range: tuple[float, float] | None = None,
    height: int | None = None,
    scale: float = 1.0,
) -> Spec:
    """One line per Series over a shared x [n], with optional bands and labelled reference lines.

    Traces, in order: per series its band (two traces, low then high filled to it; no legend, no
    hover) if it has one, then its line. On a log axis a value <= 0 has no place, so it becomes a
    gap (NaN) in the line instead of being dropped silently by Plotly; a reference line at <= 0 on a
    log axis raises ValueError. vlines/hlines are (value, label) pairs, drawn as thin dashed grey
    lines; current is the value a slider selects, drawn as a solid dark line. vline_labels puts the
    vlines' labels "right" of their lines (the default) or "left" of them, say to keep them off a
    current line just right of a vline. y_range is in data units on a log axis too.
    """
    if not series:
        raise ValueError("lines needs at least one series")
    xs = check_vector(x, None, "x")
    if log_x:
        xs = positive_only(xs)
    fs = font_size(scale)
    spec = Spec()
    for i, s in enumerate(series):
        color = s.color or head_color(i)
        name = escape(s.name)
        y = check_vector(s.y, xs.size, f"series {s.name!r} y")
        if log_y:
            y = positive_only(y)
        if log_x:
            y[np.isnan(xs)] = np.nan
        if (s.low is None) != (s.high is None):
            raise ValueError(f"series {s.name!r}: give both low and high for a band, or neither")
        if s.low is not None:
            band = [check_vector(b, xs.size, f"series {s.name!r} {w}") for b, w in ((s.low, "low"), (s.high, "high"))]
            for k, edge in enumerate(band):
                if log_y:
                    edge = positive_only(edge)
                spec.add_trace(
                    dict(
                        type="scatter",
                        x=xs,
                        y=edge,
                        mode="lines",
                        line=dict(width=0, color=color),
                        fill="tonexty" if k == 1 else None,
                        fillcolor=rgba(color, BAND_ALPHA) if k == 1 else None,
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
            x=log_position(value, log_x, "vline"),
            xref="x",
            y=1,
            yref="paper",
            text=escape(label),
            showarrow=False,
            xanchor="right" if vline_labels == "left" else "left",
            yanchor="top",
            xshift=round(3 * scale) * (-1 if vline_labels == "left" else 1),
            yshift=-round(k * 1.6 * small["size"]),
            font=small,
            bgcolor="rgba(255,255,255,0.8)",
        )
    for value, label in hlines:
        spec.add_shape(type="line", xref="paper", yref="y", x0=0, x1=1, y0=value, y1=value, line=ref)
        spec.add_annotation(
            x=1,
            xref="paper",
            y=log_position(value, log_y, "hline"),
            yref="y",
            text=escape(label),
            showarrow=False,
            xanchor="right",
            yanchor="bottom",
            font=small,
        )
    if current is not None:
        log_position(current, log_x, "current")  # checks > 0 on a log axis
        now = dict(color=INK, width=2 * scale)
        spec.add_shape(type="line", xref="x", yref="paper", x0=current, x1=current, y0=0, y1=1, line=now)
    yaxis = dict(title=dict(text=escape(y_title)), type="log" if log_y else "linear", gridcolor=GRID)
    xaxis = dict(title=dict(text=escape(x_title)), type="log" if log_x else "linear", gridcolor=GRID)
    if log_y:
        ys = [check_vector(s.y, xs.size, "y") for s in series] + [
            check_vector(b, xs.size, "band") for s in series for b in (s.low, s.high) if b is not None
        ]
        shown = np.concatenate([*ys, [v for v, _ in hlines], list(y_range or ())])
        yaxis.update(log_ticks(log_span(shown)), range=log_range(shown))
    if log_x:
        xaxis.update(log_ticks(np.concatenate([xs, [v for v, _ in vlines], [current] if current else []]), True))
    if y_range is not None:
        lo, hi = (log_position(v, log_y, "y_range") for v in y_range)
        yaxis["range"] = [lo, hi]
    layout = base_layout(scale)
    layout.update(
        height=height if height is not None else round(LINES_HEIGHT_PX * scale),
        xaxis=xaxis,
        yaxis=yaxis,
    )
    legend_below(spec, layout, title, scale)
    return spec
