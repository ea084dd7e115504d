"""heatmap, heads_grid and mask_heatmap: the figure data must be the input, labelled and oriented."""

from __future__ import annotations

import numpy as np
import pytest

import viz
from viz.labels import Labels, axis_labels
from viz.palette import ATTENTION_COLORSCALE, MASK_COLORS, OUTLINE

TOKENS = ["The", "␣cat", "<b>", "␣the", "&", "猫"]
ZH = Labels(query="查询", key="键", weight="权重", layer="层", head="头", allowed="可关注", blocked="已遮蔽")


def softmax_rows(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=shape).astype(np.float32)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_heatmap_data_is_the_input():
    w = softmax_rows((6, 6))
    fig = viz.heatmap(w, TOKENS, TOKENS).figure()
    assert len(fig.data) == 1 and fig.data[0].type == "heatmap"
    np.testing.assert_array_equal(fig.data[0].z, w)


def test_heatmap_labels_unique_in_order_and_escaped():
    fig = viz.heatmap(softmax_rows((6, 6)), TOKENS, TOKENS).figure()
    y = list(fig.data[0].y)
    assert y == axis_labels(TOKENS) == list(fig.data[0].x)
    assert len(set(y)) == len(y)
    assert y[2] == "2 &lt;b&gt;" and y[4] == "4 &amp;" and y[5] == "5 猫"
    assert not any("<" in label for label in y)


def test_heatmap_orientation_and_category_axes():
    fig = viz.heatmap(softmax_rows((6, 6)), TOKENS, TOKENS).figure()
    assert fig.layout.yaxis.autorange == "reversed"  # query 0 at the top
    assert fig.layout.xaxis.type == fig.layout.yaxis.type == "category"
    assert list(fig.layout.yaxis.categoryarray) == axis_labels(TOKENS)


def test_heatmap_colour_range_fixed_unless_zmax_none():
    w = softmax_rows((6, 6)) * 0.5
    fig = viz.heatmap(w, TOKENS, TOKENS).figure()
    assert (fig.data[0].zmin, fig.data[0].zmax) == (0.0, 1.0)
    assert fig.data[0].colorscale == tuple(tuple(p) for p in ATTENTION_COLORSCALE)
    auto = viz.heatmap(w, TOKENS, TOKENS, zmax=None).figure()
    assert auto.data[0].zmin == 0.0
    assert auto.data[0].zmax == pytest.approx(float(w.max()))
    assert viz.heatmap(w, TOKENS, TOKENS, zmax=0.25).figure().data[0].zmax == 0.25
    with pytest.raises(ValueError):
        viz.heatmap(w, TOKENS, TOKENS, zmax=0).figure()


def test_heatmap_words_come_from_labels():
    fig = viz.heatmap(softmax_rows((6, 6)), TOKENS, TOKENS, labels=ZH, title="<i>title</i>").figure()
    hover = fig.data[0].hovertemplate
    assert "查询: %{y}" in hover and "键: %{x}" in hover and "权重: %{z:.3f}" in hover
    assert "query" not in hover and "key" not in hover
    assert fig.layout.xaxis.title.text == "键" and fig.layout.yaxis.title.text == "查询"
    assert fig.data[0].colorbar.title.text == "权重"
    assert fig.layout.title.text == "&lt;i&gt;title&lt;/i&gt;"


def test_heatmap_cross_attention_shapes():
    q, k = ["a", "b"], ["x", "y", "z", "w"]
    fig = viz.heatmap(softmax_rows((2, 4)), q, k).figure()
    assert list(fig.data[0].y) == ["0 a", "1 b"]
    assert list(fig.data[0].x) == ["0 x", "1 y", "2 z", "3 w"]


def test_heatmap_height_grows_capped_and_scaled():
    h = [viz.heatmap(softmax_rows((t, t)), ["a"] * t, ["a"] * t).figure().layout.height for t in (4, 20, 200, 256)]
    assert h[0] < h[1] < h[2]
    assert h[2] == h[3] <= 900
    big = viz.heatmap(softmax_rows((4, 4)), ["a"] * 4, ["a"] * 4, scale=1.5).figure().layout.height
    assert big == pytest.approx(1.5 * h[0], abs=1)


def test_heatmap_many_tokens_thins_ticks_but_keeps_every_cell_label():
    t = 130
    toks = [f"w{i % 5}" for i in range(t)]
    fig = viz.heatmap(softmax_rows((t, t)), toks, toks).figure()
    assert len(fig.data[0].x) == t and len(set(fig.data[0].y)) == t  # hover names every cell
    for axis in (fig.layout.xaxis, fig.layout.yaxis):
        assert axis.dtick >= 2 and axis.tickfont.size < fig.layout.font.size
    few = viz.heatmap(softmax_rows((8, 8)), ["a"] * 8, ["a"] * 8).figure()
    assert few.layout.xaxis.dtick is None


def test_heads_grid_one_figure_one_coloraxis():
    a = softmax_rows((3, 4, 5, 5))  # [L, H, Tq, Tk]
    fig = viz.heads_grid(a).figure()
    assert len(fig.data) == 12 and all(t.type == "heatmap" for t in fig.data)
    assert {t.coloraxis for t in fig.data} == {"coloraxis"}
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (0.0, 1.0)
    for layer in range(3):
        for head in range(4):
            np.testing.assert_array_equal(fig.data[layer * 4 + head].z, a[layer, head])
    assert [ann.text for ann in fig.layout.annotations] == ["head 1", "head 2", "head 3", "head 4"]
    assert [fig.layout[f"yaxis{1 + 4 * layer}"].title.text for layer in range(3)] == ["layer 1", "layer 2", "layer 3"]
    assert "layer 3 · head 4" in fig.data[-1].hovertemplate
    assert all(ax.showticklabels is False for ax in (fig.layout.xaxis, fig.layout.yaxis12))
    assert fig.layout.yaxis7.autorange == "reversed"
    assert not fig.layout.shapes


def test_heads_grid_hover_and_auto_range():
    a = softmax_rows((2, 2, 4, 4)) * 0.3
    fig = viz.heads_grid(a, zmax=None, labels=ZH).figure()
    assert fig.layout.coloraxis.cmax == pytest.approx(float(a.max()))
    hover = fig.data[3].hovertemplate
    assert hover.startswith("层 2 · 头 2<br>") and "%{y}" in hover and "%{x}" in hover and "%{z:.3f}" in hover


def test_heads_grid_selected_cell_outlined():
    fig = viz.heads_grid(softmax_rows((2, 4, 3, 3)), selected=(1, 2)).figure()
    (shape,) = fig.layout.shapes
    assert shape.type == "rect" and shape.line.color == OUTLINE
    assert (shape.xref, shape.yref) == ("x7 domain", "y7 domain")  # subplot 1*4 + 2 + 1
    assert shape.x0 < 0 < 1 < shape.x1
    with pytest.raises(ValueError, match="out of range"):
        viz.heads_grid(softmax_rows((2, 4, 3, 3)), selected=(2, 0)).figure()


def test_mask_heatmap_marks_blocked_cells():
    mask = np.tril(np.ones((6, 6), bool))
    mask[4, 0] = False
    fig = viz.mask_heatmap(mask, TOKENS, TOKENS).figure()
    allowed, blocked = fig.data[0], fig.data[1]
    np.testing.assert_array_equal(np.isfinite(allowed.z), mask)
    np.testing.assert_array_equal(np.isfinite(blocked.z), ~mask)
    assert allowed.colorscale[0][1] == MASK_COLORS["allowed"]
    assert blocked.colorscale[0][1] == MASK_COLORS["blocked"]
    assert "may attend" in allowed.hovertemplate and "masked" in blocked.hovertemplate
    assert fig.layout.yaxis.autorange == "reversed"
    assert list(allowed.y) == axis_labels(TOKENS)


def test_mask_heatmap_legend_uses_labels():
    fig = viz.mask_heatmap(np.eye(3, dtype=bool), list("abc"), list("abc"), labels=ZH).figure()
    legend = {t.name: t.marker.color for t in fig.data if t.type == "scatter"}
    assert legend == {"可关注": MASK_COLORS["allowed"], "已遮蔽": MASK_COLORS["blocked"]}
