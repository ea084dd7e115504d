"""Mixture-of-experts figures: which experts the router chose per token and layer, and the load per expert.

Words arrive translated (titles, the hover words); tokens are escaped here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from viz.axes import legend_below, token_axis
from viz.bars import bars
from viz.labels import axis_labels, escape
from viz.palette import HIGHLIGHT, base_layout, head_color
from viz.spec import Spec

ROW_PX = 44  # height of one layer's row in the choice grid
CHOICE_BASE_PX = 170


def router_choices(
    chosen: np.ndarray,
    gates: np.ndarray,
    tokens: Sequence[str],
    n_experts: int,
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    expert_word: str = "expert",
    gate_word: str = "weight",
    scale: float = 1.0,
) -> Spec:
    """chosen [L, T, k] (0-based expert ids < n_experts), gates [L, T, k]: one cell per layer and token, coloured by the
    first choice (one colour per expert, as heads have one), with the chosen experts written in it (1-based,
    "2+4") and their gate weights in the hover."""
    chosen, gates = np.asarray(chosen), np.asarray(gates, dtype=float)
    if chosen.ndim != 3 or chosen.shape != gates.shape:
        raise ValueError(f"chosen and gates must both be [L, T, k], got {chosen.shape} and {gates.shape}")
    n_layers, n_tokens, _ = chosen.shape
    if len(tokens) != n_tokens:
        raise ValueError(f"{n_tokens} token columns but {len(tokens)} tokens")
    n = int(n_experts)
    if chosen.size and not (chosen.min() >= 0 and chosen.max() < n):
        raise ValueError(f"expert ids must lie in 0..{n - 1}")
    # a stepwise colour scale: expert e's colour on [e/n, (e+1)/n], z = e + 0.5 lands inside it
    colorscale = [[edge, head_color(e)] for e in range(n) for edge in (e / n, (e + 1) / n)]
    x = axis_labels(list(tokens))
    y = [str(i + 1) for i in range(n_layers)]
    text = [["+".join(str(int(e) + 1) for e in chosen[li, t]) for t in range(n_tokens)] for li in range(n_layers)]
    hover = [
        ["<br>".join(f"{escape(expert_word)} {int(e) + 1}: {escape(gate_word)} {g:.3f}"
                     for e, g in zip(chosen[li, t], gates[li, t], strict=True)) for t in range(n_tokens)]
        for li in range(n_layers)
    ]  # fmt: skip
    spec = Spec()
    spec.add_trace(
        dict(
            type="heatmap",
            z=chosen[:, :, 0].astype(float) + 0.5,
            x=x,
            y=y,
            zmin=0,
            zmax=n,
            colorscale=colorscale,
            showscale=False,
            text=text,
            texttemplate="%{text}" if n_tokens <= 32 else None,
            customdata=hover,
            hovertemplate=f"{escape(y_title)} %{{y}} · %{{x}}<br>%{{customdata}}<extra></extra>",
            xgap=1,
            ygap=1,
        )
    )
    spec.update_layout(
        base_layout(scale),
        height=round((CHOICE_BASE_PX + ROW_PX * n_layers) * scale),
        xaxis=token_axis(x, x_title, scale, angle=True),
        yaxis=dict(type="category", title=dict(text=escape(y_title)), autorange="reversed", showgrid=False),
    )
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    return spec


def expert_load(
    fractions: np.ndarray,
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    ideal_word: str = "ideal 1/n",
    scale: float = 1.0,
) -> Spec:
    """One bar per expert: the share of token→expert assignments it received [n] (sums to 1), and a dashed
    line at the balanced share 1/n that the load-balancing loss pushes towards."""
    f = np.asarray(fractions, dtype=float)
    n = f.size
    spec = bars(f, [str(e + 1) for e in range(n)], x_title=x_title, y_title=y_title, title=title, text_fmt=".2f",
                y_range=(0.0, max(1.0 / n, float(f.max())) * 1.25), scale=scale)  # fmt: skip
    # the even share as a dashed line with its own legend entry under the plot, where no bar can hide its label
    spec.add_trace(dict(type="scatter", x=[-0.5, n - 0.5], y=[1 / n, 1 / n], mode="lines", hoverinfo="skip",
                        line=dict(color=HIGHLIGHT, dash="dash", width=2 * scale), showlegend=True,
                        name=escape(f"{ideal_word} = {1 / n:.3f}")))  # fmt: skip
    legend_below(spec, {}, title, scale)
    return spec
