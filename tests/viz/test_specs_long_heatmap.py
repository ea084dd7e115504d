"""A long prompt's attention as a picture (viz/long_heatmap.py): valid Plotly, small at 2,048 tokens whatever the
weights, the pixels saying what the weights are (a block keeps its largest weight), the zoom holding the exact
region with its positions, a dragged box read as the cells it covers; the position offsets of the windowed views."""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest
from PIL import Image

import viz
from tests.viz.test_specs import assert_valid
from viz.long_heatmap import IMAGE_MAX_PX, TICKS, auto_top, palette, pool_factor, pooled, tick_positions

RNG = np.random.default_rng(0)


def _causal(n: int) -> np.ndarray:
    w = np.tril(RNG.random((n, n), dtype=np.float32))
    return w / w.sum(1, keepdims=True)


def _tokens(n: int) -> list[str]:
    return [f"t{i}<b>" for i in range(n)]


W300, T300 = _causal(300), _tokens(300)
CASES = {
    "long_heatmap": lambda: viz.long_heatmap(W300, T300, T300),
    "long_heatmap region, title, words, scale 1.5": lambda: viz.long_heatmap(
        W300, T300, T300, title="层 1 <i>", zmax=None, region=viz.Region(10, 40, 0, 30), hint="拖出一个框",
        scale=1.5, labels=viz.Labels(query="查询", key="键", weight="权重"),
    ),
    "zoom_heatmap": lambda: viz.zoom_heatmap(W300, T300, T300, viz.Region(200, 260, 150, 210), title="zoom"),
    "heatmap q_start k_start": lambda: viz.heatmap(W300[:8, :8], T300[:8], T300[:8], q_start=100, k_start=90),
    "heads_grid q_start k_start": lambda: viz.heads_grid(np.stack([[W300[:6, :6]] * 2] * 2), q_start=7, k_start=3),
    "head_view q_start k_start": lambda: viz.head_view(np.stack([W300[:6, :6]] * 2), T300[:6], T300[:6], q_start=5),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def _png(spec) -> np.ndarray:
    """The picture's pixels, [rows, cols, 3] RGB."""
    uri = spec.data[0]["source"]
    assert uri.startswith("data:image/png;base64,")
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))).convert("RGB"))


@pytest.mark.parametrize("weights", ["causal", "noise"])
def test_2048_tokens_send_a_picture_of_a_few_hundred_kilobytes(weights):
    n = 2048
    w = _causal(n) if weights == "causal" else RNG.random((n, n), dtype=np.float32)  # noise: the worst for PNG
    spec = viz.long_heatmap(w, _tokens(n), _tokens(n))
    sent = json.dumps(spec.to_dict())
    assert len(sent) < 1_000_000, len(sent)  # a heatmap trace of the same matrix: 4.2M float32 = ~22 MB of base64
    assert "bdata" not in sent  # no numeric array at all: the weights are only pixels
    assert _png(spec).shape == (IMAGE_MAX_PX, IMAGE_MAX_PX, 3)


def test_each_pixel_keeps_its_blocks_largest_weight():
    n = 2048
    f = pool_factor(n)
    assert f == 4
    w = np.zeros((n, n), np.float32)
    w[1501, 6] = 1.0  # one sharp weight, as a sink or an induction head has
    w[:, 1000] = 0.5
    px = _png(viz.long_heatmap(w, _tokens(n), _tokens(n)))
    colours = palette(viz.ATTENTION_COLORSCALE)
    assert (px[1501 // f, 6 // f] == colours[254]).all()  # the darkest blue: weight 1 = zmax
    assert (px[3, 1000 // f] == colours[127]).all()  # 0.5: the middle of the scale
    assert (px[0, 0] == colours[0]).all()  # white: 0
    spec = viz.long_heatmap(w, _tokens(n), _tokens(n))
    image = spec.data[0]
    assert (image["x0"], image["dx"], image["y0"], image["dy"]) == (1.5, 4, 1.5, 4)  # pixel centres in positions
    np.testing.assert_array_equal(pooled(np.arange(16, dtype=np.float32).reshape(4, 4), 2), [[5, 7], [13, 15]])
    np.testing.assert_array_equal(pooled(np.array([[1, -3], [2, 0]], np.float32), 2), [[-3]])  # by magnitude


def test_axes_name_the_whole_prompt_with_a_readable_number_of_tokens():
    n = 2015
    layout = viz.long_heatmap(_causal(n), _tokens(n), _tokens(n), title="t").layout
    y = layout["yaxis"]
    assert y["range"] == [n - 0.5, -0.5] and y["fixedrange"]  # query 0 at the top; zoom redraws, never stretches
    assert y["tickvals"] == list(range(0, n, 200)) and len(y["tickvals"]) <= TICKS
    assert y["ticktext"][1] == "200 t200&lt;b&gt;"  # escaped, numbered as in the prompt
    assert layout["dragmode"] == "select"
    assert tick_positions(5) == [0, 1, 2, 3, 4] and tick_positions(300) == list(range(0, 300, 50))


def test_the_zoom_holds_the_exact_region_numbered_as_in_the_prompt():
    n = 2048
    w = _causal(n)
    region = viz.Region(1000, 1100, 950, 1050)
    trace = viz.zoom_heatmap(w, _tokens(n), _tokens(n), region).data[0]
    np.testing.assert_array_equal(trace["z"], w[1000:1100, 950:1050])
    assert trace["y"][0] == "1000 t1000&lt;b&gt;" and trace["x"][-1] == "1049 t1049&lt;b&gt;"
    assert trace["zmax"] == 1.0
    auto = viz.zoom_heatmap(w, _tokens(n), _tokens(n), region, zmax=None).data[0]
    picture = viz.long_heatmap(w, _tokens(n), _tokens(n), zmax=None).data[1]["marker"]
    assert auto["zmax"] == picture["cmax"] == auto_top(w, None)  # the whole matrix's scale, as the picture's
    positive = w[w > 0]
    assert (positive > auto["zmax"]).mean() == pytest.approx(0.005, abs=1e-4)  # 99.5 % of the weights below it
    assert auto["zmax"] < 0.1 < w.max() == 1.0  # row 0's weight of 1 does not set the scale


def test_ranges_and_dragged_boxes_become_regions():
    assert viz.clamp_region((10, 20), (5, 5), 100, 50) == viz.Region(10, 21, 5, 6)
    assert viz.clamp_region((30, 10), (-4, 999), 100, 50) == viz.Region(10, 31, 0, 50)  # sorted, inside
    assert viz.clamp_region((0, 999), (0, 9), 2000, 2000) == viz.Region(0, viz.ZOOM_MAX, 0, 10)  # first ZOOM_MAX
    # cells whose centres the box covers: x (keys) 9.6..20.4 -> 10..20, y (queries) 99.5..130 -> 100..130
    assert viz.box_region({"x": [20.4, 9.6], "y": [99.5, 130.0]}, 2000, 2000) == viz.Region(100, 131, 10, 21)
    assert viz.box_region({"x": [10.2, 10.4], "y": [0, 5]}, 2000, 2000) is None  # no centre inside
    assert viz.box_region({"x": [-50, -10], "y": [0, 5]}, 2000, 2000) is None  # off the matrix
    assert viz.box_region({"x": "junk"}, 10, 10) is None
    assert viz.is_long(257, 3) and not viz.is_long(256, 256)


def test_windows_keep_their_positions():
    w = W300[100:108, 90:98]
    trace = viz.heatmap(w, T300[100:108], T300[90:98], q_start=100, k_start=90).data[0]
    assert trace["y"][0] == "100 t100&lt;b&gt;" and trace["x"][0] == "90 t90&lt;b&gt;"
    grid = viz.heads_grid(np.stack([[w]]), q_start=100, k_start=90).data[0]
    assert (grid["x0"], grid["y0"]) == (90, 100)
    assert "x0" not in viz.heads_grid(np.stack([[w]])).data[0]  # a short prompt's grid is as before
    view = viz.head_view(np.stack([w]), T300[100:108], T300[90:98], q_start=100, k_start=90)
    assert "query: 100 t100&lt;b&gt;" in view.data[-1]["hovertext"][0]
