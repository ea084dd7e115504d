"""The logit-lens table skips Plotly's validation for speed: its output must be exactly the figure a validating
go.Figure would hold; and what it draws is what it was given (tokens escaped, layers upward)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import TOKENS, assert_valid
from viz.labels import Labels
from viz.lens import lens_table

PROB = np.linspace(0, 1, 12).reshape(3, 4)
TOP = [["a", "<b>", "c & d", "猫"], ["the", "cat", "sat", "."], ["x", "🙂", "a-very-long-token", "y"]]
WIDE = np.full((2, 30), 0.5)

CASES = {
    "lens_table": lambda: lens_table(TOP, PROB, TOKENS),
    "lens_table title, labels, offset, scale 1.5": lambda: lens_table(
        TOP,
        PROB,
        TOKENS,
        first_position=10,
        embedding="嵌入",
        top_name="最可能的下一个词元",
        prob_name="概率",
        title="t <i>",
        labels=Labels(layer="层", position="位置"),
        scale=1.5,
    ),
    "lens_table wide: hover only": lambda: lens_table([["t"] * 30] * 2, WIDE, ["w"] * 30),
}


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_cells_show_the_tokens_escaped_and_cut_with_layers_growing_upward():
    spec = lens_table(TOP, PROB, TOKENS, first_position=5)
    (tr,) = spec.data
    assert tr["y"] == ["embedding", "layer 1", "layer 2"]  # a category axis: the first at the bottom
    assert "autorange" not in spec.layout["yaxis"]
    assert tr["x"] == ["5 a", "6 &lt;b&gt;", "7 c &amp; d", "8 猫"]
    assert tr["text"][0][1] == "&lt;b&gt;" and tr["text"][2][2] == "a-ver…"
    assert tr["customdata"][2][2] == "a-very-long-token"
    np.testing.assert_array_equal(tr["z"], PROB)
    assert "text" not in CASES["lens_table wide: hover only"]().data[0]


def test_bad_shapes_raise():
    with pytest.raises(ValueError):
        lens_table(TOP, PROB[:2], TOKENS)
    with pytest.raises(ValueError):
        lens_table(TOP, PROB, TOKENS[:3])
