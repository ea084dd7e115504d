"""Figures that read the same under Streamlit's light and dark themes (issue 39).

Why: st.plotly_chart(theme="streamlit") writes the theme's colours into layout.template in the browser:
the title, axis titles, tick labels, legend, colour-axis bar, grid and tick lines. A template's
title.font.color or xaxis.tickfont.color outranks layout.font.color (it is more specific), so under a
dark theme the text turned near-white while the paper stayed white (base_layout): tick labels at
1.2:1. A figure's own value outranks the template, so pinning each of those colours in the figure keeps
it readable under any theme, whatever the browser's theme is on the first run or after a switch.

Text gets INK, the ink base_layout already asked for (Streamlit's light tick grey, #808495, is 3.7:1
on white: under WCAG's 4.5:1); lines keep Streamlit's light-theme grey, so they look as before.
A colour a builder chose itself is kept.

Sizes likewise: the template sets tick labels, legends and colour bars to 12 px and axis titles to 14 px,
whatever the figure's font size, so presentation mode (base_layout(1.5)) enlarged nothing but the title.
Each is pinned in proportion to the figure's own font size: 12 and 14 at the normal 13 px (what the
template gives: normal mode looks as before), 18 and 22 on a projector.
"""

from __future__ import annotations

import re

from viz.palette import INK
from viz.spec import Spec

# Streamlit's light-theme grid, tick and zero-line grey (gray30): lines look the same in both themes.
THEME_LINE = "#e6eaf1"
# Trace types drawn on x/y axes, whose axes the theme styles even when the layout does not name them.
CARTESIAN = frozenset(
    {"bar", "box", "contour", "heatmap", "histogram", "histogram2d", "image", "scatter", "scattergl", "violin"}
)
_AXIS = re.compile(r"[xy]axis\d*$")
_COLOR_AXIS = re.compile(r"coloraxis\d*$")

_TEXT = (
    ("font", "color"),
    ("title", "font", "color"),
    ("legend", "font", "color"),
    ("legend", "title", "font", "color"),
)
_AXIS_PINS = (
    (("tickfont", "color"), INK),
    (("title", "font", "color"), INK),
    (("gridcolor",), THEME_LINE),
    (("zerolinecolor",), THEME_LINE),
    (("tickcolor",), THEME_LINE),
)
_BAR_TEXT = (("colorbar", "tickfont", "color"), ("colorbar", "title", "font", "color"))
# Streamlit's template sizes (px) over the size a figure's font has at scale 1 (viz.palette.BASE_FONT_SIZE).
TEMPLATE_SMALL, TEMPLATE_TITLE, TEMPLATE_BASE = 12, 14, 13
_LEGEND = (("legend", "font", "size"), ("legend", "title", "font", "size"))
_BAR_SIZES = (
    (("colorbar", "tickfont", "size"), TEMPLATE_SMALL),
    (("colorbar", "title", "font", "size"), TEMPLATE_TITLE),
)


def on_any_theme(spec: Spec) -> Spec:
    """The same figure with every colour Streamlit's theme would set pinned; the spec is left as it was
    (only the dicts on the way are copied; traces are shared)."""
    layout = dict(spec.layout)
    for path in _TEXT:
        _pin(layout, path, INK)
    size = (layout.get("font") or {}).get("size")
    small, big = (_px(size, TEMPLATE_SMALL), _px(size, TEMPLATE_TITLE)) if size else (None, None)
    for path in _LEGEND if size else ():
        _pin(layout, path, small)
    for key in ("paper_bgcolor", "plot_bgcolor"):
        layout.setdefault(key, "white")
    for name in _axes(spec.data, layout):
        axis = layout[name] = dict(layout.get(name) or {})
        for path, color in _AXIS_PINS:
            _pin(axis, path, color)
        if "minor" in axis:
            _pin(axis, ("minor", "gridcolor"), THEME_LINE)
        if size:
            _pin(axis, ("tickfont", "size"), small)
            _pin(axis, ("title", "font", "size"), big)
    color_axes = {k for k in layout if _COLOR_AXIS.match(k)} | {t["coloraxis"] for t in spec.data if "coloraxis" in t}
    for name in sorted(color_axes):
        bar = layout[name] = dict(layout.get(name) or {})
        for path in _BAR_TEXT:
            _pin(bar, path, INK)
        for path, px in _BAR_SIZES if size else ():
            _pin(bar, path, _px(size, px))
    return Spec.of(spec.data, layout)


def _px(size: float, template_px: int) -> int:
    """The template's size for a figure whose font is `size` px rather than TEMPLATE_BASE."""
    return round(size * template_px / TEMPLATE_BASE)


def _axes(data: list[dict], layout: dict) -> list[str]:
    """The layout's x/y axes and those its cartesian traces draw on ("x2" -> "xaxis2")."""
    names = {k for k in layout if _AXIS.match(k)}
    for trace in data:
        if trace.get("type") in CARTESIAN:
            names |= {f"{which}axis{trace.get(f'{which}axis', which)[1:]}" for which in "xy"}
    return sorted(names)


def _pin(d: dict, path: tuple[str, ...], value: str) -> None:
    """d[path[0]][path[1]]... = value unless the figure chose one; copies each dict on the way
    (a title given as a plain string becomes {"text": ...}, as Plotly reads it)."""
    *heads, last = path
    for key in heads:
        sub = d.get(key)
        d[key] = {"text": sub} if isinstance(sub, str) else dict(sub or {})
        d = d[key]
    d.setdefault(last, value)
