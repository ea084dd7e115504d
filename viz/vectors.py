"""plane_vectors(): 2-D vectors as arrows with equal x and y scales, for the rotation in RoPE and the
angle between a query and a key.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from viz.axes import GRID
from viz.check import check_index
from viz.labels import escape
from viz.palette import INK, MUTED, base_layout, font_size, head_color
from viz.spec import Spec

PLANE_HEIGHT_PX = 420

PLANE_MARGIN = 1.25  # room around the longest arrow for its label


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
) -> Spec:
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
    return spec
