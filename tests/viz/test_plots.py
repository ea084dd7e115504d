"""lines, bars, histograms, value_heatmap, plane_vectors and the palette entries they use."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import viz
from viz.axes import grid_height
from viz.bars import bars
from viz.histograms import histograms
from viz.labels import axis_labels
from viz.lines import Series, lines
from viz.matrices import value_heatmap
from viz.palette import (
    ATTENTION_COLORSCALE,
    BAR,
    CHANGED,
    DIVERGING_COLORSCALE,
    HIGHLIGHT,
    INK,
    MASK_COLORS,
    MASK_KIND_COLORS,
    WEIGHT_DASH,
    font_size,
    head_color,
)
from viz.vectors import Arrow, plane_vectors

EVIL = "<script>alert(1)</script>"
EVIL_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def strings(obj) -> list[str]:
    """Every string in a figure's JSON (text, names, titles, ticks, hover templates)."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in strings(v)]
    return []


def assert_escaped(fig) -> None:
    found = strings(json.loads(fig.to_json()))
    assert not any("<script" in s or "</script" in s for s in found)
    assert any(EVIL_ESCAPED in s for s in found)


# ---------------------------------------------------------------- palette


def test_diverging_colorscale_blue_white_red():
    positions = [p for p, _ in DIVERGING_COLORSCALE]
    assert len(DIVERGING_COLORSCALE) == 11 and positions == sorted(positions)
    assert positions[0] == 0.0 and positions[-1] == 1.0
    assert [0.5, "#ffffff"] in DIVERGING_COLORSCALE  # zero is white, exactly in the middle
    low, high = DIVERGING_COLORSCALE[0][1], DIVERGING_COLORSCALE[-1][1]
    assert int(low[5:7], 16) > int(low[1:3], 16)  # minimum: blue
    assert int(high[1:3], 16) > int(high[5:7], 16)  # maximum: red


def test_new_palette_entries():
    assert set(MASK_KIND_COLORS) == {"causal", "bidirectional", "prefix"}
    assert len(set(MASK_KIND_COLORS.values())) == 3
    assert not set(MASK_KIND_COLORS.values()) & set(MASK_COLORS.values())
    assert WEIGHT_DASH == {"trained": "solid", "random": "dash"}
    assert HIGHLIGHT == CHANGED and BAR == "#6baed6" and BAR != HIGHLIGHT
    assert viz.DIVERGING_COLORSCALE is DIVERGING_COLORSCALE and viz.Series is Series


# ---------------------------------------------------------------- lines


def band_series() -> list[Series]:
    x = np.arange(1, 6, dtype=float)
    return [
        Series("mean", x**2, low=x**2 - 1, high=x**2 + 1),
        Series("other", x, dash="dash", markers=False),
        Series("third", 2 * x, low=x, high=3 * x, color="#123456"),
    ]


def test_lines_traces_are_bands_then_lines():
    fig = lines(np.arange(1, 6), band_series(), x_title="n", y_title="rank").figure()
    # 3 lines + 2 bands of two traces each
    assert len(fig.data) == 3 + 2 * 2
    assert [t.name for t in fig.data] == ["mean"] * 3 + ["other"] + ["third"] * 3
    shown = [t for t in fig.data if t.showlegend is not False]
    assert [t.name for t in shown] == ["mean", "other", "third"]
    low, high, line = fig.data[:3]
    assert low.fill is None and high.fill == "tonexty"
    assert low.hoverinfo == high.hoverinfo == "skip"
    np.testing.assert_allclose(low.y, np.arange(1, 6) ** 2 - 1)
    np.testing.assert_allclose(high.y, np.arange(1, 6) ** 2 + 1)
    assert high.fillcolor.startswith("rgba(31,119,180,")  # head_color(0) = #1f77b4, see-through
    assert line.line.color == head_color(0) and line.mode == "lines+markers"
    assert fig.data[3].line.color == head_color(1) and fig.data[3].line.dash == "dash" and fig.data[3].mode == "lines"
    assert fig.data[6].line.color == "#123456" and fig.data[5].fillcolor.startswith("rgba(18,52,86,")
    assert "%{y:.3g}" in line.hovertemplate and "<extra>mean</extra>" in line.hovertemplate
    assert fig.layout.legend.orientation == "h" and fig.layout.legend.yanchor == "bottom"


def test_lines_log_axes_turn_non_positive_values_into_gaps():
    x = np.array([0.0, 1.0, 2.0, 4.0])
    s = Series("s", np.array([1.0, 0.0, -2.0, 3.0]), low=np.array([-1.0, 0.5, 0.5, 1.0]), high=np.ones(4) * 5)
    fig = lines(x, [s], x_title="x", y_title="y", log_x=True, log_y=True).figure()
    assert fig.layout.xaxis.type == fig.layout.yaxis.type == "log"
    low, _, line = fig.data
    assert np.isnan(line.x[0]) and list(line.x[1:]) == [1.0, 2.0, 4.0]
    assert np.isnan(line.y[:3]).all() and line.y[3] == 3.0  # x = 0, y = 0 and y < 0 are gaps
    assert np.isnan(low.y[0]) and low.y[1] == 0.5
    # linear axes draw the same values as given
    flat = lines(x, [s], x_title="x", y_title="y").figure()
    np.testing.assert_array_equal(flat.data[2].y, [1.0, 0.0, -2.0, 3.0])
    np.testing.assert_array_equal(flat.data[2].x, x)
    assert flat.layout.xaxis.type == flat.layout.yaxis.type == "linear"


@pytest.mark.parametrize("log", [False, True])
def test_lines_reference_lines_at_their_values(log):
    fig = lines(
        np.array([0.1, 1.0, 10.0]),
        [Series("H", np.array([1.0, 0.5, 0.1]))],
        x_title="scale",
        y_title="entropy",
        log_x=log,
        log_y=log,
        vlines=[(1.0, "unscaled"), (0.125, "1/√d_k")],
        hlines=[(0.2, "tol")],
        current=0.25,
    ).figure()
    v1, v2, h, now = fig.layout.shapes
    assert (v1.x0, v1.x1, v1.xref, v1.yref, v1.y0, v1.y1) == (1.0, 1.0, "x", "paper", 0, 1)
    assert v2.x0 == v2.x1 == 0.125 and v1.line.dash == v2.line.dash == h.line.dash == "dash"
    assert (h.y0, h.y1, h.yref, h.xref) == (0.2, 0.2, "y", "paper")
    assert now.x0 == now.x1 == 0.25 and now.line.color == INK and now.line.dash is None
    # Shapes take data values on a log axis, annotations its log10: the labels sit on their lines.
    a1, a2, ah = fig.layout.annotations
    assert [a1.text, a2.text, ah.text] == ["unscaled", "1/√d_k", "tol"]
    assert a1.x == pytest.approx(math.log10(1.0) if log else 1.0)
    assert a2.x == pytest.approx(math.log10(0.125) if log else 0.125)
    assert ah.y == pytest.approx(math.log10(0.2) if log else 0.2)
    assert a1.yshift != a2.yshift  # close lines do not print their labels over each other


def test_lines_vline_labels_left_or_right_of_their_lines():
    kw = dict(x_title="step", y_title="score", vlines=[(700.0, "formed")], current=1000.0)
    right = lines([1, 10, 1000], [Series("s", np.array([0.1, 0.2, 0.9]))], **kw).figure().layout.annotations[0]
    left = lines([1, 10, 1000], [Series("s", np.array([0.1, 0.2, 0.9]))], vline_labels="left", **kw)
    left = left.figure().layout.annotations[0]
    assert (right.xanchor, left.xanchor) == ("left", "right") and right.x == left.x == 700.0
    assert right.xshift > 0 > left.xshift  # the label text runs away from the line, on its side


def test_lines_y_range_in_data_units_and_log_guards():
    s = [Series("s", np.array([1.0, 10.0, 100.0]))]
    fig = lines([1, 2, 3], s, x_title="i", y_title="σ", log_y=True, y_range=(1e-3, 1e3)).figure()
    assert list(fig.layout.yaxis.range) == pytest.approx([-3.0, 3.0])
    assert list(lines([1, 2, 3], s, x_title="i", y_title="σ", y_range=(0, 5)).figure().layout.yaxis.range) == [0, 5]
    with pytest.raises(ValueError, match="log axis"):
        lines([1, 2, 3], s, x_title="i", y_title="σ", log_y=True, hlines=[(0.0, "zero")]).figure()
    with pytest.raises(ValueError, match="log axis"):
        lines([1, 2, 3], s, x_title="i", y_title="σ", log_x=True, current=0).figure()


def test_lines_rejects_bad_series():
    with pytest.raises(ValueError, match="3 values but x has 4"):
        lines(np.arange(4), [Series("s", np.zeros(3))], x_title="x", y_title="y").figure()
    with pytest.raises(ValueError, match="both low and high"):
        lines(np.arange(3), [Series("s", np.zeros(3), low=np.zeros(3))], x_title="x", y_title="y").figure()
    with pytest.raises(ValueError):
        lines(np.arange(3), [], x_title="x", y_title="y").figure()


def test_lines_legend_sits_at_the_bottom_of_the_container_away_from_the_title():
    s = [Series("s", np.zeros(3))]
    titled = lines(np.arange(3), s, x_title="x", y_title="y", title="T").figure()
    assert titled.layout.title.text == "T"
    legend = titled.layout.legend
    assert (legend.yref, legend.y, legend.yanchor, legend.orientation) == ("container", 0, "bottom", "h")
    plain = lines(np.arange(3), s, x_title="x", y_title="y").figure()
    assert plain.layout.height == 380
    assert lines(np.arange(3), s, x_title="x", y_title="y", height=200).figure().layout.height == 200


# ---------------------------------------------------------------- bars


def test_bars_highlight_only_the_chosen_bars():
    v = np.array([0.1, 0.2, 0.3, 0.4])
    names = ["a", "b", "c", "d"]
    one = bars(v, names, x_title="t", y_title="p", highlight=2).figure()
    assert list(one.data[0].marker.color) == [BAR, BAR, HIGHLIGHT, BAR]
    many = bars(v, names, x_title="t", y_title="p", highlight=[0, 3]).figure()
    assert list(many.data[0].marker.color) == [HIGHLIGHT, BAR, BAR, HIGHLIGHT]
    assert HIGHLIGHT not in bars(v, names, x_title="t", y_title="p").figure().data[0].marker.color
    with pytest.raises(ValueError, match="out of range"):
        bars(v, names, x_title="t", y_title="p", highlight=4).figure()


def test_bars_repeated_names_stay_separate_bars():
    names = ["the", "␣cat", "the", "猫", "<b>"]
    fig = bars(np.arange(5.0), names, x_title="token", y_title="p").figure()
    bar = fig.data[0]
    assert list(bar.x) == [0, 1, 2, 3, 4]  # one position per bar, so "the" is not merged
    assert list(fig.layout.xaxis.tickvals) == [0, 1, 2, 3, 4]
    assert list(fig.layout.xaxis.ticktext) == ["the", "␣cat", "the", "猫", "&lt;b&gt;"]
    assert list(bar.customdata) == list(fig.layout.xaxis.ticktext)  # hover names the token too
    np.testing.assert_array_equal(bar.y, np.arange(5.0))


def test_bars_value_text():
    v = np.array([0.12345, 0.5])
    assert list(bars(v, ["a", "b"], x_title="t", y_title="p").figure().data[0].text) == ["0.123", "0.500"]
    assert list(bars(v, ["a", "b"], x_title="t", y_title="p", text_fmt=".0%").figure().data[0].text) == ["12%", "50%"]
    assert bars(v, ["a", "b"], x_title="t", y_title="p", text_fmt=None).figure().data[0].text is None
    with pytest.raises(ValueError, match="2 entries but there are 3 names"):
        bars(v, ["a", "b", "c"], x_title="t", y_title="p").figure()


def test_bars_hover_has_no_empty_x_title_prefix():
    fig = bars(np.array([4096.0, 8.0]), ["W_v", "<b>"], x_title="", y_title="parameters").figure()
    hover = fig.data[0].hovertemplate
    assert hover.startswith("%{customdata}<br>") and ": %{customdata}" not in hover
    assert "parameters: %{y:.4g}" in hover
    titled = bars(np.array([1.0]), ["a"], x_title="token", y_title="p").figure().data[0].hovertemplate
    assert titled.startswith("token: %{customdata}<br>p: ")


def test_bars_reference_hover_names_both_series_and_legend_lists_values_first():
    fig = bars(
        np.array([1.0, 2.0]),
        ["q", "k"],
        x_title="",
        y_title="parameters",
        reference=np.array([2.0, 4.0]),
        names_shown=("A", EVIL),
    ).figure()
    values, ref, legend_only = fig.data
    np.testing.assert_array_equal(ref.y, [2.0, 4.0])  # pages read data[0] and data[1]: order kept
    assert "A: %{y:.4g}" in values.hovertemplate and not values.hovertemplate.startswith(":")
    assert f"{EVIL_ESCAPED}: %{{y:.4g}}" in ref.hovertemplate and ref.hovertemplate.startswith("%{customdata}")
    # the legend reads "A, B": the values' legend entry outranks the reference (lower rank first)
    assert legend_only.name == "A" and legend_only.showlegend is not False and values.showlegend is False
    assert legend_only.legendrank < ref.legendrank
    assert_escaped(fig)
    # without a reference the hover keeps the y title; with an empty value name too
    assert (
        "parameters: " in bars(np.ones(2), ["q", "k"], x_title="", y_title="parameters").figure().data[0].hovertemplate
    )
    unnamed = bars(np.ones(2), ["q", "k"], x_title="", y_title="parameters", reference=np.ones(2)).figure()
    assert "parameters: " in unnamed.data[0].hovertemplate and "parameters: " in unnamed.data[1].hovertemplate


# ---------------------------------------------------------------- histograms


def test_histograms_are_densities_on_shared_edges():
    rng = np.random.default_rng(0)
    samples = {"var 1": rng.normal(size=20_000), "var 64": rng.normal(scale=8.0, size=5_000)}
    fig = histograms(samples, x_title="q·k", y_title="density", bins=40).figure()
    assert fig.layout.barmode == "overlay" and len(fig.data) == 2
    a, b = fig.data
    assert [a.name, b.name] == ["var 1", "var 64"]
    assert len(a.y) == len(b.y) == 40  # bin heights, not the samples
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(a.width, b.width)
    for t in fig.data:
        assert float(np.sum(t.y * t.width)) == pytest.approx(1.0)
    lo = min(v.min() for v in samples.values())
    hi = max(v.max() for v in samples.values())
    assert a.x[0] - a.width[0] / 2 == pytest.approx(lo) and a.x[-1] + a.width[-1] / 2 == pytest.approx(hi)
    assert a.marker.color == head_color(0) and b.marker.color == head_color(1)
    assert 0 < a.opacity < 1


def test_histograms_x_range_keeps_the_area_honest():
    x = np.concatenate([np.linspace(-1, 1, 600), np.full(400, 10.0), [np.nan, np.inf]])
    fig = histograms({"s": x}, x_title="x", y_title="d", x_range=(-2, 2), bins=8, colors=["#000000"]).figure()
    t = fig.data[0]
    assert float(np.sum(t.y * t.width)) == pytest.approx(0.6)  # 600 of 1000 finite samples are inside
    assert list(fig.layout.xaxis.range) == [-2, 2] and t.marker.color == "#000000"
    const = histograms({"c": np.ones(10)}, x_title="x", y_title="d", bins=5).figure().data[0]
    assert float(np.sum(const.y * const.width)) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        histograms({"s": np.array([np.nan])}, x_title="x", y_title="d").figure()
    with pytest.raises(ValueError):
        histograms({"s": x}, x_title="x", y_title="d", x_range=(1, 1)).figure()


# ---------------------------------------------------------------- value_heatmap


def test_value_heatmap_diverging_is_symmetric_around_zero():
    a = np.array([[0.5, -2.0], [1.0, 0.0]])
    fig = value_heatmap(a, None, None, colorscale="diverging").figure()
    h = fig.data[0]
    assert (h.zmin, h.zmax) == (-2.0, 2.0)
    assert h.colorscale == tuple(tuple(p) for p in DIVERGING_COLORSCALE)
    assert value_heatmap(a, None, None, colorscale="diverging", zmax=1.0).figure().data[0].zmin == -2.0
    seq = value_heatmap(a, None, None).figure().data[0]
    assert (seq.zmin, seq.zmax) == (-2.0, 1.0)
    assert seq.colorscale == tuple(tuple(p) for p in ATTENTION_COLORSCALE)
    with pytest.raises(ValueError):
        value_heatmap(a, None, None, colorscale="viridis").figure()


def test_value_heatmap_masked_cells_blank_and_minus_infinity_text():
    a = np.array([[1.25, -np.inf], [0.5, 0.25]])
    h = value_heatmap(a, ["q0", "q1"], ["k0", "k1"], colorscale="diverging").figure().data[0]
    assert np.isnan(h.z[0][1]) and h.z[0][0] == 1.25  # -inf is drawn blank, not as a colour
    assert [list(r) for r in h.text] == [["1.25", "−∞"], ["0.50", "0.25"]]
    assert [list(r) for r in h.customdata] == [["1.25", "−∞"], ["0.5", "0.25"]]  # hover says −∞ too
    assert (h.zmin, h.zmax) == (-1.25, 1.25)  # the infinity does not stretch the colours
    assert h.texttemplate == "%{text}"
    assert value_heatmap(a, None, None, text_fmt=None).figure().data[0].text is None


def test_value_heatmap_big_tables_numeric_axes_without_text():
    pe = np.random.default_rng(0).uniform(-1, 1, size=(256, 64))
    fig = value_heatmap(pe, None, None, colorscale="diverging", square=False, x_title="dim", y_title="pos").figure()
    h = fig.data[0]
    assert h.text is None and h.texttemplate is None and h.customdata is None
    np.testing.assert_array_equal(h.x, np.arange(64))
    np.testing.assert_array_equal(h.y, np.arange(256))
    assert fig.layout.xaxis.type == fig.layout.yaxis.type == "linear"
    assert fig.layout.yaxis.autorange == "reversed" and fig.layout.yaxis.scaleanchor is None
    assert fig.layout.height == 420
    assert value_heatmap(np.zeros((17, 3)), None, None).figure().data[0].text is None  # 16 x 16 at most
    assert value_heatmap(np.zeros((16, 16)), None, None).figure().data[0].text is not None
    assert value_heatmap(pe[:4, :4], None, None, reverse_y=False).figure().layout.yaxis.autorange is None


def test_value_heatmap_labels_unique_escaped_categories():
    tokens = ["the", "<b>", "the"]
    fig = value_heatmap(np.eye(3), tokens, tokens, hover_name="logit", x_title="key", y_title="query").figure()
    h = fig.data[0]
    assert list(h.y) == list(h.x) == axis_labels(tokens) == ["0 the", "1 &lt;b&gt;", "2 the"]
    assert fig.layout.xaxis.type == fig.layout.yaxis.type == "category"
    assert fig.layout.yaxis.scaleanchor == "x"  # square cells
    assert fig.layout.height == grid_height(3, 1.0)
    assert "logit: %{customdata}" in h.hovertemplate and "query: %{y}" in h.hovertemplate
    assert h.colorbar.title.text == "logit"
    plain = value_heatmap(
        np.ones((2, 3)), ["layer 1", "layer <2>"], ["head 1", "head 2", "head 3"], index_labels=False
    ).figure()
    assert list(plain.data[0].y) == ["layer 1", "layer &lt;2&gt;"]
    assert list(plain.layout.xaxis.categoryarray) == ["head 1", "head 2", "head 3"]
    with pytest.raises(ValueError, match="row labels repeat"):
        value_heatmap(np.eye(3), tokens, None, index_labels=False).figure()
    with pytest.raises(ValueError, match="3 rows but 2 row labels"):
        value_heatmap(np.eye(3), tokens[:2], tokens).figure()
    with pytest.raises(ValueError):
        value_heatmap(np.zeros(3), None, None).figure()


# ---------------------------------------------------------------- plane_vectors


def test_plane_vectors_equal_aspect_and_range_covers_every_arrow():
    arrows = [Arrow(0.8, 0.6, "pos"), Arrow(-3.0, 0.5, "pos+k", dash="dash"), Arrow(1.0, -1.0, "k", x0=0.5, y0=-2.5)]
    fig = plane_vectors(arrows, circle=1.0).figure()
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.scaleratio == 1
    lo, hi = fig.layout.xaxis.range
    assert list(fig.layout.yaxis.range) == [lo, hi] and lo == -hi
    for a in arrows:
        for v in (a.x, a.y, a.x0, a.y0):
            assert lo < v < hi
    assert fig.layout.xaxis.zeroline and fig.layout.yaxis.zeroline
    for a, t in zip(arrows, fig.data, strict=True):
        assert list(t.x) == [a.x0, a.x] and list(t.y) == [a.y0, a.y]
        assert t.marker.symbol == "arrow" and t.marker.angleref == "previous"
        assert list(t.text) == ["", a.label]  # label at the tip only
    assert fig.data[1].line.dash == "dash" and fig.data[2].line.color == head_color(2)
    (circle,) = fig.layout.shapes
    assert circle.type == "circle" and (circle.x0, circle.x1, circle.y0, circle.y1) == (-1.0, 1.0, -1.0, 1.0)


def test_plane_vectors_circle_inside_range_and_angle_arc():
    fig = plane_vectors([Arrow(0.1, 0.0, "q"), Arrow(0.0, 0.2, "k")], circle=2.0, angle=(0, 1)).figure()
    assert fig.layout.xaxis.range[1] > 2.0
    assert len(fig.data) == 3  # two arrows, then the arc
    arc = fig.data[2]
    radius = np.hypot(arc.x, arc.y)
    np.testing.assert_allclose(radius, radius[0])
    assert fig.layout.annotations[0].text == "90°"
    with pytest.raises(ValueError):
        plane_vectors([]).figure()
    with pytest.raises(ValueError):
        plane_vectors([Arrow(1, 1)], angle=(0, 1)).figure()


# ---------------------------------------------------------------- every function


FIGURES = {
    "lines": lambda s, w: lines(
        np.arange(1, 4),
        [Series(w, np.ones(3), low=np.zeros(3) + 0.5, high=np.ones(3) * 2)],
        x_title=w,
        y_title=w,
        title=w,
        log_x=True,
        vlines=[(2.0, w)],
        hlines=[(1.0, w)],
        scale=s,
    ).figure(),
    "bars": lambda s, w: bars(np.ones(2), [w, "a"], x_title=w, y_title=w, title=w, scale=s).figure(),
    "histograms": lambda s, w: histograms({w: np.arange(10.0)}, x_title=w, y_title=w, title=w, scale=s).figure(),
    "value_heatmap": lambda s, w: value_heatmap(
        np.eye(2), [w, "a"], [w, "b"], title=w, x_title=w, y_title=w, hover_name=w, scale=s
    ).figure(),
    "value_heatmap_numeric": lambda s, w: value_heatmap(
        np.eye(20), None, None, title=w, x_title=w, y_title=w, hover_name=w, scale=s
    ).figure(),
    "plane_vectors": lambda s, w: plane_vectors([Arrow(1, 0, w)], title=w, x_title=w, y_title=w, scale=s).figure(),
}


@pytest.mark.parametrize("name", FIGURES)
def test_every_plot_escapes_what_it_draws(name):
    assert_escaped(FIGURES[name](1.0, EVIL))


@pytest.mark.parametrize("name", FIGURES)
def test_every_plot_grows_with_scale(name):
    small, big = FIGURES[name](1.0, "w"), FIGURES[name](1.5, "w")
    assert small.layout.font.size == font_size(1.0) and big.layout.font.size == font_size(1.5)
    assert small.layout.paper_bgcolor == "white"
    assert big.layout.height > small.layout.height
    assert big.layout.margin.t > small.layout.margin.t


def test_chinese_words_pass_through_unchanged():
    fig = lines([1, 2], [Series("随机初始化", np.ones(2))], x_title="序列长度", y_title="有效秩", title="秩").figure()
    assert fig.data[0].name == "随机初始化" and fig.layout.xaxis.title.text == "序列长度"
    assert fig.layout.title.text == "秩"


def test_log_ticks_are_plain_numbers_without_minor_labels():
    from viz.axes import log_ticks

    wide = log_ticks(np.array([1e-20, 1.0]))
    assert wide["ticktext"][-1] == "1" and all("µ" not in t and "n" not in t for t in wide["ticktext"])
    assert len(wide["tickvals"]) <= 11 and all(np.log10(v) % 1 == 0 for v in wide["tickvals"])
    narrow = log_ticks(np.array([0.004, 1.0]))
    assert narrow["ticktext"] == ["0.005", "0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1"]
    lengths = log_ticks(np.array([8, 16, 32, 64, 128, 256]), at_values=True)
    assert lengths["ticktext"] == ["8", "16", "32", "64", "128", "256"]
    fig = lines(
        np.array([8, 16, 32]),
        [Series("s", np.array([1e-9, 1e-3, 1.0]))],
        x_title="n",
        y_title="σ",
        log_x=True,
        log_y=True,
    ).figure()
    assert list(fig.layout.xaxis.tickvals) == [8, 16, 32] and "1e-8" in fig.layout.yaxis.ticktext


def test_bars_on_a_log_axis():
    fig = bars(
        np.array([1.0, 1e-3, 1e-7]), ["a", "b", "c"], x_title="x", y_title="p", log_y=True, y_range=(1e-8, 1)
    ).figure()
    assert fig.layout.yaxis.type == "log" and list(fig.layout.yaxis.range) == [-8, 0]


def test_head_rows_and_kv_cache_take_their_shared_words_from_labels():
    zh = viz.Labels(head="头", key="键", weight="权重", layer="层", position="位置")
    fig = viz.head_rows(np.full((2, 3), 1 / 3), ["a", "b", "c"], labels=zh).figure()
    assert list(fig.data[0].y) == ["头 1", "头 2"] and fig.layout.xaxis.title.text == "键"
    assert fig.layout.yaxis.title.text == "头" and fig.data[0].colorbar.title.text == "权重"
    kv = viz.kv_cache(["a", "b"], 1, 1, labels=zh).figure()
    assert list(kv.data[0].y) == ["层 1 K", "层 1 V"] and kv.layout.xaxis.title.text == "位置"
