"""Every figure builder skips Plotly's validation for speed (viz/spec.py): its output must be exactly
the figure a validating go.Figure would hold, or a misspelt property would reach the browser silently."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import plotly.tools
import pytest

import viz
from ui.charts import SpecFigure, plot, streamlit_figure
from viz.spec import Spec, merge

TOKENS = ["a", "<b>", "c & d", "猫"]


def assert_valid(spec: Spec) -> None:
    """What st.plotly_chart sends for a builder's Spec (through ui.charts, nothing built) is what the built
    figure holds, and validating it (go.Figure raises on an unknown property or a bad value) changes nothing."""
    assert isinstance(spec, Spec), f"builders return a viz.Spec, got {type(spec)}"
    shell = streamlit_figure(spec)
    sent = json.loads(pio.to_json(plotly.tools.return_figure_from_figure_or_data(shell, validate_figure=True)))
    assert object.__getattribute__(shell, "_built") is None  # sending it built nothing
    built = json.loads(spec.figure().to_json())
    assert sent == built
    assert json.loads(go.Figure(spec.to_dict()).to_json()) == built


def _attention(n: int = 4) -> np.ndarray:
    w = np.tril(np.ones((n, n), dtype=np.float32))
    return w / w.sum(1, keepdims=True)


CASES = {
    "heatmap": lambda: viz.heatmap(_attention(), TOKENS, TOKENS, title="t & u", scale=1.5),
    "heatmap auto zmax": lambda: viz.heatmap(_attention(), TOKENS, TOKENS, zmax=None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_builder_output_is_a_valid_figure(case):
    assert_valid(CASES[case]())


def test_spec_merges_like_update_layout_and_drops_none():
    spec = Spec(dict(font=dict(size=12), title=dict(font=dict(size=14))))
    spec.update_layout(title=dict(text="x"), height=None, showlegend=True)
    spec.add_trace(dict(type="scatter", x=[None], y=[None], fill=None))
    spec.update_yaxes(range=[0, 1])
    assert_valid(spec)
    fig = spec.figure()
    assert fig.layout.title.text == "x" and fig.layout.title.font.size == 14 and fig.layout.height is None
    assert fig.data[0].fill is None and list(fig.data[0].x) == [None]  # None data points stay (gaps)
    assert tuple(fig.layout.yaxis.range) == (0, 1)
    assert merge({"a": {"b": 1}}, {"a": {"c": 2}}) == {"a": {"b": 1, "c": 2}}


def test_spec_rejects_a_trace_without_type():
    with pytest.raises(ValueError, match="type"):
        Spec().add_trace(dict(x=[1]))


def test_a_spec_figure_builds_on_first_use_and_then_keeps_changes():
    spec = Spec(dict(height=100)).add_trace(dict(type="bar", x=[1], y=[2]))
    fig = streamlit_figure(spec)
    assert isinstance(fig, SpecFigure) and isinstance(fig, go.Figure) and object.__getattribute__(fig, "_built") is None
    assert fig.to_dict()["layout"]["template"]  # the default template, as go.Figure adds it
    assert object.__getattribute__(fig, "_built") is None  # to_dict() alone builds nothing
    plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True)  # what st.plotly_chart does
    assert object.__getattribute__(fig, "_built") is None
    fig.update_layout(height=200)  # forwarded to the real figure...
    assert fig.to_dict()["layout"]["height"] == 200  # ...and to_dict() now reads it from there
    assert spec.layout["height"] == 100  # the Spec itself is left as it was
    assert streamlit_figure(fig) is fig  # a go.Figure goes to Streamlit as it is


def test_charts_plot_hands_streamlit_the_shell():
    class Where:
        def plotly_chart(self, fig, **kwargs):
            self.got = fig, kwargs

    where, spec = Where(), Spec().add_trace(dict(type="bar", x=[1], y=[2]))
    plot(where, spec, key="k")
    assert isinstance(where.got[0], SpecFigure) and where.got[1] == {"key": "k"}
