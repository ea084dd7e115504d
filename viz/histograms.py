"""histograms(): overlaid probability densities on shared bins (dot products before and after scaling).

The bins are counted here, so the page sends `bins` bars per entry, not the raw samples.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from viz.axes import GRID, legend_below
from viz.labels import escape
from viz.palette import base_layout, head_color
from viz.spec import Spec

HIST_OPACITY = 0.55  # overlaid histograms: both stay visible where they overlap
HISTOGRAMS_HEIGHT_PX = 380  # as tall as lines(), which usually sits beside it


def histograms(
    samples: dict[str, np.ndarray],
    *,
    x_title: str,
    y_title: str,
    title: str = "",
    bins: int = 60,
    x_range: tuple[float, float] | None = None,
    colors: Sequence[str] | None = None,
    scale: float = 1.0,
) -> Spec:
    """Overlaid probability-density histograms, one per entry (legend name = key), on shared bin edges.

    The bins are counted here with numpy, so the figure carries `bins` bars per entry, not the raw
    samples (20 000 dot products would make a slow page). Edges span x_range, or else the joint
    min..max of all finite samples. Density is count / (all finite samples x bin width): without
    x_range each histogram's area is 1; with an x_range that cuts samples off, the area is the
    fraction inside it, so a cut-off distribution does not look taller than it is.
    """
    if not samples:
        raise ValueError("histograms needs at least one sample set")
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins}")
    data = {}
    for name, s in samples.items():
        arr = np.asarray(s, dtype=np.float64).ravel()
        arr = arr[np.isfinite(arr)]
        if arr.size == 0:
            raise ValueError(f"samples {name!r} has no finite values")
        data[name] = arr
    if x_range is not None:
        lo, hi = map(float, x_range)
        if not hi > lo:
            raise ValueError(f"x_range must be (low, high) with low < high, got {x_range}")
    else:
        lo = min(float(a.min()) for a in data.values())
        hi = max(float(a.max()) for a in data.values())
        if hi == lo:  # every sample equal: one bin around it
            lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, bins + 1)
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    spec = Spec()
    for i, (name, arr) in enumerate(data.items()):
        counts, _ = np.histogram(arr, bins=edges)
        label = escape(name)
        spec.add_trace(
            dict(
                type="bar",
                x=centres,
                y=counts / (arr.size * widths),
                width=widths,
                name=label,
                marker=dict(color=colors[i % len(colors)] if colors else head_color(i), line=dict(width=0)),
                opacity=HIST_OPACITY,
                customdata=np.stack([edges[:-1], edges[1:]], axis=-1),
                hovertemplate=(
                    f"{escape(x_title)}: [%{{customdata[0]:.3g}}, %{{customdata[1]:.3g}})<br>"
                    f"{escape(y_title)}: %{{y:.3g}}<extra>{label}</extra>"
                ),
            )
        )
    layout = base_layout(scale)
    layout.update(
        height=round(HISTOGRAMS_HEIGHT_PX * scale),
        barmode="overlay",
        bargap=0,
        xaxis=dict(title=dict(text=escape(x_title)), range=[lo, hi], gridcolor=GRID),
        yaxis=dict(title=dict(text=escape(y_title)), rangemode="tozero", gridcolor=GRID),
    )
    legend_below(spec, layout, title, scale)
    return spec
