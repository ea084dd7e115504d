"""bars(): one bar per name (next tokens, heads, positions), some highlighted, optionally beside a reference.

Words arrive translated as keywords (x_title, y_title, title) and are escaped here, names too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from viz.axes import GRID, log_position, log_range, log_span, log_ticks
from viz.check import check_index, check_vector
from viz.labels import escape, number_text
from viz.palette import BAR, HIGHLIGHT, MUTED, base_layout
from viz.spec import Spec

BARS_HEIGHT_PX = 360

LEGEND_RANK_VALUES = 1  # bars(): the values before their reference in the legend (Plotly's default rank is 1000)

LEGEND_RANK_REFERENCE = 2


def _bar_hover(x_title: str, value_name: str) -> str:
    """Hover of a bars() series: "x title: bar name" or, with no x title, the bar name alone (not
    ": W_v"); then "value name: value", the value name being the series' legend name when there is
    a reference series, so that two bars of one group say which is which."""
    where = f"{escape(x_title)}: %{{customdata}}" if x_title else "%{customdata}"
    value = f"{escape(value_name)}: %{{y:.4g}}" if value_name else "%{y:.4g}"
    return f"{where}<br>{value}<extra></extra>"


def bars(
    values,
    names: Sequence[str],
    *,
    x_title: str,
    y_title: str,
    title: str = "",
    highlight: int | Sequence[int] | None = None,
    text_fmt: str | None = ".3f",
    y_range: tuple[float, float] | None = None,
    log_y: bool = False,
    reference: np.ndarray | None = None,
    names_shown: tuple[str, str] = ("", ""),
    scale: float = 1.0,
) -> Spec:
    """One bar per name [n]; the highlighted index (or indices) in red, the rest blue.

    reference [n] draws a second, grey outline bar beside each (e.g. the same tokens' probability
    at temperature 1); names_shown = (legend name of the values, of the reference) then labels both,
    in the legend (values first) and in the hover, where it replaces y_title.

    log_y shows values spread over decades (next-token probabilities, a change of 1e-7 beside one
    of 30); a value <= 0 then has no bar. y_range is in data units either way.

    Bar i sits at x = i and the x axis shows the escaped names as tick text: names may repeat
    (two "the" tokens) and stay two bars, and no "i " prefix is added, which in a top-10 list of
    next tokens would read like a rank or a position. text_fmt is a Python format spec for the
    value written above each bar (None: no text).
    """
    v = check_vector(values, None, "values")
    if len(names) != v.size:
        raise ValueError(f"values has {v.size} entries but there are {len(names)} names")
    if highlight is None:
        marked: set[int] = set()
    elif isinstance(highlight, int | np.integer):
        marked = {check_index(highlight, v.size, "highlight")}
    else:
        marked = {check_index(h, v.size, "highlight") for h in highlight}
    ticks = [escape(n) for n in names]
    idx = np.arange(v.size)
    spec = Spec()
    spec.add_trace(
        dict(
            type="bar",
            x=idx,
            y=v,
            marker=dict(color=[HIGHLIGHT if i in marked else BAR for i in idx], line=dict(width=0)),
            text=[number_text(val, text_fmt) for val in v] if text_fmt is not None else None,
            textposition="outside" if text_fmt is not None else None,
            cliponaxis=False,
            customdata=ticks,
            hovertemplate=_bar_hover(x_title, names_shown[0] if reference is not None and names_shown[0] else y_title),
            showlegend=False,
            name=escape(names_shown[0]),
        )
    )
    if reference is not None:
        ref = check_vector(reference, v.size, "reference")
        spec.add_trace(
            dict(
                type="bar",
                x=idx,
                y=ref,
                marker=dict(color="rgba(0,0,0,0)", line=dict(color=MUTED, width=1.5 * scale)),
                customdata=ticks,
                hovertemplate=_bar_hover(x_title, names_shown[1] or y_title),
                name=escape(names_shown[1]),
                legendrank=LEGEND_RANK_REFERENCE,
            )
        )
        # A legend-only entry in the plain bar colour: the first bar may be the highlighted one,
        # and the legend would otherwise borrow its red. It comes after the reference in the data
        # (pages read data[0] and data[1] as values and reference) but first in the legend (rank).
        spec.add_trace(
            dict(
                type="bar",
                x=[None],
                y=[None],
                marker=dict(color=BAR),
                name=escape(names_shown[0]),
                hoverinfo="skip",
                offsetgroup="values",  # shares the values' slot: no empty third bar in each group
                legendrank=LEGEND_RANK_VALUES,
            )
        )
        spec.data[0]["offsetgroup"] = "values"
        spec.update_layout(barmode="group", legend=dict(orientation="h", x=0, yref="container", y=0, yanchor="bottom"))
    yaxis = dict(title=dict(text=escape(y_title)), rangemode="tozero", gridcolor=GRID)
    if log_y:
        shown = [v, list(y_range or ())] + ([reference] if reference is not None else [])
        yaxis = dict(yaxis, type="log", rangemode="normal", **log_ticks(log_span(np.concatenate(shown))))
        yaxis["range"] = log_range(np.concatenate(shown))
    if y_range is not None:
        yaxis["range"] = [log_position(r, log_y, "y_range") for r in y_range]
    spec.update_layout(
        base_layout(scale),
        height=round(BARS_HEIGHT_PX * scale),
        xaxis=dict(
            title=dict(text=escape(x_title)),
            tickmode="array",
            tickvals=idx.tolist(),
            ticktext=ticks,
            range=[-0.5, v.size - 0.5],
            showgrid=False,
            zeroline=False,
        ),
        yaxis=yaxis,
        bargap=0.2,
    )
    if title:
        spec.update_layout(title=dict(text=escape(title)))
    return spec
