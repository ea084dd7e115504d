"""The one place a figure reaches Streamlit: plot(where, spec) instead of where.plotly_chart(fig).

viz builders return a viz.Spec, plain dicts that cost a fraction of a millisecond to build. Streamlit
wants a go.Figure, and building one (even unvalidated) and its to_dict() deep copy cost about 1 ms a
figure: at 40 sessions a fifth of the server's time (bench/load.py). So plot() hands Streamlit a
go.Figure that is only a shell around the Spec (SpecFigure), and the hack stays in this file.
"""

from __future__ import annotations

import plotly.graph_objects as go

from viz.any_theme import on_any_theme
from viz.spec import Spec

# __class__ too: isinstance(fig, dict) reads it (st.plotly_chart asks), and forwarding it would build.
_OWN = frozenset({"to_dict", "_spec", "_built", "_figure", "__class__"})


class SpecFigure(go.Figure):
    """A go.Figure that keeps its Spec and builds Plotly's object tree only on first use.

    Why: st.plotly_chart only calls to_dict() (through plotly.tools.return_figure_from_figure_or_data),
    then JSON-encodes the dict; Spec.to_dict() gives exactly that and builds nothing. Anything else
    (fig.layout.width, which st.plotly_chart reads for width="content", update_layout, to_json,
    pickling) is forwarded to the real go.Figure, built once; from then on to_dict() also comes from
    it, so a change made through it is never lost. tests/viz check that both paths give the same JSON.
    """

    def __init__(self, spec: Spec):  # go.Figure.__init__ runs only in _figure()
        object.__setattr__(self, "_spec", spec)
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
            built = object.__getattribute__(self, "_spec").figure()
            object.__setattr__(self, "_built", built)
        return built

    def to_dict(self) -> dict:
        """What go.Figure.to_dict() returns: the spec, the default template, arrays as base64."""
        built = object.__getattribute__(self, "_built")
        if built is not None:
            return built.to_dict()
        return object.__getattribute__(self, "_spec").to_dict()


def streamlit_figure(fig: Spec | go.Figure) -> go.Figure:
    """What st.plotly_chart should get for fig: a Spec in its cheap shell, a go.Figure as it is."""
    return SpecFigure(fig) if isinstance(fig, Spec) else fig


def plot(where, fig: Spec | go.Figure, **kwargs) -> None:
    """Draw fig in where (st, a column, a container), with st.plotly_chart's keywords (key=...), its
    colours pinned so that Streamlit's light or dark theme cannot turn its text unreadable (viz/any_theme.py)."""
    if not isinstance(fig, Spec):
        d = fig.to_dict()
        fig = Spec.of(d["data"], d["layout"])
    where.plotly_chart(streamlit_figure(on_any_theme(fig)), **kwargs)
