"""softcap_curve(): Gemma 2's soft-capping s -> cap·tanh(s/cap) against s, with one head's real scores on it.

Numbers and words only (the page translates); the head's (before, after) pairs are drawn as points, so a
student sees them sit on the curve and bend away from the line y = s as they approach ±cap.
"""

from __future__ import annotations

import numpy as np

from viz.check import check_vector
from viz.labels import escape
from viz.lines import Series, lines
from viz.palette import INK, MUTED, head_color
from viz.spec import Spec

CURVE_POINTS = 241


def softcap_curve(
    cap: float,
    before: np.ndarray,
    after: np.ndarray,
    *,
    x_title: str = "s",
    y_title: str = "cap·tanh(s/cap)",
    title: str = "",
    curve_name: str = "cap·tanh(s/cap)",
    line_name: str = "no cap: s",
    points_name: str = "this head's scores",
    scale: float = 1.0,
) -> Spec:
    """The curve over s in ±max(3·cap, the scores' reach), the line y = s, dashed lines at ±cap, and the points
    (before[i], after[i]) [n] (non-finite pairs, i.e. masked scores, are left out)."""
    if not cap > 0:
        raise ValueError(f"cap must be positive, got {cap!r}")
    b = check_vector(before, None, "before")
    a = check_vector(after, b.size, "after")
    keep = np.isfinite(b) & np.isfinite(a)
    b, a = b[keep], a[keep]
    reach = max(3.0 * cap, float(np.abs(b).max()) if b.size else 0.0) * 1.05
    s = np.linspace(-reach, reach, CURVE_POINTS)
    series = [Series(curve_name, cap * np.tanh(s / cap), color=INK, markers=False),
              Series(line_name, s, color=MUTED, dash="dot", markers=False)]  # fmt: skip
    marks = [(cap, f"+{cap:g}"), (-cap, f"−{cap:g}")]
    spec = lines(s, series, x_title=x_title, y_title=y_title, title=title, hlines=marks,
                 y_range=(-1.25 * cap, 1.25 * cap), scale=scale)  # fmt: skip
    name = escape(points_name)
    spec.add_trace(
        dict(
            type="scatter",
            x=b,
            y=a,
            mode="markers",
            marker=dict(size=round(7 * scale), color=head_color(3), opacity=0.75),
            name=name,
            hovertemplate=f"{escape(x_title)}: %{{x:.3f}}<br>{escape(y_title)}: %{{y:.3f}}<extra>{name}</extra>",
        )
    )
    return spec
