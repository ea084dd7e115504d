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

import functools
import re

import plotly.graph_objects as go
import plotly.io as pio
from _plotly_utils.utils import convert_to_base64

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
    """A go.Figure of these plain dicts that builds Plotly's object tree only if someone reads it."""
    return SpecFigure(data, layout)


# __class__ too: isinstance(fig, dict) reads it (st.plotly_chart asks), and forwarding it would build.
_OWN = frozenset({"to_dict", "_spec", "_built", "_figure", "__class__"})


class SpecFigure(go.Figure):
    """A go.Figure that keeps its plain spec and builds Plotly's object tree on first use.

    Why: st.plotly_chart only calls to_dict() (then JSON-encodes the dict). Even unvalidated,
    go.Figure(...) costs 0.4 ms per figure and its to_dict() deep copy (the 7 KB default template
    included) another 0.5 ms: at 40 sessions that was a fifth of the server's time. Here to_dict()
    copies containers only and nothing is built. Anything else (fig.layout.title.text, fig.data,
    update_layout, to_json, pickling) is forwarded to the real go.Figure, built once; from then on
    to_dict() also comes from it, so a change made through it is never lost. tests/viz check that
    both paths give the same JSON.
    """

    def __init__(self, data: list[dict], layout: dict):  # go.Figure.__init__ runs only in _figure()
        object.__setattr__(self, "_spec", (data, layout))
        object.__setattr__(self, "_built", None)

    def __getattribute__(self, name: str):
        if name in _OWN:
            return object.__getattribute__(self, name)
        return getattr(object.__getattribute__(self, "_figure")(), name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._figure(), name, value)

    def _figure(self) -> go.Figure:
        built = object.__getattribute__(self, "_built")
        if built is None:
            data, layout = object.__getattribute__(self, "_spec")
            built = go.Figure({"data": data, "layout": layout}, _validate=False)
            object.__setattr__(self, "_built", built)
        return built

    def to_dict(self) -> dict:
        """What go.Figure.to_dict() returns: the spec, the default template, arrays as base64."""
        built = object.__getattribute__(self, "_built")
        if built is not None:
            return built.to_dict()
        data, layout = object.__getattribute__(self, "_spec")
        res = {"data": _containers(data), "layout": _containers(layout)}
        template = _default_template(str(pio.templates.default))
        if res["layout"].get("template") is None and template is not None:
            res["layout"]["template"] = _containers(template)
        convert_to_base64(res)  # replaces arrays in place: in the copied containers, not in the spec
        return res


def _containers(x):
    """Copy dicts and lists (so convert_to_base64 cannot reach the spec) but share the leaves
    (strings, numbers, numpy arrays): what a deepcopy would do, for a fraction of its cost."""
    if isinstance(x, dict):
        return {k: _containers(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_containers(v) for v in x]
    return x


@functools.lru_cache(maxsize=4)
def _default_template(name: str) -> dict:
    """The template go.Figure adds to a layout without one (plotly.io.templates.default)."""
    return go.Figure(_validate=False).to_dict()["layout"].get("template")
