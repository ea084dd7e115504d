"""BertViz's head view: queries on the left, keys on the right, a line for every weight.

Following the lines from one word shows where it "looks"; several heads in different colours
show that heads look at different things. Line opacity is the weight, so a head that spreads
its attention thinly draws many faint lines and a sharp head one dark line.
"""

from __future__ import annotations

import numpy as np

from viz.check import check_attention, check_index
from viz.labels import ENGLISH, Labels, axis_labels, escape
from viz.palette import INK, MUTED, base_layout, font_size, head_color
from viz.spec import Spec

OPACITY_BINS = 6  # one Scatter trace per (head, bin): Plotly has no per-segment opacity in one trace
TOP_KEYS = 3  # keys listed per head when hovering a query token
FOCUS_FILL = "#fff3bf"  # pale highlight behind the focused query
X_QUERY, X_KEY = 0.0, 1.0  # the two token columns, in data coordinates


def _segments(q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x, y arrays for lines query q[n] -> key k[n], separated by NaN gaps (one trace, many lines)."""
    n = len(q)
    xs = np.tile([X_QUERY, X_KEY, np.nan], n)  # [3n]
    ys = np.column_stack([q, k, np.full(n, np.nan)]).ravel()  # [3n]: q0, k0, gap, q1, k1, gap, ...
    return xs, ys


def head_view(
    attention: np.ndarray,
    query_tokens: list[str],
    key_tokens: list[str],
    *,
    heads: list[int] | None = None,
    focus: int | None = None,
    min_weight: float = 0.02,
    scale: float = 1.0,
    labels: Labels = ENGLISH,
    q_start: int = 0,
    k_start: int = 0,
) -> Spec:
    """Lines from each query token to the keys it attends to, one colour per head; attention [H, Tq, Tk].
    q_start, k_start: the first query's and key's positions, when this is a window of a long prompt.

    heads: which heads to draw (default all). focus: a query index to draw only its lines.
    Weights below min_weight are not drawn (they would only grey the picture); hover on a query
    token still lists each head's top keys. Works for cross-attention (Tq != Tk) too.
    """
    a = check_attention(attention, query_tokens, key_tokens, ndim=3).astype(np.float32)  # [H, Tq, Tk]
    n_heads, n_q, n_k = a.shape
    heads = list(range(n_heads)) if heads is None else [check_index(h, n_heads, "head") for h in heads]
    if focus is not None:
        focus = check_index(focus, n_q, "focus query")
    rows = np.arange(n_q) if focus is None else np.array([focus])  # query positions whose lines we draw
    head_word = escape(labels.head)

    spec = Spec()
    for h in heads:
        w = a[h, rows]  # [R, Tk]
        r, k = np.nonzero(w >= min_weight)
        vals = w[r, k]
        bins = np.minimum((vals * OPACITY_BINS).astype(int), OPACITY_BINS - 1)  # weight 0..1 -> bin 0..5
        for b in range(OPACITY_BINS):
            pick = bins == b
            if not pick.any():
                continue
            opacity = (b + 0.5) / OPACITY_BINS  # the bin's middle weight
            xs, ys = _segments(rows[r[pick]], k[pick])
            spec.add_trace(
                dict(
                    type="scatter",
                    x=xs,
                    y=ys,
                    mode="lines",
                    line=dict(color=head_color(h), width=(0.8 + 2.5 * opacity) * scale),
                    opacity=opacity,
                    legendgroup=f"head{h}",
                    showlegend=False,
                    hoverinfo="skip",
                )
            )
        # Legend entry at full colour (the faint line traces would make a faint swatch); the
        # shared legendgroup makes one click toggle all of this head's lines.
        spec.add_trace(
            dict(
                type="scatter",
                x=[None],
                y=[None],
                mode="lines",
                line=dict(color=head_color(h), width=3 * scale),
                name=f"{head_word} {h + 1}",
                legendgroup=f"head{h}",
                hoverinfo="skip",
            )
        )

    # Token columns: one text trace; hover on a query lists each shown head's strongest keys.
    q_text = [escape(t) for t in query_tokens]
    k_text = [escape(t) for t in key_tokens]
    k_axis = axis_labels(key_tokens, k_start)
    q_axis = axis_labels(query_tokens, q_start)
    top = np.argsort(-a[heads], axis=-1, kind="stable")[..., :TOP_KEYS]  # [len(heads), Tq, 3]
    q_hover = []
    for i in range(n_q):
        lines = [f"<b>{escape(labels.query)}: {q_axis[i]}</b>"]
        for n, h in enumerate(heads):
            best = ", ".join(f"{k_axis[j]} {a[h, i, j]:.2f}" for j in top[n, i])
            lines.append(f"{head_word} {h + 1}: {best}")
        q_hover.append("<br>".join(lines))
    k_hover = [f"{escape(labels.key)}: {label}" for label in k_axis]
    q_color = [INK] * n_q
    if focus is not None:
        q_text[focus] = f"<b>{q_text[focus]}</b>"
        q_color = [INK if i == focus else MUTED for i in range(n_q)]
    pad = 0.03  # text sits just outside the line ends
    spec.add_trace(
        dict(
            type="scatter",
            x=[X_QUERY - pad] * n_q + [X_KEY + pad] * n_k,
            y=list(range(n_q)) + list(range(n_k)),
            mode="text",
            text=q_text + k_text,
            textposition=["middle left"] * n_q + ["middle right"] * n_k,
            textfont=dict(color=q_color + [INK] * n_k),
            hovertext=q_hover + k_hover,
            hoverinfo="text",
            showlegend=False,
            cliponaxis=False,
        )
    )

    n_rows = max(n_q, n_k)
    if focus is not None:
        spec.add_shape(
            type="rect",
            x0=-1.05,
            x1=X_QUERY,
            y0=focus - 0.5,
            y1=focus + 0.5,
            fillcolor=FOCUS_FILL,
            line=dict(width=0),
            layer="below",
        )
    for x, word, anchor in ((X_QUERY - pad, labels.query, "right"), (X_KEY + pad, labels.key, "left")):
        spec.add_annotation(
            x=x, y=-1, text=f"<b>{escape(word)}</b>", showarrow=False, xanchor=anchor, font=dict(color=MUTED)
        )
    row_px = 1.7 * font_size(scale)
    layout = base_layout(scale)
    spec.update_layout(
        **layout,
        height=round(n_rows * row_px + (2 * row_px) + layout["margin"]["t"] + layout["margin"]["b"] + 30 * scale),
        xaxis=dict(visible=False, range=[-1.1, 2.1], fixedrange=True),
        yaxis=dict(visible=False, range=[n_rows - 0.5, -1.6], fixedrange=True),  # position 0 at the top
        legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"),
        showlegend=True,
        hovermode="closest",
    )
    return spec
