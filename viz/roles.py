"""The field guide to heads: every head coloured by its role (role_grid), the numbers behind it (role_table),
and one head's queries and keys in one plane (qk_scatter, AttentionViz, Yeh et al. 2023).

Roles are categories, so each gets its own colour (Okabe & Ito's colour-blind-safe set); a head without a
role is paper grey. Words come in as arguments: role names in the page's language, Labels for the shared ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from viz.labels import ENGLISH, Labels, escape
from viz.palette import base_layout, font_size
from viz.spec import Spec

# Okabe & Ito (2008): distinct for the common colour-vision deficiencies.
ROLE_COLORS: dict[str, str] = {
    "previous_token": "#0072B2",
    "induction": "#D55E00",
    "duplicate_token": "#CC79A7",
    "first_token": "#E69F00",
    "diffuse": "#009E73",
}
NO_ROLE_COLOR = "#eeeeee"
QUERY_COLOR, KEY_COLOR = "#0072B2", "#D55E00"
# Viridis (perceptually uniform, readable in greyscale), spelt out: a named scale is expanded by Plotly's validation.
_VIRIDIS = [
    "#440154",
    "#482878",
    "#3e4989",
    "#31688e",
    "#26828e",
    "#1f9e89",
    "#35b779",
    "#6ece58",
    "#b5de2b",
    "#fde725",
]
POSITION_COLORSCALE = [[i / (len(_VIRIDIS) - 1), c] for i, c in enumerate(_VIRIDIS)]
CELL_TEXT_MAX_HEADS = 12  # wider grids (Qwen's 14 heads x 24 layers) show colours and hover only


def role_grid(
    roles: np.ndarray,
    scores: Mapping[str, np.ndarray],
    role_names: Mapping[str, str],
    *,
    none_name: str = "none",
    title: str = "",
    selected: tuple[int, int] | None = None,
    scale: float = 1.0,
    labels: Labels = ENGLISH,
) -> Spec:
    """Heads x layers, each cell coloured by its role ("" = none) and named in it; hover lists every score.

    roles: [L, H] role names as label_heads returns them; scores: {role: [L, H]}; role_names: role -> the word
    shown (the page's language). Layer 1 is the top row; the selected head is outlined."""
    grid = np.asarray(roles, dtype=object)
    if grid.ndim != 2 or grid.size == 0:
        raise ValueError(f"roles must be a non-empty [layers, heads] array, got shape {grid.shape}")
    order = list(ROLE_COLORS)
    unknown = {r for r in grid.ravel() if r and r not in ROLE_COLORS}
    if unknown:
        raise ValueError(f"unknown roles {sorted(unknown)}; known: {order}")
    n_layers, n_heads = grid.shape
    z = np.array([[0 if not r else order.index(r) + 1 for r in row] for row in grid], dtype=np.float64)
    colors = [NO_ROLE_COLOR, *ROLE_COLORS.values()]
    n = len(colors)
    colorscale = [[edge, c] for i, c in enumerate(colors) for edge in (i / n, (i + 1) / n)]
    name = lambda r: escape(role_names.get(r, r)) if r else escape(none_name)  # noqa: E731
    text = [[name(r) for r in row] for row in grid]
    shown = [r for r in order if r in scores]
    hover = [
        [
            "<br>".join(
                [f"{escape(labels.layer)} {layer + 1} · {escape(labels.head)} {head + 1}: <b>{text[layer][head]}</b>"]
                + [f"{escape(role_names.get(r, r))}: {float(scores[r][layer, head]):.2f}" for r in shown]
            )
            for head in range(n_heads)
        ]
        for layer in range(n_layers)
    ]
    size = font_size(scale)
    trace = dict(
        type="heatmap",
        z=z,
        x=list(range(1, n_heads + 1)),
        y=list(range(1, n_layers + 1)),
        zmin=-0.5,
        zmax=n - 0.5,
        colorscale=colorscale,
        showscale=False,
        xgap=2,
        ygap=2,
        customdata=hover,
        hovertemplate="%{customdata}<extra></extra>",
    )
    if n_heads <= CELL_TEXT_MAX_HEADS:
        # a cell is as narrow as 1/12 of a phone: two-word names take two lines ("previous" / "token")
        broken = [["<br>".join(name.rsplit(" ", 1)) for name in row] for row in text]
        trace.update(text=broken, texttemplate="%{text}", textfont=dict(size=size))
    fig = Spec(base_layout(scale)).add_trace(trace)
    for r in order:  # legend entries: the heatmap itself has none
        fig.add_trace(
            dict(
                type="scatter",
                x=[None],
                y=[None],
                mode="markers",
                name=escape(role_names.get(r, r)),
                marker=dict(symbol="square", size=size, color=ROLE_COLORS[r]),
                hoverinfo="skip",
            )
        )
    if selected is not None:
        layer, head = selected
        fig.add_shape(
            type="rect",
            x0=head + 0.5,
            x1=head + 1.5,
            y0=layer + 0.5,
            y1=layer + 1.5,
            line=dict(color="#111111", width=3),
        )
    rows_px = max(28, 52 - n_layers) * n_layers  # two lines of cell text fit up to ~12 layers
    fig.update_layout(
        title=dict(text=escape(title)) if title else None,
        height=round((170 + rows_px) * scale),
        legend=dict(orientation="h", yanchor="top", y=-0.12, x=0, font=dict(size=size)),
        xaxis=dict(title=dict(text=escape(labels.head)), tickmode="linear", tick0=1, dtick=1, showgrid=False,
                   zeroline=False, side="top"),
        yaxis=dict(title=dict(text=escape(labels.layer)), tickmode="linear", tick0=1, dtick=1, showgrid=False,
                   zeroline=False, autorange="reversed"),
    )  # fmt: skip
    return fig


def role_table(
    roles: np.ndarray,
    scores: Mapping[str, np.ndarray],
    role_names: Mapping[str, str],
    *,
    none_name: str = "none",
    head_word: str = "head",
    role_word: str = "role",
) -> dict[str, list[str]]:
    """Every head's scores as table columns {header: cells}: the head ("L1H3"), its role, one column per role."""
    grid = np.asarray(roles, dtype=object)
    cells = [(layer, head) for layer in range(grid.shape[0]) for head in range(grid.shape[1])]
    out = {head_word: [f"L{layer + 1}H{head + 1}" for layer, head in cells]}
    out[role_word] = [role_names.get(grid[c], grid[c]) if grid[c] else none_name for c in cells]
    for r in ROLE_COLORS:
        if r in scores:
            out[role_names.get(r, r)] = [f"{float(scores[r][c]):.2f}" for c in cells]
    return out


def qk_scatter(
    xy: np.ndarray,
    is_key: np.ndarray,
    position: np.ndarray,
    sequence: np.ndarray,
    tokens: Sequence[str],
    *,
    color_by: str = "kind",
    explained: tuple[float, float] | None = None,
    prompt_name: str = "prompt",
    extra_name: str = "random tokens",
    title: str = "",
    scale: float = 1.0,
    labels: Labels = ENGLISH,
) -> Spec:
    """Queries (circles) and keys (diamonds) of one head in the plane of their two main directions.

    color_by "kind": queries blue, keys vermillion; "position": both by position (Viridis), so a head that
    matches by position shows ordered traces. The prompt's points are large and outlined;
    the extra sequences' (sequence > 0) are small and faint. Hover: the token, its position, its sequence."""
    xy = np.asarray(xy, dtype=np.float64)
    n = len(xy)
    if xy.ndim != 2 or xy.shape[1] != 2 or n == 0:
        raise ValueError(f"xy must be [N, 2] with N > 0, got shape {xy.shape}")
    if not (len(is_key) == len(position) == len(sequence) == len(tokens) == n):
        raise ValueError("is_key, position, sequence and tokens need one entry per point")
    if color_by not in ("kind", "position"):
        raise ValueError(f"color_by must be 'kind' or 'position', got {color_by!r}")
    is_key, position, sequence = np.asarray(is_key, bool), np.asarray(position), np.asarray(sequence)
    size = font_size(scale)
    top = max(int(position.max()), 1)
    fig = Spec(base_layout(scale))
    colorbar_done = False
    for from_prompt in (False, True):  # the prompt last: drawn on top
        for key in (False, True):
            idx = np.flatnonzero((is_key == key) & ((sequence == 0) == from_prompt))
            if not len(idx):
                continue
            kind = labels.key if key else labels.query
            where = prompt_name if from_prompt else extra_name
            seq_text = [where if sequence[i] == 0 else f"{extra_name} {sequence[i]}" for i in idx]
            marker = dict(
                symbol="diamond" if key else "circle",
                size=round((10 if from_prompt else 6) * scale),
                opacity=1.0 if from_prompt else 0.45,
                line=dict(width=1 if from_prompt else 0, color="#111111"),
            )
            if color_by == "kind":
                marker["color"] = KEY_COLOR if key else QUERY_COLOR
            else:
                marker.update(color=position[idx], colorscale=POSITION_COLORSCALE, cmin=0, cmax=top)
                if not colorbar_done:
                    marker["colorbar"] = dict(title=dict(text=escape(labels.position)), thickness=round(12 * scale))
                    marker["showscale"] = True
                    colorbar_done = True
            fig.add_trace(
                dict(
                    type="scatter",
                    x=xy[idx, 0],
                    y=xy[idx, 1],
                    mode="markers",
                    name=f"{escape(kind)} · {escape(where)}",
                    marker=marker,
                    customdata=[
                        [escape(tokens[i]), int(position[i]), escape(s)] for i, s in zip(idx, seq_text, strict=True)
                    ],
                    hovertemplate=(
                        f"<b>%{{customdata[0]}}</b><br>{escape(labels.position)} %{{customdata[1]}}<br>"
                        f"%{{customdata[2]}}<extra>{escape(kind)}</extra>"
                    ),
                )
            )
    pc = [f"PC {i + 1}" + (f" ({explained[i]:.0%})" if explained else "") for i in range(2)]
    fig.update_layout(
        title=dict(text=escape(title)) if title else None,
        height=round(520 * scale),
        legend=dict(orientation="h", yanchor="top", y=-0.14, x=0, font=dict(size=size)),
        xaxis=dict(title=dict(text=pc[0]), zeroline=False, constrain="domain"),
        yaxis=dict(title=dict(text=pc[1]), zeroline=False, scaleanchor="x", scaleratio=1, constrain="domain"),
    )
    return fig
