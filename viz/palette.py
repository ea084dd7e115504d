"""The one palette every figure uses, so a colour means the same thing on every page.

Attention weights are a quantity (0..1), so they get a sequential scale that starts at white:
a weight of zero looks like empty paper, not like a colour. "Blues" (ColorBrewer) stays readable
for the common colour-vision deficiencies and in greyscale print-outs.
"""

from __future__ import annotations

# ColorBrewer "Blues" (https://colorbrewer2.org), light to dark, with pure white at 0.
_BLUES = ["#ffffff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b"]

# Plotly colorscale: [[position in 0..1, colour], ...], white at 0 to dark blue at 1.
ATTENTION_COLORSCALE: list[list[float | str]] = [[i / (len(_BLUES) - 1), c] for i, c in enumerate(_BLUES)]

# A mask is yes/no: "may attend" uses the blue of the weights it lets through; "masked" is paper grey.
MASK_COLORS: dict[str, str] = {"allowed": _BLUES[6], "blocked": "#e8e8e8"}

# Heads are categories, not quantities: D3 "category10" (dark) then its ten light partners
# ("category20"), so 20 heads get distinct colours before head_color() wraps around.
HEAD_COLORS: list[str] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5",
]  # fmt: skip

# Hidden state changed (red) or not (grey): they differ in lightness too, not only in hue.
CHANGED = "#d62728"
UNCHANGED = "#b0b0b0"

# Signed values (positional-encoding entries, cosine similarities, logits) need a diverging scale:
# ColorBrewer "RdBu" (11 classes), blue for the minimum, pure white at exactly 0.5, red for the maximum.
# Use it with zmin = -zmax so that white means zero.
_RD_BU = [
    "#053061", "#2166ac", "#4393c3", "#92c5de", "#d1e5f0",  # blues (negative)
    "#ffffff",  # zero; ColorBrewer's #f7f7f7 made pure white, like the weights' zero
    "#fddbc7", "#f4a582", "#d6604d", "#b2182b", "#67001f",  # reds (positive)
]  # fmt: skip
DIVERGING_COLORSCALE: list[list[float | str]] = [[i / (len(_RD_BU) - 1), c] for i, c in enumerate(_RD_BU)]

# The mask *kinds* as lines in a chart (ColorBrewer "Dark2"); not MASK_COLORS, which colour the
# allowed/blocked cells of one mask.
MASK_KIND_COLORS: dict[str, str] = {"causal": "#d95f02", "bidirectional": "#1b9e77", "prefix": "#7570b3"}

# Trained vs randomly initialised models in line charts: same colour, different dash.
WEIGHT_DASH: dict[str, str] = {"trained": "solid", "random": "dash"}

# Bars: the one(s) the page points at in red (the red of CHANGED), the rest in a mid blue of the weights.
HIGHLIGHT = CHANGED
BAR = _BLUES[4]  # "#6baed6"

# Text and lines that are not data.
INK = "#222222"
MUTED = "#8a8a8a"
OUTLINE = "#111111"

BASE_FONT_SIZE = 13  # px at scale 1.0; presentation mode (projector) passes scale ≈ 1.5


def head_color(h: int) -> str:
    """Colour of head h (0-based); wraps around after len(HEAD_COLORS) heads."""
    return HEAD_COLORS[h % len(HEAD_COLORS)]


def font_size(scale: float) -> int:
    """Base font size in px for this display scale."""
    return round(BASE_FONT_SIZE * scale)


def base_layout(scale: float) -> dict:
    """Layout every figure starts from: one font size, margins that grow with it, white paper."""
    if scale <= 0:
        raise ValueError(f"scale must be > 0, got {scale}")
    size = font_size(scale)
    return dict(
        font=dict(size=size, color=INK),
        margin=dict(l=round(10 * scale), r=round(10 * scale), t=round(40 * scale), b=round(10 * scale)),
        paper_bgcolor="white",
        plot_bgcolor="white",
        hoverlabel=dict(font=dict(size=size)),  # not font_size: a plain Spec does not expand it
        title=dict(font=dict(size=round(size * 1.15))),
    )


def rgba(color: str, alpha: float) -> str:
    """'#rrggbb' or '#rgb' -> 'rgba(r,g,b,alpha)': a band in the colour of its line, see-through."""
    h = color.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if not color.startswith("#") or len(h) != 6:
        raise ValueError(f"band colours must be hex like '#1f77b4', got {color!r}")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"
