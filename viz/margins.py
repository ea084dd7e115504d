"""Margins that already hold a token heatmap's labels and colour bar, so Plotly draws it in one pass.

Every figure starts with 10 px side margins (palette.base_layout) and lets Plotly's automargin grow them to fit
the tick labels, the axis titles and the colour bar. That growth is a second full layout and draw: measured in
Chromium on the Explorer's 16-token heatmap, Plotly.newPlot took 73-105 ms with automargin growing the margins
and 18-20 ms when the margins were already large enough (bench/plot_draw.py). An Enter on the Explorer redraws
the heatmap from scratch (Streamlit mounts a changed figure anew), so this was most of the browser's work.

`fit_token_margins` sets the margins from an upper estimate of the labels' widths in px. Automargin stays on: a
label wider than the estimate (a font much wider than assumed) still fits, at the old cost. The estimate
errs large: a few px of white space are cheaper than a second draw."""

from __future__ import annotations

import html
import math
import unicodedata

WIDE_EM = 1.05  # a CJK character, an emoji: about one em
NARROW_EM = 0.64  # Latin letters, digits, punctuation: ~0.5-0.6 em in the sans-serif fonts Plotly gets
LINE_EM = 1.3  # a line of text's height, descenders included
PAD_PX = 14  # Plotly's tick-label pad and title standoff, with room to spare
COLORBAR_X = 1.0  # the colour bar's left edge at the plot's right edge (Plotly's default 1.02 moves with the width)
COLORBAR_PAD_PX = 10 + 6 + 12  # the colour bar's xpad, its labels' gap, and room to spare
COLORBAR_TICKS = "0.035"  # the widest tick label a 0..1 (or auto-scaled) colour bar shows


def text_px(text: str, size: float) -> float:
    """An upper estimate of the width in px of `text` (HTML entities unescaped) at font size `size`."""
    plain = html.unescape(text)
    em = sum(WIDE_EM if unicodedata.east_asian_width(ch) in "WF" or ord(ch) > 0xFFFF else NARROW_EM for ch in plain)
    return em * size


def fit_token_margins(spec, x_labels: list[str], y_labels: list[str], *, tick_px: float, font_px: float, angle: float,
                      colorbar_title: str | None, thickness: float) -> None:  # fmt: skip
    """Set spec's l, r, b margins to hold what automargin would add: the y labels and title on the left, the x
    labels (turned by `angle` degrees) and title below, the colour bar (placed at COLORBAR_X) and its title on
    the right. Tick labels are `tick_px` high, titles and the colour bar's labels `font_px`."""
    widest = lambda labels: max((text_px(s, tick_px) for s in labels), default=0.0)  # noqa: E731
    title = LINE_EM * font_px + PAD_PX  # an axis title and its standoff
    turn = math.radians(abs(angle))
    left = widest(y_labels) + PAD_PX + title
    bottom = widest(x_labels) * math.sin(turn) + LINE_EM * tick_px * math.cos(turn) + PAD_PX + title
    margin = spec.layout.setdefault("margin", {})
    margin["l"] = round(max(margin.get("l", 0), left))
    margin["b"] = round(max(margin.get("b", 0), bottom))
    if colorbar_title is not None:
        bar = max(thickness + text_px(COLORBAR_TICKS, font_px), text_px(colorbar_title, font_px))
        margin["r"] = round(max(margin.get("r", 0), bar + COLORBAR_PAD_PX))
        for trace in spec.data:
            if "colorbar" in trace:
                trace["colorbar"].setdefault("x", COLORBAR_X)
