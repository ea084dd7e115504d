"""Figures built as plain dicts and wrapped once, without Plotly's property-by-property validation.

Why: under a class-sized load (bench/load.py, 40 sessions) building figures through
go.Figure.update_layout / add_trace / go.Scatter(...) was about three quarters of the server's
time, more than running the models. A Spec holds the same data and layout as plain dicts (the
same JSON reaches the browser) and costs a fraction of a millisecond. Validation is not lost:
tests/viz pass every builder's output through a validating go.Figure and require identical JSON,
so a misspelt property still fails a test instead of reaching the browser silently.

The API mirrors the few go.Figure methods the builders use, with nested dicts instead of Plotly's
"magic underscore" keywords (title=dict(text=...), not title_text=...).
"""

from __future__ import annotations

import re

import plotly.graph_objects as go

_AXIS = {"x": re.compile(r"xaxis\d*$"), "y": re.compile(r"yaxis\d*$")}


def _clean(d: dict) -> dict:
    """Drop None values (as a validated go object does), recursing into dicts but not into data lists."""
    return {k: _clean(v) if isinstance(v, dict) else v for k, v in d.items() if v is not None}


def merge(into: dict, update: dict) -> dict:
    """Deep-merge update into into (dicts merge key by key; anything else replaces), as update_layout does."""
    for k, v in update.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            merge(into[k], v)
        else:
            into[k] = v
    return into


class Spec:
    """A figure under construction: data is a list of trace dicts (each with its "type"), layout a dict."""

    def __init__(self, layout: dict | None = None):
        self.data: list[dict] = []
        self.layout: dict = _clean(layout) if layout else {}

    def add_trace(self, trace: dict) -> Spec:
        if "type" not in trace:
            raise ValueError(f"a trace needs its type: {sorted(trace)}")
        self.data.append(_clean(trace))
        return self

    def add_shape(self, **shape) -> Spec:
        self.layout.setdefault("shapes", []).append(_clean(shape))
        return self

    def add_annotation(self, **annotation) -> Spec:
        self.layout.setdefault("annotations", []).append(_clean(annotation))
        return self

    def update_layout(self, update: dict | None = None, **kw) -> Spec:
        merge(self.layout, _clean({**(update or {}), **kw}))
        return self

    def update_xaxes(self, **kw) -> Spec:
        return self._update_axes("x", kw)

    def update_yaxes(self, **kw) -> Spec:
        return self._update_axes("y", kw)

    def _update_axes(self, which: str, kw: dict) -> Spec:
        """Merge kw into every x (or y) axis of the layout, as go.Figure.update_xaxes does."""
        names = [k for k in self.layout if _AXIS[which].match(k)] or [f"{which}axis"]
        for name in names:
            merge(self.layout.setdefault(name, {}), _clean(kw))
        return self

    def figure(self) -> go.Figure:
        return unvalidated(self.data, self.layout)


def unvalidated(data: list[dict], layout: dict) -> go.Figure:
    """A go.Figure from plain dicts without validation: an attention heatmap builds in 0.5 ms, not 8."""
    return go.Figure({"data": data, "layout": layout}, _validate=False)
