"""Which positions' hidden states change when one input token changes.

In a causal (decoder) model a position only reads keys at or before it, so editing token p
leaves every position before p exactly unchanged (Δ = 0); in a bidirectional (encoder) model
every position can change. The bars make that difference visible.
"""

from __future__ import annotations

import numpy as np

from viz.axes import token_axis
from viz.check import check_index, check_values
from viz.labels import ENGLISH, Labels, axis_labels, escape
from viz.palette import CHANGED, INK, UNCHANGED, base_layout
from viz.spec import Spec

MARK = "▼"  # over the edited position: a symbol, so no word needs translating


def change_bars(
    delta: np.ndarray,
    tokens: list[str],
    *,
    changed_position: int,
    tol: float = 1e-6,
    scale: float = 1.0,
    labels: Labels = ENGLISH,
) -> Spec:
    """Bar per position of max |Δ hidden| [T] after changing the token at changed_position.

    tol separates "changed" from float round-off. The y axis is linear because the teaching
    point is the exact zeros, which a log axis cannot show; unchanged positions also get a grey
    dot at their value so a zero-height bar is still visible.
    """
    d = check_values(delta, tokens, what="delta").astype(np.float64)  # [T]
    p = check_index(changed_position, len(tokens), "changed_position")
    if tol < 0:
        raise ValueError(f"tol must be >= 0, got {tol}")
    x = axis_labels(tokens)
    changed = d > tol  # [T] bool
    words = [escape(labels.changed) if c else escape(labels.unchanged) for c in changed]
    hover = (
        f"{escape(labels.position)}: %{{x}}<br>{escape(labels.change)}: %{{y:.6g}}<br>%{{customdata}}<extra></extra>"
    )
    spec = Spec()
    spec.add_trace(
        dict(
            type="bar",
            x=x,
            y=d,
            marker=dict(color=[CHANGED if c else UNCHANGED for c in changed]),
            customdata=words,
            hovertemplate=hover,
            name=escape(labels.change),
            showlegend=False,
        )
    )
    still = np.flatnonzero(~changed)
    spec.add_trace(
        dict(
            type="scatter",
            x=[x[i] for i in still],
            y=d[still],
            mode="markers",
            marker=dict(color=UNCHANGED, size=round(8 * scale), symbol="circle"),
            cliponaxis=False,  # the dots sit on y = 0: draw them whole, not cut by the axis
            customdata=[words[i] for i in still],
            hovertemplate=hover,
            name=escape(labels.unchanged),
            showlegend=False,
        )
    )
    # Category axes place shapes and annotations by serial number: position p is category p.
    spec.add_shape(
        type="line", x0=p, x1=p, y0=0, y1=1, yref="paper", line=dict(color=INK, width=1.5 * scale, dash="dash")
    )
    spec.add_annotation(x=p, y=1, yref="paper", yanchor="bottom", text=MARK, showarrow=False, font=dict(color=INK))
    spec.update_layout(
        **base_layout(scale),
        height=round(360 * scale),
        xaxis=token_axis(x, labels.position, scale, angle=True),
        yaxis=dict(title=dict(text=escape(labels.change)), type="linear", rangemode="tozero", gridcolor="#eeeeee"),
        bargap=0.15,
    )
    return spec
