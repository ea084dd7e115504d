"""The KV cache as it grows: which keys and values a new token reuses and which it adds.

Generating token t needs the keys and values of every earlier position in every layer. A cache
keeps them, so each step computes one new column per layer (the new token's K and V) instead of
recomputing all of them.
"""

from __future__ import annotations

import numpy as np

from viz.labels import ENGLISH, Labels, axis_labels, escape
from viz.palette import CHANGED, base_layout
from viz.spec import Spec

REUSED = "#c6dbef"  # light blue: read from the cache
ROW_PX = 26


def kv_cache(
    tokens: list[str],
    n_new: int,
    n_layers: int,
    *,
    title: str = "",
    reused: str = "reused from the cache",
    new: str = "computed this step",
    labels: Labels = ENGLISH,
    scale: float = 1.0,
) -> Spec:
    """Rows: K and V of each layer; columns: the positions so far. The last n_new columns (the new
    token, or the whole prompt at prefill) are red, the rest light blue. labels gives the words
    "layer" and "position"; reused and new, the hover of the two kinds of cell, are this figure's own."""
    layer, position = labels.layer, labels.position
    n = len(tokens)
    if not 0 < n_new <= n or n_layers < 1:
        raise ValueError(f"need 0 < n_new <= len(tokens) and n_layers >= 1, got {n_new}, {len(tokens)}, {n_layers}")
    rows = [f"{escape(layer)} {li + 1} {kv}" for li in range(n_layers) for kv in ("K", "V")]
    z = np.zeros((len(rows), n), dtype=np.float32)
    z[:, n - n_new :] = 1.0
    hover = np.where(z > 0, escape(new), escape(reused))
    spec = Spec()
    spec.add_trace(
        dict(
            type="heatmap",
            z=z,
            x=axis_labels(tokens),
            y=rows,
            zmin=0,
            zmax=1,
            colorscale=[[0, REUSED], [0.5, REUSED], [0.5, CHANGED], [1, CHANGED]],
            showscale=False,
            xgap=1,
            ygap=1,
            customdata=hover,
            hovertemplate=f"{escape(position)}: %{{x}}<br>%{{y}}: %{{customdata}}<extra></extra>",
        )
    )
    layout = base_layout(scale)
    spec.update_layout(
        **layout,
        height=round((120 + ROW_PX * len(rows)) * scale),
        xaxis=dict(type="category", tickangle=-60, title=dict(text=escape(position))),  # narrow screens too
        yaxis=dict(type="category", autorange="reversed"),
    )
    if n > 64:
        spec.update_xaxes(tickmode="linear", tick0=0, dtick=int(np.ceil(n / 64)))
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    return spec
