"""User-visible words arrive as a Labels (pages pass a translated one), and token text is escaped.

One rule for every builder: a word from the shared vocabulary below (query, key, weight, layer,
head, position, ...) comes in labels=Labels(...), never as its own keyword, so a page translates it
once (ui.i18n.viz_labels()); scaling_contours has its own vocabulary, ScalingLabels. Words that
belong to one figure only (title, x_title and y_title of the generic charts, kv_cache's reused/new)
are keywords of that builder.

Plotly renders a subset of HTML in tick labels, hover text and annotations: a token such as
"<b>" or "<br>" would change the picture instead of showing up. Every token we draw goes through
escape(), so what the model saw is exactly what the student sees.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Labels:
    """Words the figures show (axis titles, hover, legends). English defaults; pages pass a translation."""

    query: str = "query"
    key: str = "key"
    weight: str = "weight"
    layer: str = "layer"
    head: str = "head"
    allowed: str = "may attend"
    blocked: str = "masked"
    position: str = "position"
    change: str = "max |Δ hidden|"
    unchanged: str = "unchanged"
    changed: str = "changed"


ENGLISH = Labels()  # the default for every figure (a frozen instance, safe to share)


def escape(text: str) -> str:
    """Make text show literally in Plotly: '&' -> '&amp;', '<' -> '&lt;', '>' -> '&gt;'."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def axis_labels(tokens: list[str], start: int = 0) -> list[str]:
    """Unique category-axis labels "i token"; start: the first token's position (a window of a long prompt).

    A category axis merges equal labels, and prompts repeat tokens ("the ... the"); the position
    prefix keeps every row apart and also reminds the student that position is part of the input.
    """
    return [f"{i} {escape(tok)}" for i, tok in enumerate(tokens, start)]


@dataclass(frozen=True)
class ScalingLabels:
    """Words scaling_contours shows (axis titles, hover, legend). English defaults; pages pass a translation."""

    n_axis: str = "parameters N"
    d_axis: str = "training tokens D"
    loss: str = "loss"
    frontier: str = "compute-optimal"


def number_text(value: float, spec: str) -> str:
    """Python format spec (".2f") for a cell or bar, with the infinities a masked score can have."""
    if value == -np.inf:
        return "−∞"
    if value == np.inf:
        return "∞"
    if np.isnan(value):
        return ""
    return format(float(value), spec)


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


def plain_number(x: float) -> str:
    """3 significant digits, without exponent notation for large values (47,124, not 4.71e+04): periods of waves."""
    return f"{x:,.0f}" if x >= 1000 else f"{x:.3g}"
