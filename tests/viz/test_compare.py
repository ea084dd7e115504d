"""The two-model figures (viz/compare.py) skip Plotly's validation: each must equal the figure a validating go.Figure
holds; token boxes span the characters they cover, the 0…1 maps keep their numbers, a partner grid names partners."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import assert_valid
from viz.compare import layer_max, partner_grid, token_rows, unit_map

TEXT = "the cat <b>"
ROWS = [
    ("GPT-2", ["the", " cat", " <", "b>"], [(0, 3), (3, 7), (7, 9), (9, 11)]),
    ("toy <i>", ["[BOS]", "the", " ", "cat", " <b>"], [None, (0, 3), (3, 4), (4, 7), (7, 11)]),
]
SIM = np.random.default_rng(0).uniform(0, 1, (3, 4))

CASES = {
    "token_rows": lambda: token_rows(ROWS, TEXT, cuts=[0, 3, 7, 11], title="t", x_title="字符"),
    "token_rows long, 1.5": lambda: token_rows(
        [("a", ["x"] * 200, [(i, i + 1) for i in range(200)])], "x" * 200, scale=1.5
    ),
    "unit_map": lambda: unit_map(
        SIM,
        ["emb", "L1", "<L2>"],
        list("abcd"),
        title="CKA",
        x_title="B",
        y_title="A",
        value_name="CKA",
        note="shuffled: 0.31",
    ),
    "unit_map big negative": lambda: unit_map(
        np.linspace(-0.2, 1, 400).reshape(20, 20),
        [str(i) for i in range(20)],
        [str(i) for i in range(20)],
        title="",
        x_title="",
        y_title="",
        value_name="v",
        scale=1.5,
    ),
    "partner_grid": lambda: partner_grid(
        SIM, [["L1H1", "L2H2", "", "L1H3"]] * 3, title="heads", value_name="sim", partner_name="B", none_name="—"
    ),
    "partner_grid wide": lambda: partner_grid(
        np.full((2, 14), np.nan),
        [["L1H1"] * 14] * 2,
        title="",
        value_name="s",
        partner_name="B",
        none_name="无",
        layers=[3, 7],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_token_boxes_cover_their_characters_and_escape():
    spec = token_rows(ROWS, TEXT, cuts=[3, 7])
    gpt2, toy = spec.data[:2]
    assert gpt2["base"] == [0, 3, 7, 9] and gpt2["x"] == [3, 4, 2, 2]
    assert toy["base"] == [0, 3, 4, 7] and len(toy["y"]) == 4  # [BOS] covers no character: not drawn
    assert " &lt;b&gt;" in toy["text"] and "toy &lt;i&gt;" in toy["y"]
    assert spec.layout["xaxis"]["ticktext"][3] == "␣"
    assert [s["x0"] for s in spec.layout["shapes"]] == [3, 7]
    with pytest.raises(ValueError):
        token_rows([("a", ["x"], [])], "x")


def test_maps_keep_the_numbers_and_name_the_partner():
    spec = unit_map(SIM, ["a", "b", "c"], list("wxyz"), title="", x_title="B", y_title="A", value_name="CKA",
                    note="baseline 0.2")  # fmt: skip
    np.testing.assert_array_equal(spec.data[0]["z"], SIM)
    assert spec.data[0]["zmin"] == 0.0 and spec.data[0]["zmax"] == 1.0
    assert "baseline 0.2" in spec.data[0]["customdata"][0][0]
    grid = partner_grid(SIM, [["L2H1", "", "x", "y"]] * 3, title="", value_name="s", partner_name="B", none_name="—")
    assert grid.data[0]["text"][0][0].startswith("L2H1<br>") and grid.data[0]["text"][0][1].startswith("—")
    assert "B L2H1" in grid.data[0]["customdata"][0][0]
    hybrid = partner_grid(
        SIM, [["a"] * 4] * 3, title="", value_name="s", partner_name="B", none_name="", layers=[3, 7, 11]
    )
    assert hybrid.data[0]["y"][1] == "layer 8" and hybrid.data[0]["customdata"][1][0].startswith("L8H1")
    with pytest.raises(ValueError):
        unit_map(SIM, ["a"], ["b"], title="", x_title="", y_title="", value_name="")


def test_layer_max_is_the_best_pair_of_each_two_layers():
    sim = np.arange(2 * 3 * 4 * 2, dtype=float).reshape(6, 8)  # A: 2 layers × 3 heads, B: 4 layers × 2 heads
    out = layer_max(sim, (2, 3), (4, 2))
    assert out.shape == (2, 4)
    assert out[0, 0] == sim[:3, :2].max() and out[1, 3] == sim[3:, 6:].max()
