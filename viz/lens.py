"""lens_table(): the logit lens (nostalgebraist 2020) as layers x positions, each cell the token that layer's
residual stream would predict next, coloured by its probability.

Layers grow upward (the embedding at the bottom, the last layer, which is the model's own output, at the
top), as the stack is drawn in architecture diagrams. Tokens are escaped; long ones are cut in the cell and
shown whole in the hover.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from viz.axes import grid_height, token_axis
from viz.labels import ENGLISH, Labels, escape
from viz.palette import ATTENTION_COLORSCALE, base_layout
from viz.spec import Spec

CELL_CHARS = 6  # a cell shows at most this many characters of its token (then "…"); the hover shows all
TEXT_COLUMNS = 24  # more positions than this: no text in the cells (it could not be read), hover only


def _cell(token: str) -> str:
    return escape(token if len(token) <= CELL_CHARS else token[: CELL_CHARS - 1] + "…")


def lens_table(
    top_tokens: Sequence[Sequence[str]],
    prob: np.ndarray,
    input_tokens: Sequence[str],
    *,
    first_position: int = 0,
    embedding: str = "embedding",
    top_name: str = "top next token",
    prob_name: str = "probability",
    title: str = "",
    labels: Labels = ENGLISH,
    scale: float = 1.0,
) -> Spec:
    """top_tokens [L+1][T] and prob [L+1, T] (row 0: the embedding output; row l: after block l), over the
    positions whose input tokens are input_tokens [T] (numbered from first_position, as in the prompt).
    labels gives "layer" and "position"; embedding names row 0, top_name and prob_name the hover's lines."""
    p = np.asarray(prob, dtype=np.float64)
    if p.ndim != 2 or p.size == 0:
        raise ValueError(f"prob must be [layers + 1, positions], got shape {p.shape}")
    n_rows, n_cols = p.shape
    if len(top_tokens) != n_rows or any(len(row) != n_cols for row in top_tokens):
        raise ValueError(f"top_tokens must be {n_rows} rows of {n_cols} tokens")
    if len(input_tokens) != n_cols:
        raise ValueError(f"prob has {n_cols} positions but there are {len(input_tokens)} input tokens")
    rows = [escape(embedding)] + [f"{escape(labels.layer)} {i}" for i in range(1, n_rows)]
    cols = [f"{first_position + i} {escape(tok)}" for i, tok in enumerate(input_tokens)]
    trace = dict(
        type="heatmap",
        z=p,
        x=cols,
        y=rows,
        zmin=0.0,
        zmax=1.0,
        colorscale=ATTENTION_COLORSCALE,
        colorbar=dict(title=dict(text=escape(prob_name)), thickness=round(14 * scale)),
        customdata=[[escape(tok) for tok in row] for row in top_tokens],
        hovertemplate=(
            f"%{{y}}<br>{escape(labels.position)}: %{{x}}<br>{escape(top_name)}: %{{customdata}}"
            f"<br>{escape(prob_name)}: %{{z:.3f}}<extra></extra>"
        ),
        xgap=1,
        ygap=1,
    )
    if n_cols <= TEXT_COLUMNS:
        trace.update(text=[[_cell(tok) for tok in row] for row in top_tokens], texttemplate="%{text}")
    spec = Spec()
    spec.add_trace(trace)
    spec.update_layout(
        base_layout(scale),
        height=grid_height(n_rows + 6, scale),
        xaxis=token_axis(cols, labels.position, scale, angle=True),
        yaxis=token_axis(rows, labels.layer, scale),
    )
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    return spec
