"""The generic charts (lines, bars, histograms, value_heatmap, plane_vectors) skip Plotly's validation for
speed: each one's output, in every main option, must be exactly the figure a validating go.Figure would hold."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from tests.viz.test_specs import TOKENS, assert_valid
from viz.axes import legend_below
from viz.bars import bars
from viz.histograms import histograms
from viz.labels import Labels
from viz.lines import Series, lines
from viz.matrices import head_rows, signed_map, value_heatmap
from viz.spec import Spec
from viz.vectors import Arrow, plane_vectors

X = np.arange(1, 9, dtype=np.float64)
BAND = Series("mean <i>", X**2, low=X**2 - 1, high=X**2 + 1)
PLAIN = [Series("a & b", X, dash="dash", markers=False), Series("c", 2 * X, color="#123")]
ARROWS = [Arrow(0.8, 0.6, "pos"), Arrow(-3.0, 0.5, "pos+k", dash="dash"), Arrow(1.0, -1.0, "<k>", x0=0.5, y0=-2.5)]
RNG = np.random.default_rng(0)
MASKED = np.where(np.tril(np.ones((4, 4))) > 0, RNG.normal(size=(4, 4)), -np.inf)
NORMAL, SMALL = RNG.normal(size=500), RNG.normal(size=300) / 4
TABLE, BIG = RNG.normal(size=(3, 5)), RNG.normal(size=(40, 24))

CASES = {
    "lines": lambda: lines(X, PLAIN, x_title="n", y_title="rank"),
    "lines band, title, scale 1.5": lambda: lines(X, [BAND, *PLAIN], x_title="n", y_title="σ", title="t", scale=1.5),
    "lines log axes, refs, current": lambda: lines(
        X - 2,
        [BAND, Series("neg", -X)],
        x_title="d_k",
        y_title="var",
        log_x=True,
        log_y=True,
        vlines=[(2.0, "1/√d"), (3.0, "<b>")],
        hlines=[(10.0, "ten")],
        current=4.0,
        y_range=(0.1, 100.0),
    ),
    "lines linear range, height": lambda: lines(X, PLAIN, x_title="x", y_title="y", y_range=(0, 5), height=200),
    "bars": lambda: bars(np.linspace(0, 1, 4), TOKENS, x_title="token", y_title="p"),
    "bars highlight, no text, title": lambda: bars(
        np.arange(4.0), TOKENS, x_title="", y_title="n", highlight=[0, 2], text_fmt=None, title="T", scale=1.5
    ),
    "bars reference, log, range": lambda: bars(
        np.array([0.5, 1e-3, 0.0, 1e-7]),
        TOKENS,
        x_title="token",
        y_title="p",
        highlight=1,
        log_y=True,
        y_range=(1e-8, 1.0),
        reference=np.array([0.4, 0.1, 0.2, 1e-5]),
        names_shown=("T = 0.5", "T = 1"),
    ),
    "bars reference unnamed": lambda: bars(np.ones(2), ["q", "k"], x_title="", y_title="w", reference=np.ones(2)),
    "histograms": lambda: histograms({"q·k": NORMAL, "<scaled>": SMALL}, x_title="x", y_title="density"),
    "histograms range, colors, title, scale 1.5": lambda: histograms(
        {"s": NORMAL[:200]},
        x_title="x",
        y_title="d",
        title="T",
        bins=8,
        x_range=(-2, 2),
        colors=["#000000"],
        scale=1.5,
    ),
    "histograms constant": lambda: histograms({"c": np.ones(10)}, x_title="x", y_title="d", bins=5),
    "value_heatmap labelled, masked": lambda: value_heatmap(MASKED, TOKENS, TOKENS, x_title="key", y_title="query"),
    "value_heatmap diverging, title, scale 1.5": lambda: value_heatmap(
        TABLE, None, None, colorscale="diverging", title="PE", hover_name="v", scale=1.5
    ),
    "value_heatmap large, not square, upright": lambda: value_heatmap(
        BIG.astype(np.float32), None, None, square=False, reverse_y=False, text_fmt=None
    ),
    "value_heatmap names, zmin/zmax, height": lambda: value_heatmap(
        np.ones((2, 3)), ["layer 1", "layer <2>"], ["h1", "h2", "h3"], index_labels=False, zmin=0, zmax=2, height=300
    ),
    "signed_map limit, head rows": lambda: signed_map(
        TABLE, "bias", "bucket", "head", "b", limit=1, square=False, rows=[str(i + 1) for i in range(len(TABLE))]
    ),
    "value_heatmap many labels": lambda: value_heatmap(np.eye(70), [f"t{i}" for i in range(70)], None),
    "plane_vectors": lambda: plane_vectors(ARROWS),
    "plane_vectors circle, angle, titles, scale 1.5": lambda: plane_vectors(
        ARROWS, circle=1.0, angle=(0, 2), title="rotation", x_title="dim 0", y_title="dim 1", scale=1.5
    ),
    "plane_vectors zero arrow": lambda: plane_vectors([Arrow(0.0, 0.0, "0")], angle=(0, 0)),
    "head_rows": lambda: head_rows(np.full((2, 4), 0.25), TOKENS, title="heads", scale=1.5),
    "head_rows many keys": lambda: head_rows(np.full((3, 20), 0.05), [f"k{i}" for i in range(20)]),
    "head_rows labels": lambda: head_rows(
        np.full((2, 4), 0.25), TOKENS, labels=Labels(head="头", key="<k>", weight="权重")
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_plots_builder_output_is_a_valid_figure(case):
    assert_valid(CASES[case]())


@pytest.mark.parametrize("title", ["", "a <b>"])
def test_legend_below_same_on_a_figure_and_a_spec(title):
    """viz.scaling passes either a go.Figure or a Spec to legend_below: both must end the same."""
    layout = dict(height=300, title=dict(font=dict(size=14)), xaxis=dict(title=dict(text="x")))
    fig, spec = go.Figure(), Spec()
    legend_below(fig, json.loads(json.dumps(layout)), title, 1.0)
    legend_below(spec, json.loads(json.dumps(layout)), title, 1.0)
    assert json.loads(spec.figure().to_json()) == json.loads(fig.to_json())
    assert spec.layout["legend"]["yref"] == "container" and spec.layout["title"]["font"]["size"] == 14
