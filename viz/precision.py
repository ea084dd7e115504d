"""precision_gaps(): how far a model's attention weights move when its matmuls run in bfloat16 (issue 30), per layer,
on a log axis beside bfloat16's machine epsilon. Numbers only (models/inspection/precision_gap.py measures them)."""

from __future__ import annotations

import numpy as np

from viz.check import check_vector
from viz.lines import Series, lines
from viz.palette import HEAD_COLORS
from viz.spec import Spec

FLOOR = 1e-9  # a layer whose weights did not move at all (|Δ| = 0) is drawn here, not dropped from a log axis


def precision_gaps(
    layer_max,
    layer_mean,
    *,
    eps: float,
    max_name: str,
    mean_name: str,
    eps_name: str,
    x_title: str,
    y_title: str,
    title: str = "",
    scale: float = 1.0,
) -> Spec:
    """Max and mean |Δ| of the attention weights [L] per layer (1-based on the x axis), log y, with a dashed line at
    eps (bfloat16's 2^-7: a weight's own rounding step near 1). Every word is passed in translated."""
    top = check_vector(layer_max, None, "layer_max")
    mean = check_vector(layer_mean, top.size, "layer_mean")
    if top.size == 0:
        raise ValueError("precision_gaps needs at least one layer")
    if eps <= 0:
        raise ValueError(f"eps must be positive, got {eps}")
    x = np.arange(1, top.size + 1)
    series = [
        Series(max_name, np.maximum(top, FLOOR), color=HEAD_COLORS[3]),
        Series(mean_name, np.maximum(mean, FLOOR), color=HEAD_COLORS[0], dash="dash"),
    ]
    spec = lines(x, series, x_title=x_title, y_title=y_title, title=title, log_y=True, hlines=[(eps, eps_name)],
                 scale=scale)  # fmt: skip
    return spec.update_xaxes(tickmode="linear", tick0=1, dtick=max(1, top.size // 12))  # whole layers only
