"""neuron_bars(): the neuron view (BertViz, Vig 2019) of one query and one key of a head: q, k and q ⊙ k per
dimension, one panel each over a shared dimension axis, and the sum, the scale and the score in the title.

With RoPE the filled bars are what attention compares (rotated to their positions) and grey outlines beside
them are the vectors before the rotation (and their product). Words arrive as keywords, already translated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viz.axes import GRID
from viz.check import check_vector
from viz.labels import escape
from viz.palette import BAR, INK, MUTED, base_layout, font_size
from viz.spec import Spec

NEURON_HEIGHT_PX = 560
POSITIVE, NEGATIVE = "#b2182b", "#2166ac"  # RdBu's ends (viz/palette.py DIVERGING_COLORSCALE): for and against
KEY_COLOR = "#ff7f0e"  # the keys' orange beside the queries' blue, as in the query/key map (viz/roles.py)
PANELS = ((0.70, 1.0), (0.36, 0.64), (0.0, 0.30))  # y domains, top to bottom: q, k, q ⊙ k


@dataclass(frozen=True)
class NeuronWords:
    """The figure's words (a page passes them translated)."""

    q: str = "q (query)"
    k: str = "k (key)"
    product: str = "q ⊙ k"
    dimension: str = "dimension of the head"
    rotated: str = "after RoPE"
    unrotated: str = "before RoPE"
    title: str = "Σ q⊙k = {dot} × scale {scale} = score {score}"


def _bars(x, y, color, name: str, axis: int, dims: list[str], outline: bool, show: bool) -> dict:
    suffix = "" if axis == 1 else str(axis)
    marker = dict(color="rgba(0,0,0,0)", line=dict(color=MUTED, width=1.5)) if outline else dict(color=color)
    return dict(
        type="bar",
        x=x,
        y=y,
        marker=marker,
        name=escape(name),
        legendgroup="outline" if outline else None,
        showlegend=show,
        customdata=dims,
        hovertemplate=f"{escape(name)}<br>%{{customdata}}: %{{y:.4g}}<extra></extra>",
        xaxis=f"x{suffix}",
        yaxis=f"y{suffix}",
        offsetgroup="before" if outline else "after",
    )


def neuron_bars(
    q,
    k,
    product,
    *,
    dot: float,
    scale_factor: float,
    score: float,
    q_before=None,
    k_before=None,
    product_before=None,
    words: NeuronWords | None = None,
    scale: float = 1.0,
) -> Spec:
    """Three panels over the head's dimensions: q [d], k [d], q ⊙ k [d] (red where it adds to the score, blue
    where it takes away). q_before, k_before, product_before [d] (RoPE models): the same before the rotation,
    drawn as grey outlines beside each bar. The title writes Σ q⊙k, the scale factor and the score."""
    w = words or NeuronWords()
    qv = check_vector(q, None, "q")
    d = qv.size
    kv, pv = check_vector(k, d, "k"), check_vector(product, d, "product")
    before = [None if v is None else check_vector(v, d, what) for v, what in
              ((q_before, "q_before"), (k_before, "k_before"), (product_before, "product_before"))]  # fmt: skip
    x = np.arange(d)
    dims = [str(i) for i in range(d)]
    spec = Spec()
    colors = (BAR, KEY_COLOR, [POSITIVE if v >= 0 else NEGATIVE for v in pv])
    names = (w.q, w.k, w.product)
    rope = any(v is not None for v in before)
    for axis, (values, color, name, old) in enumerate(zip((qv, kv, pv), colors, names, before, strict=True), 1):
        shown = f"{name}, {w.rotated}" if rope else name
        spec.add_trace(_bars(x, values, color, shown, axis, dims, outline=False, show=False))
        if old is not None:
            spec.add_trace(_bars(x, old, MUTED, f"{name}, {w.unrotated}", axis, dims, outline=True, show=axis == 1))
    fs = font_size(scale)
    layout = dict(
        base_layout(scale),
        height=round(NEURON_HEIGHT_PX * scale),
        barmode="group" if rope else "relative",
        bargap=0.15,
        showlegend=rope,
        title=dict(text=escape(w.title.format(dot=f"{dot:.4g}", scale=f"{scale_factor:.4g}", score=f"{score:.4g}"))),
    )
    if rope:
        layout["legend"] = dict(orientation="h", x=1, xanchor="right", y=1.0, yanchor="bottom")
    for axis, (low, high) in enumerate(PANELS, 1):
        suffix = "" if axis == 1 else str(axis)
        last = axis == len(PANELS)
        layout[f"xaxis{suffix}"] = dict(
            anchor=f"y{suffix}",
            matches=None if axis == 1 else "x",
            showticklabels=last,
            title=dict(text=escape(w.dimension)) if last else None,
            range=[-0.5, d - 0.5],
            showgrid=False,
            zeroline=False,
        )
        layout[f"yaxis{suffix}"] = dict(
            domain=[low, high], anchor=f"x{suffix}", gridcolor=GRID, zeroline=True, zerolinecolor=INK
        )
        spec.add_annotation(
            text=escape(names[axis - 1]), xref="paper", yref="paper", x=0, y=high, xanchor="left",
            yanchor="bottom", showarrow=False, font=dict(size=fs),
        )  # fmt: skip
    spec.update_layout(layout)
    return spec
