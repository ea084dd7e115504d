"""Every figure pins the colours Streamlit's theme would otherwise set in the browser (viz/any_theme.py):
under a dark theme the template's near-white text outranked layout.font.color on the white paper (issue 39).
The figure stays a valid Plotly figure, and what a builder chose itself is kept."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

import viz
from tests.viz.test_specs import assert_valid
from tests.viz.test_specs_coverage import parity_cases
from ui.charts import SpecFigure, plot
from viz.any_theme import THEME_LINE, on_any_theme
from viz.palette import INK
from viz.spec import Spec

CASES = parity_cases()


def _leaves(d, path=()):
    """(path, value) of every non-dict value in nested dicts (lists and arrays are leaves)."""
    if not isinstance(d, dict):
        return [(path, d)]
    return [leaf for k, v in d.items() for leaf in _leaves(v, (*path, k))]


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_builder_pinned_is_valid_and_keeps_its_own_choices(case):
    spec = CASES[case]()
    before = json.dumps(spec.to_dict(), sort_keys=True, default=str)
    pinned = on_any_theme(spec)
    assert json.dumps(spec.to_dict(), sort_keys=True, default=str) == before  # the spec is left as it was
    assert_valid(pinned)  # still exactly what a validating go.Figure holds
    old = {path: value for path, value in _leaves(spec.layout) if not isinstance(value, (list, np.ndarray))}
    new = dict(_leaves(pinned.layout))
    changed = {path for path, value in old.items() if path in new and new[path] != value}
    assert not changed and old.keys() <= new.keys(), f"{case}: pinning changed {sorted(changed)}"
    layout = pinned.layout
    assert layout["font"]["color"] and layout["title"]["font"]["color"] and layout["legend"]["font"]["color"]
    cartesian = any(t["type"] in {"bar", "heatmap", "scatter", "contour", "image"} for t in pinned.data)
    axes = [k for k in layout if k[1:5] == "axis"]
    assert axes or not cartesian, f"{case}: cartesian traces but no axis pinned"
    for name in axes:
        assert layout[name]["tickfont"]["color"] and layout[name]["title"]["font"]["color"], f"{case}: {name}"


def test_the_theme_cannot_reach_text_ticks_legend_or_colour_bar():
    a = np.full((2, 2, 3, 3), 1 / 3, dtype=np.float32)
    spec = viz.heads_grid(a)  # 4 subplots, one colour axis
    layout = on_any_theme(spec).layout
    assert {"xaxis", "xaxis4", "yaxis", "yaxis4"} <= layout.keys()
    for name in ("xaxis", "yaxis2", "xaxis4"):
        assert layout[name]["tickfont"]["color"] == layout[name]["title"]["font"]["color"] == INK
        assert layout[name]["gridcolor"] == layout[name]["zerolinecolor"] == THEME_LINE
    assert layout["coloraxis"]["colorbar"]["tickfont"]["color"] == INK
    assert layout["coloraxis"]["colorbar"]["title"]["font"]["color"] == INK
    assert layout["coloraxis"]["colorbar"]["title"]["text"]  # kept beside the pinned colour
    assert layout["yaxis"]["title"]["text"] and layout["paper_bgcolor"] == "white"


def test_axes_named_only_by_traces_and_plain_string_titles_are_pinned():
    spec = Spec.of(
        [dict(type="scatter", x=[1], y=[2], xaxis="x3"), dict(type="treemap", labels=["a"], parents=[""])],
        dict(title="plain", yaxis=dict(title="y", gridcolor="#123456")),
    )
    layout = on_any_theme(spec).layout
    assert set(k for k in layout if k[1:5] == "axis") == {"xaxis3", "yaxis"}  # the treemap adds none
    assert layout["title"] == {"text": "plain", "font": {"color": INK}}
    assert layout["yaxis"]["title"]["text"] == "y" and layout["yaxis"]["gridcolor"] == "#123456"
    assert spec.layout["title"] == "plain"


def test_charts_plot_sends_the_pinned_figure_and_takes_a_go_figure_too():
    class Where:
        def plotly_chart(self, fig, **kwargs):
            self.got = fig

    where = Where()
    plot(where, Spec().add_trace(dict(type="bar", x=[1], y=[2])))
    assert isinstance(where.got, SpecFigure)
    assert where.got.to_dict()["layout"]["xaxis"]["tickfont"]["color"] == INK
    plot(where, go.Figure(go.Bar(x=[1], y=[2]), layout=dict(title=dict(text="t"))))
    sent = where.got.to_dict()["layout"]
    assert sent["title"] == {"text": "t", "font": {"color": INK}} and sent["yaxis"]["tickfont"]["color"] == INK


@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_tick_legend_and_axis_title_sizes_follow_the_figure_font_not_the_template(scale):
    """Streamlit's template pins ticks and legends at 12 px and axis titles at 14 px: on a projector
    (scale 1.5) they stayed small while the title grew. Pinned in proportion: 12/14 at 13 px, as before."""
    layout = viz.base_layout(scale)
    layout["legend"] = {"title": {"text": "kind"}}
    layout["xaxis"] = {"title": "x"}
    layout["coloraxis"] = {"colorscale": "Viridis"}
    spec = Spec.of([{"type": "heatmap", "z": [[1, 2]], "coloraxis": "coloraxis"}], layout)
    out = on_any_theme(spec).layout
    small, big = (12, 14) if scale == 1.0 else (18, 22)  # font 13 -> 12/14; font 20 -> 18/22
    assert out["xaxis"]["tickfont"]["size"] == out["yaxis"]["tickfont"]["size"] == small
    assert out["xaxis"]["title"]["font"]["size"] == big
    assert out["legend"]["font"]["size"] == out["legend"]["title"]["font"]["size"] == small
    assert out["coloraxis"]["colorbar"]["tickfont"]["size"] == small
    own = Spec.of(spec.data, {**layout, "yaxis": {"tickfont": {"size": 9}}})
    assert on_any_theme(own).layout["yaxis"]["tickfont"]["size"] == 9  # a builder's own size is kept
