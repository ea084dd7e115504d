"""How the prompt was cut into tokens: one chip per token, left to right, wrapped into rows.

Students expect words; a BPE tokenizer gives pieces ("␣the", "cat", "s"), and a Chinese
character is usually one token on its own. Seeing the chips first explains why the attention
matrix has the rows it has.
"""

from __future__ import annotations

import unicodedata

import numpy as np

from viz.labels import ENGLISH, Labels, escape
from viz.palette import INK, base_layout, font_size
from viz.spec import Spec

CHIP_FILL = "#f1f5fb"
CHIP_LINE = "#9ecae1"
CHAR_EM = 0.6  # width of one monospace character in em; East Asian wide characters count double
DEFAULT_WIDTH_PX = 700  # the figure has a fixed width so chips keep their size: render it at content width
CORNER_STEPS = 4  # points per rounded corner


def text_units(token: str) -> int:
    """Approximate display width in monospace cells: CJK (East Asian Wide/Fullwidth) characters count 2."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in token)


# Unit-circle points of each corner's quarter turn (angles in degrees, y grows downwards), computed
# once: evaluating them per chip was most of token_strip's time at a few hundred tokens.
_CORNER_TURNS = {
    start: [(float(np.cos(t)), float(np.sin(t))) for t in np.radians(np.linspace(start, start + 90, CORNER_STEPS))]
    for start in (270, 0, 90, 180)
}


def _rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> tuple[list[float], list[float]]:
    """Closed outline of a rectangle with rounded corners, followed by a NaN gap (for fill="toself")."""
    xs: list[float] = []
    ys: list[float] = []
    # corner centres and the quarter-circle each one draws
    for cx, cy, start in ((x1 - r, y0 + r, 270), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        for cos, sin in _CORNER_TURNS[start]:
            xs.append(cx + r * cos)
            ys.append(cy + r * sin)
    return xs + [xs[0], np.nan], ys + [ys[0], np.nan]


def token_strip(
    tokens: list[str],
    *,
    colors: dict[int, str] | None = None,
    scale: float = 1.0,
    labels: Labels = ENGLISH,
    width_px: int = DEFAULT_WIDTH_PX,
) -> Spec:
    """Tokens as chips, wrapped into rows by approximate text width; colors maps position -> fill.

    The figure is width_px wide with chips laid out in pixels, so render it at its own width
    (ui.charts.plot(st, fig, width="content")); stretched, the chips widen but stay readable.
    """
    if len(tokens) == 0:
        raise ValueError("token_strip needs at least one token")
    colors = colors or {}
    fs = font_size(scale)
    char_px, pad_px, chip_h = CHAR_EM * fs, 0.6 * fs, 1.8 * fs
    gap_x, gap_y = 0.4 * fs, 0.5 * fs
    layout = base_layout(scale)
    layout["margin"].update(t=round(4 * scale), b=round(4 * scale))
    inner = width_px - layout["margin"]["l"] - layout["margin"]["r"]

    # Greedy wrap: start a new row when the next chip would pass the right edge.
    boxes = []  # (x0, y0, x1, y1) per token, px, y downwards
    x = y = 0.0
    for tok in tokens:
        w = max(text_units(tok), 1) * char_px + 2 * pad_px
        if x > 0 and x + w > inner:
            x, y = 0.0, y + chip_h + gap_y
        boxes.append((x, y, x + w, y + chip_h))
        x += w + gap_x
    total_h = y + chip_h

    # One filled trace per colour (NaN-separated outlines), not one shape per chip: stays fast at 256 tokens.
    fills: dict[str, tuple[list[float], list[float]]] = {}
    for i, box in enumerate(boxes):
        xs, ys = _rounded_rect(*box, r=0.3 * chip_h)
        fx, fy = fills.setdefault(colors.get(i, CHIP_FILL), ([], []))
        fx.extend(xs)
        fy.extend(ys)
    spec = Spec()
    for color, (xs, ys) in fills.items():
        spec.add_trace(
            dict(
                type="scatter",
                x=np.array(xs),
                y=np.array(ys),
                mode="lines",
                fill="toself",
                fillcolor=color,
                line=dict(color=CHIP_LINE, width=1),
                hoverinfo="skip",
                showlegend=False,
            )
        )
    centres = np.array([((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes])  # [T, 2]
    text = [escape(t) for t in tokens]
    spec.add_trace(
        dict(
            type="scatter",
            x=centres[:, 0],
            y=centres[:, 1],
            mode="markers+text",
            text=text,
            textposition="middle center",
            textfont=dict(family="monospace", color=INK, size=fs),
            # An invisible square marker the size of a chip: hovering anywhere on the chip names it.
            marker=dict(symbol="square", size=chip_h, opacity=0),
            hovertext=[f"{escape(labels.position)} {i}<br>{t}" for i, t in enumerate(text)],
            hoverinfo="text",
            showlegend=False,
        )
    )
    spec.update_layout(
        **layout,
        width=width_px,
        height=round(total_h + layout["margin"]["t"] + layout["margin"]["b"] + 2),
        xaxis=dict(visible=False, range=[-1, inner], fixedrange=True),
        yaxis=dict(visible=False, range=[total_h + 1, -1], fixedrange=True),  # first row at the top
        hovermode="closest",
    )
    return spec
