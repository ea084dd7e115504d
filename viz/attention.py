"""Attention as a matrix: one head's [queries, keys] heatmap, every head at once, and the mask.

Row i answers "when computing position i, how much did it read from each key?"; each row of
weights sums to 1 (softmax). Query 0 is at the top so the matrix reads like the prompt, and a
causal model shows its lower-triangular shape at a glance.
"""

from __future__ import annotations

import numpy as np

from viz.axes import as_float, grid_height, resolve_zmax, square_cells, token_axis
from viz.change import change_bars
from viz.check import check_attention, check_index
from viz.head_view import head_view
from viz.labels import ENGLISH, Labels, axis_labels, escape
from viz.margins import fit_token_margins
from viz.palette import ATTENTION_COLORSCALE, MASK_COLORS, OUTLINE, base_layout, font_size
from viz.spec import Spec
from viz.tokens import token_strip

# The other figures live in files named for what they draw; re-exported so that
# `from viz.attention import head_view` (the layout first planned) works too.
__all__ = ["change_bars", "head_view", "heads_grid", "heatmap", "mask_heatmap", "token_strip"]

MANY_CELLS_GAP = 64  # up to this many tokens, cells get a 1 px gap so single cells stand out


def _hover(labels: Labels, last: str) -> str:
    return f"{escape(labels.query)}: %{{y}}<br>{escape(labels.key)}: %{{x}}<br>{last}<extra></extra>"


def heatmap(
    weights: np.ndarray,
    query_tokens: list[str],
    key_tokens: list[str],
    *,
    title: str = "",
    zmax: float | None = 1.0,
    scale: float = 1.0,
    labels: Labels = ENGLISH,
    q_start: int = 0,
    k_start: int = 0,
) -> Spec:
    """One head's attention weights [Tq, Tk] as a heatmap, query 0 at the top.

    zmax=1.0 keeps colours comparable across heads; zmax=None stretches the colours to this
    head's largest weight (useful for diffuse heads whose weights are all small). q_start, k_start: the
    positions of the first query and key when this is a region of a longer matrix (viz/long_heatmap.py).
    """
    w = as_float(check_attention(weights, query_tokens, key_tokens))  # [Tq, Tk]
    x, y = axis_labels(key_tokens, k_start), axis_labels(query_tokens, q_start)
    trace = dict(
        type="heatmap",
        z=w,
        x=x,
        y=y,
        zmin=0.0,
        zmax=resolve_zmax(w, zmax),
        colorscale=ATTENTION_COLORSCALE,
        colorbar=dict(title=dict(text=escape(labels.weight)), thickness=round(14 * scale)),
        hovertemplate=_hover(labels, f"{escape(labels.weight)}: %{{z:.3f}}"),
    )
    spec = Spec(base_layout(scale)).add_trace(trace)
    spec.update_layout(
        height=grid_height(w.shape[0], scale),
        xaxis=token_axis(x, labels.key, scale, angle=True),
        yaxis=token_axis(y, labels.query, scale, reverse=True),
    )
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    square_cells(spec)
    tick_px = spec.layout["xaxis"].get("tickfont", {}).get("size", font_size(scale))
    # without a fixed angle Plotly turns overlapping labels by 30° (or 90°: then automargin still fits them)
    angle = spec.layout["xaxis"].get("tickangle", 30)
    fit_token_margins(spec, x, y, tick_px=tick_px, font_px=font_size(scale), angle=angle, colorbar_title=labels.weight,
                      thickness=trace["colorbar"]["thickness"])  # fmt: skip
    return spec


def heads_grid(
    attention: np.ndarray,
    *,
    zmax: float | None = 1.0,
    selected: tuple[int, int] | None = None,
    scale: float = 1.0,
    labels: Labels = ENGLISH,
    q_start: int = 0,
    k_start: int = 0,
) -> Spec:
    """Every head of every layer [L, H, Tq, Tk] as small heatmaps in one figure (BertViz "model view").
    q_start, k_start: the first query's and key's positions, when this is a window of a long prompt.

    The point is comparison: heads in one model learn different patterns (previous token, first
    token, same word). All cells share one colour axis, so a dark cell means the same everywhere.
    Trace l*H + h is layer l, head h (a click's curveNumber tells the page which head to open).
    """
    a = as_float(check_attention(attention, what="attention", ndim=4))  # [L, H, Tq, Tk]
    n_layers, n_heads = a.shape[:2]
    name = [
        [f"{escape(labels.layer)} {layer + 1} · {escape(labels.head)} {head + 1}" for head in range(n_heads)]
        for layer in range(n_layers)
    ]
    gap_px = 2.2 * font_size(scale)  # room for each row's column titles
    cell_px = (130 if n_heads <= 6 else 100) * scale
    plot_px = n_layers * cell_px + (n_layers - 1) * gap_px
    # The subplot grid is laid out here and the figure built in one go: make_subplots plus one
    # update per axis took 230 ms for MiniLM's 6 x 12 heads (Plotly validates every update).
    h_space = min(0.03, 0.5 / max(n_heads - 1, 1))
    v_space = gap_px / plot_px if n_layers > 1 else 0.0
    width = (1 - h_space * (n_heads - 1)) / n_heads
    height = (1 - v_space * (n_layers - 1)) / n_layers
    hidden = dict(showticklabels=False, showgrid=False, zeroline=False, ticks="")
    axes: dict[str, dict] = {}
    traces = []
    for layer in range(n_layers):
        top = 1 - layer * (height + v_space)
        for head in range(n_heads):
            k = layer * n_heads + head + 1  # subplot number, row-major from the top left
            suffix = "" if k == 1 else str(k)
            left = head * (width + h_space)
            x_dom = [max(0.0, left), min(1.0, left + width)]  # min/max: float sums can pass 1 by 1e-16
            y_dom = [max(0.0, top - height), min(1.0, top)]
            axes[f"xaxis{suffix}"] = dict(hidden, domain=x_dom, anchor=f"y{suffix}")
            axes[f"yaxis{suffix}"] = dict(hidden, domain=y_dom, anchor=f"x{suffix}", autorange="reversed")
            if head == 0:
                axes[f"yaxis{suffix}"]["title"] = dict(text=f"{escape(labels.layer)} {layer + 1}")
            traces.append(
                dict(
                    type="heatmap",
                    z=a[layer, head],  # [Tq, Tk]; x, y are positions k_start.., q_start.. (x0, y0 below)
                    coloraxis="coloraxis",
                    name=name[layer][head],
                    xaxis=f"x{suffix}",
                    yaxis=f"y{suffix}",
                    # x and y are positions here, not tokens: the grid has no room for token labels.
                    hovertemplate=f"{name[layer][head]}<br>" + _hover(labels, f"{escape(labels.weight)}: %{{z:.3f}}"),
                )
            )
            traces[-1].update({k: v for k, v in (("x0", k_start), ("y0", q_start)) if v})  # 0: Plotly's default
    # Column headers name the heads, row axis titles the layers: short enough for a phone.
    titles = [
        dict(
            text=f"{escape(labels.head)} {head + 1}",
            x=head * (width + h_space) + width / 2,
            y=1.0,
            xref="paper",
            yref="paper",
            xanchor="center",
            yanchor="bottom",
            showarrow=False,
            font=dict(size=font_size(scale)),
            yshift=round(5 * scale),  # clear of the selection outline
        )
        for head in range(n_heads)
    ]
    layout = base_layout(scale)
    layout["margin"]["t"] = round(gap_px + 10 * scale)
    if selected is not None:
        layer = check_index(selected[0], n_layers, "selected layer")
        head = check_index(selected[1], n_heads, "selected head")
        k = layer * n_heads + head + 1
        suffix = "" if k == 1 else str(k)
        pad = 0.02
        # Only when a head is selected: a validated figure drops an empty shapes list, so must we.
        layout["shapes"] = [
            dict(
                type="rect",
                xref=f"x{suffix} domain",
                yref=f"y{suffix} domain",
                x0=-pad,
                x1=1 + pad,
                y0=-pad,
                y1=1 + pad,
                line=dict(color=OUTLINE, width=3 * scale),
            )
        ]
    return Spec.of(
        traces,
        dict(
            layout,
            **axes,
            annotations=titles,
            height=round(plot_px + layout["margin"]["t"] + layout["margin"]["b"]),
            coloraxis=dict(
                colorscale=ATTENTION_COLORSCALE,
                cmin=0.0,
                cmax=resolve_zmax(a, zmax),
                colorbar=dict(title=dict(text=escape(labels.weight)), thickness=round(14 * scale)),
            ),
        ),
    )


def mask_heatmap(
    mask: np.ndarray,
    query_tokens: list[str],
    key_tokens: list[str],
    *,
    scale: float = 1.0,
    labels: Labels = ENGLISH,
) -> Spec:
    """Which keys each query may attend to [Tq, Tk] (True = allowed), in two flat colours.

    The mask is added to the scores before softmax (-inf where blocked), so a blocked cell gets
    weight exactly 0: compare this picture with the attention heatmap of the same prompt.
    """
    m = check_attention(mask, query_tokens, key_tokens, what="mask").astype(bool)  # [Tq, Tk]
    x, y = axis_labels(key_tokens), axis_labels(query_tokens)
    gap = 1 if max(m.shape) <= MANY_CELLS_GAP else 0
    spec = Spec()
    # One flat-coloured heatmap per kind (NaN elsewhere): each carries its own hover word.
    for kind, cells in (("allowed", m), ("blocked", ~m)):
        word = escape(getattr(labels, kind))
        spec.add_trace(
            dict(
                type="heatmap",
                z=np.where(cells, 1.0, np.nan).astype(np.float32),
                x=x,
                y=y,
                zmin=0.0,
                zmax=1.0,
                colorscale=[[0.0, MASK_COLORS[kind]], [1.0, MASK_COLORS[kind]]],
                showscale=False,
                hoverongaps=False,
                xgap=gap,
                ygap=gap,
                name=word,
                hovertemplate=_hover(labels, f"<b>{word}</b>"),
            )
        )
    for kind in ("allowed", "blocked"):  # legend swatches
        spec.add_trace(
            dict(
                type="scatter",
                x=[None],
                y=[None],
                mode="markers",
                marker=dict(symbol="square", size=font_size(scale), color=MASK_COLORS[kind], line=dict(width=0)),
                name=escape(getattr(labels, kind)),
                hoverinfo="skip",
            )
        )
    spec.update_layout(
        **base_layout(scale),
        height=grid_height(m.shape[0], scale),
        xaxis=token_axis(x, labels.key, scale, angle=True),
        yaxis=token_axis(y, labels.query, scale, reverse=True),
        showlegend=True,
        legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"),
    )
    square_cells(spec)
    return spec
