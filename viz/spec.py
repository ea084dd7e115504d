"""Figures built as plain dicts (a Spec), without Plotly's property-by-property validation.

Why: under a class-sized load (bench/load.py, 40 sessions) building figures through
go.Figure.update_layout / add_trace / go.Scatter(...) was about three quarters of the server's
time, more than running the models. A Spec holds the same data and layout as plain dicts (the
same JSON reaches the browser) and costs a fraction of a millisecond. Validation is not lost:
tests/viz pass every builder's output through a validating go.Figure and require identical JSON,
so a misspelt property still fails a test instead of reaching the browser silently.

Every builder returns a Spec; ui/charts.py is the one place that hands one to Streamlit. The API
mirrors the few go.Figure methods the builders use, with nested dicts instead of Plotly's
"magic underscore" keywords (title=dict(text=...), not title_text=...).
"""

from __future__ import annotations

import functools
import re

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from _plotly_utils.basevalidators import is_homogeneous_array
from _plotly_utils.utils import to_typed_array_spec

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

    @classmethod
    def of(cls, data: list[dict], layout: dict) -> Spec:
        """A Spec of finished trace and layout dicts, taken as they are (not cleaned, not copied)."""
        spec = cls()
        spec.data, spec.layout = data, layout
        return spec

    def to_dict(self) -> dict:
        """What go.Figure.to_dict() returns for this figure: the spec, the default template, arrays as
        base64, without building Plotly's object tree (st.plotly_chart only needs this; see ui/charts.py).

        Containers are copied (the spec is left as it was); strings, numbers and arrays are shared.
        """
        res = {"data": _encoded(self.data), "layout": _encoded(self.layout)}
        template = _default_template(str(pio.templates.default))
        if res["layout"].get("template") is None and template is not None:
            res["layout"]["template"] = _containers(template)  # a template's arrays are base64 already
        return res

    def figure(self) -> Spec:
        """The same figure as a go.Figure (built, not validated), to read as fig.layout.title.text or
        to export; slow next to to_dict(), so the app never calls it."""
        return go.Figure({"data": self.data, "layout": self.layout}, _validate=False)

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """Jupyter shows a builder's result as the Plotly figure it is (notebooks/attention_lab.ipynb)."""
        return self.figure()._repr_mimebundle_(include, exclude, **kwargs)


def _containers(x):
    """Copy dicts and lists (so convert_to_base64 cannot reach the spec) but share the leaves
    (strings, numbers, numpy arrays): what a deepcopy would do, for a fraction of its cost."""
    if isinstance(x, dict):
        return {k: _containers(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_containers(v) for v in x]
    return x


# Plotly's convert_to_base64 leaves these keys' values as they are (_plotly_utils.utils.is_skipped_key).
_SKIPPED = frozenset({"geojson", "layer", "layers", "range"})
_PLAIN = (str, int, float, bool, dict, list, tuple, type(None))


def _encoded(x):
    """_containers(x) with Plotly's convert_to_base64 applied, in one walk: what Plotly does, without its per-value
    checks for pandas and narwhals types on every string and number (a fifth of a page's rerun; issue 40). As
    there: a dict's array values become typed-array specs; arrays inside lists, and skipped keys, stay as they are."""
    if isinstance(x, dict):
        return {
            k: _containers(v) if k in _SKIPPED else to_typed_array_spec(v) if _homogeneous(v) else _encoded(v)
            for k, v in x.items()
        }
    if isinstance(x, (list, tuple)):
        return [_encoded(v) for v in x]
    return x


def _homogeneous(v) -> bool:
    """Plotly's is_homogeneous_array, answered at once for an ndarray and for plain Python values."""
    if isinstance(v, np.ndarray):
        return True
    return not isinstance(v, _PLAIN) and is_homogeneous_array(v)


@functools.lru_cache(maxsize=4)
def _default_template(name: str) -> dict:
    """The template go.Figure adds to a layout without one (plotly.io.templates.default)."""
    return go.Figure(_validate=False).to_dict()["layout"].get("template")
